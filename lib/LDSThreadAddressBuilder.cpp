//===- LDSThreadAddressBuilder.cpp - Thread addresses from the IR ---------===//
//
// The builder walks GEP chains and integer arithmetic modulo 2^32 (LDS
// addresses are 32-bit): extensions and truncations of values of 32 bits or
// more are the identity there, so only narrower values need their range.
// Parts that depend on a loop's iteration come from LDSLoopStages.
//
//===----------------------------------------------------------------------===//

#include "LDSLoopStages.h"
#include "LDSThreadAddress.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/AMDGPUAddrSpace.h"
#include "llvm/Support/KnownBits.h"
#include <algorithm>

using namespace llvm;
using namespace llvm::ldsbarriers;
using namespace llvm::PatternMatch;

//===----------------------------------------------------------------------===//
// ThreadAddressBuilder
//===----------------------------------------------------------------------===//

/// The constant \p C as a function of the id of \p Width bits.
static TidExpr constantExpr(int64_t C, uint8_t Width) {
  TidExpr E;
  E.Nodes.push_back({TidExpr::Const, Width, -1, -1, C});
  return E;
}

/// Op(X, Y), at 32 bits unless told (all an address keeps).
static std::shared_ptr<const TidExpr> combine(TidExpr::Kind Op,
                                              const TidExpr &X,
                                              const TidExpr &Y,
                                              uint8_t Width = 32) {
  auto E = std::make_shared<TidExpr>();
  auto Append = [&](const TidExpr &T) {
    int32_t Base = E->Nodes.size();
    for (TidExpr::Node N : T.Nodes) {
      if (N.L >= 0)
        N.L += Base;
      if (N.R >= 0)
        N.R += Base;
      E->Nodes.push_back(N);
    }
    return int32_t(E->Nodes.size() - 1);
  };
  int32_t L = Append(X), R = Append(Y);
  E->Nodes.push_back({Op, Width, L, R, 0});
  return E;
}

/// The terms of a value as the builder derives them (Const and the
/// coefficients kept wrapped to 32 bits), and a part that depends on the
/// iteration of one loop.
struct ThreadAddressBuilder::Linear : AddressTerms {
  std::optional<StageValue> Stage;
  /// The loop of the block-stride part (AddressTerms::StrideCoef).
  const Loop *StrideLoop = nullptr;
  /// The per-work-item term has a part of unknown range (only built with
  /// UnboundedLeaves), a multiple of 2^VarAlign: the object the access
  /// lies in bounds it (see boundVarByObject).
  bool Unbounded = false;
  bool anyVar() const { return hasVar() || Unbounded; }
  /// Makes a stage value that moves with the iteration (a counter, a
  /// pointer induction) part of an unbounded term: its value modulo 2^32
  /// is its first one plus multiples of the power of two that divides its
  /// step and its periodic part.
  bool stageToUnbounded() {
    const StageValue &S = *Stage;
    if (S.D != 1 || S.Width < 32)
      return false;
    unsigned Align = S.A1 ? llvm::countr_zero(uint64_t(S.A1)) : 31;
    for (int64_t V : S.P)
      if (V != S.P[0])
        Align =
            std::min(Align, unsigned(llvm::countr_zero(uint64_t(V - S.P[0]))));
    Align = std::min(31u, Align);
    Const = wrap32(Const + S.A0 + S.P[0]);
    VarAlign = anyVar() ? std::min(VarAlign, Align) : Align;
    Unbounded = true;
    Stage.reset();
    return true;
  }

  static Linear constant(int64_t C) {
    Linear L;
    L.Const = wrap32(C);
    return L;
  }
  static Linear uniform(unsigned Symbol) {
    Linear L;
    L.Uniform.push_back({Symbol, 1});
    return L;
  }
  bool add(const Linear &O) {
    PairsOnly |= O.PairsOnly;
    if (O.StrideCoef) {
      // Two work-item iterations do not add up to one.
      if (StrideCoef)
        return false;
      StrideCoef = O.StrideCoef;
      StrideDim = O.StrideDim;
      StrideLoop = O.StrideLoop;
    }
    if (O.Stage) {
      if (!Stage)
        Stage = O.Stage;
      else if (!Stage->add(*O.Stage, 1))
        return false;
    }
    Const = wrap32(Const + O.Const);
    for (unsigned D = 0; D < 3; ++D)
      Coef[D] = wrap32(Coef[D] + O.Coef[D]);
    if (O.Fn)
      Fn = Fn ? combine(TidExpr::Add, *Fn, *O.Fn) : O.Fn;
    if (O.anyVar())
      VarAlign = anyVar() ? std::min(VarAlign, O.VarAlign) : O.VarAlign;
    Unbounded |= O.Unbounded;
    VarLo += O.VarLo;
    VarHi += O.VarHi;
    for (auto [Sym, C] : O.Uniform) {
      auto It = llvm::lower_bound(Uniform, std::make_pair(Sym, INT64_MIN));
      if (It != Uniform.end() && It->first == Sym) {
        It->second = wrap32(It->second + C);
        if (!It->second)
          Uniform.erase(It);
      } else {
        Uniform.insert(It, {Sym, C});
      }
    }
    return VarLo > -SmallMagnitude && VarHi < SmallMagnitude;
  }
  bool scale(int64_t K) {
    K = wrap32(K);
    Const = wrap32(Const * K);
    for (int64_t &C : Coef)
      C = wrap32(C * K);
    if (Fn && K != 1)
      Fn = combine(TidExpr::Mul, *Fn, constantExpr(K & 0xffffffff, 32));
    // The per-work-item range scales exactly or not at all.
    if (anyVar() && (K > SmallMagnitude || K < -SmallMagnitude))
      return false;
    VarLo *= K;
    VarHi *= K;
    if (K < 0)
      std::swap(VarLo, VarHi);
    if (anyVar())
      VarAlign = std::min(31u, VarAlign + unsigned(llvm::countr_zero(
                                              uint64_t(K < 0 ? -K : K))));
    else
      VarAlign = 0;
    for (auto &U : Uniform)
      U.second = wrap32(U.second * K);
    llvm::erase_if(Uniform, [](const auto &U) { return U.second == 0; });
    StrideCoef = wrap32(StrideCoef * K);
    if (!StrideCoef)
      StrideLoop = nullptr;
    if (Stage && !Stage->scale(K))
      return false;
    return VarLo > -SmallMagnitude && VarHi < SmallMagnitude;
  }
};

struct ThreadAddressBuilder::PostDominators : PostDominatorTree {
  using PostDominatorTree::PostDominatorTree;
};

/// Keys of the launch-size symbols (launchSizeDim), reserved first.
static const char LaunchSizeKeys[3] = {};

ThreadAddressBuilder::ThreadAddressBuilder(const Function &F,
                                           WorkgroupShape Launch, bool Assume1D)
    : F(F), Assume1D(Assume1D) {
  // Not an assumption: such a kernel behaves as in the one-dimensional
  // launch of its flat size (see readsIdsOnlyAsFlatId).
  if (!Assume1D && !Launch.Required && readsIdsOnlyAsFlatId(F))
    this->Assume1D = FlatIds = true;
  // A required size is exact: the 1-D assumption does not narrow it.
  if (Launch.Required && (Launch.MaxDim[1] > 1 || Launch.MaxDim[2] > 1))
    this->Assume1D = false;
  if (this->Assume1D)
    Launch.MaxDim[1] = Launch.MaxDim[2] = 1;
  Shape = Launch;
  for (unsigned D = 0; D < 3; ++D)
    symbol(&LaunchSizeKeys[D]);
  for (int64_t &M : Shape.MaxDim)
    M = std::min(M, Shape.MaxFlat);
  if (!F.isDeclaration()) {
    DT = std::make_unique<DominatorTree>(const_cast<Function &>(F));
    Loops = std::make_unique<LoopInfo>(*DT);
    Stages = std::make_unique<LoopStageAnalysis>(*DT);
  }
}

bool ThreadAddressBuilder::isLoopHeader(const BasicBlock *BB) const {
  return Loops && Loops->isLoopHeader(BB);
}

ThreadAddressBuilder::~ThreadAddressBuilder() = default;

WorkgroupShape ThreadAddressBuilder::inferredShape() const {
  WorkgroupShape S = Shape;
  for (unsigned D = 0; D < 3; ++D)
    S.MaxDim[D] = std::min(S.MaxDim[D], InferredMaxDim[D]);
  S.MaxFlat = std::min(S.MaxFlat, S.MaxDim[0] * S.MaxDim[1] * S.MaxDim[2]);
  return S;
}

std::string ThreadAddressBuilder::describeShape() const {
  std::string S;
  raw_string_ostream OS(S);
  WorkgroupShape Inferred = inferredShape();
  OS << "at most " << Inferred.MaxFlat << " work-items";
  if (FlatIds)
    OS << ", one-dimensional (its ids only in the flat id)";
  else if (Assume1D)
    OS << ", one-dimensional by assumption";
  if (Shape.Required)
    OS << " (" << Shape.MaxDim[0] << "x" << Shape.MaxDim[1] << "x"
       << Shape.MaxDim[2] << ")";
  static const char Dim[] = "xyz";
  for (unsigned D = 0; D < 3; ++D)
    if (Inferred.MaxDim[D] < Shape.MaxDim[D])
      OS << ", " << Dim[D] << " below " << Inferred.MaxDim[D]
         << " for its LDS accesses to stay inside their objects";
  return S;
}

