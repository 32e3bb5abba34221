//===- LDSLoopStages.cpp - Values as functions of a loop's iteration ------===//
//
// Every operation keeps the representation exact: ring operations (add,
// sub, mul, shl) act on the numerator, modulo 2^Width unless the IR's
// no-wrap flags make the result exact; masks, remainders, quotients and
// shifts right look at the value modulo some M, which is periodic in n with
// a period the operation computes, and are evaluated for one period.
//
//===----------------------------------------------------------------------===//

#include "LDSLoopStages.h"
#include "LDSThreadAddress.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include <numeric>

using namespace llvm;
using namespace llvm::ldsbarriers;

static bool inBounds(int64_t V) {
  return V < StageValue::MaxMagnitude && V > -StageValue::MaxMagnitude;
}

int64_t StageValue::at(uint64_t N) const {
  return (A0 + A1 * int64_t(N) + P[N % P.size()]) / D;
}

bool StageValue::add(const StageValue &O, int64_t Sign) {
  if (Loop && O.Loop && Loop != O.Loop)
    return false;
  if (!Loop)
    Loop = O.Loop;
  int64_t L = std::lcm(D, O.D);
  size_t Period = std::lcm(P.size(), O.P.size());
  if (!inBounds(L) || Period > MaxPeriod)
    return false;
  int64_t F1 = L / D, F2 = Sign * (L / O.D);
  SmallVector<int64_t, 8> Sum(Period);
  for (size_t I = 0; I < Period; ++I)
    Sum[I] = P[I % P.size()] * F1 + O.P[I % O.P.size()] * F2;
  A0 = A0 * F1 + O.A0 * F2;
  A1 = A1 * F1 + O.A1 * F2;
  P = std::move(Sum);
  D = L;
  normalize();
  return inBounds(A0) && inBounds(A1) && llvm::all_of(P, inBounds);
}

bool StageValue::scale(int64_t K) {
  if (!inBounds(K))
    return false;
  A0 *= K;
  A1 *= K;
  for (int64_t &X : P)
    X *= K;
  normalize();
  return inBounds(A0) && inBounds(A1) && llvm::all_of(P, inBounds);
}

void StageValue::normalize() {
  for (int64_t &X : P)
    X += A0;
  A0 = 0;
  int64_t G = std::gcd(D, A1);
  for (int64_t X : P)
    G = std::gcd(G, X);
  if (G > 1) {
    D /= G;
    A1 /= G;
    for (int64_t &X : P)
      X /= G;
  }
  for (size_t Len = 1; Len < P.size(); ++Len) {
    if (P.size() % Len == 0 &&
        std::equal(P.begin() + Len, P.end(), P.begin())) {
      P.resize(Len);
      break;
    }
  }
}

SmallVector<int64_t, 8> StageValue::table() const {
  SmallVector<int64_t, 8> T;
  for (size_t N = 0; N < P.size(); ++N)
    T.push_back(at(N));
  return T;
}

/// A period after which \p S changes by a multiple of \p Mod (so that
/// S modulo Mod repeats), or 0 when too long.
static size_t periodModulo(const StageValue &S, int64_t Mod) {
  int64_t Step = S.D * Mod;
  if (!inBounds(Step))
    return 0;
  int64_t G = std::gcd(S.A1, Step);
  int64_t Len = S.A1 ? Step / G : 1;
  if (Len > int64_t(StageValue::MaxPeriod))
    return 0;
  size_t L = std::lcm(S.P.size(), size_t(Len));
  return L <= StageValue::MaxPeriod ? L : 0;
}

/// The periodic value of \p Loop that is F(n) for n = 0 .. \p L - 1.
static StageValue periodic(const BasicBlock *Loop, unsigned Width, size_t L,
                           function_ref<int64_t(size_t)> F) {
  StageValue R;
  R.Loop = Loop;
  R.Width = Width;
  R.P.clear();
  for (size_t N = 0; N < L; ++N)
    R.P.push_back(F(N));
  R.normalize();
  return R;
}

