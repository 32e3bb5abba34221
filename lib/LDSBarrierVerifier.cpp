//===- LDSBarrierVerifier.cpp - Independent check of LDS synchronization --===//
//
// Races: for each access, a search over (block, progress of that access)
// from just after it, following every path until a barrier orders it; every
// conflicting access met on the way is a race. Progress is "in flight" with
// the number of later in-order operations of its counter, "complete" after a
// hard wait that guarantees it, "signalled" after a split-barrier signal at
// which it was complete.
//
//===----------------------------------------------------------------------===//

#include "LDSBarrierVerifier.h"
#include "llvm/ADT/BitVector.h"
#include <algorithm>
#include <set>
#include <tuple>

using namespace llvm;
using namespace llvm::ldsbarriers;

namespace {

/// Why two accesses of different waves race when unordered; null if they
/// do not. Earlier and Later are in path order.
const char *raceKind(const AbstractProgram &P, const Event &Earlier,
                     const Event &Later, const VerifierOptions &Opts,
                     IterationRelation Rel = {}) {
  // The kinds first: they are cheap, the bytes (thread forms) are not.
  AccessKind EK = Earlier.AK, LK = Later.AK;
  const char *Kind = nullptr;
  if (EK == AccessKind::Opaque || LK == AccessKind::Opaque)
    Kind = "opaque";
  else if (EK == AccessKind::Atomic || LK == AccessKind::Atomic)
    Kind = EK == LK && Earlier.CommutativeOp != 0 &&
                   Earlier.CommutativeOp == Later.CommutativeOp
               ? nullptr
               : "atomic";
  else if (EK == AccessKind::Write && LK == AccessKind::Write)
    Kind = (Earlier.Async || Later.Async ? Opts.AsyncWAW : Opts.WAW) ? "WAW"
                                                                     : nullptr;
  else if (EK == AccessKind::Write || LK == AccessKind::Write)
    Kind = EK == AccessKind::Write ? "RAW" : "WAR";
  return Kind && P.wavesMayMeet(Earlier, Later, Rel) ? Kind : nullptr;
}

bool isBarrierEvent(const Event &E) {
  return E.Kind == Event::Barrier || E.Kind == Event::Signal ||
         E.Kind == Event::BarrierWait;
}

/// Progress of one producer along a path.
struct Progress {
  enum : uint8_t { InFlight, Complete, Signalled } State = InFlight;
  uint8_t Later = 0; // Later in-order operations of its counter (<= 63).
  /// Where the path stands in the iterations of stage loops.
  IterationState Iteration;
  bool operator<(const Progress &O) const {
    return std::tie(State, Later, Iteration) <
           std::tie(O.State, O.Later, O.Iteration);
  }
};

class Verifier {
public:
  Verifier(const AbstractProgram &P, const VerifierOptions &Opts)
      : P(P), Opts(Opts), Succs(P.successorGraph()),
        IPDom(computeImmediatePostDominators(P)) {}

  std::vector<Violation> run() {
    // Code no path from the entry reaches never runs.
    Reachable = P.reachableBlocks();
    checkAlternation();
    checkDivergence();
    checkConcurrentArms();
    for (unsigned B = 0; B < P.Blocks.size(); ++B)
      if (Reachable[B])
        for (unsigned I = 0; I < P.Blocks[B].Events.size(); ++I)
          if (P.Blocks[B].Events[I].Kind == Event::Access)
            checkProducer({B, I});
    return std::move(Out);
  }

private:
  /// The blocks a depth-first search from \p Starts along \p Next reaches
  /// without entering \p Stop. It calls \p Visit, if given, on each once,
  /// and goes on only from those where it returns true.
  BitVector search(ArrayRef<unsigned> Starts, const Graph &Next, int Stop,
                   function_ref<bool(unsigned)> Visit = nullptr) const {
    std::vector<unsigned> Work(Starts.begin(), Starts.end());
    BitVector Seen(P.Blocks.size());
    while (!Work.empty()) {
      unsigned B = Work.back();
      Work.pop_back();
      if (int(B) == Stop || Seen[B])
        continue;
      Seen.set(B);
      if (!Visit || Visit(B))
        llvm::append_range(Work, Next[B]);
    }
    return Seen;
  }

