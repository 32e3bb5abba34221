//===- LDSHittingSet.cpp - Cheapest points that hit every set -------------===//
//
// Exact minimum hitting set per independent component: reduction rules
// (forced points, dominated sets, dominated points), then branch and bound
// on the set with the fewest points. On interval instances (straight-line
// code) the reductions alone solve it; on circular arcs (a loop with a
// straight-line body) one branching level does.
//
//===----------------------------------------------------------------------===//

#include "LDSHittingSet.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/bit.h"
#include <algorithm>
#include <cassert>

using namespace llvm;
using namespace llvm::ldsbarriers;

int llvm::ldsbarriers::compareCosts(double A, double B) {
  double Eps = 1e-9 * std::max(1.0, B);
  if (A < B - Eps)
    return -1;
  if (A > B + Eps)
    return 1;
  return 0;
}

bool Score::betterThan(const Score &O) const {
  if (int C = compareCosts(Cost, O.Cost))
    return C < 0;
  return Count < O.Count;
}

bool Score::dominates(const Score &O) const {
  int C = compareCosts(Cost, O.Cost);
  return C <= 0 && Count <= O.Count && (C < 0 || Count < O.Count);
}

std::vector<unsigned>
llvm::ldsbarriers::greedyCover(const std::vector<std::vector<unsigned>> &Sets,
                               const std::vector<double> &Cost) {
  unsigned NP = Cost.size();
  // Remaining[Pt]: the sets not yet hit that Pt hits.
  std::vector<std::vector<unsigned>> PtSets(NP);
  std::vector<unsigned> Remaining(NP, 0);
  for (unsigned S = 0; S < Sets.size(); ++S)
    for (unsigned Pt : Sets[S]) {
      PtSets[Pt].push_back(S);
      ++Remaining[Pt];
    }
  std::vector<std::pair<unsigned, unsigned>> Order;
  for (unsigned S = 0; S < Sets.size(); ++S) {
    assert(!Sets[S].empty() && "set without a point");
    Order.push_back({*std::max_element(Sets[S].begin(), Sets[S].end()), S});
  }
  std::sort(Order.begin(), Order.end());
  std::vector<uint8_t> Hit(Sets.size(), 0);
  std::vector<unsigned> Chosen;
  for (auto [Last, S] : Order) {
    if (Hit[S])
      continue;
    unsigned Best = Sets[S].front();
    for (unsigned Pt : Sets[S])
      if (Remaining[Pt] > Remaining[Best] ||
          (Remaining[Pt] == Remaining[Best] && Cost[Pt] <= Cost[Best]))
        Best = Pt;
    Chosen.push_back(Best);
    for (unsigned V : PtSets[Best]) {
      if (Hit[V])
        continue;
      Hit[V] = 1;
      for (unsigned Pt : Sets[V])
        --Remaining[Pt];
    }
  }
  return Chosen;
}

namespace {

/// The number of bits set in both \p A and \p B, without a temporary.
unsigned countCommon(const BitVector &A, const BitVector &B) {
  auto WA = A.getData(), WB = B.getData();
  unsigned N = 0;
  for (size_t I = 0, E = std::min(WA.size(), WB.size()); I < E; ++I)
    N += llvm::popcount(WA[I] & WB[I]);
  return N;
}

/// The first bit set in both \p A and \p B, or -1.
int firstCommon(const BitVector &A, const BitVector &B) {
  auto WA = A.getData(), WB = B.getData();
  for (size_t I = 0, E = std::min(WA.size(), WB.size()); I < E; ++I)
    if (uint64_t W = WA[I] & WB[I])
      return I * sizeof(WA[I]) * 8 + llvm::countr_zero(W);
  return -1;
}

/// One connected component of the set/point incidence graph, as bit
/// matrices: the reductions compare whole rows.
class HittingSetSolver {
public:
  HittingSetSolver(const std::vector<std::vector<unsigned>> &SetPoints,
                   std::vector<double> PointCost, unsigned Budget)
      : NS(SetPoints.size()), NP(PointCost.size()), Cost(std::move(PointCost)),
        Budget(Budget) {
    SetBits.assign(NS, BitVector(NP));
    PtBits.assign(NP, BitVector(NS));
    for (unsigned S = 0; S < NS; ++S)
      for (unsigned Pt : SetPoints[S]) {
        SetBits[S].set(Pt);
        PtBits[Pt].set(S);
      }
  }

