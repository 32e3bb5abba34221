//===- PlacementTest.cpp - Barrier placement on abstract programs ---------===//
//
// Includes a randomized comparison with an exhaustive search for the
// minimum barrier count on straight-line programs and single loops with
// straight-line bodies, where the placement must be optimal.
//
//===----------------------------------------------------------------------===//

#include "BruteForce.h"
#include "LDSBarrierPlacement.h"
#include "PlacementStrategies.h"
#include "ProgramBuilder.h"
#include "gtest/gtest.h"
#include <functional>
#include <random>
#include <set>

using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::test;

namespace {

Placement place(AbstractProgram &P, bool WAW = false) {
  AnalysisOptions O;
  O.WAW = O.AsyncWAW = WAW;
  return placeBarriers(P, O);
}

/// Checks that the placement leaves no window but the uncoverable ones.
void expectValid(AbstractProgram &P, const Placement &R) {
  EXPECT_EQ(
      analyzeHazards(P, AnalysisOptions(), R.augmentation()).Windows.size(),
      R.Uncoverable.size());
}

TEST(Placement, NothingToDo) {
  ProgramBuilder B;
  B.block("R0 R0 W1");
  Placement R = place(B.program());
  EXPECT_TRUE(R.Barriers.empty());
  EXPECT_TRUE(R.CompletedBarriers.empty());
}

TEST(Placement, LatestPointBeforeConsumer) {
  ProgramBuilder B;
  B.block("W0 R1 R0");
  Placement R = place(B.program());
  ASSERT_EQ(R.Barriers.size(), 1u);
  // One barrier right before the read of object 0 (index 2).
  EXPECT_EQ(R.Barriers[0].At, (Point{0, 2}));
  EXPECT_EQ(R.Barriers[0].Waits,
            WaitThresholds::zero(counterBit(Counter::LDS)));
}

TEST(Placement, OverlappingWindowsShareOneBarrier) {
  // W0 W1 R0 R1: both windows pierced before R0.
  ProgramBuilder B;
  B.block("W0 W1 R0 R1");
  Placement R = place(B.program());
  ASSERT_EQ(R.Barriers.size(), 1u);
  EXPECT_EQ(R.Barriers[0].At, (Point{0, 2}));
  expectValid(B.program(), R);
}

TEST(Placement, DisjointWindowsNeedTwo) {
  ProgramBuilder B;
  B.block("W0 R0 W1 R1");
  Placement R = place(B.program());
  EXPECT_EQ(R.Barriers.size(), 2u);
  expectValid(B.program(), R);
}

TEST(Placement, ExistingBarrierGetsItsWaitInsteadOfASecondBarrier) {
  ProgramBuilder B;
  B.block("W0 | R0");
  Placement R = place(B.program());
  EXPECT_TRUE(R.Barriers.empty());
  ASSERT_EQ(R.CompletedBarriers.size(), 1u);
  EXPECT_EQ(R.CompletedBarriers[0].Barrier, (Point{0, 1}));
  expectValid(B.program(), R);
}

TEST(Placement, CorrectlySynchronizedInputGetsNothing) {
  ProgramBuilder B;
  B.block("W0 w0 | R0");
  Placement R = place(B.program());
  EXPECT_TRUE(R.Barriers.empty());
  EXPECT_TRUE(R.CompletedBarriers.empty());
}

TEST(Placement, HoistsOutOfLoopWhenProducerIsOutside) {
  // pre: W0; loop body (freq 10): R0; the barrier belongs in pre.
  ProgramBuilder B;
  unsigned Pre = B.block("W0"), Body = B.block("R0", 10.0), Exit = B.block("");
  B.selfLoop(Pre, Body, Exit);
  Placement R = place(B.program());
  ASSERT_EQ(R.Barriers.size(), 1u);
  EXPECT_EQ(R.Barriers[0].At.Block, Pre);
  expectValid(B.program(), R);
}

TEST(Placement, LoopCarriedWarAndRawShareOneBarrierWhenPossible) {
  // Body: R0 W0. Windows: R->W (same iteration), W->R (next iteration).
  // Intervals (R, W] and (W, end] + [start, R] on the circle are disjoint:
  // two barriers are needed.
  ProgramBuilder B;
  unsigned Pre = B.block(""), Body = B.block("R0 W0"), Exit = B.block("");
  B.selfLoop(Pre, Body, Exit);
  Placement R = place(B.program());
  EXPECT_EQ(R.Barriers.size(), 2u);
  EXPECT_TRUE(R.ProvenOptimal);
  expectValid(B.program(), R);
}

TEST(Placement, NeverInsideDivergentBlock) {
  // entry: W0, divergent branch over "then: R0".
  ProgramBuilder B;
  unsigned E = B.block("W0"), Then = B.block("R0"), Join = B.block("");
  B.ifThen(E, Then, Join);
  B.divergent(E);
  markDivergentBlocks(B.program());
  Placement R = place(B.program());
  ASSERT_EQ(R.Barriers.size(), 1u);
  EXPECT_EQ(R.Barriers[0].At.Block, E);
  EXPECT_TRUE(R.Uncoverable.empty());
  expectValid(B.program(), R);
}

TEST(Placement, UncoverableWindowIsReportedNotPlaced) {
  ProgramBuilder B;
  unsigned E = B.block(""), Then = B.block("W0 R0"), Join = B.block("");
  B.ifThen(E, Then, Join);
  B.divergent(E);
  markDivergentBlocks(B.program());
  Placement R = place(B.program());
  EXPECT_TRUE(R.Barriers.empty());
  EXPECT_EQ(R.Uncoverable.size(), 1u);
}

TEST(Placement, ProducerOnOneSideOfIfBarrierAtJoinOrBranch) {
  // if/else where only one side writes; the read is after the join. Single
  // point covers: in the writing side after the write, or at the join.
  ProgramBuilder B;
  unsigned E = B.block(""), L = B.block("W0"), Rt = B.block(""),
           J = B.block("R0");
  B.edge(E, L);
  B.edge(E, Rt);
  B.edge(L, J);
  B.edge(Rt, J);
  B.program().Blocks[L].Freq = 0.5;
  B.program().Blocks[Rt].Freq = 0.5;
  Placement R = place(B.program());
  ASSERT_EQ(R.Barriers.size(), 1u);
  // The cheaper point: the end of the writing side (frequency 0.5).
  EXPECT_EQ(R.Barriers[0].At.Block, L);
  expectValid(B.program(), R);
}

//===----------------------------------------------------------------------===//
// Randomized comparison with the exhaustive minimum.
//===----------------------------------------------------------------------===//

std::string randomEvents(std::mt19937 &Rng, unsigned MaxLen) {
  static const char *const Kinds[] = {"R0", "W0", "R1", "W1", "A0+1", "A1"};
  std::uniform_int_distribution<unsigned> Len(1, MaxLen), Kind(0, 5);
  std::string S;
  for (unsigned I = 0, N = Len(Rng); I < N; ++I)
    S += std::string(Kinds[Kind(Rng)]) + " ";
  return S;
}

/// A chain of MinBlocks + Rng() % SpanBlocks blocks of random events (up to
/// MaxEvents each, random frequencies) plus Rng() % SpanEdges random edges:
/// back-edges, forward jumps, self-loops. Returns the number of blocks.
unsigned randomChain(ProgramBuilder &B, std::mt19937 &Rng, unsigned MinBlocks,
                     unsigned SpanBlocks, unsigned MaxEvents,
                     unsigned SpanEdges) {
  unsigned N = MinBlocks + Rng() % SpanBlocks;
  for (unsigned I = 0; I < N; ++I)
    B.block(randomEvents(Rng, MaxEvents), 1 + Rng() % 4);
  B.chainWithRandomEdges(Rng, Rng() % SpanEdges);
  return N;
}

TEST(Placement, OptimalOnRandomStraightLinePrograms) {
  std::mt19937 Rng(1234);
  for (unsigned Iter = 0; Iter < 300; ++Iter) {
    ProgramBuilder B;
    B.block(randomEvents(Rng, 9));
    AbstractProgram &P = B.program();
    Placement R = place(P);
    expectValid(P, R);
    EXPECT_TRUE(R.ProvenOptimal);
    unsigned Min = minimumBarrierCount(P, R.Barriers.size());
    EXPECT_EQ(R.Barriers.size(), Min) << "iteration " << Iter;
  }
}

TEST(Placement, OptimalOnRandomSingleLoops) {
  std::mt19937 Rng(99);
  for (unsigned Iter = 0; Iter < 300; ++Iter) {
    ProgramBuilder B;
    unsigned Pre = B.block(randomEvents(Rng, 3));
    unsigned Body = B.block(randomEvents(Rng, 6), 8.0);
    unsigned Exit = B.block(randomEvents(Rng, 3));
    B.selfLoop(Pre, Body, Exit);
    AbstractProgram &P = B.program();
    Placement R = place(P);
    expectValid(P, R);
    unsigned Min = minimumBarrierCount(P, R.Barriers.size());
    EXPECT_EQ(R.Barriers.size(), Min) << "iteration " << Iter;
    // Among covers of that size, the cheapest in frequency.
    if (R.ProvenOptimal && !R.Barriers.empty())
      EXPECT_NEAR(R.Cost, minimumBarrierCost(P, Min), 1e-9)
          << "iteration " << Iter;
  }
}

TEST(Placement, MinimalWindowsGiveTheSameCount) {
  std::mt19937 Rng(77);
  for (unsigned Iter = 0; Iter < 200; ++Iter) {
    ProgramBuilder B;
    unsigned N = randomChain(B, Rng, 1, 4, 6, 3);
    // With divergence, a minimal window without a legal point hides its
    // siblings; the final check must still account for every window.
    bool Divergent = Rng() % 3 == 0;
    if (Divergent) {
      B.divergent(Rng() % N);
      markDivergentBlocks(B.program());
    }
    AnalysisOptions Full, Minimal;
    Minimal.MinimalWindows = true;
    Placement RF = placeBarriers(B.program(), Full);
    Placement RM = placeBarriers(B.program(), Minimal);
    EXPECT_LE(RM.Windows.size(), RF.Windows.size());
    if (!Divergent)
      EXPECT_EQ(RM.Barriers.size(), RF.Barriers.size()) << "iteration " << Iter;
    expectValid(B.program(), RM);
  }
}

TEST(Placement, ValidOnRandomGeneralCFGs) {
  std::mt19937 Rng(7);
  for (unsigned Iter = 0; Iter < 600; ++Iter) {
    ProgramBuilder B;
    unsigned N = randomChain(B, Rng, 2, 5, 4, 4);
    if (Rng() % 3 == 0)
      B.divergent(Rng() % N);
    markDivergentBlocks(B.program());
    // A third of the runs merge producers at joins eagerly (anchored
    // windows), which large functions do above eight of one key.
    AnalysisOptions O;
    O.Pruning.MergeAbove = Iter % 3 == 0 ? 1 : StatePruning().MergeAbove;
    Placement R = placeBarriers(B.program(), O);
    expectValid(B.program(), R);
  }
}

TEST(Placement, SameBlockWindowIsNotReducedAcrossBlocks) {
  // The WAR from R0 to W0 in bb.2 runs inside bb.2; that every path from
  // bb.2's exit back to W0 crosses the header must not let the header's
  // window stand for it. Dropping it cost a fourth barrier added by the
  // final check instead of the three the exhaustive search finds.
  ProgramBuilder B;
  unsigned E = B.block(""), H = B.block("A0+1 R0", 8), A = B.block("R0 W0", 4),
           C = B.block("", 4), X = B.block("");
  B.edge(E, H);
  B.edge(H, A);
  B.edge(H, C);
  B.edge(A, H);
  B.edge(C, H);
  B.edge(C, X);
  Placement R = place(B.program());
  expectValid(B.program(), R);
  EXPECT_TRUE(R.ProvenOptimal);
  EXPECT_EQ(R.Barriers.size(), minimumBarrierCount(B.program(), 4));
  EXPECT_EQ(R.Barriers.size(), 3u);
}

TEST(Placement, AlternativeStrategiesCoverWhatTheyCanReach) {
  // Without divergence every strategy's result must leave no window, and
  // the optimal one executes no more barriers than the others.
  std::mt19937 Rng(99);
  for (unsigned Iter = 0; Iter < 200; ++Iter) {
    ProgramBuilder B;
    unsigned Pre = B.block(randomEvents(Rng, 3)),
             L = B.block(randomEvents(Rng, 5), 8),
             X = B.block(randomEvents(Rng, 3));
    B.selfLoop(Pre, L, X);
    AbstractProgram P = B.program();
    double Optimal = place(P).Cost;
    for (PlacementStrategy S :
         {PlacementStrategy::Naive, PlacementStrategy::Latest}) {
      Placement R =
          placeWithStrategy(S, P, AnalysisOptions(), PlacementOptions());
      EXPECT_EQ(
          analyzeHazards(P, AnalysisOptions(), R.augmentation()).Windows.size(),
          0u)
          << getPlacementStrategyName(S).str() << " iteration " << Iter;
      EXPECT_LE(Optimal, R.Cost + 1e-9)
          << getPlacementStrategyName(S).str() << " iteration " << Iter;
    }
  }
}

TEST(Placement, LargeInstancesUseRangesAndStayValid) {
  // 600 writes of 600 objects before a loop of 1000 unrelated reads, and
  // after it a read of each object in the same order: every window's
  // cutting set spans the loop (over 600k points in all; a later read's
  // window starts later in the writes' block, so none contains another's),
  // which the placement covers from ranges, greedily: one barrier, in the
  // cheapest block, as late as possible (before the first read).
  std::string Writes, Loop, After;
  for (unsigned I = 0; I < 600; ++I) {
    Writes += "W" + std::to_string(I) + " ";
    After += "R" + std::to_string(I) + " ";
  }
  for (unsigned I = 0; I < 1000; ++I)
    Loop += "R1000 ";
  ProgramBuilder B;
  unsigned Pre = B.block(Writes), L = B.block(Loop, 8), X = B.block(After);
  B.selfLoop(Pre, L, X);
  Placement R = place(B.program());
  expectValid(B.program(), R);
  EXPECT_FALSE(R.ProvenOptimal) << "the range path was not taken";
  ASSERT_EQ(R.Barriers.size(), 1u);
  EXPECT_EQ(R.Barriers[0].At.Block, X);
  EXPECT_EQ(R.Barriers[0].At.Index, 0u);
}

TEST(Placement, NestedWindowsKeepTheInstanceSmall) {
  // One write, a loop of 1000 unrelated reads, then 600 reads of the
  // written object: the window of each later read contains every cutting
  // point of the first one's and is dropped (placement step 2b), so the
  // instance stays small and exact instead of 600 windows spanning the
  // loop; the one barrier goes before the first read.
  std::string Loop, After;
  for (unsigned I = 0; I < 1000; ++I)
    Loop += "R1 ";
  for (unsigned I = 0; I < 600; ++I)
    After += "R0 ";
  ProgramBuilder B;
  unsigned Pre = B.block("W0"), L = B.block(Loop, 8), X = B.block(After);
  B.selfLoop(Pre, L, X);
  Placement R = place(B.program());
  expectValid(B.program(), R);
  EXPECT_TRUE(R.ProvenOptimal) << "the windows nested in the first were kept";
  ASSERT_EQ(R.Barriers.size(), 1u);
  EXPECT_EQ(R.Barriers[0].At.Block, X);
  EXPECT_EQ(R.Barriers[0].At.Index, 0u);
}

TEST(Placement, AsyncProducerBeforeALoopIsWaitedForBeforeIt) {
  // A DMA before a loop whose body reads its bytes: the barrier stays before
  // the loop (1 execution, the DMA waited for at once) rather than in it
  // (8 executions): the preference for points past a transfer's own block
  // holds only while they run at most twice as often.
  ProgramBuilder B;
  unsigned Pre = B.block("D0"), L = B.block("R0", 8), X = B.block("");
  B.selfLoop(Pre, L, X);
  Placement R = place(B.program());
  expectValid(B.program(), R);
  ASSERT_EQ(R.Barriers.size(), 1u);
  EXPECT_EQ(R.Barriers[0].At.Block, Pre);
}

TEST(Placement, AsyncProducerBarrierLeavesItsBlockWhenNotDearer) {
  // The same with a loop that runs as often as the DMA's block (a DMA
  // issued in a block of the same frequency as the reads): the barrier goes
  // before the read, not right after the issue.
  ProgramBuilder B;
  unsigned E = B.block("D0"), Y = B.block("R1 R0");
  B.edge(E, Y);
  Placement R = place(B.program());
  expectValid(B.program(), R);
  ASSERT_EQ(R.Barriers.size(), 1u);
  EXPECT_EQ(R.Barriers[0].At.Block, Y);
}

TEST(Placement, LargeComponentsUseTheListGreedy) {
  // 300 groups "W0 W1 R0 R1" in one block: overlapping windows chain them
  // into one component of 1200 windows and points, beyond the bit-matrix
  // solver. One barrier before each group's loads (RAW) and one before
  // each next group's stores (WAR): 599, which the greedy finds.
  std::string Events;
  for (unsigned I = 0; I < 300; ++I)
    Events += "W0 W1 R0 R1 ";
  ProgramBuilder B;
  B.block(Events);
  Placement R = place(B.program());
  expectValid(B.program(), R);
  EXPECT_FALSE(R.ProvenOptimal) << "the bit-matrix solver ran";
  EXPECT_EQ(R.Barriers.size(), 599u);
}

} // namespace

