//===- ThreadAddressIRTest.cpp - The address builder against the IR -------===//
//
// Random LDS index expressions in IR (masks, shifts, xor, division and
// remainder by constants, casts between widths, a loaded byte scaled by a
// power of two, a kernel argument), built into ThreadAddresses by
// ThreadAddressBuilder. Every pair the analysis calls disjoint between
// work-items is checked by an interpreter of the IR written here, on its
// own: every pair of different work-items of small launches, sampled
// values of the loaded bytes and the argument. It shares nothing with the
// builder or the overlap test but LLVM's APInt arithmetic.
//
//===----------------------------------------------------------------------===//

#include "LDSThreadAddress.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "gtest/gtest.h"
#include <map>
#include <random>

using namespace llvm;
using namespace llvm::ldsbarriers;

namespace {

using Id = std::array<int64_t, 3>;

/// The value of \p V for work-item \p T, loaded bytes \p Loaded (one per
/// load instruction, by order of creation; the values of phis too) and
/// argument \p Arg. Poison is set when an operation with no-wrap flags
/// wraps or a shift amount reaches the width.
struct Interpreter {
  Id T;
  const std::map<const Value *, uint64_t> *Loaded;
  uint64_t Arg;
  mutable bool Poison = false;

  APInt eval(const Value *V) const {
    unsigned W = V->getType()->getIntegerBitWidth();
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return C->getValue();
    if (isa<Argument>(V))
      return APInt(W, Arg);
    if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::amdgcn_workitem_id_x:
        return APInt(W, T[0]);
      case Intrinsic::amdgcn_workitem_id_y:
        return APInt(W, T[1]);
      // The low 24 bits of each operand, unsigned or signed, multiplied.
      case Intrinsic::amdgcn_mul_u24:
        return eval(II->getArgOperand(0)).trunc(24).zext(32) *
               eval(II->getArgOperand(1)).trunc(24).zext(32);
      case Intrinsic::amdgcn_mul_i24:
        return eval(II->getArgOperand(0)).trunc(24).sext(32) *
               eval(II->getArgOperand(1)).trunc(24).sext(32);
      default:
        break;
      }
    }
    if (isa<LoadInst, PHINode>(V))
      return APInt(W, Loaded->at(V));
    if (const auto *EE = dyn_cast<ExtractElementInst>(V))
      return lane(EE->getVectorOperand(),
                  cast<ConstantInt>(EE->getIndexOperand())->getZExtValue());
    if (const auto *Cmp = dyn_cast<ICmpInst>(V))
      return APInt(1, ICmpInst::compare(eval(Cmp->getOperand(0)),
                                        eval(Cmp->getOperand(1)),
                                        Cmp->getPredicate()));
    if (const auto *Sel = dyn_cast<SelectInst>(V))
      return eval(Sel->getCondition()).getBoolValue()
                 ? eval(Sel->getTrueValue())
                 : eval(Sel->getFalseValue());
    const auto *I = cast<Instruction>(V);
    if (const auto *C = dyn_cast<CastInst>(I)) {
      APInt X = eval(C->getOperand(0));
      switch (C->getOpcode()) {
      case Instruction::ZExt:
        return X.zext(W);
      case Instruction::SExt:
        return X.sext(W);
      case Instruction::Trunc:
        return X.trunc(W);
      default:
        break;
      }
    }
    return apply(I, eval(I->getOperand(0)), eval(I->getOperand(1)));
  }
  /// Lane \p L of the vector \p V: element by element.
  APInt lane(const Value *V, unsigned L) const {
    if (const auto *C = dyn_cast<Constant>(V))
      return cast<ConstantInt>(C->getAggregateElement(L))->getValue();
    if (const auto *IE = dyn_cast<InsertElementInst>(V))
      return cast<ConstantInt>(IE->getOperand(2))->getZExtValue() == L
                 ? eval(IE->getOperand(1))
                 : lane(IE->getOperand(0), L);
    const auto *I = cast<Instruction>(V);
    return apply(I, lane(I->getOperand(0), L), lane(I->getOperand(1), L));
  }
  /// The binary operation \p I on \p A and \p B.
  APInt apply(const Instruction *I, APInt A, const APInt &B) const {
    unsigned W = A.getBitWidth();
    bool NUW = false, NSW = false, UO = false, SO = false;
    if (const auto *OBO = dyn_cast<OverflowingBinaryOperator>(I)) {
      NUW = OBO->hasNoUnsignedWrap();
      NSW = OBO->hasNoSignedWrap();
    }
    auto Flagged = [&](const APInt &R) {
      Poison |= (NUW && UO) || (NSW && SO);
      return R;
    };
    if (I->isShift() && B.uge(W)) {
      Poison = true;
      return APInt(W, 0);
    }
    switch (I->getOpcode()) {
    case Instruction::Add:
      (void)A.uadd_ov(B, UO);
      (void)A.sadd_ov(B, SO);
      return Flagged(A + B);
    case Instruction::Sub:
      (void)A.usub_ov(B, UO);
      (void)A.ssub_ov(B, SO);
      return Flagged(A - B);
    case Instruction::Mul:
      (void)A.umul_ov(B, UO);
      (void)A.smul_ov(B, SO);
      return Flagged(A * B);
    case Instruction::And:
      return A & B;
    case Instruction::Or:
      return A | B;
    case Instruction::Xor:
      return A ^ B;
    case Instruction::Shl:
      (void)A.ushl_ov(B, UO);
      (void)A.sshl_ov(B, SO);
      return Flagged(A.shl(B));
    case Instruction::LShr:
      return A.lshr(B);
    case Instruction::AShr:
      return A.ashr(B);
    case Instruction::UDiv:
      return A.udiv(B);
    case Instruction::URem:
      return A.urem(B);
    default:
      ADD_FAILURE() << "unexpected instruction";
      return APInt(W, 0);
    }
  }
};

struct Generator {
  std::mt19937 &R;
  IRBuilder<> &B;
  Value *TidX, *TidY, *Arg, *Bytes;
  std::vector<const Value *> Loads;