void ThreadAddressBuilder::noteLaunchBound(const ThreadAddress &TA,
                                           const Value *Ptr,
                                           const BasicBlock *At) {
  // An access that every work-item of the kernel runs (its block
  // post-dominates the entry: every execution that ends passes it) stays
  // inside its object for each of them, work-items (t, 0, 0) included, so
  // the launch has no more ids than the object allows.
  if (!At || !isKernel(F))
    return;
  std::optional<std::pair<int64_t, int64_t>> Object = ldsObjectBytes(Ptr);
  if (!Object)
    return;
  std::array<int64_t, 3> Sizes =
      launchSizesInside(TA, Object->first, Object->second, Shape);
  if (Sizes == std::array<int64_t, 3>{INT32_MAX, INT32_MAX, INT32_MAX})
    return;
  if (!PDT)
    PDT = std::make_unique<PostDominators>(const_cast<Function &>(F));
  if (!PDT->dominates(At, &F.getEntryBlock()))
    return;
  for (unsigned D = 0; D < 3; ++D)
    InferredMaxDim[D] = std::min(InferredMaxDim[D], Sizes[D]);
}

/// \p V without the casts that keep its value: zero extensions, and
/// truncations to at least the width a zero extension started from (loop
/// strength reduction leaves `trunc (zext t)` of an id).
static const Value *stripWidening(const Value *V) {
  for (;;) {
    const Value *X;
    if (const auto *Z = dyn_cast<ZExtInst>(V))
      V = Z->getOperand(0);
    else if (match(V, m_Trunc(m_ZExt(m_Value(X)))) &&
             X->getType()->getScalarSizeInBits() <=
                 V->getType()->getScalarSizeInBits())
      V = X;
    else
      return V;
  }
}

/// The dimension whose workgroup size \p V loads (blockDim), or -1: a
/// 16-bit load of the dispatch packet's workgroup_size_{x,y,z} (offsets 4,
/// 6, 8 from llvm.amdgcn.dispatch.ptr) or, from code object version 5 on,
/// of the implicit arguments' hidden_group_size_{x,y,z} (offsets 12, 14,
/// 16), possibly zero-extended. AMDGPULowerKernelAttributes reads the same
/// fields.
static int launchSizeLoadDim(const Value *V) {
  V = stripWidening(V);
  // The load-store vectorizer loads the sizes together, as <2 x i16> or
  // <3 x i16>.
  int64_t Offset = 0;
  Type *Loaded = V->getType();
  if (const auto *EE = dyn_cast<ExtractElementInst>(V)) {
    const auto *Idx = dyn_cast<ConstantInt>(EE->getIndexOperand());
    if (!Idx || Idx->getZExtValue() > 2)
      return -1;
    Offset = 2 * Idx->getZExtValue();
    V = EE->getVectorOperand();
    Loaded = EE->getVectorOperandType()->getElementType();
  }
  const auto *LI = dyn_cast<LoadInst>(V);
  if (!LI || LI->isVolatile() || !Loaded->isIntegerTy(16))
    return -1;
  int64_t Element = Offset;
  const auto *Base = dyn_cast<IntrinsicInst>(GetPointerBaseWithConstantOffset(
      LI->getPointerOperand(), Offset, LI->getDataLayout()));
  Offset += Element;
  if (!Base)
    return -1;
  // The code object version is 500 for version 5.
  const auto *Version = mdconst::extract_or_null<ConstantInt>(
      LI->getModule()->getModuleFlag("amdhsa_code_object_version"));
  int64_t First;
  if (Base->getIntrinsicID() == Intrinsic::amdgcn_dispatch_ptr)
    First = 4;
  else if (Base->getIntrinsicID() == Intrinsic::amdgcn_implicitarg_ptr &&
           Version && Version->getZExtValue() >= 500)
    First = 12;
  else
    return -1;
  if (Offset < First || Offset > First + 4 || (Offset - First) % 2)
    return -1;
  return (Offset - First) / 2;
}

unsigned ThreadAddressBuilder::symbol(const void *Key) {
  return Symbols.try_emplace(Key, Symbols.size() + 1).first->second;
}

/// The dimension (0 to 2) of \p V when it is a work-item id, or -1.
static int workItemDim(const Value *V) {
  static constexpr Intrinsic::ID Ids[] = {Intrinsic::amdgcn_workitem_id_x,
                                          Intrinsic::amdgcn_workitem_id_y,
                                          Intrinsic::amdgcn_workitem_id_z};
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    for (int D = 0; D < 3; ++D)
      if (II->getIntrinsicID() == Ids[D])
        return D;
  return -1;
}

/// The factors of \p V when it is a multiplication: `mul`, or the 24-bit
/// multiplication AMDGPU's IR passes make of one whose operands fit.
static std::optional<std::pair<const Value *, const Value *>>
mulOperands(const Value *V) {
  const Value *A, *B;
  if (match(V, m_Mul(m_Value(A), m_Value(B))) ||
      match(V,
            m_Intrinsic<Intrinsic::amdgcn_mul_u24>(m_Value(A), m_Value(B))) ||
      match(V, m_Intrinsic<Intrinsic::amdgcn_mul_i24>(m_Value(A), m_Value(B))))
    return std::pair(A, B);
  return std::nullopt;
}

bool llvm::ldsbarriers::readsIdsOnlyAsFlatId(const Function &F) {
  // The AMDGPU attributor's mark saves the walks in most kernels.
  if (F.isDeclaration() || F.hasFnAttribute("amdgpu-no-workitem-id-y"))
    return false;
  // The values of the two patterns (roots) and their inner products.
  SmallPtrSet<const Value *, 8> Roots, Inner;
  bool ReadsY = false;
  for (const Instruction &I : instructions(F)) {
    // The flat size, X * Y.
    if (auto M = mulOperands(&I)) {
      auto [A, B] = *M;
      if ((launchSizeLoadDim(A) == 0 && launchSizeLoadDim(B) == 1) ||
          (launchSizeLoadDim(A) == 1 && launchSizeLoadDim(B) == 0))
        Roots.insert(&I);
      continue;
    }
    // The flat id, x + y * X (or disjoint or).
    const Value *Ops[2];
    if (!match(&I, m_AddLike(m_Value(Ops[0]), m_Value(Ops[1]))))
      continue;
    // Either part may be widened (loop strength reduction computes the
    // flat id in 64 bits for a global pointer): both are below 2^20, so a
    // sign or zero extension keeps their value.
    SmallVector<const Value *, 4> Casts;
    auto Strip = [&](const Value *V) {
      while (isa<ZExtInst, SExtInst>(V)) {
        Casts.push_back(V);
        V = cast<Instruction>(V)->getOperand(0);
      }
      return V;
    };
    for (unsigned Side = 0; Side < 2; ++Side) {
      Casts.clear();
      const Value *X = Strip(Ops[Side]);
      const Value *P = Strip(Ops[1 - Side]);
      auto M = mulOperands(P);
      if (workItemDim(X) != 0 || !M)
        continue;
      auto [A, B] = *M;
      if ((workItemDim(A) == 1 && launchSizeLoadDim(B) == 0) ||
          (workItemDim(B) == 1 && launchSizeLoadDim(A) == 0)) {
        Roots.insert(&I);
        Inner.insert(P);
        Inner.insert(Casts.begin(), Casts.end());
        ReadsY = true;
      }
    }
  }
  if (!ReadsY)
    return false;
  // Every other read of an id or a size, or of an inner product, breaks
  // the equivalence.
  for (const Instruction &I : instructions(F)) {
    bool Base = workItemDim(&I) >= 0 ||
                (isa<ZExtInst, LoadInst, ExtractElementInst>(&I) &&
                 launchSizeLoadDim(&I) >= 0);
    if (!Base && !Inner.contains(&I))
      continue;
    for (const User *U : I.users()) {
      if (Roots.contains(U) || Inner.contains(U))
        continue;
      // A size's load read through its zero extension.
      if (isa<ZExtInst>(U) && launchSizeLoadDim(U) >= 0)
        continue;
      return false;
    }
  }
  return true;
}

std::optional<int64_t>
ThreadAddressBuilder::launchConstant(const Value *V, unsigned Depth) const {
  if (Shape.Required) {
    if (int D = launchSizeLoadDim(V); D >= 0)
      return Shape.MaxDim[D];
    // Arithmetic on the sizes (`__ffs(blockDim.x)`), by LLVM's folder.
    const auto *I = dyn_cast<Instruction>(V);
    if (I && I->getType()->isIntegerTy() &&
        I->getType()->getIntegerBitWidth() <= 64 && !isa<PHINode>(I) &&
        !I->mayReadOrWriteMemory() && Depth < 8) {
      SmallVector<Constant *, 4> Ops;
      for (const Value *Op : I->operands()) {
        auto *C = dyn_cast<Constant>(const_cast<Value *>(Op));
        if (!C && Op->getType()->isIntegerTy())
          if (std::optional<int64_t> K = launchConstant(Op, Depth + 1))
            C = ConstantInt::get(Op->getType(), *K, /*IsSigned=*/true);
        if (!C)
          return std::nullopt;
        Ops.push_back(C);
      }
      if (auto *C = dyn_cast_or_null<ConstantInt>(ConstantFoldInstOperands(
              const_cast<Instruction *>(I), Ops, F.getDataLayout())))
        return C->getSExtValue();
      return std::nullopt;
    }
  }
  if (!Assume1D)
    return std::nullopt;
  if (workItemDim(V) > 0)
    return 0;
  if (launchSizeLoadDim(V) > 0)
    return 1;
  if (auto M = mulOperands(V))
    for (const Value *Op : {M->first, M->second})
      if (std::optional<int64_t> K = launchConstant(Op, Depth + 1);
          K && *K == 0)
        return 0;
  return std::nullopt;
}

std::optional<int64_t>
ThreadAddressBuilder::constantFactor(const Value *V) const {
  if (const auto *CI = dyn_cast<ConstantInt>(V))
    return CI->getBitWidth() <= 64 ? std::optional(CI->getSExtValue())
                                   : std::nullopt;
  return launchConstant(V);
}

