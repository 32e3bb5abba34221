//===- HazardAnalysisTest.cpp - Hazard windows on abstract programs -------===//

#include "LDSBarrierPlacement.h"
#include "LDSHazardAnalysis.h"
#include "ProgramBuilder.h"
#include "RandomPrograms.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::test;

namespace {

std::vector<Window> windowsOf(AbstractProgram &P, bool WAW = false) {
  AnalysisOptions O;
  O.WAW = O.AsyncWAW = WAW;
  return analyzeHazards(P, O).Windows;
}

std::vector<Window> straightLine(const std::string &Spec, bool WAW = false) {
  ProgramBuilder B;
  B.block(Spec);
  return windowsOf(B.program(), WAW);
}

bool hasWindow(const std::vector<Window> &Ws, unsigned From, unsigned To) {
  for (const Window &W : Ws)
    if (W.Producer.Index == From && W.Consumer.Index == To)
      return true;
  return false;
}

TEST(HazardAnalysis, RawAndWar) {
  auto W = straightLine("W0 R0");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0].Kind, HazardKind::RAW);
  EXPECT_EQ(W[0].Producer.Index, 0u);
  EXPECT_EQ(W[0].Consumer.Index, 1u);
  W = straightLine("R0 W0");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0].Kind, HazardKind::WAR);
}

TEST(HazardAnalysis, ReadsAndOtherObjectsDoNotConflict) {
  EXPECT_TRUE(straightLine("R0 R0").empty());
  EXPECT_TRUE(straightLine("W0 R1").empty());
}

TEST(HazardAnalysis, WriteAfterWriteOnlyOnRequest) {
  EXPECT_TRUE(straightLine("W0 W0").empty());
  auto W = straightLine("W0 W0", /*WAW=*/true);
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0].Kind, HazardKind::WAW);
}

TEST(HazardAnalysis, Atomics) {
  EXPECT_TRUE(straightLine("A0+1 A0+1").empty());  // add / add.
  EXPECT_EQ(straightLine("A0+1 A0+2").size(), 1u); // add / max.
  EXPECT_EQ(straightLine("A0 A0").size(), 1u);     // xchg / xchg.
  EXPECT_EQ(straightLine("A0+1 R0").size(), 1u);   // atomic / read.
  EXPECT_EQ(straightLine("W0 A0+1").size(), 1u);   // write / atomic.
  EXPECT_EQ(straightLine("W0 A0+1")[0].Kind, HazardKind::Atomic);
}

TEST(HazardAnalysis, OpaqueConflictsWithEverything) {
  auto W = straightLine("R0 O R1");
  ASSERT_EQ(W.size(), 2u);
  EXPECT_EQ(W[0].Kind, HazardKind::Opaque);
  EXPECT_EQ(W[1].Kind, HazardKind::Opaque);
}

// Accesses that conflict with no access (other objects here; work-items'
// own slots in kernels) are left out of the state: a kernel of them is
// analysed in linear time. They still count as later operations of their
// counter, and an asynchronous one stays (its own wave may meet it).
TEST(HazardAnalysis, AccessesThatMeetNoneAreNotTracked) {
  ProgramBuilder B;
  B.block("W1 R2 W0 W3 R0 D5 R4");
  AbstractProgram &P = B.program();
  Augmentation Aug;
  Aug.Queries.push_back({0, 7});
  for (bool Pruned : {false, true}) {
    std::vector<std::vector<uint8_t>> IsCandidate = {
        std::vector<uint8_t>(P.numPoints(0), 1)};
    AnalysisOptions O;
    if (Pruned)
      O.Pruning.Points = &IsCandidate;
    HazardResult R = analyzeHazards(P, O, Aug);
    std::map<unsigned, unsigned> Later;
    for (const PendingAccess &PA : R.Queried[0])
      Later[PA.Access.Index] = PA.Later;
    // Pruning drops W0 at R0, which meets it with a candidate in between.
    std::map<unsigned, unsigned> Expected = {{4, 1}, {5, 0}};
    if (!Pruned)
      Expected[2] = 3;
    EXPECT_EQ(Later, Expected) << (Pruned ? "pruned" : "full");
  }
}

