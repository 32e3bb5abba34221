//===- AMDGPULDSBarriersDiagnostics.cpp - What the placer reports ---------===//
//
// The placer's statistics, remarks and diagnostics about the input (windows,
// redundant and uncoverable barriers, self-racing writes, pairs the
// thread-index analysis proved apart), its debug dump and its self-check.
//
//===----------------------------------------------------------------------===//

#include "AMDGPULDSBarriersDiagnostics.h"
#include "AMDGPULDSBarriersCommon.h"
#include "LDSAccessModel.h"
#include "LDSBarrierVerifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

#define DEBUG_TYPE "amdgpu-lds-barriers"

STATISTIC(NumWindows, "Number of hazard windows found");
STATISTIC(NumRAW, "Number of read-after-write windows");
STATISTIC(NumWAR, "Number of write-after-read windows");
STATISTIC(NumWAW, "Number of write-after-write windows");
STATISTIC(NumAtomic, "Number of windows involving an atomic");
STATISTIC(NumOpaque, "Number of windows involving an opaque access");
STATISTIC(NumRedundant, "Number of existing barriers that order nothing");
STATISTIC(NumUncoverable, "Number of hazard windows no barrier can cover");

/// Why no barrier can serve \p W: the divergent branch its accesses depend
/// on (with its source location), and what the author can do.
static std::string explainUncoverable(const AbstractProgram &P,
                                      const LDSAccessModel &Model,
                                      const Window &W) {
  int Source = W.Fork;
  for (unsigned B : {W.Consumer.Block, W.Producer.Block})
    if (Source < 0 && P.Blocks[B].NoBarrier)
      Source = P.Blocks[B].DivergenceSource;
  if (Source == Block::NotAKernel)
    return "the function is not a kernel, and barriers are placed in kernels "
           "only (a call site may be in divergent control flow or between "
           "the caller's split-barrier signal and wait); inline the function "
           "or synchronize its LDS accesses in the caller";
  if (Source < 0)
    return "every point that separates them is in divergent control flow or "
           "between an existing split-barrier signal and its wait";
  const MachineBasicBlock &MBB = Model.block(Source);
  std::string Branch = "bb." + std::to_string(MBB.getNumber());
  for (const MachineInstr &T : MBB.terminators())
    if (T.isConditionalBranch()) {
      Branch = describeInstr(T) + " in " + Branch;
      if (const DebugLoc &DL = T.getDebugLoc())
        Branch += " (" + DL->getFilename().str() + ":" +
                  std::to_string(DL.getLine()) + ")";
      break;
    }
  if (W.Fork >= 0)
    return "they are in different arms of the branch " + Branch +
           ", whose condition may differ between the waves of one "
           "workgroup: waves that go different ways run both arms at the "
           "same time, and no barrier can order them; move one of the "
           "accesses out of the branch or make the condition uniform across "
           "the workgroup";
  return "every point that separates them depends on the divergent branch " +
         Branch +
         ", which waves of one workgroup may take differently; hoist the LDS "
         "accesses out of the divergent region or make the condition "
         "uniform across the workgroup";
}

void llvm::ldsbarriers::countWindows(const Placement &R) {
  // In the order of HazardKind.
  Statistic *ByKind[] = {&NumRAW, &NumWAR, &NumWAW, &NumAtomic, &NumOpaque};
  NumWindows += R.InitialWindows.size();
  for (const Window &W : R.InitialWindows)
    ++*ByKind[unsigned(W.Kind)];
}

/// The events of \p P that satisfy \p Pred, in program order.
static SmallVector<EventRef>
eventsWhere(const AbstractProgram &P, function_ref<bool(const Event &)> Pred) {
  SmallVector<EventRef> Refs;
  for (unsigned B = 0; B < P.Blocks.size(); ++B)
    for (unsigned I = 0; I < P.Blocks[B].Events.size(); ++I)
      if (Pred(P.Blocks[B].Events[I]))
        Refs.push_back({B, I});
  return Refs;
}