/// Whether \p V has one value for every work-item and every time it is
/// computed: a pure function of kernel arguments, workgroup ids and
/// constants, loading only constant memory at such addresses (lowered
/// kernel arguments, launch sizes), which AMDGPU alias analysis takes as
/// read-only while the kernel runs, with or without !invariant.load.
bool ThreadAddressBuilder::isInvariantUniform(const Value *V, unsigned Depth) {
  if (isa<Constant>(V))
    return true;
  if (const auto *Arg = dyn_cast<Argument>(V))
    return isKernel(*Arg->getParent());
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    return is_contained(
        {Intrinsic::amdgcn_workgroup_id_x, Intrinsic::amdgcn_workgroup_id_y,
         Intrinsic::amdgcn_workgroup_id_z,
         Intrinsic::amdgcn_kernarg_segment_ptr,
         Intrinsic::amdgcn_implicitarg_ptr, Intrinsic::amdgcn_dispatch_ptr},
        II->getIntrinsicID());
  if (const auto *LI = dyn_cast<LoadInst>(V)) {
    unsigned AS = LI->getPointerAddressSpace();
    return !LI->isVolatile() && Depth <= 8 &&
           (AS == AMDGPUAS::CONSTANT_ADDRESS ||
            AS == AMDGPUAS::CONSTANT_ADDRESS_32BIT) &&
           isInvariantUniform(LI->getPointerOperand(), Depth + 1);
  }
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 ||
      !isa<BinaryOperator, CastInst, GetElementPtrInst, ExtractElementInst>(I))
    return false;
  // An element of kernel arguments the load-store vectorizer loads
  // together is one too.
  return llvm::all_of(I->operands(), [&](const Value *Op) {
    return isInvariantUniform(Op, Depth + 1);
  });
}

bool ThreadAddressBuilder::isUniformMerge(const PHINode *Phi) {
  const BasicBlock *B = Phi->getParent();
  if (!DT || !Loops || !DT->getNode(B) || !DT->getNode(B)->getIDom() ||
      Loops->isLoopHeader(B))
    return false;
  // Each merge is decided once, on a fresh depth (a scan's values pass
  // several loops); one met again while it is decided is not taken.
  auto [It, New] = UniformMerges.try_emplace(Phi, false);
  if (!New)
    return It->second;
  const BasicBlock *D = DT->getNode(B)->getIDom()->getBlock();
  // A loop all work-items leave in the same iteration: each exit is
  // passed on the way to every latch, on a condition of the iteration.
  auto LeftTogether = [&](const Loop *L) {
    SmallVector<BasicBlock *, 4> Exiting, Latches;
    L->getExitingBlocks(Exiting);
    L->getLoopLatches(Latches);
    return llvm::all_of(Exiting, [&](const BasicBlock *E) {
      const auto *Br = dyn_cast<BranchInst>(E->getTerminator());
      const Loop *Of = L;
      SmallPtrSet<const Value *, 4> Assumed;
      return Br && Br->isConditional() &&
             isIterationUniform(Br->getCondition(), Of, Assumed, 1) &&
             llvm::all_of(Latches, [&](const BasicBlock *Latch) {
               return DT->dominates(E, Latch);
             });
    });
  };
  // Each value is one the workgroup shares, or one of the last iteration
  // of such a loop.
  if (!llvm::all_of(Phi->incoming_values(), [&](const Value *In) {
        const Loop *L = nullptr;
        SmallPtrSet<const Value *, 4> Assumed;
        return isIterationUniform(In, L, Assumed, 1) &&
               (!L || (!L->contains(B) && LeftTogether(L)));
      }))
    return false;
  // The blocks from D to B: every work-item takes the same edge into B if
  // each of their branches is one the workgroup takes together, or rejoins
  // before B (an `if` inside a loop whose exit is uniform).
  SmallPtrSet<const BasicBlock *, 16> Region;
  SmallVector<const BasicBlock *, 16> Work(predecessors(B));
  while (!Work.empty()) {
    const BasicBlock *X = Work.pop_back_val();
    if (Region.insert(X).second && X != D)
      llvm::append_range(Work, predecessors(X));
  }
  if (!PDT)
    PDT = std::make_unique<PostDominators>(const_cast<Function &>(F));
  auto Rejoins = [&](const BasicBlock *X) {
    const DomTreeNode *N = PDT->getNode(X);
    const BasicBlock *Join =
        N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
    if (!Join || Join == B)
      return false;
    // No path from X reaches B but through Join.
    SmallPtrSet<BasicBlock *, 1> Through = {const_cast<BasicBlock *>(Join)};
    return !isPotentiallyReachable(X, B, &Through, DT.get());
  };
  return UniformMerges[Phi] = llvm::all_of(Region, [&](const BasicBlock *X) {
           const auto *Br = dyn_cast<BranchInst>(X->getTerminator());
           const Loop *L = nullptr;
           SmallPtrSet<const Value *, 4> Assumed;
           return Br &&
                  (!Br->isConditional() ||
                   isIterationUniform(Br->getCondition(), L, Assumed, 1) ||
                   Rejoins(X));
         });
}

/// Addresses share their parts (one base GEP under many constant offsets,
/// one index under many bases): each part is linearized once.
std::optional<ThreadAddressBuilder::Linear>
ThreadAddressBuilder::linearize(const Value *V, unsigned Depth) {
  // Only values that several addresses share are worth an entry: not a
  // value of one use, a constant, or an address itself (depth 0).
  if (Depth == 0 || V->hasOneUse() || isa<ConstantInt>(V))
    return linearizeUncached(V, Depth);
  auto Key =
      std::make_tuple(V, Depth,
                      unsigned(Stages != nullptr) | unsigned(Strides) << 1 |
                          unsigned(UnboundedLeaves) << 2 |
                          (IterLoop ? symbol(IterLoop->getHeader()) << 3 : 0));
  if (auto It = Linearized.find(Key); It != Linearized.end())
    return It->second;
  std::optional<Linear> L = linearizeUncached(V, Depth);
  Linearized.try_emplace(Key, L);
  return L;
}

std::optional<ThreadAddressBuilder::Linear>
ThreadAddressBuilder::linearizeUncached(const Value *V, unsigned Depth) {
  if (Depth > 24)
    return std::nullopt;
  if (const auto *CI = dyn_cast<ConstantInt>(V)) {
    if (CI->getBitWidth() > 64)
      return std::nullopt;
    return Linear::constant(CI->getSExtValue());
  }
  if (const auto *GV = dyn_cast<GlobalVariable>(V)) {
    if (std::optional<ConstantRange> R = GV->getAbsoluteSymbolRange()) {
      if (const APInt *Addr = R->getSingleElement())
        return Linear::constant(Addr->getSExtValue());
      return std::nullopt;
    }
    return Linear::uniform(symbol(GV));
  }
  if (int D = workItemDim(V); D >= 0) {
    Linear L;
    L.Coef[D] = 1;
    return L;
  }
  if (const auto *GEP = dyn_cast<GEPOperator>(V))
    return linearizeGEP(GEP, Depth);
  if (std::optional<Linear> L = linearizeMul24(V, Depth))
    return L;
  // A lane of a vector the SLP vectorizer made of scalar index arithmetic
  // (`(x0, y0) + (tid.x, tid.y)`): the lane's own operation.
  if (const auto *EE = dyn_cast<ExtractElementInst>(V))
    if (const auto *Lane = dyn_cast<ConstantInt>(EE->getIndexOperand())) {
      Value *Vec = const_cast<Value *>(EE->getVectorOperand());
      unsigned I = Lane->getZExtValue();
      if (Value *S = findScalarElement(Vec, I))
        return linearize(S, Depth + 1);
      const auto *BO = dyn_cast<BinaryOperator>(Vec);
      Value *A = BO ? findScalarElement(BO->getOperand(0), I) : nullptr;
      Value *B = BO ? findScalarElement(BO->getOperand(1), I) : nullptr;
      if (A && B &&
          (BO->getOpcode() != Instruction::Or ||
           cast<PossiblyDisjointInst>(BO)->isDisjoint()))
        return linearizeArith(BO->getOpcode(), A, B, Depth);
    }
  if (const auto *Op = dyn_cast<Operator>(V)) {
    switch (Op->getOpcode()) {
    case Instruction::BitCast:
    case Instruction::AddrSpaceCast:
      return linearize(Op->getOperand(0), Depth + 1);
    case Instruction::ZExt:
    case Instruction::SExt:
    case Instruction::Trunc:
      // The identity modulo 2^32 when both widths are 32 bits or more.
      if (Op->getType()->getScalarSizeInBits() >= 32 &&
          Op->getOperand(0)->getType()->getScalarSizeInBits() >= 32)
        return linearize(Op->getOperand(0), Depth + 1);
      break;
    case Instruction::Or:
      if (!cast<PossiblyDisjointInst>(Op)->isDisjoint())
        break;
      [[fallthrough]];
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
    case Instruction::Shl:
      if (std::optional<Linear> L = linearizeArith(
              Op->getOpcode(), Op->getOperand(0), Op->getOperand(1), Depth))
        return L;
      break;
    default:
      break;
    }
  }
  // Pointers used in turn (buffers swapped every iteration).
  if (Stages)
    if (auto Values = Stages->rotation(V))
      return linearizeRotation(V, *Values, Depth);
  if (std::optional<Linear> L = blockStride(V, Depth))
    return L;
  // A pointer that advances by a constant each iteration of a loop.
  if (Stages)
    if (auto Ind = Stages->pointerInduction(V)) {
      std::optional<Linear> L = linearize(Ind->first, Depth + 1);
      if (!L || L->Stage)
        return std::nullopt;
      StageValue S;
      S.Loop = cast<Instruction>(V)->getParent();
      S.A1 = Ind->second;
      S.Exact = false;
      L->Stage = S;
      return L;
    }
  // A value merged from paths of which all but one run only in launches of
  // one work-item (the loop vectorizer's copy of a block-stride loop for
  // `blockDim.x == 1`): any two work-items come along that one.
  if (const auto *Phi = dyn_cast<PHINode>(V);
      Phi && Loops && !Loops->isLoopHeader(Phi->getParent())) {
    SmallPtrSet<const Value *, 2> Kept;
    bool Dropped = false;
    for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
      // Only launches of one work-item run the incoming block.
      ThreadAddress Sizes;
      const IdBounds *B = boundsAt(Phi->getIncomingBlock(I));
      if (B)
        Sizes.SizeHi = B->SizeHi;
      if (B && launchUnder(Sizes, Shape).MaxFlat <= 1)
        Dropped = true;
      else
        Kept.insert(Phi->getIncomingValue(I));
    }
    std::optional<Linear> L;
    if (Dropped && Kept.size() == 1 && !Kept.contains(Phi) &&
        (L = linearize(*Kept.begin(), Depth + 1))) {
      L->PairsOnly = true;
      return L;
    }
  }
  return linearizeLeaf(V);
}

