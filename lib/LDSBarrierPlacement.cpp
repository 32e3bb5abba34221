//===- LDSBarrierPlacement.cpp - Choose where barriers go -----------------===//
//
// Candidate and cutting points, the windows that matter, and their cover by
// a minimum hitting set (LDSHittingSet.h) or, on large instances, ranges.
//
//===----------------------------------------------------------------------===//

#include "LDSBarrierPlacement.h"
#include "LDSHittingSet.h"
#include "LDSSplitBarriers.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace llvm::ldsbarriers;

std::vector<Point>
llvm::ldsbarriers::candidatePoints(const AbstractProgram &P) {
  std::vector<Point> C;
  std::vector<unsigned> RPO = P.reversePostOrder();
  std::vector<uint8_t> Reachable(P.Blocks.size(), 0);
  for (unsigned B : RPO)
    Reachable[B] = 1;
  // A new barrier must not land between an existing signal and its wait.
  bool HasSignals = false;
  for (const Block &BB : P.Blocks)
    for (const Event &E : BB.Events)
      HasSignals |= E.Kind == Event::Signal;
  SignalState Signals;
  if (HasSignals)
    Signals = computeSignalState(P);
  auto Allowed = [&](unsigned B, unsigned I) {
    return !HasSignals || !Signals.consistent() || !Signals.Pending[B][I];
  };
  for (unsigned B = 0; B < P.Blocks.size(); ++B) {
    if (!Reachable[B] || P.Blocks[B].NoBarrier)
      continue;
    const auto &Events = P.Blocks[B].Events;
    // Before accesses, and before an existing signal: a consumer between
    // that signal and its wait is separated from its producer only there.
    for (unsigned I = 0; I < Events.size(); ++I)
      if ((Events[I].Kind == Event::Access ||
           Events[I].Kind == Event::Signal) &&
          Allowed(B, I))
        C.push_back({B, I});
    if (P.Blocks[B].HasEndPoint && Allowed(B, Events.size()))
      C.push_back({B, unsigned(Events.size())});
  }
  return C;
}

PathCuts::PathCuts(const AbstractProgram &P, bool Approximate)
    : P(P), Approximate(Approximate) {
  if (!Approximate)
    return;
  unsigned N = P.Blocks.size();
  Graph G(N);
  for (unsigned B = 0; B < N; ++B)
    G[B] = P.Blocks[B].Succs;
  IDom = computeImmediateDominators(G, P.Entry);
  // DFS numbers of the dominator tree: X dominates Y iff Y's interval lies
  // in X's.
  std::vector<std::vector<unsigned>> Children(N);
  for (unsigned B = 0; B < N; ++B)
    if (IDom[B] >= 0 && unsigned(IDom[B]) != B)
      Children[IDom[B]].push_back(B);
  Pre.assign(N, 0);
  Post.assign(N, 0);
  unsigned Clock = 0;
  std::vector<std::pair<unsigned, unsigned>> Stack = {{P.Entry, 0}};
  Pre[P.Entry] = ++Clock;
  while (!Stack.empty()) {
    auto &[X, Next] = Stack.back();
    if (Next < Children[X].size()) {
      unsigned C = Children[X][Next++];
      Pre[C] = ++Clock;
      Stack.push_back({C, 0});
    } else {
      Post[X] = ++Clock;
      Stack.pop_back();
    }
  }
  Rank.assign(N, ~0u);
  std::vector<unsigned> RPO = P.reversePostOrder();
  for (unsigned K = 0; K < RPO.size(); ++K)
    Rank[RPO[K]] = K;
}

PathCuts::~PathCuts() = default;

const std::vector<int> &PathCuts::exactDominators(unsigned From) {
  auto It = ByBlock.find(From);
  if (It != ByBlock.end())
    return It->second;
  unsigned N = P.Blocks.size();
  Graph G(N + 1);
  for (unsigned B = 0; B < N; ++B)
    G[B] = P.Blocks[B].Succs;
  G[N] = P.Blocks[From].Succs;
  return ByBlock.emplace(From, computeImmediateDominators(G, N)).first->second;
}

bool PathCuts::approximates(unsigned From, unsigned To) const {
  return Approximate && Rank[From] < Rank[To] && Rank[To] != ~0u;
}

void PathCuts::forEachBlock(unsigned From, unsigned To, bool Exact,
                            function_ref<void(unsigned)> F) {
  if (!Exact && approximates(From, To)) {
    auto Dominates = [&](unsigned X, unsigned Y) {
      return Pre[X] <= Pre[Y] && Post[Y] <= Post[X];
    };
    for (int D = IDom[To]; D >= 0 && !Dominates(D, From); D = IDom[D]) {
      F(D);
      if (unsigned(D) == P.Entry)
        break;
    }
    return;
  }
  const std::vector<int> &ID = exactDominators(From);
  unsigned Root = P.Blocks.size();
  if (ID[To] < 0)
    return;
  // A block that dominates the consumer's block from the producer's exit is
  // executed in full on every path (the producer's block too: the path
  // re-enters it from the top).
  for (int D = ID[To]; D != int(Root); D = ID[D])
    F(D);
}

