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

#include "LDSBarrierPlacement.h"
#include "LDSBarrierVerifier.h"
#include "LDSHazardAnalysis.h"
#include "LDSLoopStages.h"
#include "LDSThreadAddress.h"
#include "Materialize.h"
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

/// A function entry -> header -> exit whose header loops on itself, the
/// builder inserting into the header.
struct OneBlockLoop {
  LLVMContext Ctx;
  Module M{"m", Ctx};
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {}),
                                 Function::ExternalLinkage, "f", M);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", F);
  BasicBlock *Header = BasicBlock::Create(Ctx, "header", F);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "exit", F);
  IRBuilder<> B{Entry};
  OneBlockLoop() {
    B.CreateBr(Header);
    B.SetInsertPoint(Header);
  }
  /// Ends the header with its back-edge and the exit.
  void close() {
    B.CreateCondBr(B.getTrue(), Header, Exit);
    B.SetInsertPoint(Exit);
    B.CreateRetVoid();
  }
};

TEST(LoopStages, IRValuesAgreeWithInterpretation) {
  std::mt19937 Rng(20261125);
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  };
  unsigned Derived = 0, Periodic = 0, Wrong = 0, Trials = 300;
  for (unsigned T = 0; T < Trials; ++T) {
    OneBlockLoop Loop;
    IRBuilder<> &B = Loop.B;
    IntegerType *I32 = B.getInt32Ty();
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
        V = B.CreateTrunc(X, B.getInt8Ty());
        break;
      }
      Pool.push_back(V);
    }
    // Every instruction made, in order, for the interpreter.
    Body.clear();
    for (Instruction &I : *Loop.Header)
      if (!isa<PHINode>(I))
        Body.push_back(&I);
    Loop.close();
    Counter->addIncoming(B.getInt32(Init), Loop.Entry);
    Counter->addIncoming(Next, Loop.Header);

    DominatorTree DT(*Loop.F);
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