  /// Follows producer A from (B, From) with progress Pr; returns false when
  /// A becomes ordered within the block.
  bool walk(EventRef A, unsigned B, unsigned From, Progress &Pr) {
    const Event &AE = P.event(A);
    const auto &Events = P.Blocks[B].Events;
    for (unsigned I = From; I < Events.size(); ++I) {
      const Event &E = Events[I];
      switch (E.Kind) {
      case Event::Access: {
        IterationRelation Rel = P.relation(Pr.Iteration, E.Loc);
        if (const char *Why = raceKind(P, AE, E, Opts, Rel))
          if (!ArmPairs.count({std::min(A, {B, I}), std::max(A, {B, I})}) &&
              Reported.insert({A, {B, I}}).second)
            Out.push_back({Violation::Race, A, {B, I}, Why});
        // The issuing wave itself must not touch the bytes of its own
        // asynchronous transfer before the transfer's counter says so,
        // unless E is a transfer's write that lands after A's.
        bool LandsAfter = E.Async && AE.AK == AccessKind::Write &&
                          E.AK == AccessKind::Write && AE.InOrder &&
                          E.InOrder && AE.Ctr == E.Ctr &&
                          AE.OrderClass == E.OrderClass;
        if (AE.Async && Pr.State == Progress::InFlight && !LandsAfter &&
            raceKind(P, AE, E, {/*WAW=*/true, /*AsyncWAW=*/true}, Rel) &&
            ReportedInFlight.insert({A, {B, I}}).second)
          Out.push_back({Violation::InFlight,
                         A,
                         {B, I},
                         "access before the counter wait of the wave's own "
                         "asynchronous transfer"});
        if (E.InOrder)
          countLater(AE, E, Pr);
        break;
      }
      case Event::Tick:
        countLater(AE, E, Pr);
        break;
      case Event::Wait: {
        int T = E.Waits[AE.Ctr];
        if (Pr.State == Progress::InFlight && T != WaitThresholds::NoWait &&
            (T == 0 || (AE.InOrder && Pr.Later >= T)))
          Pr.State = Progress::Complete;
        break;
      }
      case Event::Barrier:
        if (Pr.State != Progress::InFlight)
          return false;
        break;
      case Event::Signal:
        if (Pr.State == Progress::Complete)
          Pr.State = Progress::Signalled;
        break;
      case Event::BarrierWait:
        if (Pr.State == Progress::Signalled)
          return false;
        break;
      }
    }
    return true;
  }

  /// \p E, in order on its counter, was issued after producer \p AE.
  static void countLater(const Event &AE, const Event &E, Progress &Pr) {
    if (Pr.State == Progress::InFlight && E.Ctr == AE.Ctr &&
        E.OrderClass == AE.OrderClass && Pr.Later < 63)
      ++Pr.Later;
  }

  void checkProducer(EventRef A) {
    std::set<std::pair<unsigned, Progress>> Seen;
    std::vector<std::pair<unsigned, Progress>> Work;
    // Each edge taken may start another iteration of a stage loop.
    auto Follow = [&](unsigned B, Progress Pr) {
      for (unsigned S : P.Blocks[B].Succs) {
        Progress Next = Pr;
        Next.Iteration = P.crossEdge(Pr.Iteration, B, S);
        Work.push_back({S, Next});
      }
    };
    Progress Start;
    Start.Iteration = P.startIteration(P.event(A).Loc);
    if (walk(A, A.Block, A.Index + 1, Start))
      Follow(A.Block, Start);
    while (!Work.empty()) {
      auto [B, Pr] = Work.back();
      Work.pop_back();
      if (Seen.insert({B, Pr}).second && walk(A, B, 0, Pr))
        Follow(B, Pr);
    }
  }

  /// Every path from the entry, with one bit: is a signal pending.
  void checkAlternation() {
    // Bit 0: seen with 0; bit 1: 1.
    std::vector<uint8_t> EntryBits(P.Blocks.size(), 0);
    std::vector<std::pair<unsigned, bool>> Work = {{P.Entry, false}};
    auto Fail = [&](Point At, const char *Why) {
      Out.push_back({Violation::Alternation, At, At, Why});
    };
    while (!Work.empty()) {
      auto [B, Pending] = Work.back();
      Work.pop_back();
      uint8_t Bit = Pending ? 2 : 1;
      if (EntryBits[B] & Bit)
        continue;
      EntryBits[B] |= Bit;
      if (EntryBits[B] == 3)
        Fail({B, 0}, "reached with and without a pending signal");
      const auto &Events = P.Blocks[B].Events;
      for (unsigned I = 0; I < Events.size(); ++I) {
        Event::EventKind K = Events[I].Kind;
        if (K == Event::Signal) {
          if (Pending)
            Fail({B, I}, "signal while another signal is pending");
          Pending = true;
        } else if (K == Event::BarrierWait) {
          if (!Pending)
            Fail({B, I}, "barrier wait without a pending signal");
          Pending = false;
        } else if (K == Event::Barrier && Pending) {
          Fail({B, I}, "barrier while a signal is pending");
        }
      }
      if (P.Blocks[B].Succs.empty() && Pending)
        Fail({B, unsigned(Events.size())}, "exit with a pending signal");
      for (unsigned S : P.Blocks[B].Succs)
        Work.push_back({S, Pending});
    }
  }