  int64_t pick(int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(R);
  }
  Value *leaf(Type *Ty) {
    Value *V;
    switch (pick(0, 5)) {
    case 0:
    case 1:
      V = TidX;
      break;
    case 2:
      V = TidY;
      break;
    case 3:
      return ConstantInt::get(Ty, pick(-3, 40));
    default:
      V = TidX;
      break;
    }
    return B.CreateZExtOrTrunc(V, Ty);
  }
  /// A tid expression of type \p Ty.
  Value *expr(Type *Ty, unsigned Depth) {
    if (Depth == 0 || pick(0, 3) == 0)
      return leaf(Ty);
    unsigned W = Ty->getIntegerBitWidth();
    Value *X = expr(Ty, Depth - 1);
    auto K = [&](int64_t Lo, int64_t Hi) {
      return ConstantInt::get(Ty, pick(Lo, Hi));
    };
    switch (pick(0, 15)) {
    case 14: // A lane of what the SLP vectorizer makes of two of them.
      if (W == 32) {
        auto *VTy = FixedVectorType::get(Ty, 2);
        auto Pair = [&](Value *A, Value *C) {
          return B.CreateInsertElement(
              B.CreateInsertElement(PoisonValue::get(VTy), A, uint64_t(0)), C,
              uint64_t(1));
        };
        Value *L = Pair(X, K(0, 9)), *R = Pair(expr(Ty, Depth - 1), TidY);
        if (pick(0, 3) == 0)
          return B.CreateExtractElement(R, uint64_t(pick(0, 1)));
        static const Instruction::BinaryOps Ops[] = {
            Instruction::Add, Instruction::Sub, Instruction::Mul};
        return B.CreateExtractElement(
            B.CreateBinOp(Ops[pick(0, 2)], L,
                          pick(0, 2) ? R : Pair(K(0, 5), K(1, 3))),
            uint64_t(pick(0, 1)));
      }
      return B.CreateAdd(X, K(-2, 6));
    case 13: // What AMDGPU's IR passes make of a 24-bit multiplication.
      if (W == 32)
        return B.CreateIntrinsic(
            B.getInt32Ty(),
            pick(0, 1) ? Intrinsic::amdgcn_mul_u24 : Intrinsic::amdgcn_mul_i24,
            {pick(0, 1) ? B.CreateSub(X, K(0, 6)) : X, K(-4, 40)});
      return B.CreateMul(X, K(-2, 6));
    case 0:
      return B.CreateAdd(X, expr(Ty, Depth - 1));
    case 1:
      return B.CreateSub(X, expr(Ty, Depth - 1));
    case 2:
      return B.CreateMul(X, K(-2, 6));
    case 3:
      return B.CreateAnd(X, K(0, 63));
    case 4:
      return B.CreateOr(X, K(0, 7));
    case 5:
      return B.CreateXor(X, pick(0, 1) ? K(0, 31) : expr(Ty, Depth - 1));
    case 6:
      return B.CreateShl(X, ConstantInt::get(Ty, pick(0, 4)));
    case 7:
      return B.CreateLShr(X, ConstantInt::get(Ty, pick(0, 5)));
    case 8:
      return B.CreateAShr(X, ConstantInt::get(Ty, pick(0, 3)));
    case 9:
      return B.CreateUDiv(X, K(1, 9));
    case 10:
      return B.CreateURem(X, K(1, 40));
    case 12: // A negative value shifted right at 64 bits.
      return B.CreateZExtOrTrunc(
          B.CreateLShr(
              B.CreateSExt(B.CreateSub(B.CreateZExtOrTrunc(X, B.getInt32Ty()),
                                       B.getInt32(pick(1, 8))),
                           B.getInt64Ty()),
              ConstantInt::get(B.getInt64Ty(), pick(1, 40))),
          Ty);
    case 11: { // Through the other width and back.
      Type *Other = B.getIntNTy(W == 32 ? 64 : 32);
      Value *Y = pick(0, 1) ? B.CreateSExt(B.CreateTrunc(X, B.getInt32Ty()),
                                           B.getInt64Ty())
                            : B.CreateZExtOrTrunc(X, Other);
      return B.CreateSExtOrTrunc(Y, Ty);
    }
    default:
      return B.CreateMul(X, expr(Ty, Depth - 1));
    }
  }
  /// An index: a tid expression, often plus a loaded byte or 32-bit word
  /// times 2^k (a per-work-item value only known to be a multiple; of no
  /// range for a word), with the tid part then often masked below 2^k (the
  /// sub-histogram layout), sometimes plus the kernel argument.
  Value *index(Type *Ty) {
    Value *I = expr(Ty, 3);
    if (pick(0, 1)) {
      Value *P = B.CreateGEP(B.getInt8Ty(), Bytes, leaf(B.getInt32Ty()));
      LoadInst *L =
          B.CreateLoad(pick(0, 2) ? B.getInt8Ty() : B.getInt32Ty(), P);
      Loads.push_back(L);
      int64_t K = pick(0, 7);
      Value *U = B.CreateShl(B.CreateZExt(L, Ty), ConstantInt::get(Ty, K));
      if (pick(0, 2))
        I = B.CreateAnd(I, ConstantInt::get(Ty, (int64_t(1) << K) - 1 +
                                                    pick(0, 1) * pick(0, 8)));
      I = B.CreateAdd(U, I);
    }
    if (pick(0, 4) == 0)
      I = B.CreateAdd(I, B.CreateZExtOrTrunc(Arg, Ty));
    return I;
  }
};

bool bytesOverlap(uint32_t A, uint64_t SizeA, uint32_t B, uint64_t SizeB) {
  return uint32_t(B - A) < SizeA || uint32_t(A - B) < SizeB;
}

/// An LDS array of \p Count elements of \p Elem in \p M, placed at address
/// 0 (as module-LDS lowering places variables) when \p AtZero.
GlobalVariable *createLds(Module &M, Type *Elem, uint64_t Count, bool AtZero) {
  auto *Lds = new GlobalVariable(M, ArrayType::get(Elem, Count), false,
                                 GlobalValue::InternalLinkage, nullptr, "lds",
                                 nullptr, GlobalValue::NotThreadLocal, 3);
  if (AtZero) {
    Type *I32 = Type::getInt32Ty(M.getContext());
    Lds->setMetadata(
        LLVMContext::MD_absolute_symbol,
        MDNode::get(M.getContext(),
                    {ConstantAsMetadata::get(ConstantInt::get(I32, 0)),
                     ConstantAsMetadata::get(ConstantInt::get(I32, 1))}));
  }
  return Lds;
}