  /// Returns the chosen points; sets Optimal when the search finished
  /// within its budget.
  std::vector<unsigned> solve(bool &Optimal) {
    BitVector Sets(NS, true), Points(NP, true);
    Best = greedy(Sets, Points, {});
    BestScore = score(Best);
    std::vector<unsigned> Chosen;
    search(Sets, Points, Chosen);
    Optimal = Nodes <= Budget;
    return Best;
  }

  /// Branch-and-bound nodes this component used.
  unsigned nodes() const { return Nodes; }

private:
  Score score(const std::vector<unsigned> &S) const {
    Score R;
    R.Count = S.size();
    for (unsigned Pt : S)
      R.Cost += Cost[Pt];
    return R;
  }

  /// The live points of set \p S.
  BitVector livePoints(unsigned S, const BitVector &Points) const {
    BitVector C = SetBits[S];
    C &= Points;
    return C;
  }

  /// \p Chosen, then greedyCover on the live sets and points.
  std::vector<unsigned> greedy(const BitVector &Sets, const BitVector &Points,
                               std::vector<unsigned> Chosen) const {
    std::vector<std::vector<unsigned>> Live;
    for (unsigned S : Sets.set_bits()) {
      BitVector C = livePoints(S, Points);
      Live.emplace_back(C.set_bits_begin(), C.set_bits_end());
    }
    for (unsigned Pt : greedyCover(Live, Cost))
      Chosen.push_back(Pt);
    return Chosen;
  }

  void choose(unsigned Pt, BitVector &Sets, BitVector &Points,
              std::vector<unsigned> &Chosen) const {
    Chosen.push_back(Pt);
    Sets.reset(PtBits[Pt]);
    Points.reset(Pt);
  }

  /// Dominated points: hits a subset of another point's sets at no lower
  /// cost. Among equals the later point stays.
  bool dropDominatedPoints(const BitVector &Sets, BitVector &Points) const {
    bool Changed = false;
    std::vector<unsigned> Live(Points.set_bits_begin(), Points.set_bits_end());
    std::vector<BitVector> Hits;
    std::vector<unsigned> Count;
    for (unsigned Pt : Live) {
      BitVector H = PtBits[Pt];
      H &= Sets;
      Count.push_back(H.count());
      Hits.push_back(std::move(H));
    }
    for (unsigned I = 0; I < Live.size(); ++I) {
      for (unsigned J = 0; J < Live.size(); ++J) {
        // A subset has no more elements (a cheap test first).
        if (I == J || Count[I] > Count[J] || !Points.test(Live[J]))
          continue;
        if (Cost[Live[J]] > Cost[Live[I]])
          continue;
        if (Hits[I].test(Hits[J]))
          continue; // Not a subset.
        bool Equal = Hits[I] == Hits[J] && Cost[Live[J]] == Cost[Live[I]];
        if (Equal && J < I)
          continue; // Keep the later one of two equals.
        Points.reset(Live[I]);
        Changed = true;
        break;
      }
    }
    return Changed;
  }

  /// Dominated sets: a set whose points include all points of another set
  /// is hit whenever that one is.
  bool dropDominatedSets(BitVector &Sets, const BitVector &Points) const {
    bool Changed = false;
    std::vector<unsigned> Live(Sets.set_bits_begin(), Sets.set_bits_end());
    std::vector<BitVector> Pts;
    std::vector<unsigned> Count;
    for (unsigned S : Live) {
      Pts.push_back(livePoints(S, Points));
      Count.push_back(Pts.back().count());
    }
    for (unsigned I = 0; I < Live.size(); ++I) {
      for (unsigned J = 0; J < Live.size(); ++J) {
        if (I == J || Count[J] > Count[I] || !Sets.test(Live[J]))
          continue;
        if (Pts[J].test(Pts[I]))
          continue; // J's points are not a subset of I's.
        if (Pts[I] == Pts[J] && J > I)
          continue; // Keep the first of two equals.
        Sets.reset(Live[I]);
        Changed = true;
        break;
      }
    }
    return Changed;
  }