// Phis of one header that take each other's values every iteration
// (buffers used in turn), some forming cycles and some not: every value
// derived must be what stepping the phis together gives.
TEST(LoopStages, RotatingPhisAgreeWithInterpretation) {
  std::mt19937 Rng(7);
  unsigned Derived = 0;
  for (unsigned T = 0; T < 200; ++T) {
    OneBlockLoop Loop;
    IRBuilder<> &B = Loop.B;
    IntegerType *I32 = B.getInt32Ty();
    unsigned K = 2 + Rng() % 3;
    std::vector<PHINode *> Phis;
    std::vector<unsigned> Init, Next;
    for (unsigned I = 0; I < K; ++I) {
      Phis.push_back(B.CreatePHI(I32, 2));
      Init.push_back(Rng() % 4 * 1024);
      Next.push_back(Rng() % K);
    }
    Loop.close();
    for (unsigned I = 0; I < K; ++I) {
      Phis[I]->addIncoming(B.getInt32(Init[I]), Loop.Entry);
      Phis[I]->addIncoming(Phis[Next[I]], Loop.Header);
    }
    DominatorTree DT(*Loop.F);
    LoopStageAnalysis LSA(DT);
    std::vector<uint64_t> Values(Init.begin(), Init.end());
    std::vector<std::optional<StageValue>> S;
    for (PHINode *P : Phis)
      S.push_back(LSA.get(P));
    for (unsigned N = 0; N < 12; ++N) {
      for (unsigned I = 0; I < K; ++I)
        if (S[I])
          EXPECT_EQ(uint64_t(S[I]->at(N)), Values[I])
              << "trial " << T << " phi " << I << " iteration " << N;
      std::vector<uint64_t> Stepped(K);
      for (unsigned I = 0; I < K; ++I)
        Stepped[I] = Values[Next[I]];
      Values = Stepped;
    }
    for (const auto &X : S)
      Derived += X.has_value();
  }
  EXPECT_GT(Derived, 100u);
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
/// NA and B in NB, over the iterations \p Allowed allows.
template <typename Fn>
bool bruteForce(const ThreadAddress &A, const ThreadAddress &B,
                const WorkgroupShape &S, Fn Allowed) {
  for (int64_t X = 1; X <= S.MaxDim[0]; ++X)
    for (int64_t Y = 1; Y <= S.MaxDim[1]; ++Y) {
      if (X * Y > S.MaxFlat)
        continue;
      for (int64_t NA = 0; NA < 12; ++NA)
        for (int64_t NB = 0; NB < 12; ++NB) {
          if (!Allowed(NA, NB))
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
    IterationRelation Rel;
    switch (Pick(0, 3)) {
    case 0:
      break;
    case 1:
      Rel = IterationRelation::distance(1, 0);
      break;
    case 2:
      Rel = IterationRelation::distance(1, 1);
      break;
    default:
      Rel = IterationRelation::first(1);
      break;
    }
    if (workItemsMayOverlap(A, B, S, nullptr, Rel))
      continue;
    ++Disjoint;
    // What the relation says, in the enumeration's own terms.
    bool AIn = A.StageLoop == 1, BIn = B.StageLoop == 1;
    auto Allowed = [&](int64_t NA, int64_t NB) {
      if (Rel.K == IterationRelation::Distance && AIn && BIn)
        return NB == NA + Rel.Dist;
      if (Rel.K == IterationRelation::FirstIteration && !AIn && BIn)
        return NB == 0;
      return true;
    };
    if (bruteForce(A, B, S, Allowed) && ++Unsound <= 5)
      ADD_FAILURE() << "unsound: " << A.str() << " vs " << B.str()
                    << " with relation " << Rel.code();
  }
  EXPECT_EQ(Unsound, 0u);
  EXPECT_GT(Disjoint, Trials / 10) << "the analysis proves too little";
}

} // namespace

namespace {

/// A loop P -> H -> B -> H (B -> X, sometimes H -> X) with accesses whose
/// slots are constants or periodic in the iteration, and the concrete
/// executions of it: the iteration counter is 0 on entering H from P and
/// grows on the back-edge, and two accesses conflict when their slots are
/// equal in the iterations they run in (each touches its whole slot).
struct StageLoopProgram {
  AbstractProgram P;
  /// Per access (by block, index): its slots per iteration (one: constant).
  std::map<EventRef, std::vector<int>> Slots;
  static constexpr unsigned Pre = 0, Header = 1, Body = 2, Exit = 3;

  static bool conflict(const Event &A, const Event &X) {
    bool AW = A.AK == AccessKind::Write, XW = X.AK == AccessKind::Write;
    return AW != XW; // RAW and WAR; write pairs are not hazards here.
  }
  int slotAt(EventRef A, int N) const {
    const std::vector<int> &S = Slots.at(A);
    return S[N < 0 ? 0 : N % S.size()];
  }

  /// The accesses some execution of \p A meets with an equal slot, before
  /// a barrier orders A (its counter waited for, then a barrier or a
  /// signal and its wait).
  std::set<EventRef> concreteConflicts(EventRef A) const {
    std::set<EventRef> Out;
    const Event &AE = P.event(A);
    bool InLoop = A.Block == Header || A.Block == Body || A.Block == Exit;
    // (block, iteration, later operations on A's counter, progress).
    using Walk = std::tuple<unsigned, int, int, int, int>;
    for (int Start = InLoop ? 0 : -1; Start < (InLoop ? 6 : 0); ++Start) {
      std::set<Walk> Seen;
      std::vector<std::pair<Walk, unsigned>> Work = {
          {{A.Block, Start, Start, 0, 0}, A.Index + 1}};
      while (!Work.empty()) {
        auto [W, From] = Work.back();
        Work.pop_back();
        auto [B, N, NA, Later, Progress] = W;
        if (From == 0 && !Seen.insert(W).second)
          continue;
        bool Ordered = false;
        const auto &Events = P.Blocks[B].Events;
        for (unsigned I = From; I < Events.size() && !Ordered; ++I) {
          const Event &E = Events[I];
          if (E.Kind == Event::Access) {
            if (conflict(AE, E) && slotAt(A, NA) == slotAt({B, I}, N))
              Out.insert({B, I});
            if (E.InOrder && E.Ctr == AE.Ctr)
              Later = std::min(Later + 1, 8);
          } else if (E.Kind == Event::Tick && E.Ctr == AE.Ctr) {
            Later = std::min(Later + 1, 8);
          } else if (E.Kind == Event::Wait) {
            int T = E.Waits[AE.Ctr];
            if (Progress == 0 && T != WaitThresholds::NoWait && Later >= T)
              Progress = 1;
          } else if (E.Kind == Event::Barrier) {
            Ordered = Progress >= 1;
          } else if (E.Kind == Event::Signal) {
            Progress = Progress == 1 ? 2 : Progress;
          } else if (E.Kind == Event::BarrierWait) {
            Ordered = Progress == 2;
          }
        }
        if (Ordered)
          continue;
        for (unsigned S : P.Blocks[B].Succs) {
          int Next = N;
          if (S == Header)
            Next = B == Pre ? 0 : (N + 1) % 6;
          Work.push_back({{S, Next, NA, Later, Progress}, 0});
        }
      }
    }
    return Out;
  }
};

StageLoopProgram randomStageLoop(std::mt19937 &Rng) {
  auto Pick = [&](int Lo, int Hi) {
    return std::uniform_int_distribution<int>(Lo, Hi)(Rng);
  };
  StageLoopProgram S;
  AbstractProgram &P = S.P;
  P.Blocks.resize(4);
  P.Blocks[0].Succs = {1};
  P.Blocks[1].Succs = {2};
  if (Pick(0, 2) == 0)
    P.Blocks[1].Succs.push_back(3);
  P.Blocks[2].Succs = {1, 3};
  P.Blocks[1].Freq = P.Blocks[2].Freq = 8;
  P.StageInside = {{}, {0, 0, 1, 0}};
  P.StageHeader = {-1, 1};
  P.Shape.MaxDim = {256, 1, 1};
  P.Shape.MaxFlat = 256;
  P.ThreadForms.emplace_back();
  for (unsigned B = 0; B < 4; ++B)
    for (int K = 0, NK = Pick(0, B == 0 || B == 3 ? 2 : 3); K < NK; ++K) {
      std::vector<int> Slots;
      ThreadAddress TA; // Every work-item touches the whole slot.
      TA.Size = 1024;
      if ((B == 1 || B == 2) && Pick(0, 3)) {
        int Period = Pick(2, 3), Rot = Pick(0, 2);
        TA.StageLoop = 1;
        for (int N = 0; N < Period; ++N) {
          Slots.push_back((N + Rot) % Period);
          TA.Stage.push_back(Slots.back() * 1024);
        }
      } else {
        Slots.push_back(Pick(0, 2));
        TA.Const = Slots.back() * 1024;
      }
      Location L;
      L.Object = 1;
      L.ThreadForm = P.ThreadForms.size();
      P.ThreadForms.push_back({TA});
      int Kind = Pick(0, 2);
      Event E =
          Event::access(Kind == 0 ? AccessKind::Read : AccessKind::Write, L);
      if (Kind == 2) { // LDS DMA: asynchronous, on vmcnt.
        E.Async = true;
        E.Ctr = Counter::VM;
      }
      S.Slots[{B, unsigned(P.Blocks[B].Events.size())}] = Slots;
      P.Blocks[B].Events.push_back(E);
    }
  return S;
}

// The analysis and the verifier count iterations along paths (the same
// one, the next one, the loop's first one, or any); the concrete
// executions above count them exactly. Every conflict some execution has
// must be a window of the analysis and a race of the verifier, and the
// placed program (with its counter waits, vmcnt(1) where a transfer one
// iteration old may stay in flight) must have no conflict left.
TEST(LoopStages, WindowsCoverEveryConcreteConflict) {
  std::mt19937 Rng(20261125);
  unsigned Missed = 0, Left = 0, Windows = 0, Concrete = 0, Trials = 400;
  for (unsigned T = 0; T < Trials; ++T) {
    StageLoopProgram S = randomStageLoop(Rng);
    std::set<std::pair<EventRef, EventRef>> Found, Races;
    for (const Window &W : analyzeHazards(S.P, AnalysisOptions()).Windows)
      Found.insert({W.Producer, W.Consumer});
    for (const Violation &V : verifySynchronization(S.P, VerifierOptions()))
      if (V.Kind == Violation::Race)
        Races.insert({V.Earlier, V.Later});
    Windows += Found.size();
    for (const auto &[A, Slots] : S.Slots)
      for (EventRef X : S.concreteConflicts(A)) {
        ++Concrete;
        if ((!Found.count({A, X}) || !Races.count({A, X})) && ++Missed <= 5)
          ADD_FAILURE() << "trial " << T << ": bb." << A.Block << ":" << A.Index
                        << " -> bb." << X.Block << ":" << X.Index
                        << " conflicts but is not reported";
      }
    for (bool Split : {false, true}) {
      PlacementOptions O;
      O.Split = Split;
      Placement R = placeBarriers(S.P, AnalysisOptions(), O);
      StageLoopProgram Out = S;
      Out.P = test::materialize(S.P, R, Split);
      // Materialization inserts events: find each access again by order.
      Out.Slots.clear();
      for (unsigned B = 0; B < 4; ++B) {
        unsigned K = 0;
        for (unsigned I = 0; I < Out.P.Blocks[B].Events.size(); ++I)
          if (Out.P.Blocks[B].Events[I].Kind == Event::Access) {
            unsigned Orig = 0;
            for (unsigned J = 0, Seen = 0; J < S.P.Blocks[B].Events.size(); ++J)
              if (S.P.Blocks[B].Events[J].Kind == Event::Access && Seen++ == K)
                Orig = J;
            Out.Slots[{B, I}] = S.Slots.at({B, Orig});
            ++K;
          }
      }
      for (const auto &[A, Slots] : Out.Slots)
        if (!Out.concreteConflicts(A).empty() && ++Left <= 5)
          ADD_FAILURE() << "trial " << T << (Split ? " split" : "") << ": bb."
                        << A.Block << ":" << A.Index
                        << " still conflicts after placement";
    }
  }
  EXPECT_EQ(Missed, 0u);
  EXPECT_EQ(Left, 0u);
  // Precision: stage slots keep many pairs apart that a blind analysis
  // would report (every read/write pair of the loop).
  EXPECT_LT(Windows, 3 * Concrete)
      << Windows << " windows, " << Concrete << " concrete conflicts";
}

} // namespace
