//===- LoopStagesTest.cpp - Stage slots against enumeration ---------------===//
//
// Two oracles of their own for the stage slots of multi-buffered loops:
// - random index expressions of a loop counter in IR, whose values
//   LoopStageAnalysis derives, are run by an interpreter written here
//   iteration by iteration (the counter stepped by its own increment
//   instruction, not by a formula), and every derived value must agree;
// - random addresses with stage slots: every "different work-items cannot
//   overlap" answer is checked by enumerating launches, pairs of
//   work-items and pairs of iterations (equal ones for one iteration).
//
//===----------------------------------------------------------------------===//

#include "LDSLoopStages.h"
#include "LDSThreadAddress.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "gtest/gtest.h"
#include <map>
#include <random>

using namespace llvm;
using namespace llvm::ldsbarriers;

namespace {

/// Runs the instructions of \p Body for the counter value \p I; poison
/// (a wrapped nuw operation) makes the value absent.
std::map<const Value *, std::optional<APInt>>
interpret(const std::vector<Instruction *> &Body, const PHINode *Counter,
          const APInt &I) {
  std::map<const Value *, std::optional<APInt>> Env;
  Env[Counter] = I;
  auto Get = [&](const Value *V) -> std::optional<APInt> {
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return C->getValue();
    return Env.at(V);
  };
  for (Instruction *Inst : Body) {
    std::optional<APInt> R;
    if (auto *C = dyn_cast<CastInst>(Inst)) {
      if (std::optional<APInt> X = Get(C->getOperand(0))) {
        unsigned W = C->getType()->getIntegerBitWidth();
        R = C->getOpcode() == Instruction::ZExt   ? X->zext(W)
            : C->getOpcode() == Instruction::SExt ? X->sext(W)
                                                  : X->trunc(W);
      }
    } else if (auto *Cmp = dyn_cast<ICmpInst>(Inst)) {
      std::optional<APInt> A = Get(Cmp->getOperand(0));
      std::optional<APInt> B = Get(Cmp->getOperand(1));
      if (A && B)
        R = APInt(1, ICmpInst::compare(*A, *B, Cmp->getPredicate()));
    } else if (auto *Sel = dyn_cast<SelectInst>(Inst)) {
      std::optional<APInt> C = Get(Sel->getCondition());
      if (C)
        R = Get(C->getBoolValue() ? Sel->getTrueValue() : Sel->getFalseValue());
    } else {
      auto *BO = cast<BinaryOperator>(Inst);
      std::optional<APInt> A = Get(BO->getOperand(0));
      std::optional<APInt> B = Get(BO->getOperand(1));
      bool NUW = isa<OverflowingBinaryOperator>(BO) && BO->hasNoUnsignedWrap();
      bool Overflow = false;
      if (A && B) {
        switch (BO->getOpcode()) {
        case Instruction::Add:
          R = A->uadd_ov(*B, Overflow);
          break;
        case Instruction::Sub:
          R = A->usub_ov(*B, Overflow);
          break;
        case Instruction::Mul:
          R = A->umul_ov(*B, Overflow);
          break;
        case Instruction::Shl:
          R = A->ushl_ov(*B, Overflow);
          break;
        case Instruction::And:
          R = *A & *B;
          break;
        case Instruction::Or:
          R = *A | *B;
          break;
        case Instruction::Xor:
          R = *A ^ *B;
          break;
        case Instruction::UDiv:
          R = A->udiv(*B);
          break;
        case Instruction::URem:
          R = A->urem(*B);
          break;
        case Instruction::LShr:
          R = A->lshr(*B);
          break;
        default:
          break;
        }
        if (Overflow && NUW)
          R.reset();
      }
    }
    Env[Inst] = R;
  }
  return Env;
}

TEST(LoopStages, IRValuesAgreeWithInterpretation) {
  std::mt19937 Rng(20261125);
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  };
  unsigned Derived = 0, Periodic = 0, Wrong = 0, Trials = 300;
  for (unsigned T = 0; T < Trials; ++T) {
    LLVMContext Ctx;
    Module M("m", Ctx);
    IntegerType *I32 = Type::getInt32Ty(Ctx);
    Function *F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {}),
                                   Function::ExternalLinkage, "f", M);
    BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", F);
    BasicBlock *Header = BasicBlock::Create(Ctx, "header", F);
    BasicBlock *Exit = BasicBlock::Create(Ctx, "exit", F);
    IRBuilder<> B(Entry);
    B.CreateBr(Header);
    B.SetInsertPoint(Header);
    PHINode *Counter = B.CreatePHI(I32, 2, "i");
    uint64_t Init = Pick(0, 5), Step = Pick(1, 4) * (Pick(0, 3) ? 1 : 256);
    bool NUW = Pick(0, 1);
    auto *Next =
        cast<Instruction>(B.CreateAdd(Counter, B.getInt32(Step), "next", NUW));
    std::vector<Instruction *> Body = {Next};
    std::vector<Value *> Pool = {Counter, Next};
    for (unsigned K = 0; K < 6; ++K) {
      Value *X = Pool[Pick(0, Pool.size() - 1)];
      Value *V = nullptr;
      if (!X->getType()->isIntegerTy(32))
        X = B.CreateZExt(X, I32);
      switch (Pick(0, 11)) {
      case 0:
        V = B.CreateAdd(X, B.getInt32(Pick(0, 9)), "", Pick(0, 1));
        break;
      case 1: {
        Value *Y = Pool[Pick(0, Pool.size() - 1)];
        V = B.CreateSub(X, Y->getType() == I32 ? Y : B.getInt32(1));
        break;
      }
      case 2:
        V = B.CreateMul(X, B.getInt32(Pick(-3, 1024)), "", Pick(0, 1));
        break;
      case 3:
        V = B.CreateShl(X, B.getInt32(Pick(0, 10)));
        break;
      case 4:
        V = B.CreateAnd(X, B.getInt32(Pick(0, 1) ? Pick(1, 7) : 256));
        break;
      case 5:
        V = B.CreateXor(X, B.getInt32(Pick(1, 3)));
        break;
      case 6:
        V = B.CreateOr(X, B.getInt32(Pick(1, 6)));
        break;
      case 7:
        V = B.CreateURem(X, B.getInt32(Pick(2, 5)));
        break;
      case 8:
        V = B.CreateUDiv(X, B.getInt32(Pick(2, 5)));
        break;
      case 9:
        V = B.CreateLShr(X, B.getInt32(Pick(1, 3)));
        break;
      case 10:
        V = B.CreateSelect(
            B.CreateICmpEQ(B.CreateAnd(X, B.getInt32(1)), B.getInt32(0)),
            B.getInt32(Pick(0, 3) * 1024), B.getInt32(Pick(0, 3) * 1024));
        break;
      default:
        V = B.CreateTrunc(X, Type::getInt8Ty(Ctx));
        break;
      }
      Pool.push_back(V);
    }
    // Every instruction made, in order, for the interpreter.
    Body.clear();
    for (Instruction &I : *Header)
      if (!isa<PHINode>(I))
        Body.push_back(&I);
    B.CreateCondBr(B.getTrue(), Header, Exit);
    Counter->addIncoming(B.getInt32(Init), Entry);
    Counter->addIncoming(Next, Header);
    B.SetInsertPoint(Exit);
    B.CreateRetVoid();

    DominatorTree DT(*F);
    LoopStageAnalysis LSA(DT);
    std::vector<std::optional<StageValue>> Values;
    for (Value *V : Pool)
      Values.push_back(LSA.get(V));
    APInt I(32, Init);
    for (unsigned N = 0; N < 40; ++N) {
      auto Env = interpret(Body, Counter, I);
      for (size_t K = 0; K < Pool.size(); ++K) {
        const std::optional<StageValue> &S = Values[K];
        std::optional<APInt> Want =
            Pool[K] == Counter ? std::optional<APInt>(I) : Env.at(Pool[K]);
        if (!S || !Want)
          continue;
        APInt Got = APInt(64, uint64_t(S->at(N)), /*isSigned=*/true)
                        .zextOrTrunc(Want->getBitWidth());
        if (Got != *Want && ++Wrong <= 5)
          ADD_FAILURE() << "value " << K << " at iteration " << N << ": "
                        << Got.getZExtValue() << " derived, "
                        << Want->getZExtValue() << " run";
      }
      if (!Env.at(Next))
        break; // The counter wrapped: poison from here on.
      I = *Env.at(Next);
    }
    for (const auto &S : Values)
      if (S) {
        ++Derived;
        Periodic += S->isPeriodic();
      }
  }
  EXPECT_EQ(Wrong, 0u);
  EXPECT_GT(Periodic, Trials) << "too few stage slots derived";
  EXPECT_GT(Derived, 3 * Trials);
}