/// A kernel k(i32 argument, ptr addrspace(1) bytes) in \p M, with \p B at
/// its entry.
Function *createKernel(Module &M, IRBuilder<> &B) {
  M.setDataLayout("e-p:64:64-p1:64:64-p3:32:32-i64:64-n32:64-S32-A5-G1");
  auto *FTy =
      FunctionType::get(B.getVoidTy(), {B.getInt32Ty(), B.getPtrTy(1)}, false);
  Function *F = Function::Create(FTy, GlobalValue::ExternalLinkage, "k", M);
  F->setCallingConv(CallingConv::AMDGPU_KERNEL);
  B.SetInsertPoint(BasicBlock::Create(M.getContext(), "entry", F));
  return F;
}

/// A generator for a new kernel \p F in \p M (createKernel) whose x id
/// is read at its entry.
Generator kernelGenerator(std::mt19937 &R, Module &M, IRBuilder<> &B,
                          Function *&F) {
  F = createKernel(M, B);
  Generator G{R, B, nullptr, nullptr, F->getArg(0), F->getArg(1), {}};
  G.TidX = B.CreateIntrinsic(B.getInt32Ty(), Intrinsic::amdgcn_workitem_id_x,
                             ArrayRef<Value *>());
  return G;
}

TEST(ThreadAddressIRTest, RandomExpressionsAgreeWithTheInterpreter) {
  std::mt19937 R(20261124);
  LLVMContext Ctx;
  unsigned Disjoint = 0, Built = 0, Unsound = 0;
  const unsigned Trials = 1500;
  for (unsigned Trial = 0; Trial < Trials; ++Trial) {
    Module M("t", Ctx);
    IRBuilder<> B(Ctx);
    GlobalVariable *Lds = createLds(M, B.getInt8Ty(), 1 << 20, /*AtZero=*/true);
    Function *F;
    Generator G = kernelGenerator(R, M, B, F);
    G.TidY = B.CreateIntrinsic(B.getInt32Ty(), Intrinsic::amdgcn_workitem_id_y,
                               ArrayRef<Value *>());
    Value *Idx[2];
    uint64_t Size[2];
    for (unsigned S = 0; S < 2; ++S) {
      Type *Ty = G.pick(0, 1) ? B.getInt32Ty() : B.getInt64Ty();
      Idx[S] = G.index(Ty);
      Size[S] = uint64_t(1) << G.pick(0, 3);
    }
    B.CreateRetVoid();

    // Launch shapes: the builder's bounds come from the attribute.
    int64_t MaxFlat = G.pick(2, 24);
    F->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(MaxFlat));
    ThreadAddressBuilder TB(*F, getWorkgroupShape(*F));
    std::optional<ThreadAddress> TA[2];
    for (unsigned S = 0; S < 2; ++S) {
      Value *Ptr = B.CreateGEP(B.getInt8Ty(), Lds, Idx[S]);
      TA[S] = TB.build(Ptr, 0, Size[S], nullptr);
    }
    if (!TA[0] || !TA[1])
      continue;
    ++Built;
    // A form of the id alone is the index itself for every work-item.
    for (unsigned S = 0; S < 2; ++S) {
      const ThreadAddress &A = *TA[S];
      if (A.hasVar() || !A.Uniform.empty() || !G.Loads.empty())
        continue;
      for (int64_t X = 0; X < MaxFlat; ++X)
        for (int64_t Y = 0; (X + 1) * (Y + 1) <= MaxFlat; ++Y) {
          Id T = {X, Y, 0};
          if (X < A.IdLo[0] || X > A.IdHi[0] || Y < A.IdLo[1] || Y > A.IdHi[1])
            continue;
          uint32_t Form = uint32_t(A.Const + A.Coef[0] * X + A.Coef[1] * Y +
                                   (A.Fn ? int64_t(A.Fn->eval(T)) : 0));
          Interpreter I{T, nullptr, 0};
          uint32_t Index = uint32_t(I.eval(Idx[S]).getZExtValue());
          EXPECT_EQ(Form, Index) << A.str() << " at (" << X << ", " << Y << ")";
        }
    }
    if (workItemsMayOverlap(*TA[0], *TA[1], TB.shape()))
      continue;
    ++Disjoint;

    // Every launch up to MaxFlat work-items, every pair of different
    // work-items, sampled loaded bytes and arguments.
    bool Found = false;
    for (int64_t X = 1; X <= MaxFlat && !Found; ++X)
      for (int64_t Y = 1; X * Y <= MaxFlat && !Found; ++Y)
        for (int64_t Z = 1; X * Y * Z <= MaxFlat && !Found; ++Z) {
          std::vector<Id> Items;
          for (int64_t I = 0; I < X; ++I)
            for (int64_t J = 0; J < Y; ++J)
              for (int64_t L = 0; L < Z; ++L)
                Items.push_back({I, J, L});
          // The loaded bytes differ between the two work-items as they may.
          for (uint64_t Arg : {0ull, 7ull, 0xfffffff0ull})
            for (uint64_t ByteA : {0ull, 1ull, 3ull, 255ull})
              for (uint64_t ByteB : {0ull, 2ull, 128ull, 255ull}) {
                std::map<const Value *, uint64_t> LoadedA, LoadedB;
                // A word: spread over 32 bits, so that its multiples wrap.
                auto Word = [](const Value *L, uint64_t Byte) {
                  return L->getType()->isIntegerTy(8)
                             ? Byte
                             : uint64_t(uint32_t(Byte * 0x9e3779b1u + 1));
                };
                for (const Value *L : G.Loads) {
                  LoadedA[L] = Word(L, ByteA);
                  LoadedB[L] = Word(L, ByteB);
                }
                for (const Id &T1 : Items)
                  for (const Id &T2 : Items) {
                    if (T1 == T2)
                      continue;
                    Interpreter I1{T1, &LoadedA, Arg}, I2{T2, &LoadedB, Arg};
                    // The index is in bytes (an i8 array at address 0).
                    uint32_t A1 = uint32_t(I1.eval(Idx[0]).getZExtValue());
                    uint32_t A2 = uint32_t(I2.eval(Idx[1]).getZExtValue());
                    if (bytesOverlap(A1, Size[0], A2, Size[1]))
                      Found = true;
                  }
              }
        }
    if (Found) {
      ++Unsound;
      ADD_FAILURE() << "unsound: " << TA[0]->str() << " vs " << TA[1]->str()
                    << " with at most " << MaxFlat << " work-items";
    }
  }
  EXPECT_EQ(Unsound, 0u);
  RecordProperty("Built", Built);
  RecordProperty("Disjoint", Disjoint);
  // The test must exercise the analysis, not pass by proving nothing.
  EXPECT_GT(Built, Trials * 9 / 10);
  EXPECT_GT(Disjoint, Trials / 20) << "the analysis proves too little";
}