void llvm::ldsbarriers::reportRedundantBarriers(
    const AbstractProgram &P, const AnalysisOptions &AOpts, const Placement &R,
    const LDSAccessModel &Model, MachineOptimizationRemarkEmitter &ORE) {
  // A split barrier is judged by its signal; its wait goes with it.
  SmallVector<EventRef> Barriers = eventsWhere(P, [](const Event &E) {
    return E.Kind == Event::Barrier || E.Kind == Event::Signal;
  });
  if (Barriers.empty())
    return;
  size_t Baseline = analyzeHazards(P, AOpts, R.augmentation()).Windows.size();
  // One analysis per barrier: only the first 32 are judged.
  for (EventRef X : ArrayRef(Barriers).take_front(32)) {
    AbstractProgram Without = P;
    auto &Events = Without.Blocks[X.Block].Events;
    Events[X.Index] = Event::wait(WaitThresholds());
    if (P.event(X).Kind == Event::Signal) {
      // Neutralize the wait that pairs with it: the next one in the block,
      // if any (a pair that spans blocks is kept).
      auto It = std::find_if(
          Events.begin() + X.Index + 1, Events.end(),
          [](const Event &E) { return E.Kind == Event::BarrierWait; });
      if (It == Events.end())
        continue;
      *It = Event::wait(WaitThresholds());
    }
    Augmentation Kept = R.augmentation();
    llvm::erase_if(Kept.CompletedBarriers,
                   [&](const auto &CB) { return CB.Barrier == X; });
    // Removing it alone, with the placement in R, opens no window.
    if (analyzeHazards(Without, AOpts, Kept).Windows.size() > Baseline)
      continue;
    ++NumRedundant;
    const MachineInstr &MI = Model.instr(X);
    ORE.emit([&]() {
      return MachineOptimizationRemarkAnalysis(DEBUG_TYPE, "RedundantBarrier",
                                               MI.getDebugLoc(), MI.getParent())
             << "redundant barrier: " << describeInstr(MI)
             << " orders no conflicting LDS accesses";
    });
  }
}

void llvm::ldsbarriers::reportUncoverable(const Function &F,
                                          const AbstractProgram &P,
                                          const LDSAccessModel &Model,
                                          const Placement &R, bool AsError) {
  // One warning per cause, naming its first window.
  SmallVector<CauseItem> Items;
  for (const Window &W : R.Uncoverable) {
    ++NumUncoverable;
    uint64_t Object = uint32_t(P.event(W.Consumer).Loc.Object);
    Items.push_back({&Model.instr(W.Producer), &Model.instr(W.Consumer),
                     /*Kind=*/W.Fork >= 0, Object << 8 | uint64_t(W.Kind)});
  }
  for (auto [I, Count] : groupByCause(Items)) {
    const Window &W = R.Uncoverable[I];
    diagnose(F, nearestDebugLoc(*Items[I].Second),
             Twine(getHazardKindName(W.Kind)) + " hazard on " +
                 Model.describeLocation(P.event(W.Consumer).Loc) + " between " +
                 describeInstr(*Items[I].First) + " and " +
                 describeInstr(*Items[I].Second) + " cannot be covered: " +
                 explainUncoverable(P, Model, W) + moreOfCause(Items[I], Count),
             AsError ? DS_Error : DS_Warning);
  }
}

void llvm::ldsbarriers::reportThreadDisjointPairs(
    const AbstractProgram &P, const LDSAccessModel &Model,
    MachineOptimizationRemarkEmitter &ORE) {
  constexpr unsigned MaxRemarks = 256;
  SmallVector<EventRef> Accesses = eventsWhere(P, [](const Event &E) {
    return E.Kind == Event::Access && E.Loc.ThreadForm;
  });
  unsigned Emitted = 0;
  for (unsigned I = 0; I < Accesses.size() && Emitted < MaxRemarks; ++I)
    for (unsigned J = I; J < Accesses.size() && Emitted < MaxRemarks; ++J) {
      const Event &A = P.event(Accesses[I]), &B = P.event(Accesses[J]);
      if (A.AK == AccessKind::Read && B.AK == AccessKind::Read)
        continue;
      Location BlindA = A.Loc, BlindB = B.Loc;
      BlindA.ThreadForm = BlindB.ThreadForm = 0;
      if (!P.mayOverlap(BlindA, BlindB))
        continue;
      // Apart always, or only within one iteration of their stage loop.
      bool Always = P.threadDisjoint(A.Loc, B.Loc);
      unsigned Loop = P.stageLoop(A.Loc);
      if (!Always && !(Loop && Loop == P.stageLoop(B.Loc) &&
                       P.threadDisjoint(A.Loc, B.Loc,
                                        IterationRelation::distance(Loop, 0))))
        continue;
      ++Emitted;
      // Apart in one iteration by their stage slots, or by a guard on a
      // value of that iteration (a tree step's stride).
      auto Staged = [&](const Location &L) {
        return llvm::any_of(
            P.ThreadForms[L.ThreadForm],
            [](const ThreadAddress &T) { return !T.Stage.empty(); });
      };
      bool Slots = Staged(A.Loc) || Staged(B.Loc);
      const MachineInstr &MA = Model.instr(Accesses[I]);
      const MachineInstr &MB = Model.instr(Accesses[J]);
      std::string Why =
          "no hazard between " + describeInstr(MA) + " and " +
          describeInstr(MB) + (I == J ? " (itself, in other work-items)" : "") +
          (Always  ? ": different work-items touch different bytes; "
           : Slots ? " in one iteration of their loop: they use different "
                     "stage slots (across iterations they may meet); "
                   : " in one iteration of their loop: a guard on a value of "
                     "that iteration keeps them apart (across iterations "
                     "they may meet); ") +
          "addresses " + Model.describeThreadForm(A.Loc) + " and " +
          Model.describeThreadForm(B.Loc) + ", " + Model.describeShape();
      LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Why << "\n");
      ORE.emit([&]() {
        return MachineOptimizationRemarkAnalysis(DEBUG_TYPE,
                                                 Always  ? "ThreadDisjoint"
                                                 : Slots ? "StageSlots"
                                                         : "IterationGuard",
                                                 MB.getDebugLoc(),
                                                 MB.getParent())
               << Why;
      });
    }
}