namespace {

/// A chain of \p N uniform if-thens whose then-blocks write and read one
/// table: every then-block's last write reaches every later then-block along
/// the paths that skip the blocks between.
AbstractProgram ifThenChain(unsigned N) {
  ProgramBuilder B;
  unsigned Cond = B.block("R1");
  for (unsigned I = 0; I < N; ++I) {
    unsigned Then = B.block("R0 W0 R0 W0", 0.5);
    unsigned Join = B.block("");
    B.ifThen(Cond, Then, Join);
    Cond = Join;
  }
  return B.program();
}

} // namespace

// Producers of one key carried along skip paths are merged at a join into
// one window anchored there: the windows stay linear in the chain's length,
// the placement stays valid and, here, as small as without the merge (the
// skipped producers are best cut at the start of each then-block, which the
// anchored windows keep).
TEST(Placement, AnchoredWindowsKeepWideCFGsLinear) {
  for (unsigned N : {4u, 16u, 64u}) {
    AbstractProgram P = ifThenChain(N);
    AnalysisOptions Merge, NoMerge;
    NoMerge.Pruning.MergeAbove = 0;
    Placement RM = placeBarriers(P, Merge);
    Placement RN = placeBarriers(P, NoMerge);
    expectValid(P, RM);
    EXPECT_TRUE(RM.Uncoverable.empty());
    EXPECT_EQ(RM.Barriers.size(), RN.Barriers.size()) << N;
    EXPECT_NEAR(RM.Cost, RN.Cost, 1e-9) << N;
    unsigned Anchored = 0;
    for (const Window &W : RM.InitialWindows)
      Anchored += W.isAnchored();
    if (N <= Merge.Pruning.MergeAbove) {
      EXPECT_EQ(Anchored, 0u);
      EXPECT_EQ(RM.InitialWindows.size(), RN.InitialWindows.size());
    } else {
      EXPECT_GT(Anchored, 0u);
      EXPECT_LT(RM.InitialWindows.size(), 8 * N) << N;
      EXPECT_GT(RN.InitialWindows.size(), N * N / 4) << N;
    }
  }
}

