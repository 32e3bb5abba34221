//===- VerifierTest.cpp - The independent verifier ------------------------===//
//
// Besides direct cases, the verifier and the placer's analysis are checked
// against each other: both decide "some path brings A to B unordered", by
// different algorithms, so on random programs they must agree exactly, and
// the placer's output must verify clean.
//
//===----------------------------------------------------------------------===//

#include "LDSBarrierPlacement.h"
#include "LDSBarrierVerifier.h"
#include "Materialize.h"
#include "ProgramBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <random>
#include <set>

using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::test;

namespace {

std::vector<Violation> verify(const AbstractProgram &P) {
  return verifySynchronization(P, VerifierOptions());
}

unsigned count(const std::vector<Violation> &V, Violation::ViolationKind K) {
  unsigned N = 0;
  for (const Violation &X : V)
    N += X.Kind == K;
  return N;
}

TEST(Verifier, FlagsMissingBarrierAndMissingWait) {
  ProgramBuilder A;
  A.block("W0 R0");
  EXPECT_EQ(count(verify(A.program()), Violation::Race), 1u);
  ProgramBuilder B;
  B.block("W0 | R0"); // Barrier before the producer's wait.
  EXPECT_EQ(count(verify(B.program()), Violation::Race), 1u);
  ProgramBuilder C;
  C.block("W0 w0 | R0");
  EXPECT_TRUE(verify(C.program()).empty());
  ProgramBuilder D;
  D.block("W0 w0 S V R0");
  EXPECT_TRUE(verify(D.program()).empty());
  ProgramBuilder E;
  E.block("W0 S w0 V R0"); // Complete only after the signal.
  EXPECT_EQ(count(verify(E.program()), Violation::Race), 1u);
}

TEST(Verifier, IgnoresUnreachableCode) {
  ProgramBuilder B;
  B.block("R0");
  unsigned Dead = B.block("W0 R0");
  B.edge(Dead, 0);
  EXPECT_TRUE(verify(B.program()).empty());
}

TEST(Verifier, FlagsUnbalancedSplitBarriers) {
  ProgramBuilder A;
  A.block("S W0");
  EXPECT_EQ(count(verify(A.program()), Violation::Alternation), 1u);
  ProgramBuilder B;
  B.block("V");
  EXPECT_EQ(count(verify(B.program()), Violation::Alternation), 1u);
}

TEST(Verifier, FlagsBarrierInDivergentRegion) {
  ProgramBuilder B;
  unsigned E = B.block("W0"), Then = B.block("w0 | R0"), Join = B.block("");
  B.ifThen(E, Then, Join);
  B.divergent(E);
  EXPECT_EQ(count(verify(B.program()), Violation::DivergentBarrier), 1u);
  // The same code with a uniform branch is fine.
  B.program().Blocks[E].DivergentBranch = false;
  EXPECT_TRUE(verify(B.program()).empty());
}

// if (t < n) { a[t] = x; barrier; y = a[t ^ 1]; } and the end of a kernel:
// the waves that skip the region end with nothing pending, and a barrier
// waits for the waves that have not ended only. Not so with an access
// before the branch, or in a function that returns to its caller.
TEST(Verifier, EarlyExitIsNotDivergent) {
  for (const char *Before : {"", "R1"})
    for (bool Kernel : {true, false}) {
      ProgramBuilder B;
      unsigned E = B.block(Before), Then = B.block("W0 w0 | R0"),
               Join = B.block("");
      B.ifThen(E, Then, Join);
      B.divergent(E);
      B.program().ExitEndsWave = Kernel;
      bool Early = Kernel && !*Before;
      EXPECT_EQ(count(verify(B.program()), Violation::DivergentBarrier),
                Early ? 0u : 1u)
          << "before: '" << Before << "', kernel: " << Kernel;
      AbstractProgram Marked = B.program();
      markDivergentBlocks(Marked);
      EXPECT_EQ(Marked.Blocks[Then].NoBarrier, !Early)
          << "before: '" << Before << "', kernel: " << Kernel;
    }
}

TEST(Verifier, FlagsLoopHeaderBarrierWithoutWait) {
  // The stock-LLVM case: barrier at the top of a loop whose body ends with
  // a store; the store is in flight at the barrier on the next iteration.
  ProgramBuilder B;
  unsigned Pre = B.block(""), Head = B.block("| R0 W0"), Exit = B.block("");
  B.selfLoop(Pre, Head, Exit);
  std::vector<Violation> V = verify(B.program());
  ASSERT_GE(count(V, Violation::Race), 1u);
}

AbstractProgram randomProgram(std::mt19937 &Rng) {
  static const char *const Kinds[] = {"R0", "W0", "R1", "W1", "A0+1", "A0",
                                      "O",  "|",  "w0", "w1", "D0",   "v0",
                                      "R0", "W0", "L",  "v1", "D1"};
  ProgramBuilder B;
  unsigned N = 1 + Rng() % 5;
  for (unsigned I = 0; I < N; ++I) {
    std::string Spec;
    for (unsigned K = 0, L = Rng() % 6; K < L; ++K)
      Spec += std::string(Kinds[Rng() % std::size(Kinds)]) + " ";
    B.block(Spec, 1 + Rng() % 3);
  }
  B.chainWithRandomEdges(Rng, Rng() % 3);
  if (Rng() % 3 == 0)
    B.divergent(Rng() % N);
  // A kernel's exits end the wave: early exits are not divergent.
  B.program().ExitEndsWave = Rng() % 2;
  return B.program();
}

/// Gives the accesses of \p P random thread forms of a 1-D launch of 64
/// work-items: each its own dword at one of two bases (apart), its
/// neighbour's dword (meets the first), one dword for all, or every fourth
/// dword (a long range that meets the others'). Some accesses are in the
/// absolutely placed object instead: those with a form anywhere in its
/// first KiB, those without at one dword of it.
void addRandomThreadForms(AbstractProgram &P, std::mt19937 &Rng) {
  P.Shape.MaxDim = {64, 1, 1};
  P.Shape.MaxFlat = 64;
  P.ThreadForms.resize(1);
  for (auto [Const, Coef] : {std::pair<int64_t, int64_t>{0, 4},
                             {256, 4},
                             {4, 4},
                             {512, 0},
                             {8, 16}}) {
    ThreadAddress TA;
    TA.Const = Const;
    TA.Coef[0] = Coef;
    TA.Size = 4;
    P.ThreadForms.push_back({TA});
  }
  for (Block &BB : P.Blocks)
    for (Event &E : BB.Events) {
      if (E.Kind != Event::Access || E.Async || E.AK == AccessKind::Opaque)
        continue;
      E.Loc.ThreadForm = Rng() % P.ThreadForms.size();
      if (Rng() % 3)
        continue;
      E.Loc.Object = Location::AbsoluteObject;
      E.Loc.Begin = E.Loc.ThreadForm ? 0 : 4 * int64_t(Rng() % 160);
      E.Loc.Size = E.Loc.ThreadForm ? 1024 : 4;
    }
}

// The analysis leaves accesses that meet no access out of its state; the
// verifier has no such rule. With thread forms, some accesses meet none
// by their bytes alone.
TEST(Verifier, AgreesWithTheAnalysisOnRandomPrograms) {
  std::mt19937 Rng(31337);
  for (unsigned Iter = 0; Iter < 1000; ++Iter) {
    AbstractProgram P = randomProgram(Rng);
    if (Iter % 2)
      addRandomThreadForms(P, Rng);
    std::set<std::pair<EventRef, EventRef>> FromAnalysis, FromVerifier,
        InFlightA, InFlightV;
    HazardResult H = analyzeHazards(P, AnalysisOptions());
    for (const Window &W : H.Windows)
      FromAnalysis.insert({W.Producer, W.Consumer});
    for (const Window &W : H.InFlight)
      InFlightA.insert({W.Producer, W.Consumer});
    for (const Violation &V : verify(P)) {
      if (V.Kind == Violation::Race)
        FromVerifier.insert({V.Earlier, V.Later});
      if (V.Kind == Violation::InFlight)
        InFlightV.insert({V.Earlier, V.Later});
    }
    EXPECT_EQ(FromAnalysis, FromVerifier) << "iteration " << Iter;
    EXPECT_EQ(InFlightA, InFlightV) << "iteration " << Iter;
  }
}

TEST(Verifier, FlagsConflictsInConcurrentArms) {
  // if (per-wave) { W0 } else { R0 }: no path joins the arms.
  ProgramBuilder B;
  unsigned E = B.block(""), Then = B.block("W0"), Else = B.block("R0 R1");
  unsigned Join = B.block("R1");
  B.edge(E, Then);
  B.edge(E, Else);
  B.edge(Then, Join);
  B.edge(Else, Join);
  // A branch all waves take alike, or an EXEC branch (whose arms the
  // structurizer would have put on one path): nothing.
  EXPECT_TRUE(verify(B.program()).empty());
  B.divergent(E);
  EXPECT_TRUE(verify(B.program()).empty());
  B.program().Blocks[E].ConcurrentArms = true;
  std::vector<Violation> V = verify(B.program());
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Kind, Violation::Race);
  EXPECT_EQ(V[0].Fork, int(E));
  EXPECT_EQ(V[0].Earlier, (EventRef{Then, 0}));
  EXPECT_EQ(V[0].Later, (EventRef{Else, 0}));
  EXPECT_EQ(V[0].What, "RAW");
  // A barrier in an arm ends what that arm runs concurrently (the barrier
  // itself is reported as one some waves skip).
  B.program().Blocks[Else].Events.insert(
      B.program().Blocks[Else].Events.begin(), Event::barrier());
  V = verify(B.program());
  EXPECT_EQ(count(V, Violation::Race), 0u);
  EXPECT_EQ(count(V, Violation::DivergentBarrier), 1u);
}

