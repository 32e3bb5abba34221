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
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"
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
  Order.reserve(Sets.size());
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

/// A row of bits (a set of sets or of points), inline up to 256 bits: the
/// search copies two of them per node.
using Row = SmallVector<uint64_t, 4>;

unsigned wordsFor(unsigned Bits) { return (Bits + 63) / 64; }

bool testBit(const uint64_t *R, unsigned I) {
  return R[I / 64] >> (I % 64) & 1;
}
void resetBit(uint64_t *R, unsigned I) {
  R[I / 64] &= ~(uint64_t(1) << (I % 64));
}

/// The first bit set in \p R (\p W words) at \p From or after, or -1: the
/// set bits are walked with it while the row changes under the walk.
int nextBit(const uint64_t *R, unsigned W, unsigned From) {
  unsigned I = From / 64;
  if (I >= W)
    return -1;
  uint64_t Word = R[I] & (~uint64_t(0) << (From % 64));
  while (!Word) {
    if (++I == W)
      return -1;
    Word = R[I];
  }
  return I * 64 + llvm::countr_zero(Word);
}

bool anyBit(const uint64_t *R, unsigned W) {
  for (unsigned I = 0; I < W; ++I)
    if (R[I])
      return true;
  return false;
}

/// The number of bits set in both \p A and \p B.
unsigned countCommon(const uint64_t *A, const uint64_t *B, unsigned W) {
  unsigned N = 0;
  for (unsigned I = 0; I < W; ++I)
    N += llvm::popcount(A[I] & B[I]);
  return N;
}

/// The first bit set in both \p A and \p B, or -1.
int firstCommon(const uint64_t *A, const uint64_t *B, unsigned W) {
  for (unsigned I = 0; I < W; ++I)
    if (uint64_t Word = A[I] & B[I])
      return I * 64 + llvm::countr_zero(Word);
  return -1;
}

bool anyCommon(const uint64_t *A, const uint64_t *B, unsigned W) {
  for (unsigned I = 0; I < W; ++I)
    if (A[I] & B[I])
      return true;
  return false;
}

/// Whether every bit of \p A is set in \p B.
bool isSubset(const uint64_t *A, const uint64_t *B, unsigned W) {
  for (unsigned I = 0; I < W; ++I)
    if (A[I] & ~B[I])
      return false;
  return true;
}

/// One connected component of the set/point incidence graph, as two bit
/// matrices in flat arrays (a row per set over the points, a row per point
/// over the sets): the reductions compare whole rows.
class HittingSetSolver {
public:
  HittingSetSolver(const std::vector<std::vector<unsigned>> &SetPoints,
                   std::vector<double> PointCost, unsigned Budget)
      : NS(SetPoints.size()), NP(PointCost.size()), SW(wordsFor(NS)),
        PW(wordsFor(NP)), SetBits(size_t(NS) * PW), PtBits(size_t(NP) * SW),
        Cost(std::move(PointCost)), Budget(Budget) {
    for (unsigned S = 0; S < NS; ++S)
      for (unsigned Pt : SetPoints[S]) {
        setPoints(S)[Pt / 64] |= uint64_t(1) << (Pt % 64);
        ptSets(Pt)[S / 64] |= uint64_t(1) << (S % 64);
      }
  }