/// A header phi that starts at c * t[d] + a and advances by k * c times the
/// launch size in d each iteration (k >= 1): `for (i = t; i < n; i +=
/// blockDim.x)`, as an index or, after loop strength reduction, as a
/// pointer. In the work-item's iteration n it is c * (t[d] + k * n * u) +
/// a modulo 2^32; strideIsExact decides whether that sum is exact.
std::optional<ThreadAddressBuilder::Linear>
ThreadAddressBuilder::blockStride(const Value *V, unsigned Depth) {
  const auto *Phi = dyn_cast<PHINode>(V);
  if (!Strides || !Phi || !Loops || IterLoop)
    return std::nullopt;
  const Loop *L = Loops->getLoopFor(Phi->getParent());
  auto Values = headerPhiValues(Phi, *DT);
  if (!L || L->getHeader() != Phi->getParent() || !Values)
    return std::nullopt;
  auto [Entering, Back] = *Values;
  // The step: Back = Phi + X, or a GEP of Phi by X elements.
  const Value *Step;
  int64_t Scale = 1;
  if (match(Back, m_GEP(m_Specific(Phi), m_Value(Step))))
    Scale = F.getDataLayout().getTypeAllocSize(
        cast<GEPOperator>(Back)->getSourceElementType());
  else if (!match(Back, m_c_Add(m_Specific(Phi), m_Value(Step))))
    return std::nullopt;
  std::optional<Linear> S = linearize(Step, Depth + 1);
  std::optional<Linear> E = linearize(Entering, Depth + 1);
  if (!S || !E || !S->scale(Scale) || S->Uniform.size() != 1 || S->Const ||
      S->Coef != std::array<int64_t, 3>{0, 0, 0} || S->Fn || S->anyVar() ||
      S->Stage || S->StrideCoef)
    return std::nullopt;
  int D = launchSizeDim(S->Uniform[0].first);
  if (D < 0 || E->Fn || E->anyVar() || E->Stage || E->StrideCoef)
    return std::nullopt;
  int64_t C = E->Coef[D], Stride = S->Uniform[0].second;
  for (int Other = 0; Other < 3; ++Other)
    if (Other != D && E->Coef[Other])
      return std::nullopt;
  if (C <= 0 || Stride % C || Stride / C < 1)
    return std::nullopt;
  E->StrideCoef = Stride;
  E->StrideDim = D;
  E->StrideLoop = L;
  return E;
}

bool ThreadAddressBuilder::strideIsExact(const Linear &L, const Value *Ptr,
                                         uint64_t Size, const BasicBlock *At) {
  // The access stays inside its LDS object (leaving it is undefined). Run in
  // every iteration up to the current one (its block dominates every latch)
  // at an address that moves by less than 2^32 minus the object's size
  // each time, it cannot have wrapped around: the sum is exact.
  if (!At || !DT || !L.StrideLoop->contains(At))
    return false;
  SmallVector<BasicBlock *, 2> Latches;
  L.StrideLoop->getLoopLatches(Latches);
  if (llvm::any_of(Latches, [&](BasicBlock *Latch) {
        return !DT->dominates(At, Latch);
      }))
    return false;
  uint64_t ObjectSize = 0;
  if (!ldsObject(Ptr, ObjectSize))
    return false;
  int64_t Step = std::abs(L.StrideCoef) * Shape.MaxDim[L.StrideDim];
  return ObjectSize && ObjectSize + Size < uint64_t(SmallMagnitude) &&
         Step < SmallMagnitude;
}

const GlobalVariable *ThreadAddressBuilder::ldsObject(const Value *Ptr,
                                                      uint64_t &Bytes) {
  SmallVector<const Value *, 2> Objects;
  getUnderlyingObjects(Ptr, Objects, Loops.get());
  const auto *GV =
      Objects.size() == 1 ? dyn_cast<GlobalVariable>(Objects[0]) : nullptr;
  if (!GV || GV->getAddressSpace() != AMDGPUAS::LOCAL_ADDRESS)
    return nullptr;
  // Dynamic LDS (a zero-sized array) lies inside the workgroup's
  // allocation, which no target makes as large as MaxLDSBytes.
  Bytes = F.getDataLayout().getTypeAllocSize(GV->getValueType());
  if (!Bytes)
    Bytes = MaxLDSBytes;
  return GV;
}

std::optional<std::pair<int64_t, int64_t>>
ThreadAddressBuilder::ldsObjectBytes(const Value *Ptr) {
  uint64_t Bytes = 0;
  const GlobalVariable *GV = ldsObject(Ptr, Bytes);
  std::optional<ConstantRange> Abs =
      GV ? GV->getAbsoluteSymbolRange() : std::nullopt;
  const APInt *Begin = Abs ? Abs->getSingleElement() : nullptr;
  if (!Begin)
    return std::nullopt;
  return std::make_pair(Begin->getSExtValue(),
                        Begin->getSExtValue() + int64_t(Bytes));
}

/// GEP: the base plus each index times its stride.
std::optional<ThreadAddressBuilder::Linear>
ThreadAddressBuilder::linearizeGEP(const GEPOperator *GEP, unsigned Depth) {
  const DataLayout &DL = F.getDataLayout();
  std::optional<Linear> L = linearize(GEP->getPointerOperand(), Depth + 1);
  if (!L)
    return std::nullopt;
  for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
       GTI != E; ++GTI) {
    const Value *Idx = GTI.getOperand();
    if (StructType *ST = GTI.getStructTypeOrNull()) {
      unsigned Field = cast<ConstantInt>(Idx)->getZExtValue();
      L->add(Linear::constant(
          DL.getStructLayout(ST)->getElementOffset(Field).getFixedValue()));
      continue;
    }
    TypeSize Stride = GTI.getSequentialElementStride(DL);
    if (Stride.isScalable())
      return std::nullopt;
    std::optional<Linear> I = linearize(Idx, Depth + 1);
    if (!I || !I->scale(Stride.getFixedValue()) || !L->add(*I))
      return std::nullopt;
  }
  return L;
}

/// Add, sub, disjoint or (\p Opcode Or), and multiplication or shift by a
/// constant; none when \p Opcode of \p A and \p B is not a linear function
/// of linear operands.
std::optional<ThreadAddressBuilder::Linear>
ThreadAddressBuilder::linearizeArith(unsigned Opcode, const Value *A,
                                     const Value *B, unsigned Depth) {
  switch (Opcode) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Or: {
    std::optional<Linear> L = linearize(A, Depth + 1);
    std::optional<Linear> R = linearize(B, Depth + 1);
    if (!L || !R || (Opcode == Instruction::Sub && !R->scale(-1)) ||
        !L->add(*R))
      return std::nullopt;
    return L;
  }
  case Instruction::Mul:
  case Instruction::Shl: {
    const Value *X = A;
    std::optional<int64_t> Factor;
    if (Opcode == Instruction::Shl) {
      const auto *K = dyn_cast<ConstantInt>(B);
      if (!K || K->getValue().uge(32))
        return std::nullopt;
      Factor = int64_t(1) << K->getZExtValue();
    } else if (!(Factor = constantFactor(B))) {
      // A constant, or in a 1-D launch y * blockDim.x (0) and x *
      // blockDim.y (x).
      X = B;
      Factor = constantFactor(A);
    }
    if (!Factor)
      return std::nullopt;
    if (*Factor == 0)
      return Linear::constant(0);
    std::optional<Linear> L = linearize(X, Depth + 1);
    if (!L || !L->scale(*Factor))
      return std::nullopt;
    return L;
  }
  default:
    return std::nullopt;
  }
}

/// \p V's range from computeConstantRange and its known bits (\p Known).
static ConstantRange knownRange(const Value *V, const DataLayout &DL,
                                bool Signed, KnownBits &Known) {
  Known = computeKnownBits(V, DL);
  return computeConstantRange(V, Signed).intersectWith(
      ConstantRange::fromKnownBits(Known, Signed),
      Signed ? ConstantRange::Signed : ConstantRange::Unsigned);
}