  /// The region a divergent branch controls: what its successors reach
  /// before its immediate post-dominator.
  void checkDivergence() {
    BitVector InRegion(P.Blocks.size());
    std::vector<bool> LeavesEarly = earlyExits();
    for (unsigned X = 0; X < P.Blocks.size(); ++X)
      if (P.Blocks[X].DivergentBranch && Reachable[X] && !LeavesEarly[X])
        InRegion |= search(Succs[X], Succs, IPDom[X]);
    for (unsigned B : InRegion.set_bits())
      for (unsigned I = 0; I < P.Blocks[B].Events.size(); ++I)
        if (isBarrierEvent(P.Blocks[B].Events[I]))
          Out.push_back({Violation::DivergentBarrier,
                         {B, I},
                         {B, I},
                         "barrier in control flow that some waves may skip"});
  }

  /// The early exits: per divergent branch, whether waves that take one of
  /// its successors end (the program is a kernel) with no LDS access or
  /// split signal behind them and no access or barrier ahead; a barrier
  /// waits for the waves that have not ended only.
  std::vector<bool> earlyExits() const {
    unsigned N = P.Blocks.size();
    std::vector<bool> Leaves(N, false);
    if (!P.ExitEndsWave)
      return Leaves;
    // The blocks that hold an access or a signal (and, with Barriers, any
    // barrier event), and every block Next leads to from them.
    auto Flood = [&](bool Barriers, const Graph &Next) {
      std::vector<unsigned> Holders;
      for (unsigned B = 0; B < N; ++B)
        if (llvm::any_of(P.Blocks[B].Events, [&](const Event &E) {
              return E.Kind == Event::Access || E.Kind == Event::Signal ||
                     (Barriers && isBarrierEvent(E));
            }))
          Holders.push_back(B);
      return search(Holders, Next, /*Stop=*/-1);
    };
    BitVector Behind = Flood(/*Barriers=*/false, Succs);
    BitVector Ahead = Flood(/*Barriers=*/true, P.predecessors());
    for (unsigned X = 0; X < N; ++X)
      Leaves[X] = P.Blocks[X].DivergentBranch && !Behind[X] &&
                  llvm::any_of(Succs[X], [&](unsigned S) { return !Ahead[S]; });
    return Leaves;
  }

  /// Waves that take different successors of a branch on a per-wave value
  /// run both at the same time: every access one successor floods to
  /// before the join (or a barrier, a divergent one, reported above) meets
  /// every access another one floods to.
  void checkConcurrentArms() {
    for (unsigned X = 0; X < P.Blocks.size(); ++X) {
      if (!P.Blocks[X].ConcurrentArms || !Reachable[X])
        continue;
      std::vector<std::vector<EventRef>> Arms;
      for (unsigned S : Succs[X]) {
        std::vector<EventRef> &Arm = Arms.emplace_back();
        search({S}, Succs, IPDom[X], [&](unsigned B) {
          for (auto [I, E] : llvm::enumerate(P.Blocks[B].Events)) {
            if (isBarrierEvent(E))
              return false;
            if (E.Kind == Event::Access)
              Arm.push_back({B, unsigned(I)});
          }
          return true;
        });
      }
      for (unsigned K = 0; K < Arms.size(); ++K)
        for (unsigned L = K + 1; L < Arms.size(); ++L)
          for (EventRef A : Arms[K])
            for (EventRef B : Arms[L]) {
              EventRef First = std::min(A, B), Second = std::max(A, B);
              if (First == Second)
                continue;
              const char *Why =
                  raceKind(P, P.event(First), P.event(Second), Opts);
              if (Why && ArmPairs.insert({First, Second}).second)
                Out.push_back(
                    {Violation::Race, First, Second, Why, /*Fork=*/int(X)});
            }
    }
  }

  const AbstractProgram &P;
  const VerifierOptions &Opts;
  const Graph Succs;
  /// Per block, its immediate post-dominator (computeImmediatePostDominators).
  const std::vector<int> IPDom;
  std::set<std::pair<EventRef, EventRef>> Reported, ReportedInFlight;
  /// Races of concurrent arms, in block order: not reported again along a
  /// path.
  std::set<std::pair<EventRef, EventRef>> ArmPairs;
  std::vector<Violation> Out;
  std::vector<uint8_t> Reachable;
};

} // namespace

std::vector<Violation>
llvm::ldsbarriers::verifySynchronization(const AbstractProgram &P,
                                         const VerifierOptions &Opts) {
  return Verifier(P, Opts).run();
}
