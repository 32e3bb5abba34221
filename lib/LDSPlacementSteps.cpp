//===- LDSPlacementSteps.cpp - Steps shared by the placement strategies ---===//
//
// Where a barrier may go (candidate points), which of those lie on every
// path of a window (cutting points, through the blocks on all paths between
// two blocks), and the steps around the choice of points that every
// strategy runs.
//
//===----------------------------------------------------------------------===//

#include "LDSPlacementSteps.h"
#include "LDSSplitBarriers.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include <algorithm>
#include <map>
#include <set>

using namespace llvm;
using namespace llvm::ldsbarriers;

std::vector<Point>
llvm::ldsbarriers::candidatePoints(const AbstractProgram &P) {
  std::vector<Point> C;
  std::vector<uint8_t> Reachable = P.reachableBlocks();
  // A new barrier must not land between an existing signal and its wait.
  SignalState Signals = computeSignalState(P);
  auto Allowed = [&](unsigned B, unsigned I) {
    return !Signals.consistent() || !Signals.Pending[B][I];
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
  Preds = P.predecessors();
  unsigned N = P.Blocks.size();
  IDom = computeImmediateDominators(P.successorGraph(), P.Entry);
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
  Component = P.componentOrder();
  ReachStamp.assign(N, 0);
  Rank.assign(N, ~0u);
  for (auto [K, B] : llvm::enumerate(P.reversePostOrder()))
    Rank[B] = K;
}

const std::vector<unsigned> &PathCuts::exactChain(unsigned From, unsigned To) {
  auto [It, New] = ByPair.try_emplace({From, To});
  std::vector<unsigned> &Chain = It->second;
  if (!New)
    return Chain;
  // Every path from From's exit to To stays in the blocks that reach To and
  // that it reaches, whose dominator tree gives To the same dominators. The
  // walk back from To stops before From's component: per window, work in
  // the size of its part of the function.
  unsigned FromComponent = Component[From] == ~0u ? 0 : Component[From];
  if (++Walk == 0) { // The stamps wrapped around: clear them.
    std::fill(ReachStamp.begin(), ReachStamp.end(), 0);
    Walk = 1;
  }
  auto CanReach = [&](unsigned B) { return ReachStamp[B] == Walk; };
  std::vector<unsigned> Work = {To};
  ReachStamp[To] = Walk;
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    ++WalkedBlocks;
    for (unsigned Pred : Preds[B])
      if (!CanReach(Pred) && Component[Pred] >= FromComponent) {
        ReachStamp[Pred] = Walk;
        Work.push_back(Pred);
      }
  }
  DenseMap<unsigned, unsigned> Local;
  std::vector<unsigned> Global;
  auto Visit = [&](unsigned B) {
    if (CanReach(B) && Local.try_emplace(B, Global.size()).second)
      Global.push_back(B);
  };
  for (unsigned S : P.Blocks[From].Succs)
    Visit(S);
  for (unsigned K = 0; K < Global.size(); ++K)
    for (unsigned S : P.Blocks[Global[K]].Succs)
      Visit(S);
  WalkedBlocks += Global.size();
  auto ToIt = Local.find(To);
  if (ToIt == Local.end())
    return Chain;
  // The part's graph and one node more, the root: From's exit.
  unsigned Root = Global.size();
  Graph G(Root + 1);
  for (unsigned K = 0; K <= Root; ++K)
    for (unsigned S : P.Blocks[K < Root ? Global[K] : From].Succs)
      if (auto SIt = Local.find(S); SIt != Local.end())
        G[K].push_back(SIt->second);
  std::vector<int> ID = computeImmediateDominators(G, Root);
  for (int D = ID[ToIt->second]; D >= 0 && D != int(Root); D = ID[D])
    Chain.push_back(Global[D]);
  return Chain;
}

bool PathCuts::approximates(unsigned From, unsigned To) const {
  return Approximate && Rank[From] < Rank[To] && Rank[To] != ~0u;
}

void PathCuts::forEachBlock(unsigned From, unsigned To, bool Exact,
                            function_ref<void(unsigned)> F) {
  if (!Exact && approximates(From, To)) {
    // From is reachable (it has a rank): the entry ends the chain.
    for (int D = IDom[To]; D >= 0 && !dominates(D, From); D = IDom[D])
      F(D);
    return;
  }
  if (Approximate) {
    for (unsigned D : exactChain(From, To))
      F(D);
    return;
  }
  // A block that dominates To in the function's graph with one node more,
  // the root, From's exit, is executed in full on every path (From's block
  // too: the path re-enters it from the top).
  unsigned Root = P.Blocks.size();
  auto [It, New] = ByBlock.try_emplace(From);
  if (New)
    It->second = computeImmediateDominators(
        Root + 1, Root, [&](unsigned X) -> ArrayRef<unsigned> {
          return P.Blocks[X < Root ? X : From].Succs;
        });
  const std::vector<int> &ID = It->second;
  for (int D = ID[To]; D >= 0 && D != int(Root); D = ID[D])
    F(D);
}