/// The periodic value f(v(n)) for n over a period of v modulo \p Mod (f
/// must depend on v modulo Mod only).
template <typename Fn>
static std::optional<StageValue> tabulate(const StageValue &S, int64_t Mod,
                                          unsigned Width, Fn F) {
  size_t L = periodModulo(S, Mod);
  if (!L)
    return std::nullopt;
  return periodic(S.Loop, Width, L, [&](size_t N) { return F(S.at(N)); });
}

/// The periodic value F(v1(n), ..., vk(n)) of periodic operands (of one
/// loop at most), over the least common multiple of their periods.
static std::optional<StageValue>
pointwise(ArrayRef<const StageValue *> Ops, unsigned Width,
          function_ref<int64_t(ArrayRef<int64_t>)> F) {
  const BasicBlock *Loop = nullptr;
  size_t L = 1;
  for (const StageValue *S : Ops) {
    if (!S->isPeriodic() || (Loop && S->Loop && Loop != S->Loop))
      return std::nullopt;
    if (!Loop)
      Loop = S->Loop;
    L = std::lcm(L, S->P.size());
  }
  if (L > StageValue::MaxPeriod)
    return std::nullopt;
  SmallVector<int64_t, 4> Args(Ops.size());
  return periodic(Loop, Width, L, [&](size_t N) {
    for (size_t I = 0; I < Ops.size(); ++I)
      Args[I] = Ops[I]->at(N);
    return F(Args);
  });
}

std::optional<StageValue> LoopStageAnalysis::get(const Value *V) {
  std::optional<StageValue> S = operand(V, 0);
  if (!S || !S->Loop)
    return std::nullopt;
  return S;
}

std::optional<StageValue> LoopStageAnalysis::operand(const Value *V,
                                                     unsigned Depth) {
  if (const auto *CI = dyn_cast<ConstantInt>(V)) {
    if (CI->getBitWidth() > 64)
      return std::nullopt;
    StageValue S;
    S.P = {int64_t(CI->getZExtValue())};
    S.Width = CI->getBitWidth();
    return S;
  }
  if (auto It = Cache.find(V); It != Cache.end())
    return It->second;
  if (Depth > 16)
    return std::nullopt;
  std::optional<StageValue> S = compute(V, Depth);
  if (S && (!S->Exact && S->D != 1))
    S.reset(); // Division is only exact on exact values.
  Cache[V] = S;
  return S;
}

std::optional<std::pair<const Value *, const Value *>>
llvm::ldsbarriers::headerPhiValues(const Value *V, const DominatorTree &DT) {
  const auto *Phi = dyn_cast<PHINode>(V);
  if (!Phi)
    return std::nullopt;
  const BasicBlock *H = Phi->getParent();
  const Value *Init = nullptr, *Next = nullptr;
  for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
    // From a block the header dominates: a back-edge.
    const Value *&Seen =
        DT.dominates(H, Phi->getIncomingBlock(I)) ? Next : Init;
    if (Seen && Seen != Phi->getIncomingValue(I))
      return std::nullopt;
    Seen = Phi->getIncomingValue(I);
  }
  if (!Init || !Next)
    return std::nullopt;
  return std::make_pair(Init, Next);
}