  /// Returns the chosen points; sets Optimal when the search finished
  /// within its budget.
  std::vector<unsigned> solve(bool &Optimal) {
    Row Sets = allOnes(NS), Points = allOnes(NP);
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
  static Row allOnes(unsigned N) {
    Row R(wordsFor(N), ~uint64_t(0));
    if (N % 64)
      R.back() = (uint64_t(1) << (N % 64)) - 1;
    return R;
  }
  const uint64_t *setPoints(unsigned S) const {
    return &SetBits[size_t(S) * PW];
  }
  uint64_t *setPoints(unsigned S) { return &SetBits[size_t(S) * PW]; }
  const uint64_t *ptSets(unsigned Pt) const { return &PtBits[size_t(Pt) * SW]; }
  uint64_t *ptSets(unsigned Pt) { return &PtBits[size_t(Pt) * SW]; }

  Score score(const std::vector<unsigned> &S) const {
    Score R;
    R.Count = S.size();
    for (unsigned Pt : S)
      R.Cost += Cost[Pt];
    return R;
  }

  /// \p Chosen, then greedyCover on the live sets and points.
  std::vector<unsigned> greedy(const Row &Sets, const Row &Points,
                               std::vector<unsigned> Chosen) const {
    std::vector<std::vector<unsigned>> Live;
    for (int S = nextBit(Sets.data(), SW, 0); S >= 0;
         S = nextBit(Sets.data(), SW, S + 1)) {
      std::vector<unsigned> &L = Live.emplace_back();
      const uint64_t *SP = setPoints(S);
      for (unsigned I = 0; I < PW; ++I)
        for (uint64_t Word = SP[I] & Points[I]; Word; Word &= Word - 1)
          L.push_back(I * 64 + llvm::countr_zero(Word));
    }
    llvm::append_range(Chosen, greedyCover(Live, Cost));
    return Chosen;
  }

  void choose(unsigned Pt, Row &Sets, Row &Points,
              std::vector<unsigned> &Chosen) const {
    Chosen.push_back(Pt);
    const uint64_t *Hits = ptSets(Pt);
    for (unsigned I = 0; I < SW; ++I)
      Sets[I] &= ~Hits[I];
    resetBit(Points.data(), Pt);
  }

  /// The rows \p Of (one per live member of \p Live, \p W words each)
  /// masked by \p Mask into Scratch, with their bit counts in Counts.
  template <typename RowOf>
  void maskedRows(const Row &Live, unsigned LW, RowOf Of, const Row &Mask,
                  unsigned W) const {
    Members.clear();
    Scratch.clear();
    Counts.clear();
    for (int M = nextBit(Live.data(), LW, 0); M >= 0;
         M = nextBit(Live.data(), LW, M + 1)) {
      Members.push_back(M);
      const uint64_t *R = Of(M);
      unsigned N = 0;
      for (unsigned I = 0; I < W; ++I) {
        Scratch.push_back(R[I] & Mask[I]);
        N += llvm::popcount(Scratch.back());
      }
      Counts.push_back(N);
    }
    // A dominating row has at least as many bits as the row it dominates:
    // each row only meets those on its side of it in this order.
    ByCount.resize(Members.size());
    std::iota(ByCount.begin(), ByCount.end(), 0);
    llvm::sort(ByCount, [&](unsigned A, unsigned B) {
      return Counts[A] < Counts[B] || (Counts[A] == Counts[B] && A < B);
    });
  }

  /// Dominated points: hits a subset of another point's sets at no lower
  /// cost. Among equals the later point stays.
  bool dropDominatedPoints(const Row &Sets, Row &Points) const {
    bool Changed = false;
    maskedRows(Points, PW, [&](unsigned Pt) { return ptSets(Pt); }, Sets, SW);
    for (unsigned I = 0; I < Members.size(); ++I) {
      const uint64_t *HI = &Scratch[size_t(I) * SW];
      for (unsigned K = ByCount.size(); K-- > 0;) {
        unsigned J = ByCount[K];
        // A subset has no more elements.
        if (Counts[I] > Counts[J])
          break;
        if (I == J || !testBit(Points.data(), Members[J]))
          continue;
        if (Cost[Members[J]] > Cost[Members[I]])
          continue;
        const uint64_t *HJ = &Scratch[size_t(J) * SW];
        if (!isSubset(HI, HJ, SW))
          continue;
        bool Equal =
            Counts[I] == Counts[J] && Cost[Members[J]] == Cost[Members[I]];
        if (Equal && J < I)
          continue; // Keep the later one of two equals.
        resetBit(Points.data(), Members[I]);
        Changed = true;
        break;
      }
    }
    return Changed;
  }

  /// Dominated sets: a set whose points include all points of another set
  /// is hit whenever that one is.
  bool dropDominatedSets(Row &Sets, const Row &Points) const {
    bool Changed = false;
    maskedRows(Sets, SW, [&](unsigned S) { return setPoints(S); }, Points, PW);
    for (unsigned I = 0; I < Members.size(); ++I) {
      const uint64_t *PI = &Scratch[size_t(I) * PW];
      for (unsigned J : ByCount) {
        if (Counts[J] > Counts[I])
          break;
        if (I == J || !testBit(Sets.data(), Members[J]))
          continue;
        const uint64_t *PJ = &Scratch[size_t(J) * PW];
        if (!isSubset(PJ, PI, PW))
          continue; // J's points are not a subset of I's.
        if (Counts[I] == Counts[J] && J > I)
          continue; // Keep the first of two equals.
        resetBit(Sets.data(), Members[I]);
        Changed = true;
        break;
      }
    }
    return Changed;
  }

  /// Applies the reduction rules until none applies. A dominance rule has
  /// nothing to do again until the other side changes (what it drops is
  /// dominated by what it keeps), so it is skipped until then.
  void reduce(Row &Sets, Row &Points, std::vector<unsigned> &Chosen) const {
    bool PointRuleStale = true, SetRuleStale = true;
    for (bool Changed = true; Changed && anyBit(Sets.data(), SW);) {
      Changed = false;
      // Forced points.
      for (int S = nextBit(Sets.data(), SW, 0); S >= 0;
           S = nextBit(Sets.data(), SW, S + 1)) {
        if (countCommon(setPoints(S), Points.data(), PW) == 1) {
          choose(firstCommon(setPoints(S), Points.data(), PW), Sets, Points,
                 Chosen);
          Changed = PointRuleStale = SetRuleStale = true;
        }
      }
      // Points that hit nothing are useless.
      for (int Pt = nextBit(Points.data(), PW, 0); Pt >= 0;
           Pt = nextBit(Points.data(), PW, Pt + 1))
        if (!anyCommon(ptSets(Pt), Sets.data(), SW)) {
          resetBit(Points.data(), Pt);
          SetRuleStale = true;
        }
      if (PointRuleStale) {
        PointRuleStale = false;
        if (dropDominatedPoints(Sets, Points))
          Changed = SetRuleStale = true;
      }
      if (SetRuleStale) {
        SetRuleStale = false;
        if (dropDominatedSets(Sets, Points))
          Changed = PointRuleStale = true;
      }
    }
  }

  /// Sets with pairwise disjoint point sets each need their own point,
  /// costing at least their cheapest one.
  Score lowerBound(const Row &Sets, const Row &Points) const {
    Row Used(PW, 0), C(PW, 0);
    Score LB{0, 0};
    for (int S = nextBit(Sets.data(), SW, 0); S >= 0;
         S = nextBit(Sets.data(), SW, S + 1)) {
      const uint64_t *SP = setPoints(S);
      for (unsigned I = 0; I < PW; ++I)
        C[I] = SP[I] & Points[I];
      if (anyCommon(C.data(), Used.data(), PW))
        continue;
      double Min = -1;
      for (unsigned I = 0; I < PW; ++I) {
        Used[I] |= C[I];
        for (uint64_t Word = C[I]; Word; Word &= Word - 1) {
          double PtCost = Cost[I * 64 + llvm::countr_zero(Word)];
          if (Min < 0 || PtCost < Min)
            Min = PtCost;
        }
      }
      ++LB.Count;
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

  void search(Row Sets, Row Points, std::vector<unsigned> Chosen) {
    ++Nodes;
    reduce(Sets, Points, Chosen);
    Score Now = score(Chosen);
    if (!anyBit(Sets.data(), SW))
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
    for (int S = nextBit(Sets.data(), SW, 0); S >= 0;
         S = nextBit(Sets.data(), SW, S + 1)) {
      unsigned N = countCommon(setPoints(S), Points.data(), PW);
      if (N < Fewest) {
        Fewest = N;
        BranchS = S;
      }
    }
    std::vector<std::pair<unsigned, unsigned>> Options;
    const uint64_t *SP = setPoints(BranchS);
    for (unsigned I = 0; I < PW; ++I)
      for (uint64_t Word = SP[I] & Points[I]; Word; Word &= Word - 1) {
        unsigned Pt = I * 64 + llvm::countr_zero(Word);
        Options.push_back({countCommon(ptSets(Pt), Sets.data(), SW), Pt});
      }
    std::sort(Options.rbegin(), Options.rend());
    for (auto [Hits, Pt] : Options) {
      Row S2 = Sets, P2 = Points;
      std::vector<unsigned> C2 = Chosen;
      choose(Pt, S2, P2, C2);
      search(std::move(S2), std::move(P2), std::move(C2));
      // Later branches need not use this point: the earlier branch
      // explored every cover that does.
      resetBit(Points.data(), Pt);
    }
  }

  unsigned NS, NP;
  /// Words of a row over the sets, over the points.
  unsigned SW, PW;
  std::vector<uint64_t> SetBits, PtBits;
  std::vector<double> Cost;
  unsigned Budget;
  unsigned Nodes = 0;
  std::vector<unsigned> Best;
  Score BestScore;
  /// Scratch of the dominance reductions (maskedRows), kept across nodes.
  mutable std::vector<unsigned> Members, Counts, ByCount;
  mutable std::vector<uint64_t> Scratch;
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
    // as the search would find in its one node, without numbering points
    // (a set too large for the search goes the general way).
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
    llvm::sort(LocalToGlobal);
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
    // The node budget is shared by all components.
    HittingSetSolver Solver(SetPts, std::move(Costs), NodesLeft);
    bool Optimal = true;
    for (unsigned L : Solver.solve(Optimal))
      Result.Points.push_back(LocalToGlobal[L]);
    NodesLeft -= std::min(NodesLeft, Solver.nodes());
    Result.Optimal &= Optimal;
  }
  llvm::sort(Result.Points);
  return Result;
}