// The exact blocks on all paths between two blocks come from the dominator
// tree of the whole CFG rooted at the first block's exit, or, in large
// functions, from the part on some path between the two only: the same
// blocks, in the same order.
TEST(Placement, ExactPathCutsOfBothKindsAgree) {
  std::mt19937 Rng(37);
  unsigned NonEmpty = 0;
  for (unsigned Iter = 0; Iter < 600; ++Iter) {
    ProgramBuilder B;
    unsigned N = randomChain(B, Rng, 2, 6, 4, 4);
    AbstractProgram &P = B.program();
    PathCuts Whole(P, false), Part(P, true);
    for (unsigned From = 0; From < N; ++From)
      for (unsigned To = 0; To < N; ++To) {
        std::vector<unsigned> W, Q;
        Whole.forEachBlock(From, To, true, [&](unsigned X) { W.push_back(X); });
        Part.forEachBlock(From, To, true, [&](unsigned X) { Q.push_back(X); });
        EXPECT_EQ(W, Q) << "iteration " << Iter << ": bb." << From << " -> bb."
                        << To;
        NonEmpty += !W.empty();
      }
  }
  EXPECT_GT(NonEmpty, 1000u);
}

// The exact blocks of a window around one loop of a long function are found
// in that loop: each block of the function is walked a bounded number of
// times over all the windows, not once per window before it (which made a
// function of many loops quadratic).
TEST(Placement, ExactPathCutsOfLoopsInSequenceStayLocal) {
  constexpr unsigned Loops = 300;
  ProgramBuilder B;
  // entry -> (header -> body -> latch -> header | exit)* -> end
  unsigned Prev = B.block("");
  std::vector<std::pair<unsigned, unsigned>> Windows; // (latch, header)
  for (unsigned L = 0; L < Loops; ++L) {
    unsigned H = B.block(""), Body = B.block(""), Latch = B.block("");
    B.edge(Prev, H);
    B.edge(H, Body);
    B.edge(Body, Latch);
    B.edge(Latch, H);
    Windows.push_back({Latch, H});
    Windows.push_back({Body, Body}); // Once around the loop.
    Prev = Latch;
  }
  B.edge(Prev, B.block(""));
  AbstractProgram &P = B.program();
  PathCuts Cuts(P, /*Approximate=*/true);
  for (auto [From, To] : Windows) {
    std::vector<unsigned> Blocks;
    Cuts.forEachBlock(From, To, true, [&](unsigned X) { Blocks.push_back(X); });
    if (From == To) // Latch, then header, nearest to the body first.
      EXPECT_EQ(Blocks, (std::vector<unsigned>{From - 1, From + 1}));
    else // Nothing between the latch and its header.
      EXPECT_TRUE(Blocks.empty());
  }
  EXPECT_LT(Cuts.walkedBlocks(), 8u * P.Blocks.size());
}