// The id bounds the builder takes from the conditions that guard an
// access (compares of id expressions with constants and with the kernel
// argument, t + C, casts, && and ||, either branch) must admit every
// work-item for which the interpreter finds the conditions true, for
// arguments near 0 and near 2^32 alike.
TEST(ThreadAddressIRTest, ConditionBoundsAdmitEveryWorkItemThatRuns) {
  std::mt19937 R(20261129);
  LLVMContext Ctx;
  static const CmpInst::Predicate Preds[] = {
      CmpInst::ICMP_ULT, CmpInst::ICMP_ULE, CmpInst::ICMP_UGT,
      CmpInst::ICMP_UGE, CmpInst::ICMP_SLT, CmpInst::ICMP_SLE,
      CmpInst::ICMP_SGT, CmpInst::ICMP_SGE, CmpInst::ICMP_EQ,
      CmpInst::ICMP_NE};
  unsigned Bounded = 0, Unsound = 0;
  const unsigned Trials = 1500;
  for (unsigned Trial = 0; Trial < Trials; ++Trial) {
    Module M("t", Ctx);
    IRBuilder<> B(Ctx);
    GlobalVariable *Lds = createLds(M, B.getInt32Ty(), 1024, /*AtZero=*/false);
    Function *F;
    Generator G = kernelGenerator(R, M, B, F);
    G.TidY = B.getInt32(0); // One-dimensional launches.
    auto Compare = [&]() -> Value * {
      CmpInst::Predicate P = Preds[G.pick(0, 9)];
      Type *Ty = G.pick(0, 2) ? B.getInt32Ty() : B.getInt64Ty();
      Value *L;
      switch (G.pick(0, 3)) {
      case 0: // t + C, possibly through a widening and back.
        L = B.CreateAdd(B.CreateZExtOrTrunc(G.TidX, Ty),
                        ConstantInt::get(Ty, G.pick(-200, 200)));
        break;
      case 1:
        L = B.CreateZExtOrTrunc(B.CreateZExt(G.TidX, B.getInt64Ty()), Ty);
        break;
      default:
        L = G.expr(Ty, 2);
        break;
      }
      Value *Rhs = G.pick(0, 2) ? ConstantInt::get(Ty, G.pick(-5, 300))
                                : B.CreateZExtOrTrunc(G.Arg, Ty);
      return G.pick(0, 1) ? B.CreateICmp(P, L, Rhs) : B.CreateICmp(P, Rhs, L);
    };
    Value *Cond = Compare();
    if (G.pick(0, 2) == 0)
      Cond = G.pick(0, 1) ? B.CreateLogicalAnd(Cond, Compare())
                          : B.CreateLogicalOr(Cond, Compare());
    auto *Then = BasicBlock::Create(Ctx, "then", F);
    auto *Else = BasicBlock::Create(Ctx, "else", F);
    bool TakeTrue = G.pick(0, 1);
    B.CreateCondBr(Cond, TakeTrue ? Then : Else, TakeTrue ? Else : Then);
    B.SetInsertPoint(Else);
    B.CreateRetVoid();
    B.SetInsertPoint(Then);
    Value *Ptr = B.CreateGEP(B.getInt32Ty(), Lds, G.TidX);
    B.CreateRetVoid();

    int64_t MaxFlat = G.pick(2, 512);
    F->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(MaxFlat));
    ThreadAddressBuilder TB(*F, getWorkgroupShape(*F), /*Assume1D=*/true);
    std::optional<ThreadAddress> TA = TB.build(Ptr, 0, 4, Then);
    ASSERT_TRUE(TA);
    bool IsBounded = TA->IdLo[0] > 0 || TA->IdHi[0] < MaxFlat - 1 || TA->Filter;
    Bounded += IsBounded;
    // Without an address, the same bounds tell who runs the access.
    std::optional<ThreadAddress> Any = TB.anyAddressAt(Then);
    EXPECT_EQ(Any.has_value(), IsBounded);
    if (Any) {
      EXPECT_EQ(Any->IdLo, TA->IdLo);
      EXPECT_EQ(Any->IdHi, TA->IdHi);
      EXPECT_TRUE(samePointee(Any->Filter, TA->Filter));
      EXPECT_FALSE(addressBytes(*Any, TB.shape()));
    }
    for (uint64_t Arg : {0ull, 1ull, 40ull, 64ull, 200ull, 0x7fffffffull,
                         0x80000000ull, 0xffffff80ull, 0xffffffffull})
      for (int64_t X = 0; X < MaxFlat; ++X) {
        Interpreter I{{X, 0, 0}, nullptr, Arg};
        if (I.eval(Cond).getBoolValue() != TakeTrue)
          continue;
        bool Admitted =
            X >= TA->IdLo[0] && X <= TA->IdHi[0] &&
            (!TA->Filter || TA->Filter->eval({X, 0, 0}) == TA->FilterValue);
        if (!Admitted) {
          ++Unsound;
          std::string Text;
          raw_string_ostream OS(Text);
          OS << *F;
          ADD_FAILURE() << "work-item " << X << " runs under " << Text
                        << " (taken " << (TakeTrue ? "true" : "false")
                        << ", argument " << Arg << ") but " << TA->str();
          break;
        }
      }
  }
  EXPECT_EQ(Unsound, 0u);
  EXPECT_GT(Bounded, Trials / 5) << "the conditions bound too little";
}