using Id = std::array<int64_t, 3>;

uint32_t addressOf(const ThreadAddress &T, const Id &I, int64_t Iteration) {
  int64_t A = T.Const;
  for (unsigned D = 0; D < 3; ++D)
    A += T.Coef[D] * I[D];
  if (!T.Stage.empty())
    A += T.Stage[Iteration % T.Stage.size()];
  return uint32_t(A);
}

/// Whether two different work-items of some launch overlap, A in iteration
/// NA and B in NB, over the iterations allowed.
bool bruteForce(const ThreadAddress &A, const ThreadAddress &B,
                const WorkgroupShape &S, bool SameIteration) {
  for (int64_t X = 1; X <= S.MaxDim[0]; ++X)
    for (int64_t Y = 1; Y <= S.MaxDim[1]; ++Y) {
      if (X * Y > S.MaxFlat)
        continue;
      for (int64_t NA = 0; NA < 12; ++NA)
        for (int64_t NB = 0; NB < 12; ++NB) {
          if (SameIteration && NA != NB)
            continue;
          for (int64_t I1 = 0; I1 < X * Y; ++I1)
            for (int64_t I2 = 0; I2 < X * Y; ++I2) {
              if (I1 == I2)
                continue;
              uint32_t PA = addressOf(A, {I1 % X, I1 / X, 0}, NA);
              uint32_t PB = addressOf(B, {I2 % X, I2 / X, 0}, NB);
              if (uint32_t(PB - PA) < A.Size || uint32_t(PA - PB) < B.Size)
                return true;
            }
        }
    }
  return false;
}

