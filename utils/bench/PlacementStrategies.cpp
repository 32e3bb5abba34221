//===- PlacementStrategies.cpp - Other systems' placements ----------------===//
//
// The comparison strategies (naive, latest, intervals): where other systems
// put barriers, on the pass's analysis, for the strategy benchmark
// (StrategyQuality.cpp) and the unit tests that hold the pass's placement
// against them. They run the pass's shared steps (LDSPlacementSteps.h) on
// every window, with their own choice of points and without the optimal
// placement's final check and repair: the verifier judges them.
//
//===----------------------------------------------------------------------===//

#include "PlacementStrategies.h"
#include "LDSPlacementSteps.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cassert>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace llvm::ldsbarriers;

StringRef llvm::ldsbarriers::getPlacementStrategyName(PlacementStrategy S) {
  switch (S) {
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
static Cover stabIntervals(const AbstractProgram &P,
                           const std::vector<Window> &Ws) {
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
  Cover Cv;
  for (const Interval &In : Intervals) {
    if (Cv.Points.empty() || Pos(Cv.Points.back()) < In.Lo) {
      Point At = Ws[In.Window].Consumer;
      Cv.Points.push_back(At);
      Cv.ServedBy.emplace_back();
    }
    Cv.ServedBy.back().push_back(In.Window);
  }
  return Cv;
}

/// PlacementStrategy::Naive and Latest: each window (Latest: in reverse
/// post-order of its consumer, and only when no point chosen so far cuts
/// it) gets the point right before its consumer, or its latest legal
/// cutting point. Returns the chosen candidates, ascending.
static std::vector<unsigned>
consumerPoints(const PlacementContext &C, const std::vector<Window> &Ws,
               const std::vector<std::vector<unsigned>> &Cuts, bool Latest) {
  std::map<Point, unsigned> CandIndex;
  for (unsigned I = 0; I < C.Cands.size(); ++I)
    CandIndex[C.Cands[I]] = I;
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
  if (Latest) {
    std::vector<unsigned> Rank(C.P.Blocks.size(), ~0u);
    std::vector<unsigned> RPO = C.P.reversePostOrder();
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
    if (Latest)
      for (unsigned Pt : Cuts[I])
        Cut |= Chosen.count(Pt) != 0;
    if (!Cut)
      Chosen.insert(LatestCut(I));
  }
  return std::vector<unsigned>(Chosen.begin(), Chosen.end());
}

Placement llvm::ldsbarriers::placeWithStrategy(PlacementStrategy S,
                                               const AbstractProgram &P,
                                               const AnalysisOptions &Options,
                                               const PlacementOptions &POpts) {
  PlacementContext C(P, Options, POpts, /*PruneAnalysis=*/false);
  Placement Result;
  if (!findWindowsToCover(C, Result))
    return Result;
  const std::vector<Window> &Ws = Result.Windows;
  // Every window, like the systems these stand for. Their cutting points
  // tell the uncoverable windows (all the intervals strategy takes of
  // them); the asynchronous latency preference is not weighed here.
  std::vector<uint8_t> Keep(Ws.size(), 1);
  bool Restricted = false;
  std::vector<std::vector<unsigned>> Cuts =
      cutKeptWindows(C, Ws, Keep, Restricted, Result);
  Result.ProvenOptimal = false;
  recordBarriers(
      C,
      S == PlacementStrategy::Intervals
          ? stabIntervals(P, Ws)
          : coverByCandidates(
                C, consumerPoints(C, Ws, Cuts, S == PlacementStrategy::Latest),
                Cuts),
      Result);
  splitSignals(C, Result);
  setBarrierWaits(C, Result);
  addInFlightWaits(C, Result);
  return Result;
}