/// The ranges of points (block, first index, last index) that lie on every
/// path of \p W.
static std::vector<std::tuple<unsigned, unsigned, unsigned>>
cuttingRanges(const AbstractProgram &P, const Window &W, PathCuts &Cuts,
              bool Exact) {
  // The paths start right after the producer, or at the window's anchor.
  Point Start = W.start(), End = W.Consumer;
  std::vector<std::tuple<unsigned, unsigned, unsigned>> Out;
  // Within one block every path leaves through the events between the two.
  if (Start.Block == End.Block && Start.Index <= End.Index) {
    Out.emplace_back(Start.Block, Start.Index, End.Index);
    return Out;
  }
  Out.emplace_back(Start.Block, Start.Index,
                   P.Blocks[Start.Block].Events.size());
  Out.emplace_back(End.Block, 0, End.Index);
  Cuts.forEachBlock(Start.Block, End.Block, Exact, [&](unsigned D) {
    Out.emplace_back(D, 0, P.Blocks[D].Events.size());
  });
  return Out;
}

CandRanges
llvm::ldsbarriers::cuttingCandRanges(const AbstractProgram &P, const Window &W,
                                     const std::vector<Point> &Candidates,
                                     PathCuts &Cuts) {
  // The number of the first candidate at or after \p Index of block \p B.
  auto IndexAt = [&](unsigned B, unsigned Index) {
    return unsigned(llvm::lower_bound(Candidates, Point{B, Index}) -
                    Candidates.begin());
  };
  CandRanges R;
  for (bool Exact : {false, true}) {
    for (auto [B, Lo, Hi] : cuttingRanges(P, W, Cuts, Exact)) {
      unsigned F = IndexAt(B, Lo), L = IndexAt(B, Hi + 1);
      if (F < L)
        R.push_back({F, L});
    }
    // An approximation without a legal point must not make the window
    // look uncoverable.
    if (!R.empty() || !Cuts.approximates(W.start().Block, W.Consumer.Block))
      break;
  }
  // A producer's block may come back whole on an exact path: merge.
  llvm::sort(R);
  CandRanges Merged;
  for (CandRange X : R)
    if (!Merged.empty() && X.first <= Merged.back().second)
      Merged.back().second = std::max(Merged.back().second, X.second);
    else
      Merged.push_back(X);
  return Merged;
}

std::vector<unsigned>
llvm::ldsbarriers::cuttingCandidates(const AbstractProgram &P, const Window &W,
                                     const std::vector<Point> &Candidates,
                                     PathCuts &Cuts) {
  std::vector<unsigned> Out;
  for (auto [F, L] : cuttingCandRanges(P, W, Candidates, Cuts))
    llvm::append_range(Out, llvm::seq(F, L));
  return Out;
}

/// Whether the point \p At lies on every path of window \p W (possibly
/// answering no for a point that does, when approximating).
static bool pointCutsWindow(const AbstractProgram &P, Point At, const Window &W,
                            PathCuts &Cuts) {
  for (auto [B, Lo, Hi] : cuttingRanges(P, W, Cuts, /*Exact=*/false))
    if (At.Block == B && Lo <= At.Index && At.Index <= Hi)
      return true;
  return false;
}

/// A window's producer as the analysis tracks it: the instruction and its
/// iteration state (only some earlier iterations' instances may conflict).
using ProducerRef = std::pair<EventRef, unsigned>;
static ProducerRef producerOf(const Window &W) {
  return {W.Producer, W.Iteration};
}