/// Runs \p F for work-item \p T with argument \p Arg: the values of the
/// phis at each entry into \p At (by the edges the work-item took), up to
/// 64 entries or 4096 blocks.
std::vector<std::map<const Value *, uint64_t>>
entries(const Function &F, const BasicBlock *At, Id T, uint64_t Arg) {
  std::vector<std::map<const Value *, uint64_t>> Out;
  std::map<const Value *, uint64_t> Values;
  const BasicBlock *BB = &F.getEntryBlock(), *Prev = nullptr;
  for (unsigned Steps = 0; Steps < 4096 && Out.size() < 64; ++Steps) {
    Interpreter I{T, &Values, Arg};
    std::map<const Value *, uint64_t> Entered;
    for (const PHINode &Phi : BB->phis())
      Entered[&Phi] = I.eval(Phi.getIncomingValueForBlock(Prev)).getZExtValue();
    for (auto [Phi, V] : Entered)
      Values[Phi] = V;
    if (BB == At)
      Out.push_back(Values);
    const auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br)
      break;
    Prev = BB;
    BB = Br->getSuccessor(Br->isConditional() &&
                          !I.eval(Br->getCondition()).getBoolValue());
  }
  return Out;
}

// A power of two merged after branches or a loop (the last value of
// `s <<= 1`) starts a halving loop whose steps write S[p * (2t + 2) - 1]
// and read S[p * (2t + 1) - 1], a scan's down-sweep: apart in one
// iteration only if every work-item has the same p. The branches and the
// first loop's exit test on the argument or on the id, a divergent `if`
// inside that loop that rejoins in it, a `continue` past the exit test in
// one iteration, the loop skipped on either kind of test. Every pair the
// analysis calls apart is checked by running each work-item through the
// CFG: in no iteration may two work-items meet. Accepting divergent
// branches, or loops that some work-items leave later, fails it.
TEST(ThreadAddressIRTest, MergedStartsAgreeWithTheInterpreter) {
  std::mt19937 R(20261201);
  LLVMContext Ctx;
  unsigned Disjoint = 0, Unsound = 0;
  const unsigned Trials = 400;
  for (unsigned Trial = 0; Trial < Trials; ++Trial) {
    Module M("t", Ctx);
    IRBuilder<> B(Ctx);
    GlobalVariable *Lds = createLds(M, B.getInt32Ty(), 1024, /*AtZero=*/false);
    Function *F;
    Generator G = kernelGenerator(R, M, B, F);
    // A condition on the argument (uniform) or on the id.
    auto Cond = [&]() -> Value * {
      Value *X = G.pick(0, 1) ? G.Arg : G.TidX;
      return G.pick(0, 1)
                 ? B.CreateICmpULT(X, B.getInt32(G.pick(1, 9)))
                 : B.CreateICmpEQ(B.CreateAnd(X, B.getInt32(1)), B.getInt32(0));
    };
    auto Block = [&](const char *Name) {
      return BasicBlock::Create(Ctx, Name, F);
    };
    auto Power = [&]() { return B.getInt32(1 << G.pick(0, 5)); };
    BasicBlock *Join = Block("join");
    BasicBlock *Entry = B.GetInsertBlock();
    PHINode *Merged;
    if (G.pick(0, 1)) { // A diamond of two powers of two.
      BasicBlock *Then = Block("then");
      B.CreateCondBr(Cond(), Then, Join);
      B.SetInsertPoint(Then);
      B.CreateBr(Join);
      B.SetInsertPoint(Join);
      Merged = B.CreatePHI(B.getInt32Ty(), 2);
      Merged->addIncoming(Power(), Then);
      Merged->addIncoming(Power(), Entry);
    } else { // s doubled from 1 in a loop, perhaps skipped.
      BasicBlock *Pre = Block("pre"), *Header = Block("header"),
                 *Latch = Block("latch"), *Exit = Block("exit");
      bool Skip = G.pick(0, 1);
      if (Skip)
        B.CreateCondBr(Cond(), Pre, Join);
      else
        B.CreateBr(Pre);
      B.SetInsertPoint(Pre);
      B.CreateBr(Header);
      B.SetInsertPoint(Header);
      PHINode *S = B.CreatePHI(B.getInt32Ty(), 2);
      if (G.pick(0, 1)) { // An `if` inside that rejoins at the latch.
        BasicBlock *In = Block("in");
        B.CreateCondBr(Cond(), In, Latch);
        B.SetInsertPoint(In);
      }
      B.CreateBr(Latch);
      B.SetInsertPoint(Latch);
      Value *Next = B.CreateShl(S, B.getInt32(1));
      Value *Bound = G.pick(0, 1) ? G.Arg : G.TidX;
      BasicBlock *Test = Latch;
      if (G.pick(0, 2) == 0) { // Some skip the exit test once (continue).
        Test = Block("test");
        Value *X = G.pick(0, 1) ? G.Arg : G.TidX;
        B.CreateCondBr(B.CreateAnd(B.CreateICmpNE(B.CreateAnd(X, B.getInt32(1)),
                                                  B.getInt32(0)),
                                   B.CreateICmpEQ(Next, B.getInt32(4))),
                       Header, Test);
        B.SetInsertPoint(Test);
      }
      B.CreateCondBr(
          B.CreateICmpULT(Next, B.CreateAdd(B.CreateAnd(Bound, B.getInt32(31)),
                                            B.getInt32(2))),
          Header, Exit);
      S->addIncoming(B.getInt32(1), Pre);
      S->addIncoming(Next, Latch);
      if (Test != Latch)
        S->addIncoming(Next, Test);
      B.SetInsertPoint(Exit);
      PHINode *Last = B.CreatePHI(B.getInt32Ty(), 1);
      Last->addIncoming(Next, Test);
      B.CreateBr(Join);
      B.SetInsertPoint(Join);
      Merged = B.CreatePHI(B.getInt32Ty(), 2);
      Merged->addIncoming(Last, Exit);
      if (Skip)
        Merged->addIncoming(Power(), Entry);
    }
    // The halving loop.
    BasicBlock *Header = Block("steps"), *Done = Block("done");
    B.CreateBr(Header);
    B.SetInsertPoint(Header);
    PHINode *P = B.CreatePHI(B.getInt32Ty(), 2);
    Value *T2 = B.CreateShl(G.TidX, B.getInt32(1));
    Value *K = B.CreateSub(B.CreateMul(P, B.CreateAdd(T2, B.getInt32(2))),
                           B.getInt32(1));
    Value *KP = B.CreateSub(B.CreateMul(P, B.CreateAdd(T2, B.getInt32(1))),
                            B.getInt32(1));
    Value *Write = B.CreateGEP(B.getInt32Ty(), Lds, K);
    Value *Read = B.CreateGEP(B.getInt32Ty(), Lds, KP);
    Value *Half = B.CreateLShr(P, B.getInt32(1));
    B.CreateCondBr(B.CreateICmpNE(Half, B.getInt32(0)), Header, Done);
    P->addIncoming(Merged, Join);
    P->addIncoming(Half, Header);
    B.SetInsertPoint(Done);
    B.CreateRetVoid();

    int64_t MaxFlat = G.pick(2, 64);
    F->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(MaxFlat));
    ThreadAddressBuilder TB(*F, getWorkgroupShape(*F), /*Assume1D=*/true);
    std::optional<ThreadAddress> W = TB.build(Write, 0, 4, Header),
                                 Rd = TB.build(Read, 0, 4, Header);
    if (!W || !Rd || !W->Iteration ||
        workItemsMayOverlap(*W, *Rd, TB.shape(), nullptr,
                            IterationRelation::distance(W->StageLoop, 0)))
      continue;
    ++Disjoint;
    bool Found = false;
    for (uint64_t Arg : {0ull, 1ull, 2ull, 5ull, 40ull}) {
      // Each work-item's elements written and read in each iteration,
      // inside the array (anything else is undefined).
      std::vector<std::vector<std::pair<int64_t, int64_t>>> Touched(MaxFlat);
      for (int64_t X = 0; X < MaxFlat; ++X)
        for (const auto &Values : entries(*F, Header, {X, 0, 0}, Arg)) {
          Interpreter I{{X, 0, 0}, &Values, Arg};
          int64_t WI = I.eval(K).getZExtValue(), RI = I.eval(KP).getZExtValue();
          Touched[X].push_back({WI < 1024 ? WI : -1, RI < 1024 ? RI : -2});
        }
      for (int64_t X1 = 0; X1 < MaxFlat && !Found; ++X1)
        for (int64_t X2 = 0; X2 < MaxFlat && !Found; ++X2)
          for (size_t It = 0; X1 != X2 && It < Touched[X1].size() &&
                              It < Touched[X2].size() && !Found;
               ++It)
            Found = Touched[X1][It].first == Touched[X2][It].second;
      if (Found) {
        std::string Text;
        raw_string_ostream OS(Text);
        OS << *F;
        ADD_FAILURE() << "argument " << Arg << ": work-items meet in " << Text
                      << " but " << W->str() << " vs " << Rd->str();
        break;
      }
    }
    Unsound += Found;
  }
  EXPECT_EQ(Unsound, 0u);
  EXPECT_GT(Disjoint, Trials / 10) << "the merges prove too little";
  RecordProperty("Disjoint", Disjoint);
}

