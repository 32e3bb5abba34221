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
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <cassert>
#include <numeric>

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

std::vector<unsigned>
llvm::ldsbarriers::greedyCover(const std::vector<std::vector<unsigned>> &Sets,
                               const std::vector<double> &Cost) {
  unsigned NP = Cost.size();
  // The sets each point hits, as one array in point order: PtSets[Begin[Pt]
  // .. Begin[Pt + 1]). Remaining[Pt]: how many of them are not hit yet.
  std::vector<unsigned> Begin(NP + 1, 0), Remaining(NP, 0);
  for (const std::vector<unsigned> &Set : Sets)
    for (unsigned Pt : Set)
      ++Remaining[Pt];
  for (unsigned Pt = 0; Pt < NP; ++Pt)
    Begin[Pt + 1] = Begin[Pt] + Remaining[Pt];
  std::vector<unsigned> PtSets(Begin[NP]), Fill(Begin.begin(), Begin.end() - 1);
  for (unsigned S = 0; S < Sets.size(); ++S)
    for (unsigned Pt : Sets[S])
      PtSets[Fill[Pt]++] = S;
  std::vector<std::pair<unsigned, unsigned>> Order;
  for (unsigned S = 0; S < Sets.size(); ++S) {
    assert(!Sets[S].empty() && "set without a point");
    Order.push_back({*llvm::max_element(Sets[S]), S});
  }
  llvm::sort(Order);
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
    for (unsigned I = Begin[Best]; I < Begin[Best + 1]; ++I) {
      unsigned V = PtSets[I];
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

/// One connected component of the set/point incidence graph, as two bit
/// matrices (a row per set over the points, a row per point over the
/// sets): the reductions compare whole rows.
class HittingSetSolver {
public:
  HittingSetSolver(const std::vector<std::vector<unsigned>> &SetPoints,
                   std::vector<double> PointCost, unsigned Budget)
      : SetPts(SetPoints.size(), BitVector(PointCost.size())),
        PtSets(PointCost.size(), BitVector(SetPoints.size())),
        Cost(std::move(PointCost)), Budget(Budget) {
    for (unsigned S = 0; S < SetPoints.size(); ++S)
      for (unsigned Pt : SetPoints[S]) {
        SetPts[S].set(Pt);
        PtSets[Pt].set(S);
      }
  }

  /// The chosen points; the search finished within its budget when Nodes
  /// is at most Budget.
  std::vector<unsigned> solve() {
    BitVector Sets(SetPts.size(), true), Points(PtSets.size(), true);
    Best = greedy(Sets, Points, {});
    BestScore = score(Best);
    search(Sets, Points, {});
    return Best;
  }

  unsigned Nodes = 0;

private:
  static BitVector common(const BitVector &A, const BitVector &B) {
    BitVector R = A;
    R &= B;
    return R;
  }

  Score score(const std::vector<unsigned> &S) const {
    Score R;
    R.Count = S.size();
    for (unsigned Pt : S)
      R.Cost += Cost[Pt];
    return R;
  }

  /// \p Chosen, then greedyCover on the live sets and points.
  std::vector<unsigned> greedy(const BitVector &Sets, const BitVector &Points,
                               std::vector<unsigned> Chosen) const {
    std::vector<std::vector<unsigned>> Live;
    for (unsigned S : Sets.set_bits())
      llvm::append_range(Live.emplace_back(),
                         common(SetPts[S], Points).set_bits());
    llvm::append_range(Chosen, greedyCover(Live, Cost));
    return Chosen;
  }

  void choose(unsigned Pt, BitVector &Sets, BitVector &Points,
              std::vector<unsigned> &Chosen) const {
    Chosen.push_back(Pt);
    Sets.reset(PtSets[Pt]);
    Points.reset(Pt);
  }

  /// Drops the dominated members of \p Live, points or (\p AreSets) sets,
  /// by their rows \p Rows masked by \p Mask: a point hitting a subset of
  /// another point's sets at no lower cost (the later of equals stays), a
  /// set holding all points of another set, which is hit whenever that one
  /// is (the first of equals stays).
  bool dropDominated(BitVector &Live, const std::vector<BitVector> &Rows,
                     const BitVector &Mask, bool AreSets) const {
    SmallVector<unsigned> Members, Counts, ByCount;
    std::vector<BitVector> Masked;
    for (unsigned M : Live.set_bits()) {
      Members.push_back(M);
      Masked.push_back(common(Rows[M], Mask));
      Counts.push_back(Masked.back().count());
    }
    // A subset has no more bits than its superset: in this order, each row
    // only meets the rows on the side of it that may dominate it.
    unsigned N = Members.size();
    ByCount.resize(N);
    std::iota(ByCount.begin(), ByCount.end(), 0);
    llvm::sort(ByCount, [&](unsigned A, unsigned B) {
      return std::make_pair(Counts[A], A) < std::make_pair(Counts[B], B);
    });
    auto CostOf = [&](unsigned K) { return AreSets ? 0.0 : Cost[Members[K]]; };
    bool Changed = false;
    for (unsigned I = 0; I < N; ++I) {
      for (unsigned K = 0; K < N; ++K) {
        unsigned J = ByCount[AreSets ? K : N - 1 - K];
        // A dominated point is the subset, a dominated set the superset.
        unsigned Sub = AreSets ? J : I, Super = AreSets ? I : J;
        if (Counts[Sub] > Counts[Super])
          break;
        double CI = CostOf(I), CJ = CostOf(J);
        if (I == J || !Live.test(Members[J]) || CJ > CI ||
            !Masked[Sub].subsetOf(Masked[Super]))
          continue;
        if (Counts[I] == Counts[J] && CJ == CI && (AreSets ? J > I : J < I))
          continue; // Of two equals, the later point or the first set stays.
        Live.reset(Members[I]);
        Changed = true;
        break;
      }
    }
    return Changed;
  }

  /// Applies the reduction rules until none applies. A dominance rule has
  /// nothing to do again until the other side changes (what it drops is
  /// dominated by what it keeps), so it is skipped until then.
  void reduce(BitVector &Sets, BitVector &Points,
              std::vector<unsigned> &Chosen) const {
    bool PointRuleStale = true, SetRuleStale = true;
    for (bool Changed = true; Changed && Sets.any();) {
      Changed = false;
      // Forced points.
      for (unsigned S : Sets.set_bits()) {
        BitVector Left = common(SetPts[S], Points);
        if (Left.count() == 1) {
          choose(Left.find_first(), Sets, Points, Chosen);
          Changed = PointRuleStale = SetRuleStale = true;
        }
      }
      // Points that hit nothing are useless.
      for (unsigned Pt : Points.set_bits())
        if (!PtSets[Pt].anyCommon(Sets)) {
          Points.reset(Pt);
          SetRuleStale = true;
        }
      if (PointRuleStale) {
        PointRuleStale = false;
        if (dropDominated(Points, PtSets, Sets, /*AreSets=*/false))
          Changed = SetRuleStale = true;
      }
      if (SetRuleStale) {
        SetRuleStale = false;
        if (dropDominated(Sets, SetPts, Points, /*AreSets=*/true))
          Changed = PointRuleStale = true;
      }
    }
  }

  /// Sets with pairwise disjoint point sets each need their own point,
  /// costing at least their cheapest one.
  Score lowerBound(const BitVector &Sets, const BitVector &Points) const {
    BitVector Used(PtSets.size());
    Score LB{0, 0};
    for (unsigned S : Sets.set_bits()) {
      BitVector C = common(SetPts[S], Points);
      if (C.anyCommon(Used))
        continue;
      Used |= C;
      double Min = -1;
      for (unsigned Pt : C.set_bits())
        if (Min < 0 || Cost[Pt] < Min)
          Min = Cost[Pt];
      ++LB.Count;
      LB.Cost += std::max(Min, 0.0);
    }
    return LB;
  }

  /// Keeps \p S as the best cover when it is better.
  void offer(std::vector<unsigned> S) {
    Score Sc = score(S);
    if (Sc.betterThan(BestScore)) {
      Best = std::move(S);
      BestScore = Sc;
    }
  }

  void search(BitVector Sets, BitVector Points, std::vector<unsigned> Chosen) {
    ++Nodes;
    reduce(Sets, Points, Chosen);
    if (Sets.none())
      return offer(std::move(Chosen));
    Score Now = score(Chosen), LB = lowerBound(Sets, Points);
    Score Bound{Now.Count + LB.Count, Now.Cost + LB.Cost};
    if (!Bound.betterThan(BestScore))
      return;
    if (Nodes > Budget)
      return offer(greedy(Sets, Points, Chosen));
    // Branch on the set with the fewest points.
    unsigned BranchS = 0, Fewest = ~0u;
    for (unsigned S : Sets.set_bits()) {
      unsigned N = common(SetPts[S], Points).count();
      if (N < Fewest) {
        Fewest = N;
        BranchS = S;
      }
    }
    std::vector<std::pair<unsigned, unsigned>> Options;
    BitVector Branch = common(SetPts[BranchS], Points);
    for (unsigned Pt : Branch.set_bits())
      Options.push_back({common(PtSets[Pt], Sets).count(), Pt});
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

  std::vector<BitVector> SetPts, PtSets;
  std::vector<double> Cost;
  unsigned Budget;
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
    // One set (most components): its cheapest point, the last of equals,
    // as the search would find in its one node, without numbering points.
    if (Members.size() == 1 &&
        Sets[Members.front()].size() <= HittingSetLargeComponent) {
      const std::vector<unsigned> &Only = Sets[Members.front()];
      unsigned Pick = Only.front();
      for (unsigned G : Only)
        if (Cost[G] < Cost[Pick] || (Cost[G] == Cost[Pick] && G > Pick))
          Pick = G;
      Result.Points.push_back(Pick);
      Result.Optimal &= NodesLeft >= 1;
      NodesLeft -= std::min(NodesLeft, 1u);
      continue;
    }
    // Local numbering of the component's points, in program order: the
    // sets repeat points a lot, so sort the distinct ones only.
    std::vector<unsigned> LocalToGlobal;
    for (unsigned S : Members)
      for (unsigned G : Sets[S])
        if (LocalOf[G] < 0) {
          LocalOf[G] = 0;
          LocalToGlobal.push_back(G);
        }
    llvm::sort(LocalToGlobal);
    for (unsigned K = 0; K < LocalToGlobal.size(); ++K)
      LocalOf[LocalToGlobal[K]] = K;
    std::vector<std::vector<unsigned>> SetPts;
    for (unsigned S : Members) {
      std::vector<unsigned> &L = SetPts.emplace_back();
      for (unsigned G : Sets[S])
        L.push_back(LocalOf[G]);
    }
    std::vector<double> Costs;
    for (unsigned G : LocalToGlobal) {
      LocalOf[G] = -1;
      Costs.push_back(Cost[G]);
    }
    if (uint64_t(SetPts.size()) * Costs.size() > HittingSetLargeComponent) {
      for (unsigned L : greedyCover(SetPts, Costs))
        Result.Points.push_back(LocalToGlobal[L]);
      Result.Optimal = false;
      continue;
    }
    // The node budget is shared by all components.
    HittingSetSolver Solver(SetPts, std::move(Costs), NodesLeft);
    for (unsigned L : Solver.solve())
      Result.Points.push_back(LocalToGlobal[L]);
    Result.Optimal &= Solver.Nodes <= NodesLeft;
    NodesLeft -= std::min(NodesLeft, Solver.Nodes);
  }
  llvm::sort(Result.Points);
  return Result;
}