/// llvm.amdgcn.mul.u24 / mul.i24 by a constant, which AMDGPU's IR passes
/// make of a multiplication whose operands fit 24 bits: the product itself
/// when the other operand does.
std::optional<ThreadAddressBuilder::Linear>
ThreadAddressBuilder::linearizeMul24(const Value *V, unsigned Depth) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II || !II->getType()->isIntegerTy(32))
    return std::nullopt;
  bool Signed = II->getIntrinsicID() == Intrinsic::amdgcn_mul_i24;
  if (!Signed && II->getIntrinsicID() != Intrinsic::amdgcn_mul_u24)
    return std::nullopt;
  const Value *X = II->getArgOperand(0);
  std::optional<int64_t> K = constantFactor(II->getArgOperand(1));
  if (!K) {
    X = II->getArgOperand(1);
    K = constantFactor(II->getArgOperand(0));
  }
  if (!K)
    return std::nullopt;
  if (*K == 0)
    return Linear::constant(0);
  if (Signed ? !isInt<24>(*K) : !isUInt<24>(*K))
    return std::nullopt;
  std::optional<Linear> L = linearize(X, Depth + 1);
  if (!L)
    return std::nullopt;
  // X fits 24 bits by its range, or as c * t + a over the launch box.
  int64_t Min = Signed ? -(int64_t(1) << 23) : 0;
  int64_t Max = Signed ? (int64_t(1) << 23) - 1 : (int64_t(1) << 24) - 1;
  KnownBits Known;
  ConstantRange R = knownRange(X, F.getDataLayout(), Signed, Known);
  bool Fits = Signed ? R.getSignedMin().sge(Min) && R.getSignedMax().sle(Max)
                     : R.getUnsignedMax().ule(Max);
  if (!Fits && !L->Fn && !L->anyVar() && L->Uniform.empty() && !L->Stage &&
      !L->StrideCoef) {
    auto [Lo, Hi] = idTermsRange(*L, Shape);
    Fits = Lo >= Min && Hi <= Max;
  }
  if (!Fits || !L->scale(*K))
    return std::nullopt;
  return L;
}

/// Pointers used in turn (buffers swapped every iteration): one address
/// form but for the constant, which is a stage slot.
std::optional<ThreadAddressBuilder::Linear>
ThreadAddressBuilder::linearizeRotation(const Value *V,
                                        ArrayRef<const Value *> Values,
                                        unsigned Depth) {
  SmallVector<Linear, 4> Forms;
  for (const Value *X : Values) {
    std::optional<Linear> L = linearize(X, Depth + 1);
    if (!L || L->Stage || L->Unbounded ||
        (!Forms.empty() && !L->sameButConstant(Forms[0])))
      return std::nullopt;
    Forms.push_back(std::move(*L));
  }
  StageValue S;
  S.Loop = cast<Instruction>(V)->getParent();
  S.Exact = false;
  S.P.clear();
  for (const Linear &L : Forms)
    S.P.push_back(wrap32(L.Const - Forms[0].Const));
  S.normalize();
  Linear Out = std::move(Forms[0]);
  Out.Stage = S;
  return Out;
}

/// Anything else: a value the workgroup shares, a function of the work-item
/// id evaluated exactly, a function of a loop's iteration, a per-work-item
/// value of known range, or nothing we can use.
std::optional<ThreadAddressBuilder::Linear>
ThreadAddressBuilder::linearizeLeaf(const Value *V) {
  const DataLayout &DL = F.getDataLayout();
  if (V->getType()->isIntegerTy() && V->getType()->getIntegerBitWidth() <= 64) {
    // A required size is the size (as AMDGPULowerKernelAttributes folds it
    // when the metadata is there before the optimizer).
    if (int D = launchSizeLoadDim(V); D >= 0)
      return Shape.Required ? Linear::constant(Shape.MaxDim[D])
                            : Linear::uniform(symbol(&LaunchSizeKeys[D]));
    if (isInvariantUniform(V, 0))
      return Linear::uniform(symbol(V));
    if (std::shared_ptr<const TidExpr> E = tidExpr(V)) {
      Linear L;
      L.Fn = std::move(E);
      return L;
    }
    const Loop *VL = nullptr;
    SmallPtrSet<const Value *, 4> Assumed;
    if (IterLoop && isIterationUniform(V, VL, Assumed, 0) && VL == IterLoop)
      return Linear::uniform(symbol(V));
    if (Stages)
      if (std::optional<StageValue> S = Stages->get(V)) {
        Linear L;
        L.Stage = std::move(S);
        return L;
      }
    // Its unsigned range, if small, is its value modulo 2^32 too (the
    // known bits give it for a zero-extended load, say).
    KnownBits Known;
    ConstantRange R = knownRange(V, DL, /*Signed=*/false, Known);
    if (!R.isFullSet() && !R.isEmptySet() && !R.isWrappedSet() &&
        R.getUnsignedMax().ult(uint64_t(SmallMagnitude))) {
      Linear L;
      L.VarLo = R.getUnsignedMin().getZExtValue();
      L.VarHi = R.getUnsignedMax().getZExtValue();
      L.VarAlign = std::min(31u, Known.countMinTrailingZeros());
      return L;
    }
  }
  if (UnboundedLeaves &&
      (V->getType()->isIntegerTy() || V->getType()->isPointerTy())) {
    Linear L;
    L.Unbounded = true;
    L.VarAlign = std::min(31u, computeKnownBits(V, DL).countMinTrailingZeros());
    return L;
  }
  return std::nullopt;
}
std::shared_ptr<const TidExpr>
ThreadAddressBuilder::tidExpr(const Value *V, ArrayRef<const Value *> Params) {
  auto E = std::make_shared<TidExpr>();
  bool UsesId = false;
  // Appends V's nodes, returning the index of its value, or -1.
  auto Rec = [&](auto &&Self, const Value *X, unsigned Depth) -> int32_t {
    auto *Ty = dyn_cast<IntegerType>(X->getType());
    if (!Ty || Ty->getBitWidth() > 64 || Depth > 16 || E->Nodes.size() > 64)
      return -1;
    uint8_t Width = Ty->getBitWidth();
    auto Push = [&](TidExpr::Kind K, int32_t L, int32_t R, int64_t Imm) {
      E->Nodes.push_back({K, Width, L, R, Imm});
      return int32_t(E->Nodes.size() - 1);
    };
    if (const auto *CI = dyn_cast<ConstantInt>(X))
      return Push(TidExpr::Const, -1, -1, int64_t(CI->getZExtValue()));
    if (std::optional<int64_t> K = launchConstant(X))
      return Push(TidExpr::Const, -1, -1, *K);
    if (int D = workItemDim(X); D >= 0) {
      UsesId = true;
      return Push(TidExpr::Id, -1, -1, D);
    }
    if (const auto *P = llvm::find(Params, X); P != Params.end()) {
      UsesId = true;
      return Push(TidExpr::Param, -1, -1, P - Params.begin());
    }
    const auto *I = dyn_cast<Instruction>(X);
    if (!I)
      return -1;
    // AMDGPU's 24-bit multiplications: of the low 24 bits, zero- or
    // sign-extended.
    if (const auto *II = dyn_cast<IntrinsicInst>(I);
        II && (II->getIntrinsicID() == Intrinsic::amdgcn_mul_u24 ||
               II->getIntrinsicID() == Intrinsic::amdgcn_mul_i24)) {
      bool Signed = II->getIntrinsicID() == Intrinsic::amdgcn_mul_i24;
      int32_t Ops[2];
      for (unsigned J = 0; J < 2; ++J) {
        int32_t X = Self(Self, II->getArgOperand(J), Depth + 1);
        if (X < 0)
          return -1;
        Ops[J] = Signed ? Push(TidExpr::AShr,
                               Push(TidExpr::Shl, X,
                                    Push(TidExpr::Const, -1, -1, 8), 0),
                               Push(TidExpr::Const, -1, -1, 8), 0)
                        : Push(TidExpr::And, X,
                               Push(TidExpr::Const, -1, -1, 0xffffff), 0);
      }
      return Push(TidExpr::Mul, Ops[0], Ops[1], 0);
    }
    static constexpr std::pair<unsigned, TidExpr::Kind> Kinds[] = {
        {Instruction::Add, TidExpr::Add},
        {Instruction::Sub, TidExpr::Sub},
        {Instruction::Mul, TidExpr::Mul},
        {Instruction::And, TidExpr::And},
        {Instruction::Or, TidExpr::Or},
        {Instruction::Xor, TidExpr::Xor},
        {Instruction::Shl, TidExpr::Shl},
        {Instruction::LShr, TidExpr::LShr},
        {Instruction::AShr, TidExpr::AShr},
        {Instruction::UDiv, TidExpr::UDiv},
        {Instruction::URem, TidExpr::URem},
        {Instruction::ZExt, TidExpr::ZExt},
        {Instruction::SExt, TidExpr::SExt},
        {Instruction::Trunc, TidExpr::Trunc}};
    const auto *Kind = llvm::find_if(
        Kinds, [&](const auto &P) { return P.first == I->getOpcode(); });
    if (Kind == std::end(Kinds))
      return -1;
    TidExpr::Kind K = Kind->second;
    if (isa<CastInst>(I)) {
      // An extension keeps the width it extends from.
      unsigned From = I->getOperand(0)->getType()->getScalarSizeInBits();
      int32_t L = Self(Self, I->getOperand(0), Depth + 1);
      return L < 0 ? -1 : Push(K, L, -1, K == TidExpr::Trunc ? 0 : From);
    }
    const auto *BO = cast<BinaryOperator>(I);
    // Shifts and divisions by constants only: a variable amount may be
    // poison or undefined, which the evaluation cannot follow.
    if (BO->isShift() || K == TidExpr::UDiv || K == TidExpr::URem) {
      std::optional<int64_t> Amount = constantFactor(BO->getOperand(1));
      if (!Amount || (BO->isShift() && uint64_t(*Amount) >= Width) ||
          (!BO->isShift() && *Amount == 0))
        return -1;
    }
    int32_t L = Self(Self, BO->getOperand(0), Depth + 1);
    int32_t R = L < 0 ? -1 : Self(Self, BO->getOperand(1), Depth + 1);
    if (R < 0)
      return -1;
    int32_t Node = Push(K, L, R, 0);
    // With parameters, values that wrap are poison where the IR says so
    // (IterationForm).
    if (const auto *OBO = dyn_cast<OverflowingBinaryOperator>(BO);
        OBO && !Params.empty())
      E->Nodes[Node].Flags = (OBO->hasNoUnsignedWrap() ? TidExpr::NUW : 0) |
                             (OBO->hasNoSignedWrap() ? TidExpr::NSW : 0);
    return Node;
  };
  if (Rec(Rec, V, 0) < 0 || !UsesId)
    return nullptr;
  return E;
}