TEST(HazardAnalysis, BarrierOrdersOnlyCompleteAccesses) {
  EXPECT_EQ(straightLine("W0 | R0").size(), 1u);    // Store still in flight.
  EXPECT_TRUE(straightLine("W0 w0 | R0").empty());  // Waited, then barrier.
  EXPECT_EQ(straightLine("W0 | w0 R0").size(), 1u); // Wait after barrier.
}

TEST(HazardAnalysis, CountedWaitCompletesOlderAccesses) {
  // lgkmcnt(1) after W0 W1: W0 has one later DS op, so it is complete;
  // W1 may still be in flight.
  EXPECT_TRUE(straightLine("W0 W1 w1 | R0").empty());
  EXPECT_EQ(straightLine("W0 W1 w1 | R1").size(), 1u);
  // An out-of-order (opaque) access is only complete at a wait for zero.
  EXPECT_TRUE(hasWindow(straightLine("O W1 w1 | R0"), 0, 4));
  // ...and does not count as a later operation either.
  EXPECT_TRUE(hasWindow(straightLine("W0 O w1 | R0"), 0, 4));
  EXPECT_FALSE(hasWindow(straightLine("W0 W1 w1 | R0"), 0, 4));
}

TEST(HazardAnalysis, SoftIsNotModeledAndVmWaitsDoNotCompleteDS) {
  EXPECT_EQ(straightLine("W0 v0 | R0").size(), 1u);
  // LDS DMA completes on vm, not on the LDS counter.
  EXPECT_EQ(straightLine("D0 w0 | R0").size(), 1u);
  EXPECT_TRUE(straightLine("D0 v0 | R0").empty());
}

TEST(HazardAnalysis, LoopCarriedWindows) {
  // pre -> body -> body (back-edge) -> exit.
  ProgramBuilder B;
  unsigned Pre = B.block(""), Body = B.block("R0 W0"), Exit = B.block("");
  B.selfLoop(Pre, Body, Exit);
  auto W = windowsOf(B.program());
  ASSERT_EQ(W.size(), 2u);
  // R -> W in the same iteration (WAR) and W -> R of the next (RAW).
  bool SawWar = false, SawRaw = false;
  for (const Window &X : W) {
    SawWar |= X.Kind == HazardKind::WAR && X.Producer.Index == 0;
    SawRaw |= X.Kind == HazardKind::RAW && X.Producer.Index == 1 &&
              X.Consumer.Index == 0;
  }
  EXPECT_TRUE(SawWar);
  EXPECT_TRUE(SawRaw);
}

TEST(HazardAnalysis, JoinKeepsEitherPathsAccesses) {
  ProgramBuilder B;
  unsigned E = B.block(""), L = B.block("W0 w0 |"), R = B.block("W0"),
           J = B.block("R0");
  B.edge(E, L);
  B.edge(E, R);
  B.edge(L, J);
  B.edge(R, J);
  auto W = windowsOf(B.program());
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0].Producer.Block, R);
  EXPECT_EQ(W[0].Consumer.Block, J);
}

TEST(HazardAnalysis, BarrierAtLoopHeaderSeesBackEdgeStore) {
  // A wait-less barrier at the header: fine on entry, but the body's store
  // arrives over the back-edge in flight.
  ProgramBuilder B;
  unsigned Pre = B.block(""), Head = B.block("| R0 W0"), Exit = B.block("");
  B.selfLoop(Pre, Head, Exit);
  HazardResult R = analyzeHazards(B.program(), AnalysisOptions());
  ASSERT_EQ(R.PendingBarriers.size(), 1u);
  EXPECT_EQ(R.PendingBarriers[0].Barrier.Block, Head);
  bool SawRaw = false;
  for (const Window &X : R.Windows)
    SawRaw |= X.Kind == HazardKind::RAW;
  EXPECT_TRUE(SawRaw);
}

TEST(HazardAnalysis, AugmentationCoversWindows) {
  ProgramBuilder B;
  B.block("W0 R0");
  Augmentation Aug;
  Aug.Barriers.push_back({{0, 1}, counterBit(Counter::LDS)});
  EXPECT_TRUE(
      analyzeHazards(B.program(), AnalysisOptions(), Aug).Windows.empty());
  // A barrier that waits for the wrong counter does not.
  Augmentation Wrong;
  Wrong.Barriers.push_back({{0, 1}, counterBit(Counter::VM)});
  EXPECT_EQ(
      analyzeHazards(B.program(), AnalysisOptions(), Wrong).Windows.size(), 1u);
}