void llvm::ldsbarriers::reportSelfRaces(const Function &F,
                                        const AbstractProgram &P,
                                        const LDSAccessModel &Model,
                                        unsigned WaveSize) {
  WorkgroupShape OneD = P.Shape;
  OneD.MaxDim[1] = OneD.MaxDim[2] = 1;
  // Per address form (many accesses share one): whether it meets itself.
  DenseMap<unsigned, bool> SelfMeets;
  // A term known only to keep the access inside its object may be one
  // value for all work-items (a loop counter): what is reported must meet
  // with the work-items' unknown terms equal.
  auto MeetsWithEqualUnknowns = [&](const Location &L) {
    SmallVector<ThreadAddress, 2> Forms(P.ThreadForms[L.ThreadForm].begin(),
                                        P.ThreadForms[L.ThreadForm].end());
    if (llvm::none_of(Forms,
                      [](const ThreadAddress &TA) { return TA.VarFromObject; }))
      return true;
    for (ThreadAddress &TA : Forms)
      if (TA.VarFromObject)
        TA.VarLo = TA.VarHi = 0;
    for (const ThreadAddress &X : Forms)
      for (const ThreadAddress &Y : Forms)
        if (workItemsMayOverlap(X, Y, P.Shape) &&
            workItemsMayOverlap(X, Y, OneD))
          return true;
    return false;
  };
  // A form without an address does not know that the work-items meet.
  auto Meets = [&](const Location &L) {
    auto [It, Inserted] = SelfMeets.try_emplace(L.ThreadForm, false);
    // One execution is in one iteration of the access's stage loop.
    unsigned Loop = P.stageLoop(L);
    if (Inserted)
      It->second = llvm::none_of(P.ThreadForms[L.ThreadForm],
                                 [](const ThreadAddress &TA) {
                                   return TA.knowsNoAddress();
                                 }) &&
                   !P.threadDisjoint(L, L,
                                     Loop ? IterationRelation::distance(Loop, 0)
                                          : IterationRelation()) &&
                   !P.threadDisjointIn(L, L, OneD) &&
                   !P.oneWaveRunsBoth(L, L) && MeetsWithEqualUnknowns(L);
    return It->second;
  };
  // An LDS DMA's form is its wave's transfer: only different waves race.
  auto WavesMeet = [&](const Location &L) {
    return llvm::any_of(P.ThreadForms[L.ThreadForm],
                        [&](const ThreadAddress &TA) {
                          return wavesMayOverlap(TA, P.Shape, WaveSize);
                        });
  };
  // Without LDS DMA, whose writes take the waves' test, and without a form
  // that meets itself (the test depends on the form alone), no access is
  // reported: the accesses are not walked again.
  if (!Model.hasLDSDMA() &&
      llvm::none_of(llvm::seq<unsigned>(1, P.ThreadForms.size()),
                    [&](unsigned F) {
                      Location L;
                      L.ThreadForm = F;
                      return Meets(L);
                    }))
    return;
  SmallVector<EventRef> Events = eventsWhere(P, [&](const Event &E) {
    bool Writes = E.AK == AccessKind::Write ||
                  (E.AK == AccessKind::Atomic && !E.CommutativeOp);
    // Rows of a 2-D launch meeting in an index of threadIdx.x alone are an
    // assumption about the launch, not a fault of the instruction: only
    // what a one-dimensional launch would not fix is reported.
    return E.Kind == Event::Access && Writes && E.Loc.ThreadForm &&
           (E.Async && E.Ctr == Counter::VM ? WavesMeet(E.Loc) : Meets(E.Loc));
  });
  SmallVector<CauseItem> Items;
  for (EventRef X : Events)
    Items.push_back({&Model.instr(X), &Model.instr(X), 0, 0});
  // One warning per source line (unrolled copies of one store share it),
  // or one in all without lines.
  for (auto [I, Count] : groupByCause(Items)) {
    const Event &E = P.event(Events[I]);
    const MachineInstr &MI = *Items[I].First;
    diagnose(F, nearestDebugLoc(MI),
             describeInstr(MI) +
                 ": different work-items may write the same LDS bytes in "
                 "one execution of this instruction (address " +
                 Model.describeThreadForm(E.Loc) + ", " +
                 Model.describeShape() + "); no barrier can order them" +
                 boundHint(P, E.Loc, E.Loc) + moreOfCause(Items[I], Count),
             DS_Warning);
  }
}