std::optional<ThreadAddressBuilder::IdBounds> &
ThreadAddressBuilder::blockBounds(const BasicBlock *BB) {
  // Numbered by the function's blocks: an array, not a map, is read for
  // every access.
  if (BB->getNumber() >= BlockBounds.size())
    BlockBounds.resize(std::max(F.getMaxBlockNumber(), BB->getNumber() + 1));
  return BlockBounds[BB->getNumber()];
}

/// Calls \p Leaf with each compare, and the predicate it satisfies, that
/// holds where condition \p C has the value \p Holds: \p C itself, the
/// parts of `&&` that holds or `||` that fails (`and`, or the select that
/// `&&` becomes), the condition of a structurized `if` (llvm.amdgcn.if(c),
/// element 0) and the failed one of its `else` (llvm.amdgcn.else), and that
/// of the one edge that gives a flow block's phi of constants that value
/// (the structurizer branches on one after an `if` that returns; not a back
/// edge: a condition of the same iteration).
template <typename LeafFn>
static void forEachCompare(const Value *C, bool Holds, const DominatorTree &DT,
                           LeafFn Leaf, unsigned Depth = 0) {
  if (Depth > 4)
    return;
  Value *Cond;
  if (match(C, m_ExtractValue<0>(
                   m_Intrinsic<Intrinsic::amdgcn_if>(m_Value(Cond))))) {
    forEachCompare(Cond, Holds, DT, Leaf, Depth + 1);
    return;
  }
  // The else arm runs the lanes that the if's mask (element 1) left out:
  // those where the if's condition failed.
  if (match(C, m_ExtractValue<0>(
                   m_Intrinsic<Intrinsic::amdgcn_else>(m_ExtractValue<1>(
                       m_Intrinsic<Intrinsic::amdgcn_if>(m_Value(Cond))))))) {
    if (Holds)
      forEachCompare(Cond, false, DT, Leaf, Depth + 1);
    return;
  }
  if (const auto *Phi = dyn_cast<PHINode>(C)) {
    const BranchInst *From = nullptr;
    for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
      const auto *V = dyn_cast<ConstantInt>(Phi->getIncomingValue(I));
      if (!V)
        return;
      if (V->isOne() == Holds) {
        if (From)
          return;
        From = dyn_cast<BranchInst>(Phi->getIncomingBlock(I)->getTerminator());
        if (!From)
          return;
      }
    }
    if (From && From->isConditional() &&
        From->getSuccessor(0) != From->getSuccessor(1) &&
        !DT.dominates(Phi->getParent(), From->getParent()))
      forEachCompare(From->getCondition(),
                     From->getSuccessor(0) == Phi->getParent(), DT, Leaf,
                     Depth + 1);
    return;
  }
  const Value *A, *B;
  if (Holds ? match(C, m_LogicalAnd(m_Value(A), m_Value(B)))
            : match(C, m_LogicalOr(m_Value(A), m_Value(B)))) {
    forEachCompare(A, Holds, DT, Leaf, Depth + 1);
    forEachCompare(B, Holds, DT, Leaf, Depth + 1);
    return;
  }
  if (const auto *Cmp = dyn_cast<ICmpInst>(C))
    Leaf(Cmp, Holds ? Cmp->getPredicate() : Cmp->getInversePredicate());
}

/// forEachCompare on the condition of the branch edge out of \p N's
/// immediate dominator that dominates \p N, if there is one.
template <typename LeafFn>
static void forEachEntryCompare(const DomTreeNode *N, const DominatorTree &DT,
                                LeafFn Leaf) {
  const BasicBlock *I = N->getIDom()->getBlock();
  const auto *Br = dyn_cast<BranchInst>(I->getTerminator());
  if (Br && Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1))
    for (unsigned S = 0; S < 2; ++S)
      if (DT.dominates(BasicBlockEdge(I, Br->getSuccessor(S)), N->getBlock()))
        forEachCompare(Br->getCondition(), S == 0, DT, Leaf);
}

const ThreadAddressBuilder::IdBounds *
ThreadAddressBuilder::boundsAt(const BasicBlock *At) {
  if (!At || !DT)
    return nullptr;
  if (const std::optional<IdBounds> &Known = blockBounds(At))
    return &*Known;
  if (!DT->getNode(At))
    return nullptr;
  IdBounds Cur;
  // Compares that hold where a branch edge dominates At.
  auto Restrict = [&](const ICmpInst *Cmp, CmpInst::Predicate Pred) {
    const Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
    if (isa<ConstantInt>(L) || workItemDim(stripWidening(R)) >= 0) {
      std::swap(L, R);
      Pred = CmpInst::getSwappedPredicate(Pred);
    }
    const Value *Compared = L;
    L = stripWidening(L);
    int D = workItemDim(L);
    const auto *K = dyn_cast<ConstantInt>(R);
    // (t + C) below a bound, C a small constant, bounds t by it minus C;
    // below a constant K < 2^31, unsigned, t + C cannot have wrapped
    // either: t >= -C (the range check `t - 128 < 64` that instcombine
    // makes of `t >= 128 && t < 192`). Upper bounds only: t + C may wrap
    // where it fails.
    int64_t Shift = 0;
    const APInt *Added;
    const Value *X;
    bool Upper = ICmpInst::isLT(Pred) || ICmpInst::isLE(Pred);
    if (D < 0 && Upper && match(L, m_Add(m_Value(X), m_APInt(Added))) &&
        Added->getSignificantBits() <= 20 &&
        (D = workItemDim(stripWidening(X))) >= 0) {
      Shift = Added->getSExtValue();
      if (CmpInst::isUnsigned(Pred) && Shift < 0 && K &&
          K->getValue().ult(INT32_MAX))
        Cur.Lo[D] = std::max(Cur.Lo[D], -Shift);
    }
    // f(t) == K on a function of the id (`lane == 0`, `t % 32 == 0`): the
    // enumeration keeps the ids that satisfy it.
    if (D < 0 && K && Pred == CmpInst::ICMP_EQ && K->getBitWidth() <= 64)
      if (std::shared_ptr<const TidExpr> E = tidExpr(Compared)) {
        uint64_t V = K->getZExtValue();
        // Under an outer f1(t) == K1 too (`if (wave == 0) if (lane == 0)`):
        // both hold where (f1 - K1) | (f - K) is 0, at 32 bits.
        if (Cur.Filter && Cur.Filter->Nodes.back().Width == 32 &&
            E->Nodes.back().Width == 32) {
          auto Minus = [](const TidExpr &F, uint64_t C) {
            return combine(TidExpr::Sub, F, constantExpr(C, 32));
          };
          E = combine(TidExpr::Or, *Minus(*Cur.Filter, Cur.FilterValue),
                      *Minus(*E, V));
          V = 0;
        }
        // Of one dimension, the ids it keeps bound that dimension too:
        // `if (t / 64 == 2)` runs in one wave (onlyWave).
        if (unsigned Used = E->usedDims(); llvm::has_single_bit(Used)) {
          unsigned Dim = llvm::countr_zero(Used);
          int64_t First = -1, Last = -1;
          std::array<int64_t, 3> Id = {0, 0, 0};
          int64_t &T = Id[Dim];
          for (T = Cur.Lo[Dim];
               T <= std::min(Cur.Hi[Dim], Shape.MaxDim[Dim] - 1); ++T)
            if (E->eval(Id) == V) {
              First = First < 0 ? T : First;
              Last = T;
            }
          Cur.Lo[Dim] = First < 0 ? 1 : First;
          Cur.Hi[Dim] = First < 0 ? 0 : Last;
        }
        Cur.Filter = std::move(E);
        Cur.FilterValue = V;
        return;
      }
    // t < s or t <= s, s the same for every work-item: the tree step's
    // guard. Signed and unsigned orders agree on ids and on the values of
    // s that applyGuard accepts.
    const Loop *GuardLoop = nullptr;
    SmallPtrSet<const Value *, 4> Assumed;
    if (D >= 0 && !K && Upper && isIterationUniform(R, GuardLoop, Assumed, 0)) {
      Cur.Guard = R;
      Cur.GuardLoop = GuardLoop;
      Cur.GuardDim = D;
      Cur.GuardOff = (ICmpInst::isLT(Pred) ? -1 : 0) - Shift;
      return;
    }
    // A bound on a launch size bounds the ids below it: the loop vectorizer
    // versions a block-stride loop on `blockDim.x == 1`.
    bool OfSize = false;
    if (D < 0 && K)
      OfSize = (D = launchSizeLoadDim(L)) >= 0;
    if (!K || D < 0 || K->getBitWidth() > 64)
      return;
    // The id and the size are in [0, 1024]: signed and unsigned orders
    // agree on them for constants in [0, 2^31).
    if ((K->isNegative() && CmpInst::isSigned(Pred)) ||
        K->getValue().uge(INT32_MAX))
      return;
    int64_t V = K->getZExtValue() - Shift;
    // Strict orders as non-strict ones, on V -/+ 1.
    CmpInst::Predicate P = ICmpInst::getUnsignedPredicate(Pred);
    if (P == CmpInst::ICMP_ULT) {
      P = CmpInst::ICMP_ULE;
      --V;
    } else if (P == CmpInst::ICMP_UGT) {
      P = CmpInst::ICMP_UGE;
      ++V;
    }
    // A size of at most V keeps the ids below V.
    if (OfSize) {
      if (P != CmpInst::ICMP_EQ && P != CmpInst::ICMP_ULE)
        return;
      Cur.SizeHi[D] = std::min(Cur.SizeHi[D], V);
      P = CmpInst::ICMP_ULE;
      --V;
    }
    if (P == CmpInst::ICMP_ULE || P == CmpInst::ICMP_EQ)
      Cur.Hi[D] = std::min(Cur.Hi[D], V);
    if (P == CmpInst::ICMP_UGE || P == CmpInst::ICMP_EQ)
      Cur.Lo[D] = std::max(Cur.Lo[D], V);
  };
  // A block's bounds are its immediate dominator I's plus the condition of
  // I's branch edge that dominates it, if any (such an edge leaves I): so
  // they are computed once per block, down the dominator chain from the
  // nearest block known.
  SmallVector<DomTreeNode *, 8> Chain;
  for (DomTreeNode *N = DT->getNode(At); N && !blockBounds(N->getBlock());
       N = N->getIDom())
    Chain.push_back(N);
  for (DomTreeNode *N : llvm::reverse(Chain)) {
    DomTreeNode *I = N->getIDom();
    Cur = IdBounds();
    if (I) {
      Cur = *blockBounds(I->getBlock());
      forEachEntryCompare(N, *DT, Restrict);
    }
    blockBounds(N->getBlock()) = Cur;
  }
  return &*blockBounds(At);
}