TEST(LoopStages, SlotsAgreeWithEnumeration) {
  std::mt19937 Rng(1125);
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  };
  unsigned Disjoint = 0, Unsound = 0, Trials = 3000;
  for (unsigned T = 0; T < Trials; ++T) {
    WorkgroupShape S;
    S.MaxDim = {Pick(1, 6), Pick(1, 2), 1};
    S.MaxFlat = Pick(1, 12);
    auto Random = [&](unsigned Loop) {
      ThreadAddress A;
      A.Const = Pick(-4, 4) * 2;
      A.Coef[0] = Pick(0, 2) * 2;
      A.Coef[1] = Pick(0, 3) == 0 ? 16 : 0;
      A.Size = Pick(1, 4);
      if (Pick(0, 4)) {
        A.StageLoop = Loop;
        int64_t Span = Pick(1, 3) * 16;
        for (int64_t K = 0, P = Pick(1, 3); K < P; ++K)
          A.Stage.push_back(((K + Pick(0, 1)) % P) * Span *
                            (Pick(0, 5) ? 1 : -1));
      }
      return A;
    };
    ThreadAddress A = Random(1), B = Random(Pick(0, 3) ? 1 : 2);
    bool Same = Pick(0, 1);
    if (workItemsMayOverlap(A, B, S, nullptr, Same))
      continue;
    ++Disjoint;
    bool SameLoop = A.StageLoop && A.StageLoop == B.StageLoop;
    if (bruteForce(A, B, S, Same && SameLoop) && ++Unsound <= 5)
      ADD_FAILURE() << "unsound: " << A.str() << " vs " << B.str()
                    << (Same ? " in one iteration" : "");
  }
  EXPECT_EQ(Unsound, 0u);
  EXPECT_GT(Disjoint, Trials / 10) << "the analysis proves too little";
}

} // namespace