// A loop whose header phi p steps by powers of two (times 2 from a power of
// two, shifted left or right by one, with or without no-wrap flags), with
// two accesses in its body at random expressions of the id and p, under a
// random condition on them. Every pair the analysis calls apart in one
// iteration is checked by the interpreter on the values p really takes
// until the loop exits: every two different work-items that run both
// accesses without undefined behaviour (no flagged operation wraps, the
// access inside the array) touch no common byte.
TEST(ThreadAddressIRTest, PowerStepsAgreeWithTheInterpreter) {
  std::mt19937 R(20261130);
  LLVMContext Ctx;
  unsigned Built = 0, Disjoint = 0, Unsound = 0;
  const unsigned Trials = 1200;
  for (unsigned Trial = 0; Trial < Trials; ++Trial) {
    Module M("t", Ctx);
    IRBuilder<> B(Ctx);
    GlobalVariable *Lds = createLds(M, B.getInt32Ty(), 1024, /*AtZero=*/true);
    Function *F;
    Generator G = kernelGenerator(R, M, B, F);
    G.TidY = B.getInt32(0);
    BasicBlock *Entry = B.GetInsertBlock();
    // The start: a constant power of two, or 2^(argument & 7).
    Value *Start =
        G.pick(0, 2)
            ? B.getInt32(uint32_t(1) << (G.pick(0, 3) ? G.pick(0, 30) : 31))
            : B.CreateShl(B.getInt32(1), B.CreateAnd(G.Arg, B.getInt32(7)));
    auto *Header = BasicBlock::Create(Ctx, "header", F);
    auto *Body = BasicBlock::Create(Ctx, "body", F);
    auto *Latch = BasicBlock::Create(Ctx, "latch", F);
    auto *Exit = BasicBlock::Create(Ctx, "exit", F);
    B.CreateBr(Header);
    B.SetInsertPoint(Header);
    PHINode *P = B.CreatePHI(B.getInt32Ty(), 2);
    PHINode *N = B.CreatePHI(B.getInt32Ty(), 2); // The iteration.
    auto Flags = [&](Value *V) {
      if (auto *I = dyn_cast<Instruction>(V);
          I && isa<OverflowingBinaryOperator>(I)) {
        I->setHasNoUnsignedWrap(G.pick(0, 2) == 0);
        I->setHasNoSignedWrap(G.pick(0, 2) == 0);
      }
      return V;
    };
    // An expression of the id and p.
    auto Expr = [&](auto &&Self, unsigned Depth) -> Value * {
      if (Depth == 0 || G.pick(0, 3) == 0) {
        switch (G.pick(0, 3)) {
        case 0:
          return P;
        case 1:
          return B.getInt32(G.pick(-2, 9));
        default:
          return G.expr(B.getInt32Ty(), 1);
        }
      }
      Value *X = Self(Self, Depth - 1);
      switch (G.pick(0, 9)) {
      case 0:
      case 1:
        return Flags(B.CreateAdd(X, Self(Self, Depth - 1)));
      case 2:
        return Flags(B.CreateSub(X, Self(Self, Depth - 1)));
      case 3:
      case 4:
        return Flags(B.CreateMul(X, Self(Self, Depth - 1)));
      case 5:
        return Flags(B.CreateShl(X, B.getInt32(G.pick(0, 3))));
      case 6:
        return B.CreateLShr(X, B.getInt32(G.pick(0, 3)));
      case 7:
        return B.CreateXor(X, Self(Self, Depth - 1));
      case 8:
        return B.CreateOr(X, Self(Self, Depth - 1));
      default:
        return B.CreateAnd(X, Self(Self, Depth - 1));
      }
    };
    // The condition: (t & (2p - 1)) == 0 as instcombine writes t % 2p == 0,
    // (t & p) == 0, a random equality, t < p, or none.
    Value *Cond = nullptr;
    switch (G.pick(0, 5)) {
    case 0:
      Cond = B.CreateICmpEQ(
          B.CreateAnd(G.TidX,
                      Flags(B.CreateAdd(Flags(B.CreateShl(P, B.getInt32(1))),
                                        B.getInt32(-1)))),
          B.getInt32(0));
      break;
    case 1:
      Cond = B.CreateICmpEQ(B.CreateAnd(G.TidX, P), B.getInt32(0));
      break;
    case 2:
      Cond = B.CreateICmp(G.pick(0, 1) ? CmpInst::ICMP_EQ : CmpInst::ICMP_NE,
                          Expr(Expr, 2), Expr(Expr, 1));
      break;
    case 3:
      Cond = B.CreateICmpULT(G.TidX, P);
      break;
    default:
      break;
    }
    bool TakeTrue = G.pick(0, 1);
    if (Cond)
      B.CreateCondBr(Cond, TakeTrue ? Body : Latch, TakeTrue ? Latch : Body);
    else
      B.CreateBr(Body);
    B.SetInsertPoint(Body);
    Value *Idx[2];
    Value *Ptr[2];
    uint64_t Size[2];
    bool InBounds[2];
    for (unsigned S = 0; S < 2; ++S) {
      Idx[S] = Expr(Expr, 3);
      Size[S] = uint64_t(1) << G.pick(0, 2);
      InBounds[S] = G.pick(0, 1);
      Ptr[S] = InBounds[S] ? B.CreateInBoundsGEP(B.getInt32Ty(), Lds, Idx[S])
                           : B.CreateGEP(B.getInt32Ty(), Lds, Idx[S]);
    }
    B.CreateBr(Latch);
    B.SetInsertPoint(Latch);
    Value *Next;
    switch (G.pick(0, 4)) {
    case 0:
      Next = Flags(B.CreateMul(P, B.getInt32(2)));
      break;
    case 1:
      Next = Flags(B.CreateShl(P, B.getInt32(1)));
      break;
    case 2:
      Next = B.CreateLShr(P, B.getInt32(1));
      break;
    case 3:
      Next = B.CreateAShr(P, B.getInt32(1));
      break;
    default: // Either shift, by the iteration: negative, then shifted out.
      Next = B.CreateSelect(B.CreateTrunc(N, B.getInt1Ty()),
                            B.CreateLShr(P, B.getInt32(1)),
                            B.CreateAShr(P, B.getInt32(1)));
      break;
    }
    // Up to 40 iterations, so that p also wraps to 0 or shifts out.
    Value *NextN = B.CreateAdd(N, B.getInt32(1));
    Value *Again = B.CreateICmpULT(NextN, B.getInt32(G.pick(1, 40)));
    B.CreateCondBr(Again, Header, Exit);
    P->addIncoming(Start, Entry);
    P->addIncoming(Next, Latch);
    N->addIncoming(B.getInt32(0), Entry);
    N->addIncoming(NextN, Latch);
    B.SetInsertPoint(Exit);
    B.CreateRetVoid();

    int64_t MaxFlat = G.pick(2, 64);
    F->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(MaxFlat));
    ThreadAddressBuilder TB(*F, getWorkgroupShape(*F), /*Assume1D=*/true);
    std::optional<ThreadAddress> TA[2];
    for (unsigned S = 0; S < 2; ++S)
      TA[S] = TB.build(Ptr[S], 0, Size[S], Body);
    if (!TA[0] || !TA[1] || !TA[0]->Iteration || !TA[1]->Iteration)
      continue;
    ++Built;
    bool Apart =
        !workItemsMayOverlap(*TA[0], *TA[1], TB.shape(), nullptr,
                             IterationRelation::distance(TA[0]->StageLoop, 0));
    Disjoint += Apart;
    // p is the one power of two; the forms say which values it may take.
    const IterationForm &Form = *TA[0]->Iteration;
    ASSERT_EQ(Form.ParamWidths.size(), 1u);
    auto Admitted = [&](const APInt &V) {
      return (V.isZero() && !(Form.NonZero & 1)) || V.isPowerOf2() ||
             ((Form.Negative & 1) && V.isNegatedPowerOf2());
    };

    // The loop as it runs, for arguments that start it at different
    // powers; stops where p or the exit test is poison (undefined from
    // there).
    bool Found = false;
    for (uint64_t Arg : {0ull, 3ull, 7ull}) {
      std::map<const Value *, uint64_t> Values;
      Interpreter Outer{{0, 0, 0}, &Values, Arg};
      APInt PV = Outer.eval(Start);
      for (unsigned Iter = 0; Iter < 40 && !Found && !Outer.Poison; ++Iter) {
        Values[P] = PV.getZExtValue();
        Values[N] = Iter;
        if (!Admitted(PV)) {
          Found = true;
          ADD_FAILURE() << "p = " << PV.getZExtValue() << " in iteration "
                        << Iter << " but " << TA[0]->str();
        }

        // The byte each work-item touches in this iteration, if it runs
        // the access without undefined behaviour.
        auto Touch = [&](unsigned S, int64_t X) -> std::optional<uint32_t> {
          Interpreter I{{X, 0, 0}, &Values, Arg};
          if (Cond && I.eval(Cond).getBoolValue() != TakeTrue)
            return std::nullopt;
          int64_t Exact = I.eval(Idx[S]).getSExtValue() * 4;
          int64_t Wrapped = int64_t(uint32_t(Exact));
          int64_t Addr = InBounds[S] ? Exact : Wrapped;
          if (I.Poison || (InBounds[S] && Exact != int64_t(int32_t(Wrapped))) ||
              Addr < 0 || Addr + int64_t(Size[S]) > 4096)
            return std::nullopt;
          return uint32_t(Addr);
        };
        for (int64_t X1 = 0; X1 < MaxFlat && Apart && !Found; ++X1)
          for (int64_t X2 = 0; X2 < MaxFlat && !Found; ++X2) {
            if (X1 == X2)
              continue;
            std::optional<uint32_t> A1 = Touch(0, X1), A2 = Touch(1, X2);
            if (A1 && A2 && bytesOverlap(*A1, Size[0], *A2, Size[1])) {
              Found = true;
              std::string Text;
              raw_string_ostream OS(Text);
              OS << *F;
              ADD_FAILURE()
                  << "work-items " << X1 << " and " << X2
                  << " meet at p = " << PV.getZExtValue() << " (argument "
                  << Arg << ") in " << Text << " but " << TA[0]->str() << " vs "
                  << TA[1]->str();
            }
          }
        Interpreter Step{{0, 0, 0}, &Values, Arg};
        APInt NextV = Step.eval(Next);
        if (Step.Poison || !Step.eval(Again).getBoolValue() || Step.Poison)
          break;
        PV = NextV;
      }
    }
    Unsound += Found;
  }
  EXPECT_EQ(Unsound, 0u);
  EXPECT_GT(Built, Trials / 4);
  EXPECT_GT(Disjoint, Trials / 20) << "the analysis proves too little";
  RecordProperty("Built", Built);
  RecordProperty("Disjoint", Disjoint);
}

} // namespace

