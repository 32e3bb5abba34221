//===- CounterTest.cpp - Exact counter values for asynchronous transfers --===//
//
// The count of later in-order operations that the analysis reports at a
// point (minimum over paths) is compared with a brute-force enumeration of
// paths on random small CFGs, and the placement's wait values are checked on
// pipelined patterns.
//
//===----------------------------------------------------------------------===//

#include "LDSBarrierPlacement.h"
#include "ProgramBuilder.h"
#include "gtest/gtest.h"
#include <functional>
#include <random>

using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::test;

namespace {

TEST(Counters, WaitBeforeBarrierCountsLaterLoads) {
  // DMA, two unrelated global loads, then a read of the DMA's object: the
  // barrier's vmcnt may leave the two loads in flight.
  ProgramBuilder B;
  B.block("D0 L L R0");
  Placement R = placeBarriers(B.program(), AnalysisOptions());
  ASSERT_EQ(R.Barriers.size(), 1u);
  EXPECT_EQ(R.Barriers[0].Waits[Counter::VM], 2);
  EXPECT_EQ(R.Barriers[0].Waits[Counter::LDS], WaitThresholds::NoWait);
}

TEST(Counters, SingleWaveGetsOnlyTheWait) {
  ProgramBuilder B;
  B.block("D0 L R0");
  PlacementOptions O;
  O.SingleWave = true;
  Placement R = placeBarriers(B.program(), AnalysisOptions(), O);
  EXPECT_TRUE(R.Barriers.empty());
  ASSERT_EQ(R.Waits.size(), 1u);
  EXPECT_EQ(R.Waits[0].At, (Point{0, 2}));
  EXPECT_EQ(R.Waits[0].Waits[Counter::VM], 1);
}

TEST(Counters, UnconsumedTransferNeedsNothing) {
  ProgramBuilder B;
  B.block("D0 L R1");
  Placement R = placeBarriers(B.program(), AnalysisOptions());
  EXPECT_TRUE(R.Barriers.empty());
  EXPECT_TRUE(R.Waits.empty());
}

TEST(Counters, ExistingHardWaitPromotesExactly) {
  // vmcnt(1) after D0 D1: D0 complete, D1 may not be. A read of object 0
  // after a barrier is fine; the barrier lacks nothing for it.
  ProgramBuilder B;
  B.block("D0 D1 v1 | R0");
  Placement R = placeBarriers(B.program(), AnalysisOptions());
  EXPECT_TRUE(R.Barriers.empty());
  EXPECT_TRUE(R.CompletedBarriers.empty());
}

TEST(Counters, DoubleBufferedLoopLeavesNextStageInFlight) {
  // Prologue: DMA of stage 0, then a global load. Loop body: consume the
  // stage, refill it by DMA for the next iteration, then a global load. At
  // the top of the body the load issued after the DMA may stay in flight on
  // every path: vmcnt(1), not vmcnt(0).
  ProgramBuilder B;
  unsigned Pre = B.block("D0 L"), Body = B.block("R0 D0 L", 8),
           Exit = B.block("");
  B.selfLoop(Pre, Body, Exit);
  Placement R = placeBarriers(B.program(), AnalysisOptions());
  bool SawExact = false;
  for (const auto &NB : R.Barriers)
    SawExact |= NB.Waits[Counter::VM] == 1;
  EXPECT_TRUE(SawExact);
}

/// Minimum number of ticks/in-order operations of producer's class between
/// the producer and point Q, over paths visiting each block at most twice.
unsigned bruteForceLater(const AbstractProgram &P, EventRef A, Point Q,
                         bool &Reached) {
  const Event &AE = P.event(A);
  unsigned Best = ~0u;
  std::vector<unsigned> Visits(P.Blocks.size(), 0);
  auto Counts = [&](const Event &E) {
    return (E.Kind == Event::Tick || (E.Kind == Event::Access && E.InOrder)) &&
           E.Ctr == AE.Ctr && E.OrderClass == AE.OrderClass;
  };
  std::function<void(unsigned, unsigned, unsigned)> Go =
      [&](unsigned B, unsigned From, unsigned N) {
        const auto &Events = P.Blocks[B].Events;
        for (unsigned I = From; I <= Events.size(); ++I) {
          if (B == Q.Block && I == Q.Index)
            Best = std::min(Best, N);
          if (I == Events.size())
            break;
          // A new instance of the producer restarts its count.
          if (Point{B, I} == A)
            N = 0;
          else if (Counts(Events[I]))
            ++N;
        }
        for (unsigned S : P.Blocks[B].Succs) {
          if (Visits[S] >= 2)
            continue;
          ++Visits[S];
          Go(S, 0, N);
          --Visits[S];
        }
      };
  Go(A.Block, A.Index + 1, 0);
  Reached = Best != ~0u;
  return Best;
}

TEST(Counters, AnalysisCountsMatchPathEnumeration) {
  std::mt19937 Rng(555);
  static const char *const Kinds[] = {"D0", "L", "R1", "D1", "L", "W1", "O"};
  unsigned Compared = 0;
  for (unsigned Iter = 0; Iter < 300; ++Iter) {
    ProgramBuilder B;
    unsigned N = 1 + Rng() % 4;
    for (unsigned I = 0; I < N; ++I) {
      std::string Spec;
      for (unsigned K = 0, L = Rng() % 5; K < L; ++K)
        Spec += std::string(Kinds[Rng() % std::size(Kinds)]) + " ";
      B.block(Spec);
    }
    B.chainWithRandomEdges(Rng, Rng() % 3);
    AbstractProgram &P = B.program();
    // Query the end of every block.
    Augmentation Aug;
    for (unsigned Blk = 0; Blk < N; ++Blk)
      Aug.Queries.push_back({Blk, unsigned(P.Blocks[Blk].Events.size())});
    HazardResult H = analyzeHazards(P, AnalysisOptions(), Aug);
    for (unsigned Q = 0; Q < Aug.Queries.size(); ++Q)
      for (const PendingAccess &PA : H.Queried[Q]) {
        if (!P.event(PA.Access).Async)
          continue;
        bool Reached;
        unsigned Expect =
            bruteForceLater(P, PA.Access, Aug.Queries[Q], Reached);
        ASSERT_TRUE(Reached);
        EXPECT_EQ(PA.Later, std::min(Expect, 63u)) << "iteration " << Iter;
        ++Compared;
      }
  }
  EXPECT_GT(Compared, 100u);
}

} // namespace