void llvm::ldsbarriers::dumpPlacement(const AbstractProgram &P,
                                      const LDSAccessModel &Model,
                                      const Placement &R) {
  raw_ostream &OS = dbgs();
  auto PrintWindow = [&](const Window &W) {
    OS << "  " << getHazardKindName(W.Kind) << " bb." << W.Producer.Block << ":"
       << W.Producer.Index << " -> bb." << W.Consumer.Block << ":"
       << W.Consumer.Index << " on "
       << Model.describeLocation(P.event(W.Consumer).Loc) << "\n";
  };
  OS << "windows (" << R.InitialWindows.size() << "):\n";
  for (const Window &W : R.InitialWindows)
    PrintWindow(W);
  for (const auto &CB : R.CompletedBarriers)
    OS << "complete existing barrier bb." << CB.Barrier.Block << ":"
       << CB.Barrier.Index << "\n";
  for (const auto &NB : R.Barriers) {
    OS << "barrier at bb." << NB.At.Block << ":" << NB.At.Index;
    if (NB.isSplit())
      OS << " signalled at bb." << NB.SignalAt.Block << ":"
         << NB.SignalAt.Index;
    OS << "\n";
  }
  for (const Window &W : R.Uncoverable) {
    OS << "uncoverable:";
    PrintWindow(W);
  }
  OS << "cost " << R.Cost << (R.ProvenOptimal ? " (optimal)" : "") << "\n";
}

void llvm::ldsbarriers::selfCheck(MachineFunction &MF, const TargetFacts &Facts,
                                  const MachineAnalyses &Analyses,
                                  const Placement &R,
                                  const LDSAccessModel &Before, int WAW,
                                  bool SingleWave) {
  MachineAnalyses Unweighted = Analyses;
  Unweighted.Frequencies = nullptr;
  LDSAccessModel After(MF, Facts, Unweighted, Before);
  VerifierOptions Opts;
  wawPolicy(WAW, Opts.WAW, Opts.AsyncWAW);
  // Barrier events the input already had: their divergence or pairing is
  // the input's problem, reported as a warning, not an internal error.
  SmallPtrSet<const MachineInstr *, 8> InputBarriers;
  for (EventRef X : eventsWhere(Before.program(), [](const Event &E) {
         return !llvm::is_contained({Event::Access, Event::Wait, Event::Tick},
                                    E.Kind);
       }))
    InputBarriers.insert(&Before.instr(X));
  const AbstractProgram &AP = After.program();
  std::vector<Violation> Unexpected, FromInput;
  for (const Violation &V : verifySynchronization(After.program(), Opts)) {
    if (V.Kind != Violation::Race && V.Kind != Violation::InFlight &&
        V.Later.Index < AP.Blocks[V.Later.Block].Events.size() &&
        InputBarriers.count(&After.instr(V.Later))) {
      FromInput.push_back(V);
      continue;
    }
    // One wave per workgroup: accesses of other waves do not exist. A pair
    // either way round: a concurrent-arms window stands for both.
    auto IsUncoverable = [&](const Window &W) {
      const MachineInstr *A = &Before.instr(W.Producer);
      const MachineInstr *B = &Before.instr(W.Consumer);
      const MachineInstr *X = &After.instr(V.Earlier);
      const MachineInstr *Y = &After.instr(V.Later);
      return (A == X && B == Y) || (A == Y && B == X);
    };
    if (V.Kind != Violation::Race ||
        (!SingleWave && llvm::none_of(R.Uncoverable, IsUncoverable)))
      Unexpected.push_back(V);
  }
  LLVM_DEBUG(dbgs() << "self-check: " << Unexpected.size()
                    << " unexpected violations, " << FromInput.size()
                    << " of the input's barriers\n");
  MachineOptimizationRemarkEmitter ORE(MF, nullptr);
  reportViolations(MF, After, FromInput, VerifyMode::Warning, ORE,
                   "in the input");
  reportViolations(MF, After, Unexpected, VerifyMode::Error, ORE,
                   "internal error, placement failed verification");
}