/// The ranges of points (block, first index, last index) that lie on every
/// path of \p W.
static std::vector<std::tuple<unsigned, unsigned, unsigned>>
cuttingRanges(const AbstractProgram &P, const Window &W, PathCuts &Cuts,
              bool Exact) {
  std::vector<std::tuple<unsigned, unsigned, unsigned>> Out;
  Out.reserve(8);
  auto AddRange = [&](unsigned B, unsigned Lo, unsigned Hi) {
    Out.push_back({B, Lo, Hi});
  };
  // The paths start right after the producer, or at the window's anchor.
  Point Start = W.start();
  unsigned BA = Start.Block, IA = Start.Index;
  unsigned BB = W.Consumer.Block, IB = W.Consumer.Index;
  unsigned EndA = P.Blocks[BA].Events.size();
  if (BA == BB && IA <= IB) {
    // Every path leaves through the events between the two.
    AddRange(BA, IA, IB);
  } else {
    AddRange(BA, IA, EndA);
    AddRange(BB, 0, IB);
    Cuts.forEachBlock(BA, BB, Exact, [&](unsigned D) {
      AddRange(D, 0, P.Blocks[D].Events.size());
    });
  }
  return Out;
}

std::vector<unsigned>
llvm::ldsbarriers::cuttingCandidates(const AbstractProgram &P, const Window &W,
                                     const std::vector<Point> &Candidates,
                                     PathCuts &Cuts, bool Exact) {
  // Candidates are sorted by block and index: ranges sorted the same way
  // and merged where they overlap (a producer's block may come back whole
  // on an exact path) give the points sorted and distinct, without sorting
  // the points themselves (a window may cross thousands of them).
  auto Ranges = cuttingRanges(P, W, Cuts, Exact);
  llvm::sort(Ranges);
  std::vector<unsigned> Out;
  unsigned Next = 0; // The first candidate number not yet emitted.
  for (auto [B, Lo, Hi] : Ranges) {
    auto It = Candidates.begin() + Next;
    if (It == Candidates.end())
      break;
    if (*It < Point{B, Lo})
      It = std::lower_bound(It, Candidates.end(), Point{B, Lo});
    for (; It != Candidates.end() && It->Block == B && It->Index <= Hi; ++It)
      Out.push_back(It - Candidates.begin());
    Next = It - Candidates.begin();
  }
  // An approximation without a legal point must not make the window look
  // uncoverable.
  if (Out.empty() && !Exact &&
      Cuts.approximates(W.start().Block, W.Consumer.Block))
    return cuttingCandidates(P, W, Candidates, Cuts, /*Exact=*/true);
  return Out;
}

bool llvm::ldsbarriers::pointCutsWindow(const AbstractProgram &P, Point At,
                                        const Window &W, PathCuts &Cuts) {
  for (auto [B, Lo, Hi] : cuttingRanges(P, W, Cuts, /*Exact=*/false))
    if (At.Block == B && Lo <= At.Index && At.Index <= Hi)
      return true;
  return false;
}

namespace {

/// A window's producer as the analysis tracks it: the instruction and its
/// iteration state (only some earlier iterations' instances may conflict).
using ProducerRef = std::pair<EventRef, unsigned>;
ProducerRef producerOf(const Window &W) { return {W.Producer, W.Iteration}; }

/// The waits that complete \p Producers at a point whose incomplete accesses
/// are \p Pending: zero for the LDS and export counters, and for the
/// asynchronous counters the largest value that still guarantees each
/// producer (its count of later in-order operations, minimum over paths).
WaitThresholds exactWaits(const AbstractProgram &P,
                          const std::vector<ProducerRef> &Producers,
                          const std::vector<PendingAccess> &Pending,
                          const PlacementOptions &Opts) {
  WaitThresholds W;
  for (const PendingAccess &PA : Pending) {
    if (!std::binary_search(Producers.begin(), Producers.end(),
                            ProducerRef{PA.Access, PA.Iteration}))
      continue;
    const Event &A = P.event(PA.Access);
    WaitThresholds One;
    if (A.Ctr == Counter::LDS || A.Ctr == Counter::Exp || !A.InOrder)
      One[A.Ctr] = 0;
    else
      One[A.Ctr] = std::min(PA.Later, Opts.CounterMax[unsigned(A.Ctr)]);
    W |= One;
  }
  return W;
}

std::vector<ProducerRef> sortedProducers(const std::vector<Window> &Ws,
                                         const std::vector<unsigned> *Idx) {
  std::vector<ProducerRef> Out;
  if (Idx)
    for (unsigned I : *Idx)
      Out.push_back(producerOf(Ws[I]));
  else
    for (const Window &W : Ws)
      Out.push_back(producerOf(W));
  std::sort(Out.begin(), Out.end());
  return Out;
}

} // namespace

/// Adds, before each access that meets an asynchronous transfer of its own
/// wave still in flight on some path, the exact counter wait for it.
static void addInFlightWaits(const AbstractProgram &P,
                             const AnalysisOptions &AOpts,
                             const PlacementOptions &POpts, Placement &R) {
  // Only asynchronous transfers are ever in flight for their own wave.
  if (llvm::none_of(P.Blocks, [](const Block &BB) {
        return llvm::any_of(BB.Events, [](const Event &E) {
          return E.Kind == Event::Access && E.Async;
        });
      }))
    return;
  Augmentation Aug = R.augmentation();
  std::vector<Window> InFlight = analyzeHazards(P, AOpts, Aug).InFlight;
  if (InFlight.empty())
    return;
  std::map<Point, std::vector<ProducerRef>> ByConsumer;
  for (const Window &W : InFlight)
    ByConsumer[W.Consumer].push_back(producerOf(W));
  for (const auto &[At, Prods] : ByConsumer)
    Aug.Queries.push_back(At);
  HazardResult QR = analyzeHazards(P, AOpts, Aug);
  unsigned Q = 0;
  for (auto &[At, Prods] : ByConsumer) {
    std::sort(Prods.begin(), Prods.end());
    WaitThresholds W = exactWaits(P, Prods, QR.Queried[Q++], POpts);
    if (W.any())
      R.Waits.push_back({At, W});
  }
}

