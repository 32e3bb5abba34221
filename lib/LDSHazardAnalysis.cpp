//===- LDSHazardAnalysis.cpp - Cross-wave LDS hazard windows --------------===//
//
// The state at a program point is the set of accesses that some path brings
// there unordered (no barrier since them at which they were complete), each
// with its progress: signalled (complete at a split-barrier signal whose
// wait has not come yet), complete (its counter was waited), or pending with
// the number of later in-order operations on its counter, minimum over paths.
// Joins take the least advanced progress, so the analysis is a "may"
// analysis over a finite lattice and reaches a fixpoint.
//
//===----------------------------------------------------------------------===//

#include "LDSHazardAnalysis.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>
#include <iterator>
#include <map>
#include <numeric>
#include <tuple>

using namespace llvm;
using namespace llvm::ldsbarriers;

namespace {

/// Progress of an unordered access, as a level where larger is worse:
/// signalled, complete, then pending with decreasing counts of later
/// operations.
using Level = uint8_t;
constexpr Level Signalled = 1;
constexpr Level Complete = 2;
constexpr Level PendingSaturated = 3;
/// Counts saturate here; thresholds are at most 63 on every generation.
constexpr unsigned CountCap = 63;
constexpr Level PendingFresh = PendingSaturated + CountCap;

unsigned pendingCount(Level L) { return CountCap - (L - PendingSaturated); }

/// Sparse state: (access id, level), sorted by id.
using State = std::vector<std::pair<unsigned, Level>>;

/// Joins \p From into \p Into; returns whether Into changed.
bool join(State &Into, const State &From) {
  bool Changed = false;
  State Out;
  auto I = Into.begin(), IE = Into.end();
  auto F = From.begin(), FE = From.end();
  while (I != IE || F != FE) {
    if (F == FE || (I != IE && I->first < F->first)) {
      Out.push_back(*I++);
    } else if (I == IE || F->first < I->first) {
      Out.push_back(*F++);
      Changed = true;
    } else {
      if (F->second > I->second)
        Changed = true;
      Out.push_back({I->first, std::max(I->second, F->second)});
      ++I;
      ++F;
    }
  }
  if (Changed)
    Into = std::move(Out);
  return Changed;
}

/// Sorts \p S by id after entries were renamed: of entries that became one,
/// the least advanced progress stays.
void sortState(State &S) {
  llvm::sort(S, [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first < B.first : A.second > B.second;
  });
  S.erase(llvm::unique(S, [](const auto &A,
                             const auto &B) { return A.first == B.first; }),
          S.end());
}

/// Synchronization the placement proposes, at one point, in the order it
/// applies (SyncOrder, LDSHazardAnalysis.h). Waits completing existing barriers
/// are applied with the barrier's event instead (CompletedWaits).
struct NewSyncEvent {
  unsigned Index;
  SyncOrder Order;
  WaitThresholds Waits;
  unsigned Query = 0;
  bool operator<(const NewSyncEvent &O) const {
    return syncPrecedes(Index, Order, O.Index, O.Order);
  }
};

} // namespace