  /// Applies the reduction rules until none applies.
  void reduce(BitVector &Sets, BitVector &Points,
              std::vector<unsigned> &Chosen) const {
    for (bool Changed = true; Changed && Sets.any();) {
      Changed = false;
      // Forced points.
      for (unsigned S : Sets.set_bits()) {
        if (!Sets.test(S))
          continue;
        if (countCommon(SetBits[S], Points) == 1) {
          choose(firstCommon(SetBits[S], Points), Sets, Points, Chosen);
          Changed = true;
        }
      }
      // Points that hit nothing are useless.
      for (unsigned Pt : Points.set_bits())
        if (!PtBits[Pt].anyCommon(Sets))
          Points.reset(Pt);
      Changed |= dropDominatedPoints(Sets, Points);
      Changed |= dropDominatedSets(Sets, Points);
    }
  }

  /// Sets with pairwise disjoint point sets each need their own point,
  /// costing at least their cheapest one.
  Score lowerBound(const BitVector &Sets, const BitVector &Points) const {
    BitVector Used(NP);
    Score LB;
    LB.Count = 0;
    for (unsigned S : Sets.set_bits()) {
      BitVector C = livePoints(S, Points);
      if (C.anyCommon(Used))
        continue;
      Used |= C;
      ++LB.Count;
      double Min = -1;
      for (unsigned Pt : C.set_bits())
        if (Min < 0 || Cost[Pt] < Min)
          Min = Cost[Pt];
      LB.Cost += std::max(Min, 0.0);
    }
    return LB;
  }

  /// Keeps \p S as the best cover when it is better.
  void offer(std::vector<unsigned> S, Score Sc) {
    if (Sc.betterThan(BestScore)) {
      Best = std::move(S);
      BestScore = Sc;
    }
  }

  void search(BitVector Sets, BitVector Points, std::vector<unsigned> Chosen) {
    ++Nodes;
    reduce(Sets, Points, Chosen);
    Score Now = score(Chosen);
    if (Sets.none())
      return offer(std::move(Chosen), Now);
    Score LB = lowerBound(Sets, Points);
    Score Bound{Now.Count + LB.Count, Now.Cost + LB.Cost};
    if (!Bound.betterThan(BestScore))
      return;
    if (Nodes > Budget) {
      std::vector<unsigned> G = greedy(Sets, Points, Chosen);
      Score S = score(G);
      return offer(std::move(G), S);
    }
    // Branch on the set with the fewest points.
    unsigned BranchS = 0, Fewest = ~0u;
    for (unsigned S : Sets.set_bits()) {
      unsigned N = countCommon(SetBits[S], Points);
      if (N < Fewest) {
        Fewest = N;
        BranchS = S;
      }
    }
    std::vector<std::pair<unsigned, unsigned>> Options;
    BitVector BranchPts = livePoints(BranchS, Points);
    for (unsigned Pt : BranchPts.set_bits())
      Options.push_back({countCommon(PtBits[Pt], Sets), Pt});
    std::sort(Options.rbegin(), Options.rend());
    for (auto [Hits, Pt] : Options) {
      BitVector S2 = Sets, P2 = Points;
      std::vector<unsigned> C2 = Chosen;
      choose(Pt, S2, P2, C2);
      search(std::move(S2), std::move(P2), std::move(C2));
      // Later branches need not use this point: the earlier branch
      // explored every cover that does.
      Points.reset(Pt);
    }
  }