std::vector<EventRef>
llvm::ldsbarriers::redundantBarriers(const AbstractProgram &P,
                                     const AnalysisOptions &Opts,
                                     const Placement &R, unsigned Limit) {
  std::vector<EventRef> Out;
  Augmentation Aug = R.augmentation();
  size_t Baseline = analyzeHazards(P, Opts, Aug).Windows.size();
  unsigned Checked = 0;
  for (unsigned B = 0; B < P.Blocks.size(); ++B)
    for (unsigned I = 0; I < P.Blocks[B].Events.size(); ++I) {
      Event::EventKind K = P.Blocks[B].Events[I].Kind;
      // A split barrier is judged by its signal; its wait goes with it.
      if (K != Event::Barrier && K != Event::Signal)
        continue;
      if (++Checked > Limit)
        return Out;
      AbstractProgram Without = P;
      Without.Blocks[B].Events[I] = Event::wait(WaitThresholds());
      if (K == Event::Signal) {
        // Neutralize the wait that pairs with it: the next one in the block,
        // if any (a pair that spans blocks is kept).
        auto &Events = Without.Blocks[B].Events;
        auto It = std::find_if(
            Events.begin() + I + 1, Events.end(),
            [](const Event &E) { return E.Kind == Event::BarrierWait; });
        if (It == Events.end())
          continue;
        *It = Event::wait(WaitThresholds());
      }
      Augmentation Kept = R.augmentation();
      llvm::erase_if(Kept.CompletedBarriers, [&](const auto &CB) {
        return CB.Barrier == EventRef{B, I};
      });
      if (analyzeHazards(Without, Opts, Kept).Windows.size() <= Baseline)
        Out.push_back({B, I});
    }
  return Out;
}

/// How many times as many barrier executions keeping an asynchronous
/// transfer in flight past its own block may cost: a barrier in the
/// transfer's block waits for it right after the issue, with nothing to
/// overlap; one in a block that runs a lot more often costs more than it
/// saves (a DMA before a loop is waited for before the loop, not in it).
static constexpr double AsyncLatencyWorth = 2.0;

/// Instances whose cutting sets hold more points than this in total are
/// placed from ranges of candidate numbers, without listing the points.
static constexpr uint64_t LargeCutPoints = 1u << 18;
/// ... when their windows' cutting sets are this long on average.
static constexpr uint64_t LongCutSet = 256;