/// The analysis of one program and augmentation (HazardAnalysis).
class llvm::ldsbarriers::HazardAnalyzer {
public:
  HazardAnalyzer(const AbstractProgram &P, const AnalysisOptions &Opts,
                 const Augmentation &Aug)
      : P(P), Opts(Opts) {
    AccessIds.resize(P.Blocks.size());
    for (unsigned B = 0; B < P.Blocks.size(); ++B) {
      const auto &Events = P.Blocks[B].Events;
      AccessIds[B].assign(Events.size(), -1);
      for (unsigned I = 0; I < Events.size(); ++I)
        if (Events[I].Kind == Event::Access) {
          AccessIds[B][I] = Accesses.size();
          Accesses.push_back({B, I});
          IterOf.push_back(P.startIteration(Events[I].Loc));
          RangeOf.push_back(P.addressRange(Events[I].Loc));
        }
    }
    OrigOf.resize(Accesses.size());
    std::iota(OrigOf.begin(), OrigOf.end(), 0);
    // Accesses with one key conflict with every other access alike and
    // complete alike (numberAlikeAccesses).
    std::vector<const Event *> Events;
    Events.reserve(Accesses.size());
    for (unsigned Id = 0; Id < Accesses.size(); ++Id)
      Events.push_back(&accessEvent(Id));
    std::vector<unsigned> FirstOfKey = numberAlikeAccesses(Events, KeyOf);
    NextKey = FirstOfKey.size();
    markSilentKeys(FirstOfKey);
    if (Opts.Pruning.Points) {
      PointsBefore.resize(P.Blocks.size());
      for (unsigned B = 0; B < P.Blocks.size(); ++B) {
        const auto &Row = (*Opts.Pruning.Points)[B];
        auto &Sum = PointsBefore[B];
        Sum.assign(P.numPoints(B) + 1, 0);
        for (unsigned I = 0; I < P.numPoints(B); ++I)
          Sum[I + 1] = Sum[I] + (I < Row.size() && Row[I]);
      }
      IssuedAt.assign(Accesses.size(), -1);
      for (const auto &Preds : P.predecessors())
        NumPreds.push_back(Preds.size());
    }
    NewSync.resize(P.Blocks.size());
    for (const SyncItem &I :
         orderedSync(Aug.Barriers, Aug.CompletedBarriers, Aug.Waits)) {
      if (I.What == SyncOrder::CompletedWait)
        CompletedWaits[{I.At.Block, I.At.Index}] = I.Waits;
      else
        NewSync[I.At.Block].push_back({I.At.Index, I.What, I.Waits});
    }
    for (unsigned Q = 0; Q < Aug.Queries.size(); ++Q)
      NewSync[Aug.Queries[Q].Block].push_back(
          {Aug.Queries[Q].Index, SyncOrder::Query, {}, Q});
    Result.Queried.resize(Aug.Queries.size());
    for (auto &V : NewSync)
      llvm::sort(V);
  }

  /// Iterates to the fixpoint, then replays each block once, recording.
  void run() {
    RPO = P.reversePostOrder();
    In.assign(P.Blocks.size(), State());
    // Every reachable block is transferred at least once, even when its
    // in-state stays empty.
    std::vector<uint8_t> Dirty(P.Blocks.size(), 1);
    State S;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (unsigned B : RPO) {
        if (!Dirty[B])
          continue;
        Dirty[B] = 0;
        S.assign(In[B].begin(), In[B].end());
        transferBlock(B, S, /*Record=*/false);
        for (unsigned Succ : P.Blocks[B].Succs) {
          if (join(In[Succ], crossEdge(B, Succ, S))) {
            Dirty[Succ] = 1;
            Changed = true;
          }
        }
      }
    }
    // The states are final: replay each block once, recording.
    for (unsigned B : RPO) {
      S.assign(In[B].begin(), In[B].end());
      transferBlock(B, S, /*Record=*/true);
    }
    llvm::sort(Result.Windows, [](const Window &A, const Window &B) {
      return std::tie(A.Consumer, A.Producer) <
             std::tie(B.Consumer, B.Producer);
    });
  }

  const HazardResult &result() const { return Result; }
  HazardResult takeResult() { return std::move(Result); }

  /// The incomplete accesses at each of \p Queries: the fixpoint's states
  /// replayed through the blocks that hold a query, recording nothing else.
  std::vector<std::vector<PendingAccess>> pendingAt(ArrayRef<Point> Queries) {
    std::vector<std::vector<PendingAccess>> Out(Queries.size());
    std::vector<std::vector<NewSyncEvent>> Added(P.Blocks.size());
    for (unsigned Q = 0; Q < Queries.size(); ++Q)
      Added[Queries[Q].Block].push_back(
          {Queries[Q].Index, SyncOrder::Query, {}, Q});
    QueryOut = &Out;
    for (unsigned B : RPO) {
      if (Added[B].empty())
        continue;
      // This run's own queries are not asked again; the rest keep their
      // order, and the new queries come first at their points (as a query
      // of the run would).
      std::vector<NewSyncEvent> Saved = std::move(NewSync[B]), Others;
      for (const NewSyncEvent &E : Saved)
        if (E.Order != SyncOrder::Query)
          Others.push_back(E);
      llvm::sort(Added[B]);
      NewSync[B].clear();
      std::merge(Added[B].begin(), Added[B].end(), Others.begin(), Others.end(),
                 std::back_inserter(NewSync[B]));
      State S = In[B];
      transferBlock(B, S, /*Record=*/false);
      NewSync[B] = std::move(Saved);
    }
    QueryOut = nullptr;
    return Out;
  }