std::optional<StageValue> LoopStageAnalysis::induction(const Value *V) const {
  auto *Ty = dyn_cast<IntegerType>(V->getType());
  auto Values = headerPhiValues(V, DT);
  if (!Ty || Ty->getBitWidth() > 64 || !Values)
    return std::nullopt;
  const auto *Init = dyn_cast<ConstantInt>(Values->first);
  const auto *Next = dyn_cast<BinaryOperator>(Values->second);
  if (!Init || !Next || Next->getOperand(0) != V ||
      !isa<ConstantInt>(Next->getOperand(1)) ||
      (Next->getOpcode() != Instruction::Add &&
       Next->getOpcode() != Instruction::Sub))
    return std::nullopt;
  const auto *Step = cast<ConstantInt>(Next->getOperand(1));
  StageValue S;
  S.Loop = cast<PHINode>(V)->getParent();
  S.Width = Ty->getBitWidth();
  S.P = {int64_t(Init->getZExtValue())};
  bool IsAdd = Next->getOpcode() == Instruction::Add;
  // Exact: a non-negative step and no increment wraps (nuw), or none
  // overflows signed (nsw) from a non-negative start.
  S.Exact = IsAdd && !Step->isNegative() &&
            (Next->hasNoUnsignedWrap() ||
             (Next->hasNoSignedWrap() && !Init->isNegative()));
  S.A1 = IsAdd ? Step->getSExtValue() : -Step->getSExtValue();
  if (!inBounds(S.A1) || !inBounds(S.P[0]))
    return std::nullopt;
  S.normalize();
  return S;
}

std::optional<std::pair<const Value *, int64_t>>
LoopStageAnalysis::pointerInduction(const Value *V) const {
  auto Values = headerPhiValues(V, DT);
  if (!V->getType()->isPointerTy() || !Values)
    return std::nullopt;
  const DataLayout &DL =
      cast<PHINode>(V)->getParent()->getModule()->getDataLayout();
  const Value *Base = Values->first;
  const auto *Next = dyn_cast<GEPOperator>(Values->second);
  if (!Next || Next->getPointerOperand() != V)
    return std::nullopt;
  APInt Offset(DL.getIndexTypeSizeInBits(V->getType()), 0);
  if (!Next->accumulateConstantOffset(DL, Offset) ||
      Offset.getSignificantBits() > 40)
    return std::nullopt;
  return std::make_pair(Base, Offset.getSExtValue());
}

std::optional<SmallVector<const Value *, 4>>
LoopStageAnalysis::rotation(const Value *V) const {
  const auto *Phi = dyn_cast<PHINode>(V);
  if (!Phi)
    return std::nullopt;
  const BasicBlock *H = Phi->getParent();
  // Each step takes the phi of H whose value this one takes on every
  // back-edge: in iteration n the phi has the entry value of the phi n
  // steps along.
  SmallVector<const Value *, 4> Values;
  const PHINode *Q = Phi;
  do {
    auto PhiValues = headerPhiValues(Q, DT);
    Q = PhiValues ? dyn_cast<PHINode>(PhiValues->second) : nullptr;
    if (!Q || Q->getParent() != H || Values.size() == 8)
      return std::nullopt;
    Values.push_back(PhiValues->first);
  } while (Q != Phi);
  if (Values.size() < 2)
    return std::nullopt;
  return Values;
}

/// Whether \p S is a constant: no loop, one value.
static bool isConstant(const StageValue &S) {
  return !S.Loop && S.A1 == 0 && S.P.size() == 1 && S.D == 1;
}

/// \p S & \p M: the mask depends on the value modulo 2^(highest bit of M +
/// 1).
static std::optional<StageValue> andMask(const StageValue &S, uint64_t M,
                                         unsigned W) {
  int64_t Mod = int64_t(1) << std::min(62u, unsigned(64 - countl_zero(M)));
  return tabulate(S, std::max<int64_t>(Mod, 1), W,
                  [&](int64_t X) { return int64_t(uint64_t(X) & M); });
}

/// Makes \p S, known modulo 2^\p W only, exact: a periodic value has its
/// unsigned values at hand (and D = 1: operand() drops inexact quotients).
static bool makeExact(StageValue &S, unsigned W) {
  if (S.Exact)
    return true;
  if (!S.isPeriodic())
    return false;
  for (int64_t &E : S.P)
    E = int64_t(lowBits(uint64_t(E), W));
  S.Exact = true;
  return true;
}

