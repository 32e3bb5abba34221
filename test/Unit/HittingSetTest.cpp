//===- HittingSetTest.cpp - The hitting-set solver on its own -------------===//
//
// Random small instances against an exhaustive search over every subset of
// points: the exact search reaches the minimum cost (then count); the greedy
// paths (greedyCover, an exhausted node budget, components too large for
// the exact search) always give a valid cover, and greedyCover a minimum
// one on interval instances of equal costs.
//
//===----------------------------------------------------------------------===//

#include "LDSHittingSet.h"
#include "gtest/gtest.h"
#include <random>

using namespace llvm::ldsbarriers;

namespace {

using Sets = std::vector<std::vector<unsigned>>;

/// Whether \p Chosen hits every non-empty set of \p S.
bool hitsAll(const Sets &S, const std::vector<unsigned> &Chosen) {
  for (const std::vector<unsigned> &Set : S) {
    if (Set.empty())
      continue;
    bool Hit = false;
    for (unsigned Pt : Set)
      for (unsigned C : Chosen)
        Hit |= Pt == C;
    if (!Hit)
      return false;
  }
  return true;
}

Score scoreOf(const std::vector<unsigned> &Chosen,
              const std::vector<double> &Cost) {
  Score S;
  S.Count = Chosen.size();
  for (unsigned Pt : Chosen)
    S.Cost += Cost[Pt];
  return S;
}

/// The best score of any subset of the points that hits every set.
Score exhaustiveMinimum(const Sets &S, const std::vector<double> &Cost) {
  Score Best;
  bool Found = false;
  unsigned NP = Cost.size();
  for (unsigned Mask = 0; Mask < (1u << NP); ++Mask) {
    std::vector<unsigned> Chosen;
    for (unsigned Pt = 0; Pt < NP; ++Pt)
      if (Mask & (1u << Pt))
        Chosen.push_back(Pt);
    Score Sc = scoreOf(Chosen, Cost);
    if (hitsAll(S, Chosen) && (!Found || Sc.betterThan(Best))) {
      Best = Sc;
      Found = true;
    }
  }
  return Best;
}

/// Sets of random points among \p NP (ascending, distinct), some empty.
Sets randomSets(std::mt19937 &Rng, unsigned NP, unsigned NS) {
  Sets S(NS);
  for (std::vector<unsigned> &Set : S) {
    if (Rng() % 8 == 0)
      continue; // Ignored by the solver.
    unsigned Density = 1 + Rng() % 3;
    for (unsigned Pt = 0; Pt < NP; ++Pt)
      if (Rng() % (Density + 2) == 0)
        Set.push_back(Pt);
    if (Set.empty())
      Set.push_back(Rng() % NP);
  }
  return S;
}

std::vector<double> randomCosts(std::mt19937 &Rng, unsigned NP) {
  static const double Freqs[] = {0.25, 0.5, 1, 1, 2, 4, 8, 16};
  std::vector<double> Cost(NP);
  for (double &C : Cost)
    C = Freqs[Rng() % std::size(Freqs)];
  return Cost;
}

TEST(HittingSet, ExactSearchReachesTheExhaustiveMinimum) {
  std::mt19937 Rng(2024);
  for (unsigned Iter = 0; Iter < 400; ++Iter) {
    unsigned NP = 1 + Rng() % 12, NS = 1 + Rng() % 10;
    Sets S = randomSets(Rng, NP, NS);
    std::vector<double> Cost = randomCosts(Rng, NP);
    HittingSet HS = solveHittingSet(S, Cost, /*Budget=*/100000);
    EXPECT_TRUE(HS.Optimal) << "iteration " << Iter;
    EXPECT_TRUE(std::is_sorted(HS.Points.begin(), HS.Points.end()));
    ASSERT_TRUE(hitsAll(S, HS.Points)) << "iteration " << Iter;
    Score Got = scoreOf(HS.Points, Cost), Min = exhaustiveMinimum(S, Cost);
    EXPECT_NEAR(Got.Cost, Min.Cost, 1e-9) << "iteration " << Iter;
    EXPECT_EQ(Got.Count, Min.Count) << "iteration " << Iter;
  }
}

TEST(HittingSet, GreedyPathsGiveValidCovers) {
  std::mt19937 Rng(7);
  for (unsigned Iter = 0; Iter < 400; ++Iter) {
    unsigned NP = 1 + Rng() % 12, NS = 1 + Rng() % 10;
    Sets S = randomSets(Rng, NP, NS);
    std::vector<double> Cost = randomCosts(Rng, NP);
    Sets NonEmpty;
    for (const std::vector<unsigned> &Set : S)
      if (!Set.empty())
        NonEmpty.push_back(Set);
    EXPECT_TRUE(hitsAll(S, greedyCover(NonEmpty, Cost)))
        << "iteration " << Iter;
    // No node to spend: every branch ends in the greedy.
    HittingSet HS = solveHittingSet(S, Cost, /*Budget=*/0);
    EXPECT_TRUE(hitsAll(S, HS.Points)) << "iteration " << Iter;
    Score Got = scoreOf(HS.Points, Cost), Min = exhaustiveMinimum(S, Cost);
    EXPECT_FALSE(Got.betterThan(Min)) << "iteration " << Iter;
  }
}

TEST(HittingSet, GreedyIsMinimalOnIntervals) {
  std::mt19937 Rng(11);
  for (unsigned Iter = 0; Iter < 300; ++Iter) {
    unsigned NP = 1 + Rng() % 12, NS = 1 + Rng() % 10;
    Sets S(NS);
    for (std::vector<unsigned> &Set : S) {
      unsigned Lo = Rng() % NP, Hi = Lo + Rng() % (NP - Lo);
      for (unsigned Pt = Lo; Pt <= Hi; ++Pt)
        Set.push_back(Pt);
    }
    std::vector<double> Cost(NP, 1.0);
    std::vector<unsigned> G = greedyCover(S, Cost);
    ASSERT_TRUE(hitsAll(S, G)) << "iteration " << Iter;
    EXPECT_EQ(G.size(), exhaustiveMinimum(S, Cost).Count)
        << "iteration " << Iter;
  }
}

TEST(HittingSet, ExactSearchIsMinimalOnLongIntervals) {
  // One component of up to 150 intervals over up to 220 points: bit rows of
  // several words. On intervals of equal costs the greedy is minimal; the
  // exact search (its reductions, and branching where intervals nest) must
  // find as few points, and a cover.
  std::mt19937 Rng(5);
  for (unsigned Iter = 0; Iter < 60; ++Iter) {
    unsigned NP = 70 + Rng() % 150, NS = 70 + Rng() % 80;
    Sets S;
    // A chain of overlapping intervals keeps them in one component.
    for (unsigned Lo = 0; Lo + 4 < NP && S.size() < NS; Lo += 1 + Rng() % 3) {
      unsigned Hi = std::min(NP - 1, Lo + 2 + unsigned(Rng() % 6));
      std::vector<unsigned> Set;
      for (unsigned Pt = Lo; Pt <= Hi; ++Pt)
        Set.push_back(Pt);
      S.push_back(Set);
    }
    ASSERT_LE(uint64_t(S.size()) * NP, HittingSetLargeComponent);
    std::vector<double> Cost(NP, 1.0);
    HittingSet HS = solveHittingSet(S, Cost, /*Budget=*/100000);
    EXPECT_TRUE(HS.Optimal) << "iteration " << Iter;
    ASSERT_TRUE(hitsAll(S, HS.Points)) << "iteration " << Iter;
    EXPECT_EQ(HS.Points.size(), greedyCover(S, Cost).size())
        << "iteration " << Iter;
  }
}

TEST(HittingSet, LargeComponentsTakeTheGreedy) {
  // 400 overlapping intervals of 400 points: one component beyond the bit
  // matrices of the exact search.
  unsigned NP = 400;
  Sets S;
  for (unsigned I = 0; I + 3 < NP; ++I)
    S.push_back({I, I + 1, I + 2, I + 3});
  std::vector<double> Cost(NP, 1.0);
  ASSERT_GT(uint64_t(S.size()) * NP, HittingSetLargeComponent);
  HittingSet HS = solveHittingSet(S, Cost, /*Budget=*/2000);
  EXPECT_FALSE(HS.Optimal);
  EXPECT_TRUE(hitsAll(S, HS.Points));
  EXPECT_EQ(HS.Points.size(), 100u); // Every fourth point, as stabbing does.
}

TEST(HittingSet, CostsCompareWithinRounding) {
  EXPECT_EQ(compareCosts(1.0, 1.0 + 1e-12), 0);
  EXPECT_EQ(compareCosts(1e6 + 1e-5, 1e6), 0);
  EXPECT_EQ(compareCosts(1.0, 2.0), -1);
  EXPECT_EQ(compareCosts(2.0, 1.0), 1);
  Score A{2, 1.0}, B{1, 1.0 + 1e-12}, C{1, 2.0};
  EXPECT_TRUE(B.betterThan(A)); // Same cost, fewer points.
  EXPECT_TRUE(A.betterThan(C)); // Cost first.
  EXPECT_TRUE(B.dominates(A));
  EXPECT_FALSE(A.dominates(C)); // Cheaper, but more points.
  EXPECT_TRUE(B.dominates(C));
  EXPECT_FALSE(A.dominates(A));
}

} // namespace