namespace {

/// Builds the ThreadAddress of an access of \p Size bytes at byte index
/// Make(tid.x, tid.y, byte) of an LDS array, in a kernel of at most
/// \p MaxFlat work-items (one-dimensional when \p OneD).
struct Case {
  LLVMContext Ctx;
  Module M{"t", Ctx};
  IRBuilder<> B{Ctx};
  Function *F = nullptr;
  GlobalVariable *Lds = nullptr;
  Value *TidX = nullptr, *TidY = nullptr, *Byte = nullptr;

  explicit Case(int64_t MaxFlat) {
    Lds = createLds(M, B.getInt8Ty(), 1 << 20, /*AtZero=*/false);
    F = Function::Create(
        FunctionType::get(B.getVoidTy(), {B.getPtrTy(1)}, false),
        GlobalValue::ExternalLinkage, "k", M);
    F->setCallingConv(CallingConv::AMDGPU_KERNEL);
    F->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(MaxFlat));
    B.SetInsertPoint(BasicBlock::Create(Ctx, "entry", F));
    TidX = B.CreateIntrinsic(B.getInt32Ty(), Intrinsic::amdgcn_workitem_id_x,
                             ArrayRef<Value *>());
    TidY = B.CreateIntrinsic(B.getInt32Ty(), Intrinsic::amdgcn_workitem_id_y,
                             ArrayRef<Value *>());
    Byte =
        B.CreateZExt(B.CreateLoad(B.getInt8Ty(), F->getArg(0)), B.getInt32Ty());
  }
  bool mayOverlap(Value *IdxA, uint64_t SizeA, Value *IdxB, uint64_t SizeB,
                  bool OneD) {
    ThreadAddressBuilder TB(*F, getWorkgroupShape(*F), OneD);
    auto A = TB.build(B.CreateGEP(B.getInt8Ty(), Lds, IdxA), 0, SizeA, nullptr);
    auto C = TB.build(B.CreateGEP(B.getInt8Ty(), Lds, IdxB), 0, SizeB, nullptr);
    EXPECT_TRUE(A && C);
    return !A || !C || workItemsMayOverlap(*A, *C, TB.shape());
  }
  Value *c(int64_t V) { return B.getInt32(V); }
};