/// X urem, udiv or lshr by the constant \p Divisor (a shift amount for
/// lshr), in \p W bits.
static std::optional<StageValue> divide(unsigned Opcode, StageValue X,
                                        int64_t Divisor, unsigned W) {
  if (Opcode == Instruction::LShr) {
    if (Divisor >= int64_t(W) || Divisor > 40)
      return std::nullopt;
    Divisor = int64_t(1) << Divisor;
  }
  if (Divisor <= 0 || !inBounds(Divisor) || !makeExact(X, W))
    return std::nullopt;
  std::optional<StageValue> Rem =
      tabulate(X, Divisor, W, [&](int64_t E) { return E % Divisor; });
  if (!Rem || Opcode == Instruction::URem)
    return Rem;
  // v / d = (v - v mod d) / d.
  StageValue R = X;
  if (!R.add(*Rem, -1))
    return std::nullopt;
  R.D *= Divisor;
  if (!inBounds(R.D))
    return std::nullopt;
  R.normalize();
  R.Exact = true;
  return R;
}

/// A phi: an induction variable, or constants used in turn.
std::optional<StageValue> LoopStageAnalysis::computePhi(const Value *V,
                                                        unsigned W) {
  if (std::optional<StageValue> S = induction(V))
    return S;
  auto Values = rotation(V);
  if (!Values || !llvm::all_of(*Values, [](const Value *X) {
        return isa<ConstantInt>(X);
      }))
    return std::nullopt;
  return periodic(
      cast<Instruction>(V)->getParent(), W, Values->size(), [&](size_t N) {
        return int64_t(cast<ConstantInt>((*Values)[N])->getZExtValue());
      });
}

std::optional<StageValue> LoopStageAnalysis::computeCast(const CastInst *Cast,
                                                         unsigned W,
                                                         unsigned Depth) {
  std::optional<StageValue> S = operand(Cast->getOperand(0), Depth + 1);
  if (!S)
    return std::nullopt;
  unsigned From = S->Width;
  switch (Cast->getOpcode()) {
  case Instruction::ZExt:
    if (!makeExact(*S, From))
      return std::nullopt;
    S->Width = W;
    return S;
  case Instruction::SExt:
  case Instruction::Trunc:
    if (!S->isPeriodic())
      return std::nullopt;
    S->P = S->table();
    S->D = 1;
    for (int64_t &X : S->P) {
      X = int64_t(lowBits(uint64_t(X), std::min(From, W)));
      if (Cast->getOpcode() == Instruction::SExt && From < 64 &&
          (X >> (From - 1)) & 1)
        X -= int64_t(1) << From;
    }
    S->Exact = llvm::all_of(S->P, [](int64_t X) { return X >= 0; });
    S->Width = W;
    S->normalize();
    return S;
  default:
    return std::nullopt;
  }
}