bool ThreadAddressBuilder::isIterationUniform(
    const Value *V, const Loop *&L, SmallPtrSetImpl<const Value *> &Assumed,
    unsigned Depth) {
  if (isInvariantUniform(V, 0))
    return true;
  if (Depth > 8 || !Loops)
    return false;
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    // A phi elsewhere: a merge of such values that every work-item enters
    // by one edge.
    if (!Loops->isLoopHeader(Phi->getParent()))
      return isUniformMerge(Phi);
    // A header phi that enters the loop with one such value and takes one
    // on every back-edge: in the n-th iteration, f^n(start) for everyone.
    // (Different values on different back-edges would follow the path a
    // work-item took.)
    const Loop *PL = Loops->getLoopFor(Phi->getParent());
    auto Values = headerPhiValues(Phi, *DT);
    if (PL->getHeader() != Phi->getParent() || (L && L != PL) || !Values)
      return false;
    L = PL;
    if (!Assumed.insert(Phi).second)
      return true;
    const Loop *Outside = nullptr;
    return isIterationUniform(Values->first, Outside, Assumed, Depth + 1) &&
           !Outside &&
           isIterationUniform(Values->second, L, Assumed, Depth + 1);
  }
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !isa<BinaryOperator, CastInst, CmpInst, SelectInst>(I))
    return false;
  return llvm::all_of(I->operands(), [&](const Value *Op) {
    return isIterationUniform(Op, L, Assumed, Depth + 1);
  });
}

void ThreadAddressBuilder::applyGuard(ThreadAddress &TA, const Value *Ptr,
                                      int64_t Offset, const BasicBlock *At) {
  const std::optional<IdBounds> &Known = blockBounds(At);
  if (!Known || !Known->Guard)
    return;
  const Value *Guard = Known->Guard;
  const Loop *L = Known->GuardLoop;
  if (L && !L->contains(At))
    return;
  unsigned Header = L ? symbol(L->getHeader()) : 0;
  if (L && TA.StageLoop && TA.StageLoop != Header)
    return; // Slots of another loop: no one iteration to speak of.
  // The guard's value as u + C, u a symbol, in a range far inside 32 bits
  // (so that t < s compares as integers, signed or not, and sums of it
  // with addresses do not wrap).
  const Loop *SavedLoop = IterLoop;
  std::unique_ptr<LoopStageAnalysis> SavedStages = std::move(Stages);
  IterLoop = L;
  std::optional<Linear> G = linearize(Guard, 1);
  std::optional<Linear> InIteration;
  if (L) {
    InIteration = linearize(Ptr, 0);
    if (InIteration && !InIteration->add(Linear::constant(Offset)))
      InIteration.reset();
  }
  IterLoop = SavedLoop;
  Stages = std::move(SavedStages);
  if (!G || G->Uniform.size() != 1 || G->Uniform[0].second != 1 ||
      G->Coef != std::array<int64_t, 3>{0, 0, 0} || G->Fn || G->hasVar() ||
      G->Stage || (L && !InIteration))
    return;
  KnownBits Bits;
  ConstantRange R =
      knownRange(Guard, F.getDataLayout(), /*Signed=*/false, Bits);
  if (R.isEmptySet() || R.isWrappedSet() ||
      R.getUnsignedMax().uge(uint64_t(SmallMagnitude)))
    return;
  TA.BoundSym = G->Uniform[0].first;
  TA.BoundDim = Known->GuardDim;
  TA.BoundOff = Known->GuardOff + G->Const;
  TA.BoundLo = int64_t(R.getUnsignedMin().getZExtValue()) - G->Const;
  TA.BoundHi = int64_t(R.getUnsignedMax().getZExtValue()) - G->Const;
  if (L) {
    InIteration->Const = wrap32(InIteration->Const);
    TA.IterationTerms = std::make_shared<AddressTerms>(*InIteration);
    TA.StageLoop = Header;
    StageHeaders[Header] = L->getHeader();
  }
}

namespace {
/// What powerOfTwo knows of a value: it is always 2^k, 0 or (Negative)
/// -2^k, modulo 2^W, or poison; NonZero: never 0.
struct PowerOfTwo {
  bool Negative = false, NonZero = true;
  PowerOfTwo join(PowerOfTwo O) const {
    return {Negative || O.Negative, NonZero && O.NonZero};
  }
  bool operator==(PowerOfTwo O) const {
    return Negative == O.Negative && NonZero == O.NonZero;
  }
};
using PhiAssumptions = SmallVector<std::pair<const PHINode *, PowerOfTwo>, 4>;
} // namespace

/// The powers of two (IterationForm) \p V is always one of, if known.
/// Phis are followed through loops (ValueTracking stops at the second phi;
/// a scan's down-sweep starts from the up-sweep's last value): a phi met
/// again has the value assumed for it, and the assumption is weakened
/// until its values prove it (induction over the iterations).
static std::optional<PowerOfTwo>
powerOfTwo(const Value *V, PhiAssumptions &Assumed, unsigned Depth) {
  if (const auto *C = dyn_cast<ConstantInt>(V)) {
    const APInt &X = C->getValue();
    if (X.isZero() || X.isPowerOf2())
      return PowerOfTwo{false, !X.isZero()};
    if (X.isNegatedPowerOf2())
      return PowerOfTwo{true, true};
    return std::nullopt;
  }
  if (Depth > 8)
    return std::nullopt;
  std::optional<PowerOfTwo> R;
  auto Join = [&](const Value *Op) {
    std::optional<PowerOfTwo> P = powerOfTwo(Op, Assumed, Depth + 1);
    R = P && R ? R->join(*P) : P;
    return P.has_value();
  };
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    for (const auto &[P, Assumption] : Assumed)
      if (P == Phi)
        return Assumption;
    size_t Mark = Assumed.size();
    Assumed.push_back({Phi, PowerOfTwo()});
    while (true) {
      R.reset();
      bool Known = llvm::all_of(Phi->incoming_values(), Join);
      PowerOfTwo Assumption = Assumed[Mark].second;
      Assumed.resize(Mark + 1);
      if (!Known || R->join(Assumption) == Assumption) {
        Assumed.resize(Mark);
        return Known ? R : std::nullopt;
      }
      Assumed[Mark].second = R->join(Assumption);
    }
  }
  if (const auto *Sel = dyn_cast<SelectInst>(V))
    return Join(Sel->getTrueValue()) && Join(Sel->getFalseValue())
               ? R
               : std::nullopt;
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || !Join(BO->getOperand(0)))
    return std::nullopt;
  // 2^a * 2^b and 2^a << n stay such values modulo 2^W, or become 0 (or
  // poison, with the flags); 2^a >> n may become 0, and an arithmetic
  // shift of 2^(W-1) is negative.
  bool NoWrap = isa<OverflowingBinaryOperator>(BO) &&
                (BO->hasNoUnsignedWrap() || BO->hasNoSignedWrap());
  switch (BO->getOpcode()) {
  case Instruction::Shl:
    R->NonZero &= NoWrap;
    return R;
  case Instruction::LShr:
    if (R->Negative)
      return std::nullopt;
    R->NonZero = false;
    return R;
  case Instruction::AShr:
    R->Negative = true;
    R->NonZero = false;
    return R;
  case Instruction::Mul:
    if (!Join(BO->getOperand(1)))
      return std::nullopt;
    R->NonZero &= NoWrap;
    return R;
  default:
    return std::nullopt;
  }
}