TEST(HazardAnalysis, UnreachableBlocksAreIgnored) {
  ProgramBuilder B;
  unsigned E = B.block("R0");
  unsigned Dead = B.block("W0 R0");
  B.edge(Dead, E);
  EXPECT_TRUE(windowsOf(B.program()).empty());
}

// The pruned analysis (StatePruning at the candidate points, with merges at
// joins) reports a subset of the windows and of the in-flight pairs
// (anchored windows aside), and none exactly when there are none, on random
// programs under random barriers: with the waits they need, with waits for
// the wrong counter, and without waits.
TEST(HazardAnalysis, PruningKeepsEveryUncoveredProgramUncovered) {
  std::mt19937 Rng(2026);
  unsigned Open = 0, Closed = 0, Smaller = 0, Anchored = 0;
  for (unsigned Iter = 0; Iter < 3000; ++Iter) {
    AbstractProgram P = make(AllShapes[Iter % std::size(AllShapes)], Rng);
    if (Rng() % 3 == 0) {
      P.Blocks[Rng() % P.Blocks.size()].DivergentBranch = true;
      markDivergentBlocks(P);
    }
    std::vector<std::vector<uint8_t>> IsCandidate(P.Blocks.size());
    for (unsigned B = 0; B < P.Blocks.size(); ++B)
      IsCandidate[B].assign(P.numPoints(B), 0);
    Augmentation Aug;
    for (const Point &C : candidatePoints(P)) {
      IsCandidate[C.Block][C.Index] = 1;
      if (Rng() % 3 == 0) {
        static const CounterMask Waits[] = {0x1F, counterBit(Counter::LDS),
                                            counterBit(Counter::VM), 0};
        Aug.Barriers.push_back({C, Waits[Rng() % std::size(Waits)]});
      }
    }
    AnalysisOptions Full;
    Full.WAW = Full.AsyncWAW = Rng() % 2;
    AnalysisOptions Pruned = Full;
    Pruned.Pruning.Points = &IsCandidate;
    Pruned.MinimalWindows = Rng() % 2;
    // Small limits make the merges at joins happen in small programs.
    static const unsigned Limits[] = {0, 1, 2, 8};
    Pruned.Pruning.MergeAbove = Limits[Rng() % std::size(Limits)];
    HazardResult F = analyzeHazards(P, Full, Aug);
    HazardResult R = analyzeHazards(P, Pruned, Aug);
    auto Same = [](const Window &A, const Window &B) {
      return A.Producer == B.Producer && A.Consumer == B.Consumer;
    };
    // An anchored window names one of the producers it stands for, which
    // need not race on its own.
    for (const Window &W : R.Windows)
      EXPECT_TRUE(
          W.isAnchored() ||
          llvm::any_of(F.Windows, [&](const Window &X) { return Same(W, X); }))
          << "iteration " << Iter;
    for (const Window &W : R.InFlight)
      EXPECT_TRUE(
          llvm::any_of(F.InFlight, [&](const Window &X) { return Same(W, X); }))
          << "iteration " << Iter;
    EXPECT_EQ(R.Windows.empty(), F.Windows.empty()) << "iteration " << Iter;
    EXPECT_EQ(R.InFlight.empty(), F.InFlight.empty()) << "iteration " << Iter;
    (F.Windows.empty() ? Closed : Open) += 1;
    Smaller += R.Windows.size() < F.Windows.size();
    Anchored +=
        llvm::any_of(R.Windows, [](const Window &W) { return W.isAnchored(); });
  }
  // Both outcomes occur, and pruning does drop windows.
  EXPECT_GT(Open, 300u);
  EXPECT_GT(Closed, 300u);
  EXPECT_GT(Smaller, 100u);
  EXPECT_GT(Anchored, 20u);
}

