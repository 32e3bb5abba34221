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
#include "gtest/gtest.h"
#include <cstdio>
#include <functional>
#include <random>

using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::test;

namespace {

enum class Shape {
  Straight,
  Diamond,
  Loop,
  Nested,
  MultiBackEdge,
  Irreducible
};
const char *shapeName(Shape S) {
  switch (S) {
  case Shape::Straight:
    return "straight-line";
  case Shape::Diamond:
    return "diamonds";
  case Shape::Loop:
    return "single loop";
  case Shape::Nested:
    return "nested loops";
  case Shape::MultiBackEdge:
    return "multiple back-edges";
  case Shape::Irreducible:
    return "irreducible";
  }
  return "?";
}

std::string events(std::mt19937 &Rng, unsigned Max) {
  static const char *const Kinds[] = {"R0", "W0", "R1", "W1", "A0+1",
                                      "W0", "R0", "D1", "L",  "|"};
  std::string S;
  for (unsigned I = 0, N = Rng() % (Max + 1); I < N; ++I)
    S += std::string(Kinds[Rng() % std::size(Kinds)]) + " ";
  return S;
}

AbstractProgram make(Shape S, std::mt19937 &Rng) {
  ProgramBuilder B;
  switch (S) {
  case Shape::Straight:
    B.block(events(Rng, 8));
    break;
  case Shape::Diamond: {
    unsigned E = B.block(events(Rng, 2)), T = B.block(events(Rng, 2), 0.5),
             F = B.block(events(Rng, 2), 0.5), J = B.block(events(Rng, 2));
    B.edge(E, T);
    B.edge(E, F);
    B.edge(T, J);
    B.edge(F, J);
    break;
  }
  case Shape::Loop: {
    unsigned P = B.block(events(Rng, 2)), L = B.block(events(Rng, 5), 8),
             X = B.block(events(Rng, 2));
    B.selfLoop(P, L, X);
    break;
  }
  case Shape::Nested: {
    unsigned P = B.block(events(Rng, 1)), H = B.block(events(Rng, 2), 4),
             I = B.block(events(Rng, 2), 16), T = B.block(events(Rng, 2), 4),
             X = B.block(events(Rng, 1));
    B.edge(P, H);
    B.selfLoop(H, I, T);
    B.edge(T, H);
    B.edge(T, X);
    break;
  }
  case Shape::MultiBackEdge: {
    unsigned P = B.block(events(Rng, 1)), H = B.block(events(Rng, 2), 8),
             A = B.block(events(Rng, 2), 4), C = B.block(events(Rng, 2), 4),
             X = B.block(events(Rng, 1));
    B.edge(P, H);
    B.edge(H, A);
    B.edge(H, C);
    B.edge(A, H);
    B.edge(C, H);
    B.edge(C, X);
    break;
  }
  case Shape::Irreducible: {
    unsigned E = B.block(events(Rng, 2)), A = B.block(events(Rng, 2), 4),
             C = B.block(events(Rng, 2), 4), X = B.block(events(Rng, 1));
    B.ifThen(E, A, C);
    B.edge(C, A);
    B.edge(C, X);
    break;
  }
  }
  return B.program();
}

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