private:
  const Event &accessEvent(unsigned Id) const { return P.event(Accesses[Id]); }
  /// Whether entries \p A and \p B touch bytes apart (then they conflict
  /// in no wave: AbstractProgram::mayOverlap), tested before the kinds and
  /// the relation, which cost more.
  bool apart(unsigned A, unsigned B) const {
    return AbstractProgram::rangesApart(RangeOf[A], RangeOf[B]);
  }

  /// A monolithic barrier orders everything complete (or signalled).
  void applyBarrier(State &S) {
    llvm::erase_if(S, [](const auto &E) { return E.second <= Complete; });
  }

  void applySignal(State &S) {
    for (auto &[Id, L] : S)
      if (L == Complete)
        L = Signalled;
  }

  /// The wait of a split barrier orders what was complete at its signal.
  void applyBarrierWait(State &S) {
    llvm::erase_if(S, [](const auto &E) { return E.second == Signalled; });
  }

  void applySync(State &S, const NewSyncEvent &E, bool Record) {
    switch (E.Order) {
    case SyncOrder::Query:
      if (Record || QueryOut)
        for (const auto &[Id, L] : S)
          if (L > Complete)
            (QueryOut ? *QueryOut : Result.Queried)[E.Query].push_back(
                {Accesses[Id], pendingCount(L), IterOf[Id].code()});
      return;
    case SyncOrder::OwnWait:
      return applyWait(S, E.Waits);
    case SyncOrder::BarrierWait:
      return applyBarrierWait(S);
    case SyncOrder::Signal:
      applyWait(S, E.Waits);
      return applySignal(S);
    case SyncOrder::Barrier:
      applyWait(S, E.Waits);
      return applyBarrier(S);
    case SyncOrder::CompletedWait:
      break;
    }
    llvm_unreachable("completed waits are applied with the barrier's event");
  }

  /// An in-order operation on counter \p C, class \p Class, was issued:
  /// it cannot complete before the pending operations of its class.
  void countLater(State &S, Counter C, uint8_t Class) {
    for (auto &[Id, L] : S) {
      const Event &A = accessEvent(Id);
      if (L > PendingSaturated && A.Ctr == C && A.OrderClass == Class)
        --L;
    }
  }

  void applyWait(State &S, const WaitThresholds &W) {
    for (auto &[Id, L] : S) {
      if (L <= Complete)
        continue;
      const Event &A = accessEvent(Id);
      int T = W[A.Ctr];
      if (T == WaitThresholds::NoWait)
        continue;
      if (T == 0 || (A.InOrder && pendingCount(L) >= unsigned(T)))
        L = Complete;
    }
  }

  void applyAccess(State &S, unsigned Id, bool Record) {
    const Event &X = accessEvent(Id);
    EventRef XRef = Accesses[Id];
    if (Record) {
      // One wave's overlapping writes race too.
      AnalysisOptions SameWave = Opts;
      SameWave.WAW = SameWave.AsyncWAW = true;
      // With MinimalWindows: (key, window index) of this consumer's windows.
      SmallVector<std::pair<ProducerKey, unsigned>, 8> Kept;
      for (auto &[AId, L] : S) {
        // Bytes apart meet for no work-items, in no wave (mayOverlap).
        if (apart(AId, Id))
          continue;
        const Event &A = accessEvent(AId);
        HazardKind K;
        // Each (producer, consumer) pair is met once per anchor. The kinds
        // are tested first: only pairs whose kinds may conflict (here or for
        // the in-flight check) need the relation, which costs more.
        bool AsyncPending = A.Async && L > Complete;
        if (!AsyncPending && !conflictKind(A, X, Opts))
          continue;
        IterationRelation Rel = P.relation(IterOf[AId], X.Loc);
        if (accessesConflict(P, A, X, Opts, &K, Rel)) {
          Window W{Accesses[AId], XRef, K};
          W.Iteration = IterOf[AId].code();
          if (AId < AnchorOf.size())
            W.Anchor = AnchorOf[AId];
          if (!Opts.MinimalWindows) {
            Result.Windows.push_back(W);
          } else {
            ProducerKey Key = producerKey(P, W);
            auto It = llvm::find_if(
                Kept, [&](const auto &KW) { return KW.first == Key; });
            if (It == Kept.end()) {
              Kept.push_back({Key, unsigned(Result.Windows.size())});
              Result.Windows.push_back(W);
            } else if (Result.Windows[It->second].start().Index <
                       W.start().Index) {
              Result.Windows[It->second] = W;
            }
          }
        }
        // The wave's own asynchronous transfer may still be in flight. A
        // later transfer that writes in the same completion order lands after
        // it, so an overlapping write by that one is no hazard.
        bool OrderedWrites = X.Async && A.InOrder && X.InOrder &&
                             A.AK == AccessKind::Write &&
                             X.AK == AccessKind::Write && A.Ctr == X.Ctr &&
                             A.OrderClass == X.OrderClass;
        if (A.Async && L > Complete && !OrderedWrites &&
            accessesConflict(P, A, X, SameWave, &K, Rel)) {
          Result.InFlight.push_back({Accesses[AId], XRef, K});
          Result.InFlight.back().Iteration = IterOf[AId].code();
        }
      }
    }
    // X cannot complete before an earlier in-order access of its counter.
    if (X.InOrder)
      countLater(S, X.Ctr, X.OrderClass);
    if (Silent[KeyOf[Id]]) {
      if (Opts.Pruning.Points)
        prune(S, Id); // For its bookkeeping of the block's issued accesses.
      return;
    }
    auto It = llvm::lower_bound(
        S, Id, [](const auto &E, unsigned V) { return E.first < V; });
    if (It != S.end() && It->first == Id)
      It->second = PendingFresh;
    else
      S.insert(It, {Id, PendingFresh});
    if (Opts.Pruning.Points)
      prune(S, Id);
  }

  /// Marks the keys whose accesses conflict with no access of the function
  /// (accessesMeetingNoneIn): the state need not carry them. \p FirstOfKey:
  /// each key's first access, whose answer stands for the others.
  void markSilentKeys(ArrayRef<unsigned> FirstOfKey) {
    std::vector<uint8_t> None = accessesMeetingNoneIn(P, Opts);
    for (unsigned Id : FirstOfKey)
      Silent.push_back(None[Id]);
  }

  /// Whether a pruning point lies in (After, Upto] of block \p B.
  bool pruningPointBetween(unsigned B, unsigned After, unsigned Upto) const {
    return PointsBefore[B][Upto + 1] > PointsBefore[B][After + 1];
  }

  /// The two pruning rules of StatePruning::Points, after access
  /// \p Id was applied.
  void prune(State &S, unsigned Id) {
    EventRef XRef = Accesses[Id];
    const Event &X = P.event(XRef);
    IssuedAt[Id] = XRef.Index;
    Issued.push_back(Id);
    // The latest LDS-counter producer of this block pass that X meets: a
    // barrier is forced between it and X.
    int Forced = -1;
    // Or a producer from a predecessor block with no pruning point after
    // it there (the store under a divergent if, read after the join): the
    // path through that edge forces a barrier in this block before X,
    // after everything that entered the block.
    bool ForcedAtEntry = false;
    bool PointSinceEntry = pruningPointBetween(XRef.Block, -1, XRef.Index);
    for (const auto &[AId, L] : S) {
      if (AId == Id)
        continue;
      bool Outside = IssuedAt[AId] < 0;
      if (Outside ? ForcedAtEntry || Forced >= 0 || !PointSinceEntry ||
                        (AId < AnchorOf.size() && AnchorOf[AId].Block != ~0u)
                  : IssuedAt[AId] <= Forced)
        continue;
      const Event &A = accessEvent(AId);
      if (A.Ctr != Counter::LDS || L <= Complete)
        continue;
      if (apart(AId, Id))
        continue;
      if (Outside) {
        EventRef AR = Accesses[AId];
        if (!llvm::is_contained(P.Blocks[AR.Block].Succs, XRef.Block) ||
            pruningPointBetween(AR.Block, AR.Index,
                                P.Blocks[AR.Block].Events.size()) ||
            !conflictKind(A, X, Opts) ||
            !accessesConflict(P, A, X, Opts, nullptr,
                              P.relation(IterOf[AId], X.Loc)))
          continue;
        ForcedAtEntry = true;
        continue;
      }
      if (pruningPointBetween(XRef.Block, IssuedAt[AId], XRef.Index) &&
          conflictKind(A, X, Opts) &&
          accessesConflict(P, A, X, Opts, nullptr,
                           P.relation(IterOf[AId], X.Loc)))
        Forced = IssuedAt[AId];
    }
    bool Subsume = PointsBefore[XRef.Block][XRef.Index + 2] >
                   PointsBefore[XRef.Block][XRef.Index + 1];
    if (Forced < 0 && !ForcedAtEntry && !Subsume)
      return;
    llvm::erase_if(S, [&](const auto &E) {
      if (E.first == Id)
        return false;
      if (Subsume && KeyOf[E.first] == KeyOf[Id])
        return true;
      return (Forced >= 0 || ForcedAtEntry) &&
             accessEvent(E.first).Ctr == Counter::LDS &&
             IssuedAt[E.first] <= Forced;
    });
  }

  /// The entry anchored at join \p B for key \p Key, created on first use
  /// with \p Rep (a member) standing for its properties.
  unsigned anchoredEntry(unsigned B, unsigned Key, unsigned Rep) {
    auto [It, New] = AnchoredIds.try_emplace({B, Key}, Accesses.size());
    if (New) {
      Accesses.push_back(Accesses[Rep]);
      IterOf.push_back(IterOf[Rep]);
      RangeOf.push_back(RangeOf[Rep]);
      OrigOf.push_back(Accesses.size() - 1);
      KeyOf.push_back(Key);
      IssuedAt.push_back(-1);
      AnchorOf.resize(Accesses.size(), Point{~0u, 0});
      AnchorOf.back() = {B, 0};
    }
    return It->second;
  }

  /// The entry that stands for \p Id once the edge into block \p B has
  /// moved it to iteration state \p IS: it conflicts as that state says,
  /// and only on paths through the entry of B, where it is anchored when
  /// that is a pruning point (otherwise its window keeps every path from the
  /// producer).
  unsigned iterationEntry(unsigned Id, unsigned B, IterationState IS) {
    auto [It, New] =
        IterationIds.try_emplace({OrigOf[Id], B, IS.code()}, Accesses.size());
    if (New) {
      Accesses.push_back(Accesses[Id]);
      IterOf.push_back(IS);
      RangeOf.push_back(RangeOf[Id]);
      OrigOf.push_back(OrigOf[Id]);
      AnchorOf.resize(Accesses.size(), Point{~0u, 0});
      if (Opts.Pruning.Points) {
        KeyOf.push_back(NextKey++);
        IssuedAt.push_back(-1);
        if (PointsBefore[B][1])
          AnchorOf.back() = {B, 0};
      }
    }
    return It->second;
  }

  /// \p S carried along the edge \p From -> \p To: entries whose
  /// iteration state changes there become their entries for the new state.
  State crossEdge(unsigned From, unsigned To, State S) {
    if (!P.hasStageLoops())
      return S;
    bool Any = false;
    for (auto &[Id, L] : S) {
      IterationState IS = P.crossEdge(IterOf[Id], From, To);
      if (!(IS == IterOf[Id])) {
        Id = iterationEntry(Id, To, IS);
        Any = true;
      }
    }
    if (Any)
      sortState(S);
    return S;
  }

  /// StatePruning::MergeAbove: merges, at the entry of join \p B, the
  /// entries of each key that has more than the limit.
  void mergeAtJoin(unsigned B, State &S) {
    unsigned MergeAbove = Opts.Pruning.MergeAbove;
    if (!Opts.Pruning.Points || !MergeAbove || NumPreds[B] < 2 ||
        S.size() <= MergeAbove || !PointsBefore[B][1])
      return;
    DenseMap<unsigned, unsigned> Count;
    for (const auto &E : S)
      ++Count[KeyOf[E.first]];
    bool Any = false;
    for (auto &[Id, L] : S) {
      unsigned Key = KeyOf[Id];
      if (Count[Key] > MergeAbove) {
        Id = anchoredEntry(B, Key, Id);
        Any = true;
      }
    }
    if (Any)
      sortState(S);
  }

  void transferBlock(unsigned B, State &S, bool Record) {
    for (unsigned Id : Issued)
      IssuedAt[Id] = -1;
    Issued.clear();
    mergeAtJoin(B, S);
    const auto &Events = P.Blocks[B].Events;
    const auto &Extra = NewSync[B];
    auto NextExtra = Extra.begin();
    for (unsigned I = 0; I <= Events.size(); ++I) {
      for (; NextExtra != Extra.end() && NextExtra->Index == I; ++NextExtra)
        applySync(S, *NextExtra, Record);
      if (I == Events.size())
        break;
      const Event &E = Events[I];
      switch (E.Kind) {
      case Event::Access:
        applyAccess(S, AccessIds[B][I], Record);
        break;
      case Event::Wait:
        applyWait(S, E.Waits);
        break;
      case Event::Barrier:
      case Event::Signal: {
        auto CW = CompletedWaits.find({B, I});
        if (CW != CompletedWaits.end())
          applyWait(S, CW->second);
        if (Record) {
          PendingAtBarrier PB{{B, I}, {}};
          for (const auto &[Id, L] : S)
            if (L > Complete)
              PB.Pending.push_back(Accesses[Id]);
          if (!PB.Pending.empty())
            Result.PendingBarriers.push_back(std::move(PB));
        }
        if (E.Kind == Event::Barrier)
          applyBarrier(S);
        else
          applySignal(S);
        break;
      }
      case Event::BarrierWait:
        applyBarrierWait(S);
        break;
      case Event::Tick:
        countLater(S, E.Ctr, E.OrderClass);
        break;
      }
    }
  }

  const AbstractProgram &P;
  const AnalysisOptions &Opts;
  std::vector<EventRef> Accesses;
  std::vector<std::vector<int>> AccessIds;
  /// Per entry id: the stage loop of its access (0: none) and whether its
  /// iteration of that loop has ended on the paths it stands for; the
  /// crossed entries by (entry, block where the iteration ended).
  std::vector<IterationState> IterOf;
  std::vector<unsigned> OrigOf;
  /// Per entry id: its access's address range (AbstractProgram::addressRange).
  std::vector<std::optional<std::pair<int64_t, int64_t>>> RangeOf;
  std::map<std::tuple<unsigned, unsigned, unsigned>, unsigned> IterationIds;
  unsigned NextKey = 0;
  /// With StatePruning::Points: per access, its key class; per block, the
  /// number of pruning points before each point; per access, its index if
  /// issued in the current block pass (else -1), and those accesses.
  std::vector<unsigned> KeyOf;
  /// Per key of the accesses (ids below NextKey's start): markSilentKeys.
  std::vector<uint8_t> Silent;
  std::vector<std::vector<unsigned>> PointsBefore;
  std::vector<int> IssuedAt;
  std::vector<unsigned> Issued;
  /// Per block, its number of predecessor edges; per entry anchored at a
  /// join (ids after the accesses'), the anchor, and the ids by (join, key).
  std::vector<unsigned> NumPreds;
  std::vector<Point> AnchorOf;
  std::map<std::pair<unsigned, unsigned>, unsigned> AnchoredIds;
  std::vector<std::vector<NewSyncEvent>> NewSync;
  DenseMap<std::pair<unsigned, unsigned>, WaitThresholds> CompletedWaits;
  HazardResult Result;
  /// The fixpoint: each block's in-state; the blocks in reverse post-order.
  std::vector<State> In;
  std::vector<unsigned> RPO;
  /// Where pendingAt collects its answers while it replays.
  std::vector<std::vector<PendingAccess>> *QueryOut = nullptr;
};

