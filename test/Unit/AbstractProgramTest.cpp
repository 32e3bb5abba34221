//===- AbstractProgramTest.cpp - Graph utilities and divergence rule ------===//

#include "LDSAbstractProgram.h"
#include "ProgramBuilder.h"
#include "gtest/gtest.h"

using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::test;

namespace {

TEST(AbstractProgram, ReversePostOrderSkipsUnreachable) {
  ProgramBuilder B;
  unsigned A = B.block(""), C = B.block(""), Dead = B.block(""),
           D = B.block("");
  B.edge(A, D);
  B.edge(A, C);
  B.edge(C, D);
  B.edge(Dead, D);
  std::vector<unsigned> RPO = B.program().reversePostOrder();
  ASSERT_EQ(RPO.size(), 3u);
  EXPECT_EQ(RPO.front(), A);
  EXPECT_EQ(RPO.back(), D);
}

TEST(AbstractProgram, DominatorsOfDiamondAndIrreducibleGraph) {
  // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3: idom(3) = 0.
  Graph G = {{1, 2}, {3}, {3}, {}};
  std::vector<int> IDom = computeImmediateDominators(G, 0);
  EXPECT_EQ(IDom[1], 0);
  EXPECT_EQ(IDom[2], 0);
  EXPECT_EQ(IDom[3], 0);
  // Irreducible: 0 -> 1, 0 -> 2, 1 <-> 2, 2 -> 3: idom(1) = idom(2) = 0.
  Graph I = {{1, 2}, {2}, {1, 3}, {}};
  IDom = computeImmediateDominators(I, 0);
  EXPECT_EQ(IDom[1], 0);
  EXPECT_EQ(IDom[2], 0);
  EXPECT_EQ(IDom[3], 2);
  // Node 4 is unreachable.
  Graph U = {{1}, {}, {}, {}, {1}};
  EXPECT_EQ(computeImmediateDominators(U, 0)[4], -1);
}

/// The nodes of \p G reached from \p Start by paths that avoid node
/// \p Removed (-1: none); nothing when Start is the removed node.
static std::vector<uint8_t> reachedFrom(const Graph &G, unsigned Start,
                                        int Removed = -1) {
  std::vector<uint8_t> Seen(G.size(), 0);
  std::vector<unsigned> Work;
  if (int(Start) != Removed) {
    Seen[Start] = 1;
    Work.push_back(Start);
  }
  while (!Work.empty()) {
    unsigned X = Work.back();
    Work.pop_back();
    for (unsigned S : G[X])
      if (int(S) != Removed && !Seen[S]) {
        Seen[S] = 1;
        Work.push_back(S);
      }
  }
  return Seen;
}

/// Immediate dominators by their definition: D dominates X when X cannot be
/// reached from the root once D is taken out of the graph; the immediate one
/// is the strict dominator that all the others dominate.
static std::vector<int> bruteForceDominators(const Graph &G, unsigned Root) {
  unsigned N = G.size();
  auto Reached = [&](int Removed) { return reachedFrom(G, Root, Removed); };
  std::vector<uint8_t> Reachable = Reached(-1);
  // Dom[D][X]: D dominates X.
  std::vector<std::vector<uint8_t>> Dom(N, std::vector<uint8_t>(N, 0));
  for (unsigned D = 0; D < N; ++D) {
    std::vector<uint8_t> Without = Reached(D);
    for (unsigned X = 0; X < N; ++X)
      Dom[D][X] = Reachable[D] && Reachable[X] && (X == D || !Without[X]);
  }
  std::vector<int> IDom(N, -1);
  for (unsigned X = 0; X < N; ++X) {
    if (!Reachable[X])
      continue;
    if (X == Root) {
      IDom[X] = Root;
      continue;
    }
    for (unsigned D = 0; D < N; ++D) {
      if (D == X || !Dom[D][X])
        continue;
      bool Nearest = true;
      for (unsigned E = 0; E < N; ++E)
        if (E != X && E != D && Dom[E][X] && !Dom[E][D])
          Nearest = false;
      if (Nearest)
        IDom[X] = D;
    }
  }
  return IDom;
}

TEST(AbstractProgram, DominatorsMatchTheirDefinitionOnRandomGraphs) {
  // Small random graphs, dense and sparse, with self-loops, parallel edges,
  // unreachable nodes, irreducible cycles and edges back to the root.
  uint64_t Seed = 12345;
  auto Next = [&](unsigned Bound) {
    Seed = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return unsigned((Seed >> 33) % Bound);
  };
  unsigned Irreducible = 0;
  for (unsigned Trial = 0; Trial < 3000; ++Trial) {
    unsigned N = 1 + Next(11);
    unsigned Edges = Next(3 * N + 1);
    Graph G(N);
    for (unsigned E = 0; E < Edges; ++E)
      G[Next(N)].push_back(Next(N));
    unsigned Root = Next(N);
    std::vector<int> Expected = bruteForceDominators(G, Root);
    ASSERT_EQ(computeImmediateDominators(G, Root), Expected)
        << "trial " << Trial;
    // Count graphs with a cycle entered at two nodes (neither dominating
    // the other), so that the test is known to cover them.
    for (unsigned X = 0; X < N; ++X)
      for (unsigned Y : G[X])
        if (Expected[X] >= 0 && Expected[Y] >= 0 && Y != X &&
            Expected[Y] != int(X) && int(Y) != Expected[X]) {
          // X -> Y where Y does not dominate X: a back edge only if it
          // does; otherwise check whether Y reaches X (a cycle).
          std::vector<uint8_t> Seen = reachedFrom(G, Y);
          bool YDomX = false;
          for (int D = Expected[X]; D >= 0; D = Expected[D]) {
            if (unsigned(D) == Y)
              YDomX = true;
            if (unsigned(D) == Root)
              break;
          }
          if (Seen[X] && !YDomX)
            ++Irreducible;
        }
  }
  EXPECT_GT(Irreducible, 100u);
}

// Component numbers against their definition on random graphs: reachable
// blocks share a number exactly when each reaches the other, a block that
// reaches another has a number no greater, and unreachable blocks get ~0u.
TEST(AbstractProgram, ComponentOrderMatchesReachability) {
  uint64_t Seed = 777;
  auto Next = [&](unsigned Bound) {
    Seed = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return unsigned((Seed >> 33) % Bound);
  };
  unsigned Cycles = 0, Unreachable = 0;
  for (unsigned Trial = 0; Trial < 2000; ++Trial) {
    ProgramBuilder B;
    unsigned N = 1 + Next(10);
    for (unsigned X = 0; X < N; ++X)
      B.block("");
    Graph G(N);
    for (unsigned E = 0, Edges = Next(2 * N + 1); E < Edges; ++E) {
      unsigned From = Next(N), To = Next(N);
      B.edge(From, To);
      G[From].push_back(To);
    }
    AbstractProgram &P = B.program();
    P.Entry = Next(N);
    std::vector<unsigned> Order = P.componentOrder();
    std::vector<uint8_t> FromEntry = reachedFrom(G, P.Entry);
    for (unsigned X = 0; X < N; ++X) {
      if (!FromEntry[X]) {
        EXPECT_EQ(Order[X], ~0u) << "trial " << Trial << ", bb." << X;
        ++Unreachable;
        continue;
      }
      std::vector<uint8_t> FromX = reachedFrom(G, X);
      for (unsigned Y = 0; Y < N; ++Y) {
        if (!FromEntry[Y] || X == Y)
          continue;
        bool Mutual = FromX[Y] && reachedFrom(G, Y)[X];
        Cycles += Mutual;
        EXPECT_EQ(Order[X] == Order[Y], Mutual)
            << "trial " << Trial << ": bb." << X << ", bb." << Y;
        if (FromX[Y])
          EXPECT_LE(Order[X], Order[Y])
              << "trial " << Trial << ": bb." << X << " -> bb." << Y;
      }
    }
  }
  EXPECT_GT(Cycles, 1000u);
  EXPECT_GT(Unreachable, 1000u);
}

TEST(AbstractProgram, DivergentIfMarksOnlyTheSkippedBlock) {
  ProgramBuilder B;
  unsigned Entry = B.block(""), Then = B.block(""), Join = B.block("");
  B.ifThen(Entry, Then, Join);
  B.divergent(Entry);
  markDivergentBlocks(B.program());
  EXPECT_FALSE(B.program().Blocks[Entry].NoBarrier);
  EXPECT_TRUE(B.program().Blocks[Then].NoBarrier);
  EXPECT_FALSE(B.program().Blocks[Join].NoBarrier);
}

TEST(AbstractProgram, LoopWithDivergentExitMarksWholeBody) {
  ProgramBuilder B;
  unsigned Pre = B.block(""), Head = B.block(""), Latch = B.block(""),
           Exit = B.block("");
  B.edge(Pre, Head);
  B.edge(Head, Latch);
  B.edge(Latch, Head);
  B.edge(Latch, Exit);
  B.divergent(Latch);
  markDivergentBlocks(B.program());
  EXPECT_FALSE(B.program().Blocks[Pre].NoBarrier);
  EXPECT_TRUE(B.program().Blocks[Head].NoBarrier);
  EXPECT_TRUE(B.program().Blocks[Latch].NoBarrier);
  EXPECT_FALSE(B.program().Blocks[Exit].NoBarrier);
}

TEST(AbstractProgram, SelfLoopWithDivergentExitIsUnsafe) {
  ProgramBuilder B;
  unsigned Pre = B.block(""), Body = B.block(""), Exit = B.block("");
  B.selfLoop(Pre, Body, Exit);
  B.divergent(Body);
  markDivergentBlocks(B.program());
  EXPECT_TRUE(B.program().Blocks[Body].NoBarrier);
  EXPECT_FALSE(B.program().Blocks[Exit].NoBarrier);
}

TEST(AbstractProgram, UniformBranchesMarkNothing) {
  ProgramBuilder B;
  unsigned Entry = B.block(""), Then = B.block(""), Join = B.block("");
  B.ifThen(Entry, Then, Join);
  markDivergentBlocks(B.program());
  for (const Block &BB : B.program().Blocks)
    EXPECT_FALSE(BB.NoBarrier);
}

TEST(AbstractProgram, Overlap) {
  AbstractProgram P;
  Location A{1, 0, 4, 0}, B{1, 4, 4, 0}, C{1, 2, 4, 0}, D{2, 0, 4, 0};
  EXPECT_FALSE(P.mayOverlap(A, B)); // Adjacent ranges.
  EXPECT_TRUE(P.mayOverlap(A, C));
  EXPECT_FALSE(P.mayOverlap(A, D)); // Distinct objects.
  Location Whole{1, 0, 0, 0};
  EXPECT_TRUE(P.mayOverlap(Whole, B));
  EXPECT_TRUE(P.mayOverlap(Location(), D)); // Anything.
  Location Abs{Location::AbsoluteObject, 0, 4, 0};
  EXPECT_TRUE(P.mayOverlap(Abs, D));
  // Two module-LDS variables of one domain never overlap; of different
  // domains, nothing is known.
  P.VariableDomains = {0, 1, 1, 2};
  Location V1{1, 0, 0, 1}, V2{1, 0, 0, 2}, V3{1, 0, 0, 3};
  EXPECT_FALSE(P.mayOverlap(V1, V2));
  EXPECT_TRUE(P.mayOverlap(V1, V1));
  EXPECT_TRUE(P.mayOverlap(V1, V3));
  EXPECT_TRUE(P.mayOverlap(Whole, V1));
}

TEST(AbstractProgram, ValidateCatchesBadEdges) {
  ProgramBuilder B;
  unsigned A = B.block("W0");
  B.edge(A, 7);
  EXPECT_NE(B.program().validate(), "");
}

} // namespace