// The placer's concurrent-arm windows (flooding up to the join of LLVM's
// post-dominator tree) and the verifier's races of concurrent arms
// (flooding up to its own immediate post-dominators): on random programs
// with random per-wave branches, the same pairs. The races along paths are
// still the analysis's windows, but for the pairs of concurrent arms,
// which are reported once, as such.
TEST(Verifier, AgreesWithThePlacerOnConcurrentArms) {
  std::mt19937 Rng(4242);
  unsigned WithArms = 0;
  for (unsigned Iter = 0; Iter < 1000; ++Iter) {
    AbstractProgram P = randomProgram(Rng);
    if (Iter % 2)
      addRandomThreadForms(P, Rng);
    for (Block &BB : P.Blocks)
      if (BB.Succs.size() > 1 && Rng() % 2)
        BB.DivergentBranch = BB.ConcurrentArms = true;
    std::set<std::pair<EventRef, EventRef>> Arms, Paths, ArmRaces, PathRaces;
    for (const Window &W : concurrentArmWindows(P, AnalysisOptions()))
      Arms.insert({W.Producer, W.Consumer});
    for (const Window &W : analyzeHazards(P, AnalysisOptions()).Windows)
      if (!Arms.count({std::min(W.Producer, W.Consumer),
                       std::max(W.Producer, W.Consumer)}))
        Paths.insert({W.Producer, W.Consumer});
    for (const Violation &V : verify(P))
      if (V.Kind == Violation::Race)
        (V.Fork >= 0 ? ArmRaces : PathRaces).insert({V.Earlier, V.Later});
    WithArms += !Arms.empty();
    EXPECT_EQ(Arms, ArmRaces) << "iteration " << Iter;
    EXPECT_EQ(Paths, PathRaces) << "iteration " << Iter;
  }
  // The programs exercise the rule.
  EXPECT_GT(WithArms, 50u);
}