ProducerKey llvm::ldsbarriers::producerKey(const AbstractProgram &P,
                                           const Window &W) {
  const Event &A = P.event(W.Producer);
  Point St = W.start();
  return {St.Block,
          St.Block == W.Consumer.Block && St.Index <= W.Consumer.Index,
          unsigned(A.Ctr),
          A.OrderClass,
          A.InOrder,
          W.Iteration};
}

HazardResult llvm::ldsbarriers::analyzeHazards(const AbstractProgram &P,
                                               const AnalysisOptions &Opts,
                                               const Augmentation &Aug) {
  HazardAnalyzer A(P, Opts, Aug);
  A.run();
  return A.takeResult();
}

HazardAnalysis::HazardAnalysis(const AbstractProgram &P,
                               const AnalysisOptions &Opts,
                               const Augmentation &Aug)
    : Impl(std::make_unique<HazardAnalyzer>(P, Opts, Aug)) {
  Impl->run();
}

HazardAnalysis::~HazardAnalysis() = default;

const HazardResult &HazardAnalysis::result() const { return Impl->result(); }

std::vector<std::vector<PendingAccess>>
HazardAnalysis::pendingAt(ArrayRef<Point> Queries) const {
  return Impl->pendingAt(Queries);
}

std::vector<SyncItem> llvm::ldsbarriers::orderedSync(
    ArrayRef<Augmentation::NewBarrier> Barriers,
    ArrayRef<Augmentation::CompletedBarrier> Completed,
    ArrayRef<Augmentation::NewWait> Waits) {
  std::vector<SyncItem> Items;
  for (unsigned I = 0; I < Waits.size(); ++I)
    Items.push_back({Waits[I].At, SyncOrder::OwnWait, I, Waits[I].Waits});
  for (unsigned I = 0; I < Completed.size(); ++I)
    Items.push_back({Completed[I].Barrier, SyncOrder::CompletedWait, I,
                     Completed[I].Waits});
  size_t FirstBarrier = Items.size();
  for (unsigned I = 0; I < Barriers.size(); ++I) {
    const Augmentation::NewBarrier &NB = Barriers[I];
    if (NB.isSplit()) {
      Items.push_back({NB.At, SyncOrder::BarrierWait, I, {}});
      Items.push_back({NB.SignalAt, SyncOrder::Signal, I, NB.Waits});
    } else {
      Items.push_back({NB.At, SyncOrder::Barrier, I, NB.Waits});
    }
  }
  std::sort(Items.begin() + FirstBarrier, Items.end(),
            [](const SyncItem &A, const SyncItem &B) {
              return std::tie(A.At, A.What, A.Index) <
                     std::tie(B.At, B.What, B.Index);
            });
  return Items;
}