std::shared_ptr<const IterationForm>
ThreadAddressBuilder::iterationForm(const Value *Ptr, int64_t Offset,
                                    const BasicBlock *At) {
  const Loop *L = At && Loops && DT ? Loops->getLoopFor(At) : nullptr;
  if (!L || !DT->getNode(At))
    return nullptr;
  const DataLayout &DL = F.getDataLayout();
  // The loop's values that every work-item shares in an iteration and that
  // are powers of two (`s *= 2` from 1, `s >>= 1`), once per loop.
  auto [It, New] = LoopPowers.try_emplace(L);
  if (New) {
    IterationForm &Known = It->second.second;
    for (const PHINode &Phi : L->getHeader()->phis()) {
      const Loop *PL = L;
      SmallPtrSet<const Value *, 4> Assumed;
      PhiAssumptions Phis;
      std::optional<PowerOfTwo> P;
      unsigned I = It->second.first.size();
      if (Phi.getType()->isIntegerTy() &&
          Phi.getType()->getIntegerBitWidth() <= 64 &&
          isIterationUniform(&Phi, PL, Assumed, 0) &&
          (P = powerOfTwo(&Phi, Phis, 0))) {
        Known.NonZero |= unsigned(P->NonZero) << I;
        Known.Negative |= unsigned(P->Negative) << I;
        It->second.first.push_back(&Phi);
        Known.ParamWidths.push_back(Phi.getType()->getIntegerBitWidth());
      }
    }
  }
  SmallVector<const Value *, 2> Params = It->second.first;
  if (Params.empty() || Params.size() > 2)
    return nullptr;
  auto Form = std::make_shared<IterationForm>(It->second.second);
  const GlobalVariable *GV = ldsObject(Ptr, Form->ObjectBytes);
  if (!GV)
    return nullptr;
  // The offset into the object: exact in 64 bits when every GEP promises
  // no signed wrap (inbounds), else modulo 2^32 (the LDS pointer width).
  SmallVector<const GEPOperator *, 4> GEPs;
  const Value *Base = Ptr;
  bool Exact = true;
  while (const auto *GEP = dyn_cast<GEPOperator>(Base)) {
    if (GEP->getPointerAddressSpace() != AMDGPUAS::LOCAL_ADDRESS)
      return nullptr;
    GEPs.push_back(GEP);
    Exact &= GEP->hasNoUnsignedSignedWrap();
    Base = GEP->getPointerOperand();
  }
  if (Base->stripPointerCasts() != GV)
    return nullptr;
  uint8_t Width = Exact ? 64 : 32;
  // \p V as the GEP reads an index: sign-extended or truncated to 32 bits,
  // then to Width.
  auto Index = [&](const TidExpr &V) {
    auto E = std::make_shared<TidExpr>(V);
    auto Cast = [&](TidExpr::Kind K, uint8_t To) {
      uint8_t From = E->Nodes.back().Width;
      E->Nodes.push_back({K, To, int32_t(E->Nodes.size() - 1), -1, From});
    };
    if (E->Nodes.back().Width != 32)
      Cast(E->Nodes.back().Width < 32 ? TidExpr::SExt : TidExpr::Trunc, 32);
    if (Width != 32)
      Cast(TidExpr::SExt, Width);
    return E;
  };
  std::shared_ptr<const TidExpr> Sum =
      std::make_shared<TidExpr>(constantExpr(Offset, Width));
  for (const GEPOperator *GEP : GEPs) {
    SmallMapVector<Value *, APInt, 4> Vars;
    APInt Const(32, 0);
    if (!GEP->collectOffset(DL, 32, Vars, Const))
      return nullptr;
    Sum = combine(TidExpr::Add, *Sum, constantExpr(Const.getSExtValue(), Width),
                  Width);
    for (const auto &[V, Scale] : Vars) {
      std::shared_ptr<const TidExpr> X = tidExpr(V, Params);
      if (!X)
        return nullptr;
      Sum = combine(TidExpr::Add, *Sum,
                    *combine(TidExpr::Mul, *Index(*X),
                             constantExpr(Scale.getSExtValue(), Width), Width),
                    Width);
    }
  }
  Form->Offset = Sum;
  // The conditions of the branches in the iteration whose edges dominate
  // At: those of the form x == y, as x - y == 0.
  auto Operand = [&](const Value *V) -> std::shared_ptr<const TidExpr> {
    if (const auto *C = dyn_cast<ConstantInt>(V); C && C->getBitWidth() <= 64)
      return std::make_shared<TidExpr>(
          constantExpr(C->getZExtValue(), C->getBitWidth()));
    return tidExpr(V, Params);
  };
  auto Restrict = [&](const ICmpInst *Cmp, CmpInst::Predicate Pred) {
    std::shared_ptr<const TidExpr> X = Operand(Cmp->getOperand(0)),
                                   Y = Operand(Cmp->getOperand(1));
    if (Pred != CmpInst::ICMP_EQ || !X || !Y)
      return;
    auto Diff = combine(TidExpr::Sub, *X, *Y, X->Nodes.back().Width);
    Form->Zero =
        Form->Zero ? combine(TidExpr::Or, *Form->Zero, *Diff, 64) : Diff;
  };
  for (DomTreeNode *N = DT->getNode(At);
       N->getBlock() != L->getHeader() && N->getIDom(); N = N->getIDom())
    forEachEntryCompare(N, *DT, Restrict);
  auto UsesParam = [](const std::shared_ptr<const TidExpr> &E) {
    return E && llvm::any_of(E->Nodes, [](const TidExpr::Node &N) {
             return N.K == TidExpr::Param;
           });
  };
  if (!UsesParam(Form->Offset) && !UsesParam(Form->Zero))
    return nullptr;
  Form->Loop = symbol(L->getHeader());
  Form->Object = symbol(GV);
  StageHeaders[Form->Loop] = L->getHeader();
  return Form;
}

std::optional<ThreadAddress>
ThreadAddressBuilder::anyAddressAt(const BasicBlock *At) {
  const IdBounds *B = boundsAt(At);
  if (!B)
    return std::nullopt;
  // Far outside the small magnitudes every address test needs: no test
  // finds two such addresses apart.
  ThreadAddress TA;
  TA.VarLo = INT32_MIN;
  TA.VarHi = INT32_MAX;
  TA.Size = 1;
  B->restrict(TA);
  if (!TA.distinguishedDims(Shape))
    return std::nullopt;
  return TA;
}

std::optional<ThreadAddress> ThreadAddressBuilder::build(const Value *Ptr,
                                                         int64_t Offset,
                                                         uint64_t Size,
                                                         const BasicBlock *At) {
  if (!Size || Size > uint64_t(SmallMagnitude))
    return std::nullopt;
  auto Build = [&]() -> std::optional<Linear> {
    std::optional<Linear> L = linearize(Ptr, 0);
    if (L && L->add(Linear::constant(Offset)) &&
        (!L->Stage || L->Stage->isPeriodic() ||
         (UnboundedLeaves && L->stageToUnbounded())))
      return L;
    // Not a stage slot (an address that moves with the iteration, say):
    // the form without iteration terms, if there is one.
    if (!Stages)
      return std::nullopt;
    std::unique_ptr<LoopStageAnalysis> Saved = std::move(Stages);
    L = linearize(Ptr, 0);
    Stages = std::move(Saved);
    if (!L || !L->add(Linear::constant(Offset)))
      return std::nullopt;
    return L;
  };
  std::optional<Linear> L = Build();
  if (L && L->StrideCoef && !strideIsExact(*L, Ptr, Size, At)) {
    Strides = false;
    L = Build();
    Strides = true;
  }
  ObjectBound Bound = ObjectBound::Bounded;
  std::shared_ptr<const IterationForm> Iteration =
      iterationForm(Ptr, Offset, At);
  if (!L) {
    // A term of unknown range (s[i][t] with a loop counter i of a runtime
    // bound): inside its object, which the access cannot leave, the term
    // has one.
    std::optional<std::pair<int64_t, int64_t>> Object = ldsObjectBytes(Ptr);
    UnboundedLeaves = true;
    L = Build();
    UnboundedLeaves = false;
    Bound = ObjectBound::Unknown;
    if (L && L->Unbounded && Object)
      Bound = boundVarByObject(*L, Size, Object->first, Object->second, Shape);
    // Without a range, a term that is a multiple of 2^k (a loaded value
    // times 128) still leaves the address's residue modulo 2^k to the id.
    if (L && L->Unbounded && Bound == ObjectBound::Unknown && L->VarAlign) {
      L->VarLo = INT32_MIN;
      L->VarHi = INT32_MAX - ((int64_t(1) << L->VarAlign) - 1);
      Bound = ObjectBound::Bounded;
    }
    if (!L || !L->Unbounded || Bound == ObjectBound::Unknown) {
      if (!Iteration)
        return std::nullopt;
      // Any address, but for the accesses of the same iteration.
      L = Linear::constant(0);
      L->VarLo = INT32_MIN;
      L->VarHi = INT32_MAX;
      Bound = ObjectBound::Bounded;
    }
  }
  ThreadAddress TA;
  static_cast<AddressTerms &>(TA) = *L;
  TA.VarFromObject = L->Unbounded;
  // No run without undefined behaviour executes the access: no work-item.
  if (Bound == ObjectBound::Outside) {
    TA.IdLo[0] = 1;
    TA.IdHi[0] = 0;
  }
  // The stage part: a stage slot when it depends on a loop's iteration, a
  // constant otherwise.
  int64_t StageConst = 0;
  if (L->Stage && L->Stage->Loop) {
    TA.StageLoop = symbol(L->Stage->Loop);
    StageHeaders[TA.StageLoop] = L->Stage->Loop;
    for (int64_t V : L->Stage->table())
      TA.Stage.push_back(wrap32(V));
  } else if (L->Stage) {
    StageConst = wrap32(L->Stage->at(0));
  }
  TA.Const = wrap32(StageConst + L->Const);
  if (!TA.hasVar())
    TA.VarAlign = 0;
  TA.Size = Size;
  if (const IdBounds *B = boundsAt(At))
    B->restrict(TA);
  if (At)
    applyGuard(TA, Ptr, Offset, At);
  if (Iteration && (!TA.StageLoop || TA.StageLoop == Iteration->Loop)) {
    TA.Iteration = std::move(Iteration);
    TA.StageLoop = TA.Iteration->Loop;
  }
  noteLaunchBound(TA, Ptr, At);
  return TA;
}