/// The waits that complete \p Producers at a point whose incomplete accesses
/// are \p Pending: zero for the LDS and export counters, and for the
/// asynchronous counters the largest value that still guarantees each
/// producer (its count of later in-order operations, minimum over paths).
static WaitThresholds exactWaits(const AbstractProgram &P,
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

PlacementContext::PlacementContext(const AbstractProgram &P,
                                   const AnalysisOptions &Options,
                                   const PlacementOptions &POpts,
                                   bool PruneAnalysis)
    : P(P), POpts(POpts), Cands(candidatePoints(P)),
      IsCandidate(P.Blocks.size()), AOpts(Options) {
  for (unsigned B = 0; B < P.Blocks.size(); ++B)
    IsCandidate[B].assign(P.numPoints(B), 0);
  for (const Point &C : Cands)
    IsCandidate[C.Block][C.Index] = 1;
  if (PruneAnalysis)
    AOpts.Pruning.Points = &IsCandidate;
}

/// Placement step 1: an existing barrier gets the wait it lacks for the
/// pending producers of the windows it lies on every path of, as a new
/// barrier there would; a window it does not cut gets a barrier of its own.
bool llvm::ldsbarriers::findWindowsToCover(PlacementContext &C,
                                           Placement &Result) {
  const AbstractProgram &P = C.P;
  C.Run.emplace(P, C.AOpts);
  HazardResult Initial = C.Run->result();
  if (C.POpts.SingleWave || Initial.Windows.empty()) {
    addInFlightWaits(C, Result);
    return false;
  }
  Result.InitialWindows = Initial.Windows;
  // Approximate paths when the windows start in many blocks.
  BitVector StartBlocks(P.Blocks.size());
  for (const Window &W : Initial.Windows)
    StartBlocks.set(W.start().Block);
  C.Paths.emplace(P, StartBlocks.count() > C.POpts.ExactPathBlocks);
  std::vector<Point> Barriers;
  for (const PendingAtBarrier &PB : Initial.PendingBarriers)
    Barriers.push_back(PB.Barrier);
  // Queries do not change the states: the run answers them.
  std::vector<std::vector<PendingAccess>> Queried = C.Run->pendingAt(Barriers);
  for (unsigned I = 0; I < Barriers.size(); ++I) {
    std::vector<ProducerRef> Producers;
    for (const Window &W : Initial.Windows)
      if (pointCutsWindow(P, Barriers[I], W, *C.Paths))
        Producers.push_back(producerOf(W));
    llvm::sort(Producers);
    WaitThresholds W = exactWaits(P, Producers, Queried[I], C.POpts);
    if (W.any())
      Result.CompletedBarriers.push_back({Barriers[I], W});
  }
  if (!Result.CompletedBarriers.empty())
    C.Run.emplace(P, C.AOpts, Result.augmentation());
  Result.Windows = C.Run->result().Windows;
  return true;
}

void llvm::ldsbarriers::reviveStuckSiblings(
    const std::vector<Window> &Ws, std::vector<uint8_t> &Keep,
    function_ref<bool(unsigned)> HasNoPoint,
    function_ref<void(unsigned)> Compute) {
  std::set<std::pair<Point, unsigned>> Stuck;
  for (unsigned I = 0; I < Ws.size(); ++I)
    if (Keep[I] && HasNoPoint(I))
      Stuck.insert({Ws[I].Consumer, Ws[I].start().Block});
  for (unsigned I = 0; I < Ws.size(); ++I)
    if (!Keep[I] && Stuck.count({Ws[I].Consumer, Ws[I].start().Block})) {
      Keep[I] = 1;
      Compute(I);
    }
}

std::vector<std::vector<unsigned>> llvm::ldsbarriers::cutKeptWindows(
    PlacementContext &C, const std::vector<Window> &Ws,
    std::vector<uint8_t> &Keep, bool &Restricted, Placement &Result) {
  std::vector<std::vector<unsigned>> Cuts(Ws.size());
  auto Compute = [&](unsigned I) {
    Cuts[I] = cuttingCandidates(C.P, Ws[I], C.Cands, *C.Paths);
    Restricted |= keepPointsPastAsyncIssue(
        C.P, C.POpts.AsyncLatency, Ws[I], Cuts[I],
        [&](unsigned Pt) { return C.Cands[Pt].Block; });
  };
  for (unsigned I = 0; I < Ws.size(); ++I)
    if (Keep[I])
      Compute(I);
  reviveStuckSiblings(
      Ws, Keep, [&](unsigned I) { return Cuts[I].empty(); }, Compute);
  for (unsigned I = 0; I < Ws.size(); ++I)
    if (Keep[I] && Cuts[I].empty())
      Result.Uncoverable.push_back(Ws[I]);
  return Cuts;
}

Cover llvm::ldsbarriers::coverByCandidates(
    const PlacementContext &C, const std::vector<unsigned> &Chosen,
    const std::vector<std::vector<unsigned>> &Cuts) {
  Cover Cv;
  std::vector<int> ChosenIndex(C.Cands.size(), -1);
  for (unsigned K = 0; K < Chosen.size(); ++K) {
    ChosenIndex[Chosen[K]] = K;
    Cv.Points.push_back(C.Cands[Chosen[K]]);
  }
  Cv.ServedBy.resize(Chosen.size());
  for (unsigned I = 0; I < Cuts.size(); ++I)
    for (unsigned Pt : Cuts[I])
      if (ChosenIndex[Pt] >= 0)
        Cv.ServedBy[ChosenIndex[Pt]].push_back(I);
  return Cv;
}

void llvm::ldsbarriers::recordBarriers(const PlacementContext &C, Cover Cv,
                                       Placement &Result) {
  for (unsigned K = 0; K < Cv.Points.size(); ++K) {
    std::vector<unsigned> &Served = Cv.ServedBy[K];
    CounterMask M = 0;
    for (unsigned I : Served)
      M |= counterBit(C.P.event(Result.Windows[I].Producer).Ctr);
    Result.Barriers.push_back({Cv.Points[K], M});
    Result.Serves.push_back(std::move(Served));
    Result.Cost += C.P.Blocks[Cv.Points[K].Block].Freq;
  }
}

void llvm::ldsbarriers::splitSignals(const PlacementContext &C,
                                     Placement &Result) {
  if (C.POpts.Split)
    pairSignals(C.P, C.AOpts, Result.Windows, Result.Serves,
                Result.CompletedBarriers, Result.Barriers);
}

void llvm::ldsbarriers::setBarrierWaits(const PlacementContext &C,
                                        Placement &Result) {
  const std::vector<Window> &Ws = Result.Windows;
  std::vector<Point> Signals;
  for (const auto &NB : Result.Barriers)
    Signals.push_back(NB.SignalAt);
  // The kept run has the same completed barriers: it answers the queries
  // without running the analysis again.
  std::vector<std::vector<PendingAccess>> Queried = C.Run->pendingAt(Signals);
  // A window several barriers lie on needs its producer complete at one of
  // them only: where the most later operations were issued after it (or it
  // is complete already), so that the earlier ones need not stall for it.
  auto ByAccess = [](const PendingAccess &X, const PendingAccess &Y) {
    return ProducerRef{X.Access, X.Iteration} <
           ProducerRef{Y.Access, Y.Iteration};
  };
  for (auto &Q : Queried)
    llvm::sort(Q, ByAccess);
  auto Later = [&](unsigned I, const Window &W) -> unsigned {
    const auto &Q = Queried[I];
    PendingAccess Key{W.Producer, 0, W.Iteration};
    auto It = llvm::lower_bound(Q, Key, ByAccess);
    if (It != Q.end() && It->Access == W.Producer &&
        It->Iteration == W.Iteration)
      return It->Later;
    return ~0u; // Complete there.
  };
  constexpr unsigned None = ~0u;
  // Per window, its barrier and the later operations there.
  std::vector<unsigned> Assigned(Ws.size(), None), AssignedLater(Ws.size(), 0);
  for (unsigned I = 0; I < Result.Barriers.size(); ++I)
    for (unsigned W : Result.Serves[I]) {
      unsigned L = Later(I, Ws[W]);
      if (Assigned[W] == None || L > AssignedLater[W]) {
        Assigned[W] = I;
        AssignedLater[W] = L;
      }
    }
  std::vector<std::vector<ProducerRef>> Waited(Result.Barriers.size());
  for (unsigned W = 0; W < Ws.size(); ++W)
    if (Assigned[W] != None)
      Waited[Assigned[W]].push_back(producerOf(Ws[W]));
  for (unsigned I = 0; I < Result.Barriers.size(); ++I) {
    llvm::sort(Waited[I]);
    Result.Barriers[I].Waits = exactWaits(C.P, Waited[I], Queried[I], C.POpts);
  }
}

void llvm::ldsbarriers::addInFlightWaits(const PlacementContext &C,
                                         Placement &Result) {
  const AbstractProgram &P = C.P;
  // Only asynchronous transfers are ever in flight for their own wave.
  if (llvm::none_of(P.Blocks, [](const Block &BB) {
        return llvm::any_of(BB.Events, [](const Event &E) {
          return E.Kind == Event::Access && E.Async;
        });
      }))
    return;
  HazardAnalysis Run(P, C.AOpts, Result.augmentation());
  const std::vector<Window> &InFlight = Run.result().InFlight;
  if (InFlight.empty())
    return;
  std::map<Point, std::vector<ProducerRef>> ByConsumer;
  for (const Window &W : InFlight)
    ByConsumer[W.Consumer].push_back(producerOf(W));
  std::vector<std::vector<PendingAccess>> Queried =
      Run.pendingAt(llvm::to_vector(llvm::make_first_range(ByConsumer)));
  unsigned Q = 0;
  for (auto &[At, Prods] : ByConsumer) {
    llvm::sort(Prods);
    WaitThresholds W = exactWaits(P, Prods, Queried[Q++], C.POpts);
    if (W.any())
      Result.Waits.push_back({At, W});
  }
}
