//===- PlacementGapTest.cpp - Placement against the optimum by CFG class --===//
//
// Seeded random abstract programs of several CFG classes (straight-line,
// diamonds, single loops, nested loops, multiple back-edges, irreducible
// regions) with LDS events, existing barriers and asynchronous transfers.
// For each the placement must be valid; it is compared with an exhaustive
// search for the fewest barriers. The gap per class is printed (it is
// recorded in docs/Benchmarks.rst) and must be zero where the placement is
// provably optimal.
//
//===----------------------------------------------------------------------===//

#include "BruteForce.h"
#include "LDSBarrierPlacement.h"
#include "ProgramBuilder.h"
#include "RandomPrograms.h"
#include "gtest/gtest.h"
#include <cstdio>
#include <functional>
#include <random>

using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::test;

namespace {

TEST(PlacementGap, ValidEverywhereOptimalWhereProvable) {
  std::printf("%-22s %8s %8s %10s %12s\n", "CFG class", "programs", "optimal",
              "extra", "proven-opt");
  for (Shape S : {Shape::Straight, Shape::Diamond, Shape::Loop, Shape::Nested,
                  Shape::MultiBackEdge, Shape::Irreducible}) {
    std::mt19937 Rng(1000 + unsigned(S));
    unsigned Programs = 0, Optimal = 0, Extra = 0, Proven = 0;
    for (unsigned Iter = 0; Iter < 150; ++Iter) {
      AbstractProgram P = make(S, Rng);
      // Existing barriers are kept out of the comparison: the exhaustive
      // search counts new barriers only, and so does the placement, but an
      // existing barrier completed with a wait is free for the placement.
      Placement R = placeBarriers(P, AnalysisOptions());
      ASSERT_EQ(
          analyzeHazards(P, AnalysisOptions(), R.augmentation()).Windows.size(),
          R.Uncoverable.size())
          << shapeName(S) << " iteration " << Iter;
      if (!R.CompletedBarriers.empty())
        continue;
      unsigned Best = minimumBarrierCount(P, R.Barriers.size());
      ASSERT_LE(Best, R.Barriers.size()) << shapeName(S) << " " << Iter;
      ++Programs;
      Optimal += Best == R.Barriers.size();
      Extra += R.Barriers.size() - Best;
      Proven += R.ProvenOptimal;
      if (S == Shape::Straight || S == Shape::Loop)
        EXPECT_EQ(Best, R.Barriers.size())
            << shapeName(S) << " iteration " << Iter;
    }
    std::printf("%-22s %8u %8u %10u %12u\n", shapeName(S), Programs, Optimal,
                Extra, Proven);
  }
}

} // namespace