/// Large instances (loop nests of thousands of accesses, where windows cross
/// whole loops): each kept window's cutting set stays a few ranges of
/// candidate numbers (one per block on all its paths; candidates are
/// numbered block by block), and the windows, by their last point, each
/// take, unless a chosen point already cuts them, the latest point of their
/// least frequently executed block. Near-linear in the windows and ranges;
/// not proven optimal. Returns false, doing nothing, on smaller instances.
static bool placeLarge(const AbstractProgram &P, const std::vector<Window> &Ws,
                       std::vector<uint8_t> &Keep,
                       const std::vector<Point> &Cands, PathCuts &PC,
                       std::vector<unsigned> &Chosen,
                       std::vector<std::vector<unsigned>> &ServedBy,
                       bool AsyncLatency, bool &Restricted, Placement &Result) {
  using Range = std::pair<unsigned, unsigned>; // [first, last) numbers.
  // Candidates are numbered block by block: block B's are [First[B],
  // First[B + 1]), in event order.
  std::vector<unsigned> First(P.Blocks.size() + 1, 0);
  for (const Point &C : Cands)
    ++First[C.Block + 1];
  for (unsigned B = 0; B < P.Blocks.size(); ++B)
    First[B + 1] += First[B];
  auto IndexAt = [&](unsigned B, unsigned Index) {
    return unsigned(std::lower_bound(Cands.begin() + First[B],
                                     Cands.begin() + First[B + 1], Index,
                                     [](const Point &C, unsigned I) {
                                       return C.Index < I;
                                     }) -
                    Cands.begin());
  };
  std::vector<SmallVector<Range, 4>> Ranges(Ws.size());
  uint64_t Total = 0;
  auto Compute = [&](unsigned I) {
    SmallVector<Range, 4> R;
    for (bool Exact : {false, true}) {
      for (auto [B, Lo, Hi] : cuttingRanges(P, Ws[I], PC, Exact)) {
        unsigned F = IndexAt(B, Lo), L = IndexAt(B, Hi + 1);
        if (F < L)
          R.push_back({F, L});
      }
      // An approximation without a legal point must not make the window
      // look uncoverable.
      if (!R.empty() ||
          !PC.approximates(Ws[I].start().Block, Ws[I].Consumer.Block))
        break;
    }
    std::sort(R.begin(), R.end());
    SmallVector<Range, 4> Merged;
    for (Range X : R)
      if (!Merged.empty() && X.first <= Merged.back().second)
        Merged.back().second = std::max(Merged.back().second, X.second);
      else
        Merged.push_back(X);
    // As in the exact path: an asynchronous producer's own block only when
    // nothing else cuts the window.
    const Point &From = Ws[I].Producer;
    if (AsyncLatency && P.event(From).Async &&
        From.Block != Ws[I].Consumer.Block) {
      SmallVector<Range, 4> Later;
      double LaterFreq = 0;
      for (Range X : Merged)
        if (Cands[X.first].Block != From.Block) {
          double F = P.Blocks[Cands[X.first].Block].Freq;
          LaterFreq = Later.empty() ? F : std::min(LaterFreq, F);
          Later.push_back(X);
        }
      if (!Later.empty() && Later.size() < Merged.size() &&
          LaterFreq <= AsyncLatencyWorth * P.Blocks[From.Block].Freq) {
        Merged = std::move(Later);
        Restricted = true;
      }
    }
    for (Range X : Merged)
      Total += X.second - X.first;
    Ranges[I] = std::move(Merged);
  };
  uint64_t Kept = 0;
  for (unsigned I = 0; I < Ws.size(); ++I)
    if (Keep[I]) {
      Compute(I);
      ++Kept;
    }
  // Many windows with short cutting sets (wide CFGs) split into small
  // components the exact search handles; long sets are what it cannot.
  if (Total <= LargeCutPoints || Total <= LongCutSet * Kept)
    return false;
  // A kept window without any legal point does not cover its siblings.
  std::set<std::pair<Point, unsigned>> Stuck;
  for (unsigned I = 0; I < Ws.size(); ++I)
    if (Keep[I] && Ranges[I].empty())
      Stuck.insert({Ws[I].Consumer, Ws[I].start().Block});
  if (!Stuck.empty())
    for (unsigned I = 0; I < Ws.size(); ++I)
      if (!Keep[I] && Stuck.count({Ws[I].Consumer, Ws[I].start().Block})) {
        Keep[I] = 1;
        Compute(I);
      }

  std::vector<unsigned> Order;
  for (unsigned I = 0; I < Ws.size(); ++I) {
    if (!Keep[I])
      continue;
    if (Ranges[I].empty())
      Result.Uncoverable.push_back(Ws[I]);
    else
      Order.push_back(I);
  }
  std::sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    return std::make_pair(Ranges[A].back().second, A) <
           std::make_pair(Ranges[B].back().second, B);
  });
  // Each window is served by one barrier only: the one that cut it when
  // its turn came (listing every barrier on its paths would be quadratic
  // again, and one barrier completing its producer suffices).
  std::set<unsigned> ChosenSet;
  std::vector<unsigned> CutBy(Ws.size(), ~0u);
  auto FirstCut = [&](unsigned I) {
    for (Range X : Ranges[I]) {
      auto It = ChosenSet.lower_bound(X.first);
      if (It != ChosenSet.end() && *It < X.second)
        return *It;
    }
    return ~0u;
  };
  for (unsigned I : Order) {
    CutBy[I] = FirstCut(I);
    if (CutBy[I] != ~0u)
      continue;
    double Best = 0;
    unsigned Pt = ~0u;
    for (Range X : Ranges[I]) {
      double F = P.Blocks[Cands[X.first].Block].Freq;
      int Cmp = Pt == ~0u ? -1 : compareCosts(F, Best);
      if (Cmp < 0 || (Cmp == 0 && X.second - 1 > Pt)) {
        Best = F;
        Pt = X.second - 1;
      }
    }
    ChosenSet.insert(Pt);
    CutBy[I] = Pt;
  }
  Chosen.assign(ChosenSet.begin(), ChosenSet.end());
  ServedBy.assign(Chosen.size(), {});
  for (unsigned I : Order)
    ServedBy[std::lower_bound(Chosen.begin(), Chosen.end(), CutBy[I]) -
             Chosen.begin()]
        .push_back(I);
  Result.ProvenOptimal = false;
  return true;
}

StringRef llvm::ldsbarriers::getPlacementStrategyName(PlacementStrategy S) {
  switch (S) {
  case PlacementStrategy::Optimal:
    return "optimal";
  case PlacementStrategy::Naive:
    return "naive";
  case PlacementStrategy::Latest:
    return "latest";
  case PlacementStrategy::Intervals:
    return "intervals";
  }
  return "?";
}

/// PlacementStrategy::Intervals: each window as an interval of positions in
/// block layout order, stabbed greedily at right ends (the point right
/// before a consumer). A window whose producer comes after its consumer in
/// the layout is loop-carried: its interval starts at the nearest block at
/// or before the consumer's that a later block branches back to.
static void stabIntervals(const AbstractProgram &P,
                          const std::vector<Window> &Ws,
                          std::vector<Point> &Points,
                          std::vector<std::vector<unsigned>> &ServedBy) {
  std::vector<unsigned> Start(P.Blocks.size() + 1, 0);
  for (unsigned B = 0; B < P.Blocks.size(); ++B)
    Start[B + 1] = Start[B] + P.numPoints(B);
  std::vector<uint8_t> LoopTop(P.Blocks.size(), 0);
  for (unsigned B = 0; B < P.Blocks.size(); ++B)
    for (unsigned S : P.Blocks[B].Succs)
      if (S <= B)
        LoopTop[S] = 1;
  auto Pos = [&](Point X) { return Start[X.Block] + X.Index; };
  struct Interval {
    unsigned Lo, Hi, Window;
  };
  std::vector<Interval> Intervals;
  for (unsigned I = 0; I < Ws.size(); ++I) {
    unsigned Hi = Pos(Ws[I].Consumer);
    unsigned Lo = Pos({Ws[I].Producer.Block, Ws[I].Producer.Index + 1});
    if (Lo > Hi) {
      unsigned Top = Ws[I].Consumer.Block;
      while (Top > 0 && !LoopTop[Top])
        --Top;
      Lo = Start[Top];
    }
    Intervals.push_back({Lo, Hi, I});
  }
  std::sort(Intervals.begin(), Intervals.end(),
            [](const Interval &A, const Interval &B) { return A.Hi < B.Hi; });
  for (const Interval &In : Intervals) {
    if (Points.empty() || Pos(Points.back()) < In.Lo) {
      Point At = Ws[In.Window].Consumer;
      Points.push_back(At);
      ServedBy.emplace_back();
    }
    ServedBy.back().push_back(In.Window);
  }
}