TEST(Verifier, PlacementOutputVerifiesClean) {
  std::mt19937 Rng(2718);
  for (unsigned Iter = 0; Iter < 300; ++Iter) {
    AbstractProgram P = randomProgram(Rng);
    // Divergent programs with existing barriers in divergent regions are
    // flagged before placement; keep those out of this check.
    markDivergentBlocks(P);
    bool BarrierInDivergentBlock = false;
    for (const Block &BB : P.Blocks)
      for (const Event &E : BB.Events)
        BarrierInDivergentBlock |= BB.NoBarrier && E.Kind == Event::Barrier;
    if (BarrierInDivergentBlock)
      continue;
    for (bool Split : {false, true}) {
      PlacementOptions O;
      O.Split = Split;
      Placement R = placeBarriers(P, AnalysisOptions(), O);
      AbstractProgram Out = materialize(P, R, Split);
      unsigned Races = 0;
      for (const Violation &V : verify(Out)) {
        EXPECT_NE(V.Kind, Violation::Alternation)
            << "iteration " << Iter << ": " << V.What;
        EXPECT_NE(V.Kind, Violation::DivergentBarrier) << "iteration " << Iter;
        EXPECT_NE(V.Kind, Violation::InFlight) << "iteration " << Iter;
        Races += V.Kind == Violation::Race;
      }
      EXPECT_LE(Races, R.Uncoverable.size())
          << "iteration " << Iter << (Split ? " split" : "");
    }
  }
}

} // namespace