std::optional<StageValue>
LoopStageAnalysis::computeBinary(const BinaryOperator *BO, unsigned W,
                                 unsigned Depth) {
  auto Op = [&](const Value *X) { return operand(X, Depth + 1); };
  std::optional<StageValue> X = Op(BO->getOperand(0));
  std::optional<StageValue> Y = X ? Op(BO->getOperand(1)) : std::nullopt;
  if (!Y || (!X->Loop && !Y->Loop))
    return std::nullopt;
  bool NUW = isa<OverflowingBinaryOperator>(BO) && BO->hasNoUnsignedWrap();
  // The constant operand of a commutative operation, and the other one.
  const StageValue *K = isConstant(*Y) ? &*Y : isConstant(*X) ? &*X : nullptr;
  const StageValue *S = K == &*Y ? &*X : &*Y;
  unsigned Opcode = BO->getOpcode();
  // A disjoint or is an add that cannot wrap.
  bool Disjoint =
      Opcode == Instruction::Or && cast<PossiblyDisjointInst>(BO)->isDisjoint();
  if (Opcode == Instruction::Add || Opcode == Instruction::Sub || Disjoint) {
    StageValue R = *X;
    if (!R.add(*Y, Opcode == Instruction::Sub ? -1 : 1))
      return std::nullopt;
    R.Exact = X->Exact && Y->Exact && (NUW || Disjoint);
    return R;
  }
  switch (Opcode) {
  case Instruction::Mul:
  case Instruction::Shl: {
    bool IsShl = Opcode == Instruction::Shl;
    if (IsShl ? !isConstant(*Y) : !K)
      return std::nullopt;
    const StageValue &F = IsShl ? *Y : *K;
    StageValue R = IsShl ? *X : *S;
    int64_t Factor = F.P[0];
    if (IsShl) {
      if (Factor >= int64_t(W) || Factor > 40)
        return std::nullopt;
      Factor = int64_t(1) << Factor;
    } else if (W < 64 && Factor >= int64_t(1) << (W - 1)) {
      Factor -= int64_t(1) << W; // The constant as a signed number.
    }
    if (!R.scale(Factor))
      return std::nullopt;
    R.Exact = R.Exact && NUW && Factor >= 0;
    return R;
  }
  case Instruction::And:
    if (!K)
      return std::nullopt;
    return andMask(*S, uint64_t(K->P[0]), W);
  case Instruction::Or:
  case Instruction::Xor: {
    if (!K)
      return std::nullopt;
    // v | c = v + c - (v & c); v ^ c = v + c - 2 (v & c): both below 2^W.
    std::optional<StageValue> Common = andMask(*S, uint64_t(K->P[0]), W);
    StageValue R = *S;
    if (!Common || !R.add(*K, 1) ||
        !R.add(*Common, Opcode == Instruction::Xor ? -2 : -1))
      return std::nullopt;
    R.Exact = S->Exact;
    return R;
  }
  case Instruction::URem:
  case Instruction::UDiv:
  case Instruction::LShr:
    if (!isConstant(*Y))
      return std::nullopt;
    return divide(Opcode, *X, Y->P[0], W);
  default:
    return std::nullopt;
  }
}

std::optional<StageValue> LoopStageAnalysis::compute(const Value *V,
                                                     unsigned Depth) {
  auto *Ty = dyn_cast<IntegerType>(V->getType());
  if (!Ty || Ty->getBitWidth() > 64)
    return std::nullopt;
  unsigned W = Ty->getBitWidth();
  if (isa<PHINode>(V))
    return computePhi(V, W);
  if (const auto *Cast = dyn_cast<CastInst>(V))
    return computeCast(Cast, W, Depth);
  auto Op = [&](const Value *X) { return operand(X, Depth + 1); };
  if (const auto *Sel = dyn_cast<SelectInst>(V)) {
    std::optional<StageValue> C = Op(Sel->getCondition());
    std::optional<StageValue> X = C ? Op(Sel->getTrueValue()) : std::nullopt;
    std::optional<StageValue> Y = X ? Op(Sel->getFalseValue()) : std::nullopt;
    if (!Y)
      return std::nullopt;
    std::optional<StageValue> R =
        pointwise({&*C, &*X, &*Y}, W,
                  [](ArrayRef<int64_t> A) { return (A[0] & 1) ? A[1] : A[2]; });
    if (R)
      R->Exact = X->Exact && Y->Exact;
    return R;
  }

  if (const auto *Cmp = dyn_cast<ICmpInst>(V)) {
    std::optional<StageValue> X = Op(Cmp->getOperand(0));
    std::optional<StageValue> Y = X ? Op(Cmp->getOperand(1)) : std::nullopt;
    if (!Y)
      return std::nullopt;
    unsigned OW = X->Width;
    return pointwise({&*X, &*Y}, 1, [&](ArrayRef<int64_t> A) -> int64_t {
      return ICmpInst::compare(APInt(64, uint64_t(A[0]), true).zextOrTrunc(OW),
                               APInt(64, uint64_t(A[1]), true).zextOrTrunc(OW),
                               Cmp->getPredicate());
    });
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(V))
    return computeBinary(BO, W, Depth);
  return std::nullopt;
}