/// Placement step 2b: windows of plain LDS producers (complete at a zero
/// LDS wait, which any barrier's wait for another LDS producer is) whose
/// cutting points contain a kept window's, within one consumer block:
/// - a window that enters the consumer's block from outside lies on every
///   point of the block up to its consumer; a direct window (producer and
///   consumer in that block) with a legal point no later has a subset;
/// - of two windows from one start block (not anchored) into one consumer
///   block, the later consumer's whose start is not after the other's has
///   every cutting point of the other (a longer tail of the start block,
///   the same blocks between, a longer head of the consumer's).
/// Any cover of the kept window then covers the dropped one. Where an
/// access-free path crosses many blocks (chains of uniform diamonds) this
/// removes the windows whose cutting sets are the longest. Windows of
/// other iterations than their producer's own keep their own wait and are
/// left alone; the final check (step 5) re-verifies everything.
static void
dropNestedWindows(const AbstractProgram &P, const std::vector<Window> &Ws,
                  const std::vector<std::vector<uint8_t>> &IsCandidate,
                  std::vector<uint8_t> &Keep) {
  auto Plain = [&](const Window &W) {
    const Event &A = P.event(W.Producer);
    return !W.Iteration && A.Ctr == Counter::LDS && A.InOrder && !A.Async &&
           A.OrderClass == 0;
  };
  auto Direct = [](const Window &W) {
    Point St = W.start();
    return St.Block == W.Consumer.Block && St.Index <= W.Consumer.Index;
  };
  // Per block, the first consumer of a direct window with a legal point.
  std::vector<unsigned> FirstCovered(P.Blocks.size(), ~0u);
  for (unsigned I = 0; I < Ws.size(); ++I) {
    const Window &W = Ws[I];
    unsigned B = W.Consumer.Block;
    if (!Keep[I] || W.isAnchored() || !Direct(W) || !Plain(W) ||
        W.Consumer.Index >= FirstCovered[B])
      continue;
    for (unsigned K = W.Producer.Index + 1; K <= W.Consumer.Index; ++K)
      if (IsCandidate[B][K]) {
        FirstCovered[B] = W.Consumer.Index;
        break;
      }
  }
  // Windows come sorted by consumer: per consumer block, the latest start
  // index of each start block among the windows kept so far.
  DenseMap<unsigned, unsigned> LatestStart;
  unsigned Block = ~0u;
  for (unsigned I = 0; I < Ws.size(); ++I) {
    const Window &W = Ws[I];
    if (W.Consumer.Block != Block) {
      Block = W.Consumer.Block;
      LatestStart.clear();
    }
    if (!Keep[I] || Direct(W) || !Plain(W))
      continue;
    if (W.Consumer.Index >= FirstCovered[Block]) {
      Keep[I] = 0;
      continue;
    }
    if (W.isAnchored())
      continue;
    Point St = W.start();
    auto [It, New] = LatestStart.try_emplace(St.Block, St.Index);
    if (!New && It->second >= St.Index)
      Keep[I] = 0;
    else
      It->second = std::max(It->second, St.Index);
  }
}