// Stores under divergent ifs, each read after its join: the path from a
// store to the join's read has its only legal point in the join, so the
// barrier there orders everything that entered the join. The pruned
// analysis keeps one window per consumer (each read after its store, each
// store after the previous read) where the full one pairs every access with
// every later conflicting one (n^2), and still finds every consumer
// unordered.
TEST(HazardAnalysis, StoresUnderDivergentIfsForceBarriersAtJoins) {
  ProgramBuilder B;
  const unsigned N = 40;
  unsigned Prev = B.block("");
  for (unsigned I = 0; I < N; ++I) {
    unsigned Then = B.block("W0"), Join = B.block("R0");
    B.ifThen(Prev, Then, Join);
    B.divergent(Prev);
    Prev = Join;
  }
  AbstractProgram &P = B.program();
  markDivergentBlocks(P);
  std::vector<std::vector<uint8_t>> IsCandidate(P.Blocks.size());
  for (unsigned X = 0; X < P.Blocks.size(); ++X)
    IsCandidate[X].assign(P.numPoints(X), 0);
  for (const Point &C : candidatePoints(P))
    IsCandidate[C.Block][C.Index] = 1;
  AnalysisOptions Full;
  AnalysisOptions Pruned = Full;
  Pruned.Pruning.Points = &IsCandidate;
  HazardResult F = analyzeHazards(P, Full);
  HazardResult R = analyzeHazards(P, Pruned);
  EXPECT_EQ(F.Windows.size(), N * N);
  EXPECT_EQ(R.Windows.size(), 2 * N - 1);
  std::set<std::pair<unsigned, unsigned>> Consumers;
  for (const Window &W : R.Windows)
    Consumers.insert({W.Consumer.Block, W.Consumer.Index});
  EXPECT_EQ(Consumers.size(), 2 * N - 1);
}

} // namespace

// HazardAnalysis::pendingAt answers queries by replaying the kept states:
// the answers must be those of a run with the queries in its augmentation,
// with barriers (new, split and existing with added waits) and pruning.
TEST(HazardAnalysis, LaterQueriesAgreeWithQueriesOfTheRun) {
  std::mt19937 Rng(20261125);
  unsigned Nonempty = 0;
  for (unsigned Iter = 0; Iter < 2000; ++Iter) {
    AbstractProgram P = make(AllShapes[Iter % std::size(AllShapes)], Rng);
    std::vector<std::vector<uint8_t>> IsCandidate(P.Blocks.size());
    for (unsigned B = 0; B < P.Blocks.size(); ++B)
      IsCandidate[B].assign(P.numPoints(B), 0);
    Augmentation Aug;
    std::vector<Point> Queries;
    for (const Point &C : candidatePoints(P)) {
      IsCandidate[C.Block][C.Index] = 1;
      if (Rng() % 4 == 0)
        Aug.Barriers.push_back({C, counterBit(Counter::LDS)});
      if (Rng() % 2 == 0)
        Queries.push_back(C);
      if (Rng() % 5 == 0)
        Aug.Queries.push_back(C); // The run's own, not asked again.
    }
    if (Rng() % 2 && !Queries.empty())
      Queries.push_back(Queries.front()); // The same point twice.
    AnalysisOptions O;
    O.Pruning.Points = &IsCandidate;
    O.MinimalWindows = Rng() % 2;
    HazardAnalysis Run(P, O, Aug);
    std::vector<std::vector<PendingAccess>> Later = Run.pendingAt(Queries);
    Augmentation WithQueries = Aug;
    WithQueries.Queries = Queries;
    HazardResult Direct = analyzeHazards(P, O, WithQueries);
    ASSERT_EQ(Later.size(), Direct.Queried.size());
    for (unsigned Q = 0; Q < Later.size(); ++Q) {
      ASSERT_EQ(Later[Q].size(), Direct.Queried[Q].size()) << "query " << Q;
      Nonempty += !Later[Q].empty();
      for (unsigned I = 0; I < Later[Q].size(); ++I) {
        EXPECT_TRUE(Later[Q][I].Access == Direct.Queried[Q][I].Access);
        EXPECT_EQ(Later[Q][I].Later, Direct.Queried[Q][I].Later);
        EXPECT_EQ(Later[Q][I].Iteration, Direct.Queried[Q][I].Iteration);
      }
    }
    // The run's own result is the one analyzeHazards returns.
    EXPECT_EQ(Run.result().Windows.size(),
              analyzeHazards(P, O, Aug).Windows.size());
  }
  EXPECT_GT(Nonempty, 1000u) << "the queries meet too few pending accesses";
}