  unsigned NS, NP;
  std::vector<BitVector> SetBits, PtBits;
  std::vector<double> Cost;
  unsigned Budget;
  unsigned Nodes = 0;
  std::vector<unsigned> Best;
  Score BestScore;
};

} // namespace

HittingSet llvm::ldsbarriers::solveHittingSet(
    const std::vector<std::vector<unsigned>> &Sets,
    const std::vector<double> &Cost, unsigned Budget) {
  // Sets that share a point are in one component.
  IntEqClasses Comp(Sets.size());
  std::vector<int> FirstSetOfPoint(Cost.size(), -1);
  for (unsigned I = 0; I < Sets.size(); ++I)
    for (unsigned Pt : Sets[I]) {
      if (FirstSetOfPoint[Pt] < 0)
        FirstSetOfPoint[Pt] = I;
      else
        Comp.join(I, FirstSetOfPoint[Pt]);
    }
  // Classes are numbered in the order of their smallest set: the components
  // are solved, and share the node budget, in that order.
  Comp.compress();
  std::vector<std::vector<unsigned>> Groups(Comp.getNumClasses());
  for (unsigned I = 0; I < Sets.size(); ++I)
    if (!Sets[I].empty())
      Groups[Comp[I]].push_back(I);

  HittingSet Result;
  unsigned NodesLeft = Budget;
  std::vector<int> LocalOf(Cost.size(), -1);
  for (const std::vector<unsigned> &Members : Groups) {
    if (Members.empty())
      continue; // Empty sets, which no point hits, are classes of their own.
    // Local numbering of the component's points, in program order (the
    // sets repeat points a lot: sort the distinct ones only, and translate
    // through an array, not a search).
    std::vector<unsigned> LocalToGlobal;
    for (unsigned S : Members)
      for (unsigned G : Sets[S])
        if (LocalOf[G] < 0) {
          LocalOf[G] = 0;
          LocalToGlobal.push_back(G);
        }
    std::sort(LocalToGlobal.begin(), LocalToGlobal.end());
    for (unsigned K = 0; K < LocalToGlobal.size(); ++K)
      LocalOf[LocalToGlobal[K]] = K;
    std::vector<std::vector<unsigned>> SetPts;
    for (unsigned S : Members) {
      std::vector<unsigned> L;
      L.reserve(Sets[S].size());
      for (unsigned G : Sets[S])
        L.push_back(LocalOf[G]);
      SetPts.push_back(std::move(L));
    }
    for (unsigned G : LocalToGlobal)
      LocalOf[G] = -1;
    std::vector<double> Costs;
    for (unsigned G : LocalToGlobal)
      Costs.push_back(Cost[G]);
    if (uint64_t(SetPts.size()) * Costs.size() > HittingSetLargeComponent) {
      for (unsigned L : greedyCover(SetPts, Costs))
        Result.Points.push_back(LocalToGlobal[L]);
      Result.Optimal = false;
      continue;
    }
    // One set (most components): its cheapest point, the last of equals,
    // as the search would find in its one node, without its bit matrices.
    if (SetPts.size() == 1) {
      std::vector<unsigned> &Only = SetPts.front();
      std::sort(Only.begin(), Only.end());
      Only.erase(std::unique(Only.begin(), Only.end()), Only.end());
      for (unsigned L : greedyCover(SetPts, Costs))
        Result.Points.push_back(LocalToGlobal[L]);
      Result.Optimal &= NodesLeft >= 1;
      NodesLeft -= std::min(NodesLeft, 1u);
      continue;
    }
    // The node budget is shared by all components.
    HittingSetSolver Solver(SetPts, std::move(Costs), NodesLeft);
    bool Optimal = true;
    for (unsigned L : Solver.solve(Optimal))
      Result.Points.push_back(LocalToGlobal[L]);
    NodesLeft -= std::min(NodesLeft, Solver.nodes());
    Result.Optimal &= Optimal;
  }
  std::sort(Result.Points.begin(), Result.Points.end());
  return Result;
}