Placement llvm::ldsbarriers::placeBarriers(const AbstractProgram &P,
                                           const AnalysisOptions &Options,
                                           const PlacementOptions &POpts) {
  Placement Result;
  // The alternative strategies work on every window, like the systems they
  // stand for.
  bool Alternative = POpts.Strategy != PlacementStrategy::Optimal;
  std::vector<Point> Cands = candidatePoints(P);
  std::vector<std::vector<uint8_t>> IsCandidate(P.Blocks.size());
  for (unsigned B = 0; B < P.Blocks.size(); ++B)
    IsCandidate[B].assign(P.numPoints(B), 0);
  for (const Point &C : Cands)
    IsCandidate[C.Block][C.Index] = 1;
  AnalysisOptions AOpts = Options;
  if (!Alternative)
    AOpts.Candidates = &IsCandidate;
  HazardResult Initial = analyzeHazards(P, AOpts);
  Result.InitialWindows = Initial.Windows;
  if (POpts.SingleWave || Initial.Windows.empty()) {
    Result.InitialWindows.clear();
    addInFlightWaits(P, AOpts, POpts, Result);
    return Result;
  }

  // 1. An existing barrier gets the wait it lacks for the pending producers
  // of the windows it lies on every path of (as a new barrier there would
  // wait for them; a window it does not cut gets a barrier of its own).
  // Paths between blocks: exact dominators per producer block, or, with
  // windows from many blocks (each exact computation is linear), the
  // function's dominator tree for the forward ones.
  PathCuts PC(P, [&] {
    std::vector<uint8_t> Seen(P.Blocks.size(), 0);
    unsigned Blocks = 0;
    for (const Window &W : Initial.Windows)
      if (!Seen[W.start().Block]++)
        ++Blocks;
    return Blocks > POpts.ExactPathBlocks;
  }());
  if (!Initial.PendingBarriers.empty()) {
    Augmentation Q;
    for (const PendingAtBarrier &PB : Initial.PendingBarriers)
      Q.Queries.push_back(PB.Barrier);
    HazardResult QR = analyzeHazards(P, AOpts, Q);
    for (unsigned I = 0; I < Q.Queries.size(); ++I) {
      std::vector<ProducerRef> Producers;
      for (const Window &W : Initial.Windows)
        if (pointCutsWindow(P, Q.Queries[I], W, PC))
          Producers.push_back(producerOf(W));
      std::sort(Producers.begin(), Producers.end());
      WaitThresholds W = exactWaits(P, Producers, QR.Queried[I], POpts);
      if (W.any())
        Result.CompletedBarriers.push_back({Q.Queries[I], W});
    }
  }
  Augmentation Aug;
  Aug.CompletedBarriers = Result.CompletedBarriers;
  Result.Windows = Result.CompletedBarriers.empty()
                       ? Initial.Windows
                       : analyzeHazards(P, AOpts, Aug).Windows;
  const std::vector<Window> &Ws = Result.Windows;

  // 2. Cutting points of the windows that matter. Of two windows with the
  // same consumer whose producers are in one block, on the same side of the
  // consumer, and complete on the same counter in the same order class, the
  // later producer's cutting points are a subset of the earlier one's, and
  // its wait completes the earlier one too: only the later one is kept. This
  // keeps the instance near-linear in the number of accesses.
  std::vector<uint8_t> Keep(Ws.size(), Alternative ? 1 : 0);
  if (!Alternative) {
    // Blocks on the far producer's dominator chain are stamped, so that each
    // near producer costs one look-up.
    std::vector<unsigned> OnChain(P.Blocks.size(), 0);
    unsigned Stamp = 0;
    // The windows come sorted by consumer: each consumer's windows are
    // reduced on their own, keys in sorted order.
    using LatestKey =
        std::tuple<unsigned, bool, unsigned, unsigned, bool, unsigned>;
    using GroupKey = std::tuple<unsigned, unsigned, bool>;
    SmallVector<std::pair<LatestKey, unsigned>, 8> Latest;
    SmallVector<std::pair<GroupKey, SmallVector<unsigned, 4>>, 4> Groups;
    for (unsigned Lo = 0, Hi; Lo < Ws.size(); Lo = Hi) {
      for (Hi = Lo + 1; Hi < Ws.size() && Ws[Hi].Consumer == Ws[Lo].Consumer;)
        ++Hi;
      Latest.clear();
      for (unsigned I = Lo; I < Hi; ++I) {
        const Window &W = Ws[I];
        const Event &A = P.event(W.Producer);
        Point St = W.start();
        bool Direct =
            St.Block == W.Consumer.Block && St.Index <= W.Consumer.Index;
        // Instances of one instruction from different iterations complete
        // at different counts: each keeps its own window.
        LatestKey Key{St.Block,        Direct,
                      unsigned(A.Ctr), unsigned(A.OrderClass),
                      A.InOrder,       W.Iteration};
        auto It = llvm::lower_bound(
            Latest, Key,
            [](const auto &E, const LatestKey &K) { return E.first < K; });
        if (It == Latest.end() || It->first != Key)
          Latest.insert(It, {Key, I});
        else if (Ws[It->second].start().Index < St.Index)
          It->second = I;
      }
      for (const auto &[Key, I] : Latest)
        Keep[I] = 1;
      // Across blocks: when every path from a far producer's block to the
      // consumer runs through the whole block of a nearer producer of the
      // same kind, the near window's cutting points are a subset of the far
      // one's (the path's last pass through that block and what follows),
      // and its wait completes the far producer too.
      Groups.clear();
      for (const auto &[Key, I] : Latest) {
        // An anchored window's producers are not issued at its start: the
        // nesting argument does not hold for them.
        if (Ws[I].isAnchored())
          continue;
        const Event &A = P.event(Ws[I].Producer);
        GroupKey G{unsigned(A.Ctr), unsigned(A.OrderClass), A.InOrder};
        auto It =
            llvm::find_if(Groups, [&](const auto &E) { return E.first == G; });
        if (It == Groups.end())
          Groups.push_back({G, {I}});
        else
          It->second.push_back(I);
      }
      llvm::sort(Groups, [](const auto &X, const auto &Y) {
        return X.first < Y.first;
      });
      for (const auto &[Key, Group] : Groups) {
        if (Group.size() < 2 || Group.size() > 4096)
          continue;
        for (unsigned Far : Group) {
          unsigned BF = Ws[Far].Producer.Block, BB = Ws[Far].Consumer.Block;
          // A producer earlier in the consumer's own block reaches it
          // without leaving the block: no other block is on that path.
          if (BF == BB && Ws[Far].Producer.Index < Ws[Far].Consumer.Index)
            continue;
          // An approximated path is the dominator chain: membership is a
          // constant-time dominance test, not a walk of the chain.
          bool Chain = PC.approximates(BF, BB);
          if (!Chain) {
            ++Stamp;
            PC.forEachBlock(BF, BB, /*Exact=*/false,
                            [&](unsigned D) { OnChain[D] = Stamp; });
          }
          for (unsigned Near : Group) {
            unsigned BN = Ws[Near].Producer.Block;
            if (Near == Far || !Keep[Near] || BN == BF || BN == BB)
              continue;
            if (Chain ? PC.onApproximatePath(BF, BB, BN)
                      : OnChain[BN] == Stamp) {
              Keep[Far] = 0;
              break;
            }
          }
        }
      }
    }
  }
  if (!Alternative)
    dropNestedWindows(P, Ws, IsCandidate, Keep);
  std::vector<std::vector<unsigned>> Cuts(Ws.size());
  std::vector<unsigned> ChosenPoints;
  std::vector<std::vector<unsigned>> LargeServedBy;
  // Whether the asynchronous latency preference took points away from some
  // window (the result is then compared with a placement without it).
  bool Restricted = false;
  bool Large = !Alternative &&
               placeLarge(P, Ws, Keep, Cands, PC, ChosenPoints, LargeServedBy,
                          POpts.AsyncLatency, Restricted, Result);
  if (!Large) {
    auto ComputeCuts = [&](unsigned I) {
      Cuts[I] = cuttingCandidates(P, Ws[I], Cands, PC);
      // An asynchronous transfer is waited for at the barrier that covers it:
      // one in the transfer's own block would stall right after the issue,
      // with nothing to overlap. Prefer the points further on when there are
      // and they do not run much more often (AsyncLatencyWorth).
      const Point &From = Ws[I].Producer;
      if (!POpts.AsyncLatency || !P.event(From).Async ||
          From.Block == Ws[I].Consumer.Block)
        return;
      std::vector<unsigned> Later;
      double LaterFreq = 0;
      for (unsigned Pt : Cuts[I])
        if (Cands[Pt].Block != From.Block) {
          double F = P.Blocks[Cands[Pt].Block].Freq;
          LaterFreq = Later.empty() ? F : std::min(LaterFreq, F);
          Later.push_back(Pt);
        }
      if (!Later.empty() && Later.size() < Cuts[I].size() &&
          LaterFreq <= AsyncLatencyWorth * P.Blocks[From.Block].Freq) {
        Cuts[I] = std::move(Later);
        Restricted = true;
      }
    };
    for (unsigned I = 0; I < Ws.size(); ++I)
      if (Keep[I])
        ComputeCuts(I);
    // A kept window without any legal point does not cover its siblings:
    // they may have legal points of their own.
    std::set<std::pair<Point, unsigned>> Stuck;
    for (unsigned I = 0; I < Ws.size(); ++I)
      if (Keep[I] && Cuts[I].empty())
        Stuck.insert({Ws[I].Consumer, Ws[I].start().Block});
    if (!Stuck.empty())
      for (unsigned I = 0; I < Ws.size(); ++I)
        if (!Keep[I] && Stuck.count({Ws[I].Consumer, Ws[I].start().Block})) {
          Keep[I] = 1;
          ComputeCuts(I);
        }

    // 3. Kept windows without a legal point are uncoverable; the others a
    // hitting-set instance, solved per independent component.
    for (unsigned I = 0; I < Ws.size(); ++I)
      if (Keep[I] && Cuts[I].empty())
        Result.Uncoverable.push_back(Ws[I]);
    if (Alternative)
      Result.ProvenOptimal = false;
    if (POpts.Strategy == PlacementStrategy::Naive ||
        POpts.Strategy == PlacementStrategy::Latest) {
      std::map<Point, unsigned> CandIndex;
      for (unsigned I = 0; I < Cands.size(); ++I)
        CandIndex[Cands[I]] = I;
      // The point right before the consumer, or the latest legal one.
      auto LatestCut = [&](unsigned I) {
        auto It = CandIndex.find(Ws[I].Consumer);
        if (It != CandIndex.end() && llvm::is_contained(Cuts[I], It->second))
          return It->second;
        return Cuts[I].back();
      };
      std::vector<unsigned> Order;
      for (unsigned I = 0; I < Ws.size(); ++I)
        if (!Cuts[I].empty())
          Order.push_back(I);
      if (POpts.Strategy == PlacementStrategy::Latest) {
        std::vector<unsigned> Rank(P.Blocks.size(), ~0u);
        std::vector<unsigned> RPO = P.reversePostOrder();
        for (unsigned K = 0; K < RPO.size(); ++K)
          Rank[RPO[K]] = K;
        std::sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
          const Point &X = Ws[A].Consumer, &Y = Ws[B].Consumer;
          return std::make_tuple(Rank[X.Block], X.Index, A) <
                 std::make_tuple(Rank[Y.Block], Y.Index, B);
        });
      }
      std::set<unsigned> Chosen;
      for (unsigned I : Order) {
        bool Cut = false;
        if (POpts.Strategy == PlacementStrategy::Latest)
          for (unsigned Pt : Cuts[I])
            Cut |= Chosen.count(Pt) != 0;
        if (!Cut)
          Chosen.insert(LatestCut(I));
      }
      ChosenPoints.assign(Chosen.begin(), Chosen.end());
    }
    if (!Alternative) {
      std::vector<double> Cost(Cands.size());
      for (unsigned G = 0; G < Cands.size(); ++G)
        Cost[G] = P.Blocks[Cands[G].Block].Freq;
      HittingSet HS = solveHittingSet(Cuts, Cost, POpts.SearchBudget);
      ChosenPoints = std::move(HS.Points);
      Result.ProvenOptimal &= HS.Optimal;
    }
    std::sort(ChosenPoints.begin(), ChosenPoints.end());
  }

  // 4. Record what each barrier serves and the counters it must wait for.
  std::vector<Point> Points;
  std::vector<std::vector<unsigned>> ServedBy;
  if (POpts.Strategy == PlacementStrategy::Intervals) {
    stabIntervals(P, Ws, Points, ServedBy);
  } else if (Large) {
    for (unsigned G : ChosenPoints)
      Points.push_back(Cands[G]);
    ServedBy = std::move(LargeServedBy);
  } else {
    std::vector<int> ChosenIndex(Cands.size(), -1);
    for (unsigned K = 0; K < ChosenPoints.size(); ++K) {
      ChosenIndex[ChosenPoints[K]] = K;
      Points.push_back(Cands[ChosenPoints[K]]);
    }
    ServedBy.resize(ChosenPoints.size());
    for (unsigned I = 0; I < Ws.size(); ++I)
      for (unsigned Pt : Cuts[I])
        if (ChosenIndex[Pt] >= 0)
          ServedBy[ChosenIndex[Pt]].push_back(I);
  }
  for (unsigned K = 0; K < Points.size(); ++K) {
    std::vector<unsigned> &Served = ServedBy[K];
    CounterMask M = 0;
    for (unsigned I : Served)
      M |= counterBit(P.event(Ws[I].Producer).Ctr);
    Result.Barriers.push_back({Points[K], M});
    Result.Serves.push_back(std::move(Served));
    Result.Cost += P.Blocks[Points[K].Block].Freq;
  }

  if (POpts.Split)
    pairSignals(P, AOpts, Ws, Result.Serves, Result.CompletedBarriers,
                Result.Barriers);

  // 4b. Exact counter values where each signal (or barrier) is.
  {
    Augmentation Q;
    Q.CompletedBarriers = Result.CompletedBarriers;
    for (const auto &NB : Result.Barriers)
      Q.Queries.push_back(NB.SignalAt);
    HazardResult QR = analyzeHazards(P, AOpts, Q);
    // A window several barriers lie on needs its producer complete at one
    // of them only: the one where the most later operations were issued
    // after it (or where it is complete already), so that the earlier ones
    // need not stall for it.
    auto ByAccess = [](const PendingAccess &X, const PendingAccess &Y) {
      return ProducerRef{X.Access, X.Iteration} <
             ProducerRef{Y.Access, Y.Iteration};
    };
    for (auto &Q : QR.Queried)
      std::sort(Q.begin(), Q.end(), ByAccess);
    auto Later = [&](unsigned I, const Window &W) -> unsigned {
      const auto &Q = QR.Queried[I];
      PendingAccess Key{W.Producer, 0, W.Iteration};
      auto It = std::lower_bound(Q.begin(), Q.end(), Key, ByAccess);
      if (It != Q.end() && It->Access == W.Producer &&
          It->Iteration == W.Iteration)
        return It->Later;
      return ~0u; // Complete there.
    };
    constexpr unsigned None = ~0u;
    std::vector<unsigned> Assigned(Ws.size(), None); // Window -> barrier.
    std::vector<unsigned> AssignedLater(Ws.size(), 0);
    for (unsigned I = 0; I < Result.Barriers.size(); ++I)
      for (unsigned W : Result.Serves[I]) {
        unsigned L = Later(I, Ws[W]);
        if (Assigned[W] == None || L > AssignedLater[W]) {
          Assigned[W] = I;
          AssignedLater[W] = L;
        }
      }
    std::vector<std::vector<unsigned>> Waited(Result.Barriers.size());
    for (unsigned W = 0; W < Ws.size(); ++W)
      if (Assigned[W] != None)
        Waited[Assigned[W]].push_back(W);
    for (unsigned I = 0; I < Result.Barriers.size(); ++I)
      Result.Barriers[I].Waits =
          exactWaits(P, sortedProducers(Ws, &Waited[I]), QR.Queried[I], POpts);
  }

  // 5. The result is checked, not assumed: every window (all of them, not
  // only the minimal ones placement worked with) must be gone but the
  // uncoverable ones. A window left over (one whose minimal sibling had no
  // legal point, or a bug in the cutting rules) gets a barrier at its latest
  // legal cutting point, or is reported.
  // The alternative strategies are left as they are: the verifier judges.
  AnalysisOptions AllWindows = AOpts;
  AllWindows.MinimalWindows = false;
  for (unsigned Round = 0; !Alternative; ++Round) {
    Augmentation Final = Result.augmentation();
    std::vector<Window> Left;
    for (const Window &W : analyzeHazards(P, AllWindows, Final).Windows) {
      bool Known = false;
      for (const Window &U : Result.Uncoverable)
        Known |= U.Producer == W.Producer && U.Consumer == W.Consumer;
      if (!Known)
        Left.push_back(W);
    }
    if (Left.empty() || Round == 8)
      break;
    Result.ProvenOptimal = false;
    for (const Window &W : Left) {
      std::vector<unsigned> Cut = cuttingCandidates(P, W, Cands, PC);
      if (Cut.empty()) {
        Result.Uncoverable.push_back(W);
        continue;
      }
      Point At = Cands[Cut.back()];
      bool Present = false;
      for (auto &NB : Result.Barriers)
        if (NB.At == At) {
          NB.SignalAt = At; // Make it monolithic: it must cover W.
          NB.Waits |= WaitThresholds::zero(counterBit(P.event(W.Producer).Ctr));
          Present = true;
        }
      if (Present)
        continue;
      Result.Barriers.push_back({At, counterBit(P.event(W.Producer).Ctr)});
      Result.Serves.push_back({});
      Result.Cost += P.Blocks[At.Block].Freq;
    }
  }
  addInFlightWaits(P, AOpts, POpts, Result);
  // The preference is for latency: it yields to the placement without it
  // when that one is better in barrier executions or barriers and worse in
  // neither. (When the plain placement saves executions only with an extra
  // barrier, typically one that waits for a transfer right after its issue
  // in a branch plus one before the loop, the preference stays.)
  if (Restricted && !Alternative) {
    PlacementOptions Plain = POpts;
    Plain.AsyncLatency = false;
    Placement Other = placeBarriers(P, Options, Plain);
    Score Ours{unsigned(Result.Barriers.size()), Result.Cost};
    Score Theirs{unsigned(Other.Barriers.size()), Other.Cost};
    if (Theirs.dominates(Ours))
      return Other;
  }
  return Result;
}