// The blocks on every path from one block's exit to another block, against
// their definition: the second block cannot be reached from the first's
// successors once the block is taken out of the graph: in both kinds of
// PathCuts when asked for the exact set, and in the kind that never
// approximates without asking.
TEST(Placement, ExactPathCutsAgreeWithRemovingTheBlock) {
  std::mt19937 Rng(41);
  unsigned Checked = 0, NonEmpty = 0;
  for (unsigned Iter = 0; Iter < 600; ++Iter) {
    ProgramBuilder B;
    unsigned N = randomChain(B, Rng, 2, 7, 2, 5);
    AbstractProgram &P = B.program();
    auto ReachesAvoiding = [&](unsigned From, unsigned To, int Avoid) {
      // Paths start at From's exit: From itself counts once reached again.
      std::vector<uint8_t> Seen(N, 0);
      std::vector<unsigned> Work;
      auto VisitSuccs = [&](unsigned X) {
        for (unsigned S : P.Blocks[X].Succs)
          if (int(S) != Avoid && !Seen[S]) {
            Seen[S] = 1;
            Work.push_back(S);
          }
      };
      VisitSuccs(From);
      while (!Work.empty()) {
        unsigned X = Work.back();
        Work.pop_back();
        VisitSuccs(X);
      }
      return bool(Seen[To]);
    };
    std::vector<uint8_t> Reachable = P.reachableBlocks();
    PathCuts Whole(P, false), Part(P, true);
    for (unsigned From = 0; From < N; ++From)
      for (unsigned To = 0; To < N && Reachable[From]; ++To) {
        std::set<unsigned> Expected;
        if (ReachesAvoiding(From, To, -1))
          for (unsigned D = 0; D < N; ++D)
            if (D != To && !ReachesAvoiding(From, To, D))
              Expected.insert(D);
        std::set<unsigned> W, Q, V;
        Whole.forEachBlock(From, To, true, [&](unsigned X) { W.insert(X); });
        Part.forEachBlock(From, To, true, [&](unsigned X) { Q.insert(X); });
        Whole.forEachBlock(From, To, false, [&](unsigned X) { V.insert(X); });
        EXPECT_EQ(W, Expected)
            << "iteration " << Iter << ": bb." << From << " -> bb." << To;
        EXPECT_EQ(Q, Expected)
            << "iteration " << Iter << ": bb." << From << " -> bb." << To;
        EXPECT_EQ(V, Expected)
            << "iteration " << Iter << ": bb." << From << " -> bb." << To;
        ++Checked;
        NonEmpty += !Expected.empty();
      }
  }
  EXPECT_GT(Checked, 5000u);
  EXPECT_GT(NonEmpty, 1000u);
}