TEST(ThreadAddressIRTest, ResiduePatterns) {
  // Histogram256: sub-histograms with the data in the high bits,
  // s[value * 128 + 4 * (t & 31) + (t >> 5)]: with at most 128 work-items
  // 4 * (t & 31) + (t >> 5) is injective into [0, 128), so whatever bytes
  // two work-items load their counters differ...
  for (int64_t Flat : {128, 129}) {
    Case K(Flat);
    auto &B = K.B;
    Value *Slot = B.CreateAdd(B.CreateMul(B.CreateAnd(K.TidX, K.c(31)), K.c(4)),
                              B.CreateLShr(K.TidX, K.c(5)));
    Value *Idx = B.CreateAdd(B.CreateMul(K.Byte, K.c(128)), Slot);
    // ...but with 129, work-item 128 has t >> 5 = 4: slot 4, work-item 1's.
    EXPECT_EQ(K.mayOverlap(Idx, 1, Idx, 1, /*OneD=*/true), Flat == 129);
  }
  // u * 2 + (t & 3): the residue modulo 2 is all that is known; work-items
  // 0 and 2 meet (u = 1 and u = 0).
  {
    Case K(4);
    auto &B = K.B;
    Value *Idx =
        B.CreateAdd(B.CreateShl(K.Byte, K.c(1)), B.CreateAnd(K.TidX, K.c(3)));
    EXPECT_TRUE(K.mayOverlap(Idx, 1, Idx, 1, true));
  }
  // u * 8 + ((3 * t) & 7), 4 bytes, 3 work-items: residues 0, 3, 6; the
  // bytes of work-item 2 wrap around to [0, 2), work-item 0's.
  {
    Case K(3);
    auto &B = K.B;
    Value *Idx = B.CreateAdd(B.CreateShl(K.Byte, K.c(3)),
                             B.CreateAnd(B.CreateMul(K.TidX, K.c(3)), K.c(7)));
    EXPECT_TRUE(K.mayOverlap(Idx, 4, Idx, 2, true));
    EXPECT_FALSE(K.mayOverlap(Idx, 2, Idx, 2, true));
  }
  // u * 4 + (tid.x & 3) in a launch that may have two rows: work-items
  // (0, 0) and (0, 1) have the same residue.
  {
    Case K(8);
    auto &B = K.B;
    Value *Idx =
        B.CreateAdd(B.CreateShl(K.Byte, K.c(2)), B.CreateAnd(K.TidX, K.c(3)));
    EXPECT_TRUE(K.mayOverlap(Idx, 1, Idx, 1, /*OneD=*/false));
  }
  {
    Case K(4);
    auto &B = K.B;
    Value *Idx =
        B.CreateAdd(B.CreateShl(K.Byte, K.c(2)), B.CreateAnd(K.TidX, K.c(3)));
    EXPECT_FALSE(K.mayOverlap(Idx, 1, Idx, 1, /*OneD=*/true));
    EXPECT_TRUE(K.mayOverlap(Idx, 1, Idx, 1, /*OneD=*/false));
  }
}

} // namespace