// The placer's divergence rule (transitive control dependence on the
// post-dominator tree) and the verifier's (flooding each divergent branch's
// region up to its immediate post-dominator) are different algorithms for
// one fact: on random CFGs, with and without nesting, they must mark the same
// blocks. The verifier reports each block with a barrier that it considers
// divergent. Most blocks have one (a monolithic barrier, a split signal or
// wait); the others, with or without an access, and exits that end the wave
// (a kernel) or not, make early exits, which neither marks (each finds them
// its own way; a signal before the branch keeps it divergent).
TEST(Verifier, AgreesWithThePlacerOnDivergentBlocks) {
  std::mt19937 Rng(20261124);
  unsigned Compared = 0, EarlyExits = 0;
  for (unsigned Iter = 0; Iter < 4000; ++Iter) {
    ProgramBuilder B;
    unsigned N = 2 + Rng() % 10;
    static const char *const Specs[] = {"|", "|",  "R0 |", "",
                                        "",  "R0", "S",    "V"};
    std::vector<bool> HasBarrier;
    for (unsigned I = 0; I < N; ++I) {
      // Half the programs end in an empty block, as kernels do.
      std::string Spec =
          I + 1 == N && Rng() % 2 ? "" : Specs[Rng() % std::size(Specs)];
      HasBarrier.push_back(Spec.find_first_of("|SV") != std::string::npos);
      B.block(Spec);
    }
    B.program().ExitEndsWave = Rng() % 2;
    for (unsigned I = 0; I + 1 < N; ++I) {
      // Mostly forward edges, some back-edges; the last block exits.
      B.edge(I, I + 1 + Rng() % (N - I - 1));
      if (Rng() % 2)
        B.edge(I,
               Rng() % 4 == 0 ? Rng() % (I + 1) : I + 1 + Rng() % (N - I - 1));
    }
    AbstractProgram &P = B.program();
    for (unsigned I = 0; I < N; ++I) {
      auto &S = P.Blocks[I].Succs;
      S.erase(std::unique(S.begin(), S.end()), S.end());
      if (S.size() == 2 && Rng() % 3 == 0)
        B.divergent(I);
    }
    AbstractProgram Marked = P;
    markDivergentBlocks(Marked);
    std::set<unsigned> Flagged;
    for (const Violation &V : verify(P))
      if (V.Kind == Violation::DivergentBarrier)
        Flagged.insert(V.Earlier.Block);
    std::vector<int> IPDom = computeImmediatePostDominators(P);
    // Reachable blocks that reach an exit (the placer also bars the others
    // whenever any branch is divergent; post-dominance says nothing there).
    std::vector<bool> Reach(N, false);
    std::vector<unsigned> Work{0};
    Reach[0] = true;
    while (!Work.empty()) {
      unsigned X = Work.back();
      Work.pop_back();
      for (unsigned S : P.Blocks[X].Succs)
        if (!Reach[S]) {
          Reach[S] = true;
          Work.push_back(S);
        }
    }
    bool AllExit = true;
    for (unsigned I = 0; I < N; ++I)
      AllExit &= IPDom[I] >= 0;
    if (!AllExit)
      continue;
    // The blocks a divergent branch's region would hold, were no branch an
    // early exit: those not marked are in the region of an early exit only.
    AbstractProgram Strict = P;
    Strict.ExitEndsWave = false;
    markDivergentBlocks(Strict);
    for (unsigned I = 0; I < N; ++I) {
      if (!Reach[I] || !HasBarrier[I])
        continue;
      ++Compared;
      EarlyExits += Strict.Blocks[I].NoBarrier && !Marked.Blocks[I].NoBarrier;
      EXPECT_EQ(Marked.Blocks[I].NoBarrier, Flagged.count(I) != 0)
          << "block " << I << " of program " << Iter << ":\n"
          << [&] {
               std::string S;
               llvm::raw_string_ostream OS(S);
               P.print(OS);
               return S;
             }();
    }
  }
  EXPECT_GT(Compared, 5000u);
  EXPECT_GT(EarlyExits, 25u);
}

// A uniform branch inside a divergent region: the blocks under it are
// divergent too (placing a barrier there hung waves that skipped the region).
TEST(Verifier, UniformBranchInsideDivergentRegionIsDivergent) {
  ProgramBuilder B;
  unsigned E = B.block(""), Inner = B.block(""), T = B.block("W0 R0"),
           F = B.block(""), InnerJoin = B.block(""), Join = B.block("");
  B.edge(E, Inner);
  B.edge(E, Join);
  B.edge(Inner, T);
  B.edge(Inner, F);
  B.edge(T, InnerJoin);
  B.edge(F, InnerJoin);
  B.edge(InnerJoin, Join);
  B.divergent(E);
  markDivergentBlocks(B.program());
  for (unsigned X : {Inner, T, F, InnerJoin}) {
    EXPECT_TRUE(B.program().Blocks[X].NoBarrier) << X;
    EXPECT_EQ(B.program().Blocks[X].DivergenceSource, int(E)) << X;
  }
  EXPECT_FALSE(B.program().Blocks[E].NoBarrier);
  EXPECT_FALSE(B.program().Blocks[Join].NoBarrier);
}