// The approximate blocks on all paths between two blocks (the function's
// dominator tree, for forward windows) are a subset of the exact ones, and
// a placement that uses them for every window stays valid.
TEST(Placement, ApproximatePathCutsAreSubsetsAndValid) {
  std::mt19937 Rng(31);
  unsigned Approximated = 0, Missed = 0;
  for (unsigned Iter = 0; Iter < 600; ++Iter) {
    ProgramBuilder B;
    unsigned N = randomChain(B, Rng, 2, 6, 4, 4);
    if (Rng() % 3 == 0)
      B.divergent(Rng() % N);
    AbstractProgram &P = B.program();
    markDivergentBlocks(P);
    PathCuts Exact(P, false), Approx(P, true);
    for (unsigned From = 0; From < N; ++From)
      for (unsigned To = 0; To < N; ++To) {
        std::set<unsigned> E, A;
        Exact.forEachBlock(From, To, false, [&](unsigned X) { E.insert(X); });
        Approx.forEachBlock(From, To, false, [&](unsigned X) { A.insert(X); });
        for (unsigned X : A)
          EXPECT_TRUE(E.count(X)) << "iteration " << Iter << ": bb." << X
                                  << " on bb." << From << " -> bb." << To;
        Approximated += Approx.approximates(From, To);
        Missed += A.size() < E.size();
      }
    PlacementOptions O;
    O.ExactPathBlocks = 0;
    expectValid(P, placeBarriers(P, AnalysisOptions(), O));
  }
  EXPECT_GT(Approximated, 1000u);
  EXPECT_GT(Missed, 10u); // The approximation does lose blocks.
}

// Placement approximates the blocks on all paths when the windows start in
// more blocks than ExactPathBlocks. Each start block counts once, however
// many windows start there (a byte-wide counter once wrapped at 256).
TEST(Placement, CountsEachStartBlockOnce) {
  ProgramBuilder B;
  std::string Reads;
  for (unsigned I = 0; I < 300; ++I)
    Reads += "R0 ";
  unsigned Pre = B.block("W0"), Use = B.block(Reads);
  B.edge(Pre, Use);
  AbstractProgram &P = B.program();
  PlacementOptions O;
  O.ExactPathBlocks = 1;
  PlacementContext C(P, AnalysisOptions(), O, /*PruneAnalysis=*/false);
  Placement R;
  ASSERT_TRUE(findWindowsToCover(C, R));
  EXPECT_EQ(R.InitialWindows.size(), 300u);
  EXPECT_FALSE(C.Paths->approximates(Pre, Use));
}
