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
