//===- AMDGPULDSBarriers.cpp - The LDS barrier placement pass -------------===//
//
// Drives the stages: access model -> hazard analysis -> placement ->
// emission, and reports what it did (statistics, remarks, diagnostics).
// It is a correctness pass once enabled: it never calls skipFunction.
//
//===----------------------------------------------------------------------===//

#include "AMDGPULDSBarriers.h"
#include "AMDGPULDSBarrierVerifier.h"
#include "AMDGPULDSBarriersCommon.h"
#include "AMDGPUTargetFacts.h"
#include "LDSAccessModel.h"
#include "LDSBarrierEmitter.h"
#include "LDSBarrierPlacement.h"
#include "LDSSplitBarriers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/InitializePasses.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

using namespace llvm::ldsbarriers;

#define DEBUG_TYPE "amdgpu-lds-barriers"

STATISTIC(NumBarriers, "Number of barriers inserted");
STATISTIC(NumCompletedBarriers,
          "Number of existing barriers given the wait they lacked");
STATISTIC(NumWindows, "Number of hazard windows found");
STATISTIC(NumRAW, "Number of read-after-write windows");
STATISTIC(NumWAR, "Number of write-after-read windows");
STATISTIC(NumWAW, "Number of write-after-write windows");
STATISTIC(NumAtomic, "Number of windows involving an atomic");
STATISTIC(NumOpaque, "Number of windows involving an opaque access");
STATISTIC(NumRedundant, "Number of existing barriers that order nothing");
STATISTIC(NumWaits, "Number of counter waits inserted for asynchronous "
                    "transfers of the wave itself");
STATISTIC(NumUncoverable, "Number of hazard windows no barrier can cover");
STATISTIC(NumStripped, "Number of the source's workgroup barriers deleted "
                       "(-amdgpu-lds-barriers-strip-existing)");

static cl::opt<cl::boolOrDefault> EnableWAW(
    "amdgpu-lds-barriers-waw", cl::Hidden,
    cl::desc("Treat write-after-write on LDS as a hazard (default: on with "
             "the thread-index analysis, off without it)"));

static cl::opt<unsigned> SearchBudget(
    "amdgpu-lds-barriers-search-budget", cl::Hidden,
    cl::desc("Branch-and-bound nodes of the placement search, per function, "
             "before settling for the best cover found"),
    cl::init(2000));

static cl::opt<PlacementStrategy> Strategy(
    "amdgpu-lds-barriers-strategy", cl::Hidden,
    cl::desc("How barrier points are chosen (the alternatives are other "
             "systems' strategies on the same analysis, for comparison)"),
    cl::values(
        clEnumValN(PlacementStrategy::Optimal, "optimal",
                   "fewest barrier executions, then fewest barriers"),
        clEnumValN(PlacementStrategy::Naive, "naive",
                   "a barrier before every conflicting consumer"),
        clEnumValN(PlacementStrategy::Latest, "latest",
                   "in program order, before the first conflicting access"),
        clEnumValN(PlacementStrategy::Intervals, "intervals",
                   "interval stabbing in layout order, trusting every "
                   "point (may fail verification)")),
    cl::init(PlacementStrategy::Optimal));

static cl::opt<bool> UncoverableIsError(
    "amdgpu-lds-barriers-uncovered-error", cl::Hidden,
    cl::desc("Report hazard windows that no barrier can cover (divergent "
             "control flow) as errors instead of warnings"),
    cl::init(false));

static cl::opt<cl::boolOrDefault> SelfCheck(
    "amdgpu-lds-barriers-self-check", cl::Hidden,
    cl::desc("Check the placer's output with the independent verifier; a "
             "violation other than a reported uncoverable window is an error "
             "(default: on with -verify-machineinstrs, off otherwise)"));

/// The self-check re-models and re-verifies every function: a debugging
/// aid, like LLVM's expensive checks, on when machine code is verified.
static bool selfCheckEnabled() {
  if (SelfCheck != cl::BOU_UNSET)
    return SelfCheck == cl::BOU_TRUE;
  const auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("verify-machineinstrs");
  return It != Options.end() && It->second->getNumOccurrences() > 0;
}

static cl::opt<bool> TrustScalarBranches(
    "amdgpu-lds-barriers-trust-scalar-branches", cl::Hidden,
    cl::desc("Treat every scalar branch as workgroup-uniform, even when its "
             "condition derives from a per-wave value (EXEC, a ballot, "
             "V_READFIRSTLANE of lane data, the wave id, a timer)"),
    cl::init(false));

static cl::opt<bool> AdjacentSignal(
    "amdgpu-lds-barriers-adjacent-signal", cl::Hidden,
    cl::desc("On split-barrier targets (gfx12), put each signal immediately "
             "before its wait instead of hoisting it (for comparison and "
             "debugging)"),
    cl::init(false));

static cl::opt<bool> StripExisting(
    "amdgpu-lds-barriers-strip-existing", cl::Hidden,
    cl::desc("In kernels with LDS accesses, delete the workgroup barriers "
             "(S_BARRIER; S_BARRIER_SIGNAL and S_BARRIER_WAIT of barrier -1) "
             "before placing: the source's barriers kept the optimizers from "
             "reordering LDS accesses across them, and the pass replaces "
             "them"),
    cl::init(false));

char AMDGPULDSBarriers::ID = 0;

AMDGPULDSBarriers::AMDGPULDSBarriers() : MachineFunctionPass(ID) {
  PassRegistry &R = *PassRegistry::getPassRegistry();
  initializeMachineBlockFrequencyInfoWrapperPassPass(R);
  initializeMachineOptimizationRemarkEmitterPassPass(R);
}

void AMDGPULDSBarriers::getAnalysisUsage(AnalysisUsage &AU) const {
  AU.setPreservesCFG();
  AU.addRequired<MachineBlockFrequencyInfoWrapperPass>();
  AU.addRequired<MachineOptimizationRemarkEmitterPass>();
  MachineFunctionPass::getAnalysisUsage(AU);
}

/// Why no barrier can serve \p W: the divergent branch its accesses depend
/// on (with its source location), and what the author can do.
static std::string explainUncoverable(const AbstractProgram &P,
                                      const LDSAccessModel &Model,
                                      const Window &W) {
  int Source = -1;
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
  return "every point that separates them depends on the divergent branch " +
         Branch +
         ", which waves of one workgroup may take differently; hoist the LDS "
         "accesses out of the divergent region or make the condition "
         "uniform across the workgroup";
}

/// The abstract program, its windows and the placement, for
/// -debug-only=amdgpu-lds-barriers (an LLVM built with assertions).
[[maybe_unused]] static void dumpPlacement(const MachineFunction &MF,
                                           const AbstractProgram &P,
                                           const LDSAccessModel &Model,
                                           const Placement &R) {
  raw_ostream &OS = dbgs();
  OS << "=== amdgpu-lds-barriers: " << MF.getName() << " ===\n";
  P.print(OS);
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

/// Re-models the final function and verifies it. Races between the pairs
/// already reported as uncoverable are expected; anything else is a bug.
static void selfCheck(MachineFunction &MF, const TargetFacts &Facts,
                      const Placement &R, const LDSAccessModel &Before,
                      bool SingleWave) {
  LDSAccessModel After(MF, Facts, /*MBFI=*/nullptr, TrustScalarBranches,
                       threadAnalysis(), &Before);
  VerifierOptions Opts;
  wawPolicy(EnableWAW, Opts.WAW, Opts.AsyncWAW);
  // Barrier events the input already had: their divergence or pairing is
  // the input's problem, reported as a warning, not an internal error.
  SmallPtrSet<const MachineInstr *, 8> InputBarriers;
  const AbstractProgram &BP = Before.program();
  for (unsigned B = 0; B < BP.Blocks.size(); ++B)
    for (unsigned I = 0; I < BP.Blocks[B].Events.size(); ++I)
      if (BP.Blocks[B].Events[I].Kind != Event::Access &&
          BP.Blocks[B].Events[I].Kind != Event::Wait &&
          BP.Blocks[B].Events[I].Kind != Event::Tick)
        InputBarriers.insert(&Before.instr({B, I}));
  const AbstractProgram &AP = After.program();
  std::vector<Violation> Unexpected, FromInput;
  for (const Violation &V : verifySynchronization(After.program(), Opts)) {
    if (V.Kind != Violation::Race && V.Kind != Violation::InFlight &&
        V.Later.Index < AP.Blocks[V.Later.Block].Events.size() &&
        InputBarriers.count(&After.instr(V.Later))) {
      FromInput.push_back(V);
      continue;
    }
    // One wave per workgroup: accesses of other waves do not exist.
    bool Known = SingleWave && V.Kind == Violation::Race;
    if (V.Kind == Violation::Race)
      for (const Window &W : R.Uncoverable)
        Known |= &Before.instr(W.Producer) == &After.instr(V.Earlier) &&
                 &Before.instr(W.Consumer) == &After.instr(V.Later);
    if (!Known)
      Unexpected.push_back(V);
  }
  MachineOptimizationRemarkEmitter ORE(MF, nullptr);
  reportViolations(MF, After, FromInput, VerifyMode::Warning, ORE,
                   "in the input");
  if (Unexpected.empty())
    return;
  if (Strategy != PlacementStrategy::Optimal) {
    reportViolations(MF, After, Unexpected, VerifyMode::Warning, ORE,
                     "the '" + getPlacementStrategyName(Strategy).str() +
                         "' strategy's placement failed verification");
    return;
  }
  reportViolations(MF, After, Unexpected, VerifyMode::Error, ORE,
                   "internal error, placement failed verification");
}

/// Explains the pairs the thread-index analysis dropped: accesses whose
/// objects and byte ranges overlap, at least one writing, that different
/// work-items provably never make touch a common byte.
static void reportThreadDisjointPairs(const AbstractProgram &P,
                                      const LDSAccessModel &Model,
                                      MachineOptimizationRemarkEmitter &ORE) {
  constexpr unsigned MaxRemarks = 256;
  SmallVector<EventRef, 32> Accesses;
  for (unsigned B = 0; B < P.Blocks.size(); ++B)
    for (unsigned I = 0; I < P.Blocks[B].Events.size(); ++I) {
      const Event &E = P.Blocks[B].Events[I];
      if (E.Kind == Event::Access && E.Loc.ThreadForm)
        Accesses.push_back({B, I});
    }
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
      const MachineInstr &MA = Model.instr(Accesses[I]);
      const MachineInstr &MB = Model.instr(Accesses[J]);
      std::string Why =
          "no hazard between " + describeInstr(MA) + " and " +
          describeInstr(MB) + (I == J ? " (itself, in other work-items)" : "") +
          (Always ? ": different work-items touch different bytes; "
                  : " in one iteration of their loop: they use different "
                    "stage slots (across iterations they may meet); ") +
          "addresses " + Model.describeThreadForm(A.Loc) + " and " +
          Model.describeThreadForm(B.Loc) + ", " + Model.describeShape();
      LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Why << "\n");
      ORE.emit([&]() {
        return MachineOptimizationRemarkAnalysis(
                   DEBUG_TYPE, Always ? "ThreadDisjoint" : "StageSlots",
                   MB.getDebugLoc(), MB.getParent())
               << Why;
      });
    }
}

/// Whether every pair of the two accesses' address forms is disjoint
/// between work-items in launches of \p Shape. \p Cache, if given, holds
/// enumerations for \p Shape only.
static bool formsDisjoint(const AbstractProgram &P, const Location &A,
                          const Location &B, const WorkgroupShape &Shape,
                          ThreadIdCache *Cache = nullptr) {
  if (!A.ThreadForm || !B.ThreadForm)
    return false;
  for (const ThreadAddress &X : P.ThreadForms[A.ThreadForm])
    for (const ThreadAddress &Y : P.ThreadForms[B.ThreadForm])
      if (workItemsMayOverlap(X, Y, Shape, Cache))
        return false;
  return true;
}

/// What launch bound would prove two accesses disjoint between work-items,
/// as advice for a remark or warning; empty when none would.
static std::string boundHint(const AbstractProgram &P, const Location &A,
                             const Location &B) {
  if (!A.ThreadForm || !B.ThreadForm)
    return "";
  WorkgroupShape OneD = P.Shape;
  OneD.MaxDim[1] = OneD.MaxDim[2] = 1;
  bool Is1D = P.Shape.MaxDim[1] == 1 && P.Shape.MaxDim[2] == 1;
  if (!Is1D && formsDisjoint(P, A, B, OneD))
    return "; disjoint if the workgroup is one-dimensional (a 1-D launch: "
           "-amdgpu-lds-barriers-assume-1d-workgroups)";
  // A smaller bound is advice only for a kernel that declares none: one
  // that does was written for its size.
  if (P.Shape.MaxFlat < 1024 || P.Shape.Required)
    return "";
  // The largest bound that proves it.
  for (int64_t N = 512; N >= 64; N /= 2)
    for (bool Flat : {false, true}) {
      if (Flat && Is1D)
        continue;
      WorkgroupShape S = Flat ? OneD : P.Shape;
      S.MaxFlat = N;
      for (int64_t &M : S.MaxDim)
        M = std::min(M, N);
      if (formsDisjoint(P, A, B, S))
        return "; disjoint with at most " + std::to_string(N) + " work-items" +
               (Flat ? " in one dimension" : "") + " (__launch_bounds__(" +
               std::to_string(N) + ")" + (Flat ? " and a 1-D launch" : "") +
               ")";
    }
  return "";
}

/// Warns about writes that may meet themselves: two work-items of different
/// waves executing the same store (or non-commutative atomic) once each may
/// write the same bytes, and no barrier can order one execution of an
/// instruction. Only accesses whose address the thread-index analysis
/// understood are judged (a uniform address written by every work-item is
/// the common broadcast idiom, not reported), and only collisions that a
/// one-dimensional launch would keep.
static void reportSelfRaces(const Function &F, const AbstractProgram &P,
                            const LDSAccessModel &Model, unsigned WaveSize) {
  constexpr unsigned MaxWarnings = 8;
  unsigned Emitted = 0;
  WorkgroupShape OneD = P.Shape;
  OneD.MaxDim[1] = OneD.MaxDim[2] = 1;
  // Per address form (many accesses share one): whether it meets itself.
  DenseMap<unsigned, bool> SelfMeets;
  // A form met with itself is enumerated once, not once per side.
  ThreadIdCache OneDIds;
  auto Meets = [&](const Location &L) {
    auto [It, Inserted] = SelfMeets.try_emplace(L.ThreadForm, false);
    if (Inserted)
      It->second =
          !P.threadDisjoint(L, L) && !formsDisjoint(P, L, L, OneD, &OneDIds);
    return It->second;
  };
  // An LDS DMA's form is its wave's transfer: only different waves race.
  auto WavesMeet = [&](const Location &L) {
    return llvm::any_of(P.ThreadForms[L.ThreadForm],
                        [&](const ThreadAddress &TA) {
                          return wavesMayOverlap(TA, P.Shape, WaveSize);
                        });
  };
  for (unsigned B = 0; B < P.Blocks.size() && Emitted < MaxWarnings; ++B)
    for (unsigned I = 0; I < P.Blocks[B].Events.size(); ++I) {
      const Event &E = P.Blocks[B].Events[I];
      bool Writes = E.AK == AccessKind::Write ||
                    (E.AK == AccessKind::Atomic && !E.CommutativeOp);
      // Rows of a 2-D launch meeting in an index of threadIdx.x alone are
      // an assumption about the launch, not a fault of the instruction:
      // only what a one-dimensional launch would not fix is reported.
      if (E.Kind != Event::Access || !Writes || !E.Loc.ThreadForm ||
          (E.Async && E.Ctr == Counter::VM ? !WavesMeet(E.Loc) : !Meets(E.Loc)))
        continue;
      const MachineInstr &MI = Model.instr({B, I});
      diagnose(F, MI.getDebugLoc(),
               describeInstr(MI) +
                   ": different work-items may write the same LDS bytes in "
                   "one execution of this instruction (address " +
                   Model.describeThreadForm(E.Loc) + ", " +
                   Model.describeShape() + "); no barrier can order them" +
                   boundHint(P, E.Loc, E.Loc),
               DS_Warning);
      if (++Emitted == MaxWarnings)
        break;
    }
}

static bool isKernel(const Function &F) {
  CallingConv::ID CC = F.getCallingConv();
  return CC == CallingConv::AMDGPU_KERNEL || CC == CallingConv::SPIR_KERNEL;
}

/// Deletes the workgroup barriers of \p MF for
/// -amdgpu-lds-barriers-strip-existing; returns whether it deleted any.
/// S_BARRIER_SIGNAL_ISFIRST defines SCC that the program may branch on, and
/// its wait cannot go without it: a function with one keeps all its
/// barriers (with a warning).
static bool stripWorkgroupBarriers(MachineFunction &MF,
                                   const TargetFacts &Facts,
                                   const TargetInstrInfo &TII) {
  SmallVector<MachineInstr *, 16> Dead;
  // The soft waits of LDS alone right before a barrier (what the release
  // fence of __syncthreads() waits for LDS and LDS DMA) go with it: the
  // pass places the waits its barriers need. Waits of other memory stay.
  auto LDSOnlySoftWait = [&](const MachineInstr &MI) {
    if (Facts.classify(MI.getOpcode()).Role != OpcodeRole::SoftWait)
      return false;
    StringRef G = getGenericOpcodeName(TII.getName(MI.getOpcode()));
    if (G == "S_WAITCNT_lds_direct")
      return true;
    if (!MI.getNumOperands() || !MI.getOperand(0).isImm())
      return false;
    WaitThresholds W =
        Facts.decodeWait(MI.getOpcode(), MI.getOperand(0).getImm());
    for (unsigned C = 0; C < NumCounters; ++C)
      if (W.Value[C] != WaitThresholds::NoWait && Counter(C) != Counter::LDS)
        return false;
    return W.any();
  };
  auto StripWith = [&](MachineInstr &MI) {
    Dead.push_back(&MI);
    for (auto It = std::next(MI.getReverseIterator());
         It != MI.getParent()->rend() && LDSOnlySoftWait(*It); ++It)
      Dead.push_back(&*It);
  };
  for (MachineBasicBlock &MBB : MF)
    for (MachineInstr &MI : MBB) {
      OpcodeRole Role = Facts.classify(MI.getOpcode()).Role;
      if (Role == OpcodeRole::Barrier) {
        StripWith(MI);
        continue;
      }
      if (Role != OpcodeRole::BarrierSignal && Role != OpcodeRole::BarrierWait)
        continue;
      if (getGenericOpcodeName(TII.getName(MI.getOpcode()))
              .contains("ISFIRST")) {
        diagnose(MF.getFunction(), MI.getDebugLoc(),
                 describeInstr(MI) +
                     ": the function's barriers are kept (its SCC result "
                     "may be used); not stripping them",
                 DS_Warning);
        return false;
      }
      // The model accepted the function: every signal and wait left is of
      // the workgroup barrier.
      StripWith(MI);
    }
  for (MachineInstr *MI : Dead)
    MI->eraseFromBundle();
  NumStripped += Dead.size();
  return !Dead.empty();
}

bool llvm::placeLDSBarriers(MachineFunction &MF,
                            const MachineBlockFrequencyInfo &MBFI,
                            MachineOptimizationRemarkEmitter &ORE) {
  const Function &F = MF.getFunction();
  if (MF.getTarget().getTargetTriple().getArch() != Triple::amdgcn) {
    diagnose(F, DebugLoc(), "not an AMDGPU (amdgcn) function; left unchanged");
    return false;
  }
  const TargetSubtargetInfo &ST = MF.getSubtarget();
  const TargetInstrInfo &TII = *ST.getInstrInfo();
  TargetFacts Facts = TargetFacts::get(ST, TII);
  std::unique_ptr<BarrierEmitter> Emitter = BarrierEmitter::create(Facts, TII);
  if (!Emitter) {
    diagnose(F, DebugLoc(),
             "target '" + Facts.getCPU() + "' (" +
                 getGenerationName(Facts.getGeneration()) +
                 ") is not supported; function left unchanged");
    return false;
  }

  std::optional<NamedRegionTimer> Phase;
  startPhase(Phase, "model", "Access model");
  std::optional<LDSAccessModel> ModelStorage;
  ModelStorage.emplace(MF, Facts, &MBFI, TrustScalarBranches, threadAnalysis());
  Phase.reset();
  if (!ModelStorage->unmodeledBarriers().empty()) {
    for (const auto &U : ModelStorage->unmodeledBarriers())
      diagnose(F, U.MI->getDebugLoc(),
               describeInstr(*U.MI) + ": " + U.Reason +
                   "; function left unchanged",
               U.Invalid ? DS_Error : DS_Warning);
    return false;
  }
  if (!ModelStorage->hasLDSAccesses())
    return false;
  // Only once the function is known to get a placement: a function left
  // unchanged keeps its own barriers.
  bool Stripped = false;
  if (StripExisting && isKernel(F) && stripWorkgroupBarriers(MF, Facts, TII)) {
    Stripped = true;
    startPhase(Phase, "model", "Access model");
    ModelStorage.emplace(MF, Facts, &MBFI, TrustScalarBranches,
                         threadAnalysis());
    Phase.reset();
  }
  LDSAccessModel &Model = *ModelStorage;
  // One wave per workgroup: nothing to order between waves, but the wave's
  // own asynchronous transfers still need their counter waits.
  WorkgroupShape Launch = getWorkgroupShape(F);
  bool SingleWave = isSingleWave(Launch, Facts.getWaveSize());
  const std::string &Ignored = Launch.Ignored;
  if (!Ignored.empty())
    diagnose(F, DebugLoc(),
             "ignoring " + Ignored +
                 ": the workgroup may have up to 1024 work-items",
             DS_Warning);

  const AbstractProgram &P = Model.program();
  assert(P.validate().empty() && "builder made an invalid program");
  if (Facts.hasSplitBarriers()) {
    SignalState Input = computeSignalState(P);
    if (!Input.consistent()) {
      const Block &BB = P.Blocks[Input.ProblemAt.Block];
      DebugLoc DL;
      if (Input.ProblemAt.Index < BB.Events.size())
        DL = Model.instr(Input.ProblemAt).getDebugLoc();
      diagnose(F, DL,
               "split barriers in the input do not alternate (" +
                   Input.Problem + " in bb." +
                   Twine(Model.block(Input.ProblemAt.Block).getNumber()) +
                   "); function left unchanged");
      return false;
    }
  }
  AnalysisOptions AOpts;
  wawPolicy(EnableWAW, AOpts.WAW, AOpts.AsyncWAW);
  AOpts.MinimalWindows = true;
  PlacementOptions POpts;
  POpts.SearchBudget = SearchBudget;
  POpts.Strategy = Strategy;
  POpts.Split = Facts.hasSplitBarriers() && !AdjacentSignal;
  POpts.CounterMax = Facts.getCounterMax();
  POpts.SingleWave = SingleWave;
  startPhase(Phase, "placement", "Analysis and placement");
  Placement R = placeBarriers(P, AOpts, POpts);
  Phase.reset();
  LLVM_DEBUG(dumpPlacement(MF, P, Model, R));
  NumWindows += R.InitialWindows.size();
  for (const Window &W : R.InitialWindows) {
    switch (W.Kind) {
    case HazardKind::RAW:
      ++NumRAW;
      break;
    case HazardKind::WAR:
      ++NumWAR;
      break;
    case HazardKind::WAW:
      ++NumWAW;
      break;
    case HazardKind::Atomic:
      ++NumAtomic;
      break;
    case HazardKind::Opaque:
      ++NumOpaque;
      break;
    }
  }
  // Existing barriers that order nothing are reported, never removed.
  startPhase(Phase, "emission", "Remarks and emission");
  for (EventRef X : redundantBarriers(P, AOpts, R)) {
    ++NumRedundant;
    const MachineInstr &MI = Model.instr(X);
    ORE.emit([&]() {
      return MachineOptimizationRemarkAnalysis(DEBUG_TYPE, "RedundantBarrier",
                                               MI.getDebugLoc(), MI.getParent())
             << "redundant barrier: " << describeInstr(MI)
             << " orders no conflicting LDS accesses";
    });
  }

  if (!SingleWave && isKernel(F))
    reportSelfRaces(F, P, Model, Facts.getWaveSize());

  bool Explain = ORE.allowExtraAnalysis(DEBUG_TYPE);
  LLVM_DEBUG(Explain = true);
  if (Explain)
    reportThreadDisjointPairs(P, Model, ORE);

  for (const Window &W : R.Uncoverable) {
    ++NumUncoverable;
    const MachineInstr &A = Model.instr(W.Producer);
    const MachineInstr &B = Model.instr(W.Consumer);
    diagnose(F, B.getDebugLoc(),
             Twine(getHazardKindName(W.Kind)) + " hazard on " +
                 Model.describeLocation(P.event(W.Consumer).Loc) + " between " +
                 describeInstr(A) + " and " + describeInstr(B) +
                 " cannot be covered: " + explainUncoverable(P, Model, W),
             UncoverableIsError ? DS_Error : DS_Warning);
  }

  for (const auto &NW : R.Waits) {
    MachineBasicBlock &MBB = Model.block(NW.At.Block);
    MachineBasicBlock::iterator Pos = Model.insertionPoint(NW.At);
    DebugLoc DL = Pos != MBB.end() ? Pos->getDebugLoc() : DebugLoc();
    Emitter->insertWait(MBB, Pos, NW.Waits, DL);
    ++NumWaits;
    ORE.emit([&]() {
      return MachineOptimizationRemark(DEBUG_TYPE, "AsyncWaitInserted", DL,
                                       &MBB)
             << "inserted counter wait: an asynchronous transfer of this wave "
                "may still be accessing the bytes the next instruction uses";
    });
  }

  for (const auto &CB : R.CompletedBarriers) {
    MachineInstr &Barrier = Model.instr(CB.Barrier);
    Emitter->insertWaitBefore(Barrier, CB.Waits);
    ++NumCompletedBarriers;
    ORE.emit([&]() {
      return MachineOptimizationRemark(DEBUG_TYPE, "BarrierWaitAdded",
                                       Barrier.getDebugLoc(),
                                       Barrier.getParent())
             << "added the wait that existing barrier lacked for an LDS "
                "access still in flight at it";
    });
  }

  // What goes at each point, in the order the analysis assumed: waits of
  // pairs signalled elsewhere, monolithic barriers, then signals.
  struct Item {
    Point At;
    unsigned Order;
    unsigned Barrier;
    bool operator<(const Item &O) const {
      if (!(At == O.At))
        return At < O.At;
      return Order != O.Order ? Order < O.Order : Barrier < O.Barrier;
    }
  };
  std::vector<Item> Items;
  for (unsigned I = 0; I < R.Barriers.size(); ++I) {
    const auto &NB = R.Barriers[I];
    if (NB.isSplit()) {
      Items.push_back({NB.At, 0, I});
      Items.push_back({NB.SignalAt, 2, I});
    } else {
      Items.push_back({NB.At, 1, I});
    }
  }
  std::sort(Items.begin(), Items.end());
  for (unsigned K = 0; K < Items.size(); ++K) {
    const Item &It = Items[K];
    const auto &NB = R.Barriers[It.Barrier];
    MachineBasicBlock &MBB = Model.block(It.At.Block);
    MachineBasicBlock::iterator Pos = Model.insertionPoint(It.At);
    DebugLoc DL = Pos != MBB.end() ? Pos->getDebugLoc() : DebugLoc();
    // A signal goes right after the previous event, above unrelated code,
    // unless something else at the same point must come first.
    bool FirstAtPoint = K == 0 || !(Items[K - 1].At == It.At);
    MachineBasicBlock::iterator SignalPos =
        FirstAtPoint && !AdjacentSignal ? Model.earliestInsertionPoint(It.At)
                                        : Pos;
    if (It.Order == 2) {
      Emitter->insertSignal(MBB, SignalPos, NB.Waits, DL);
      continue;
    }
    if (It.Order == 0) {
      Emitter->insertBarrierWait(MBB, Pos, DL);
    } else if (Facts.hasSplitBarriers()) {
      Emitter->insertSignal(MBB, SignalPos, NB.Waits, DL);
      Emitter->insertBarrierWait(MBB, Pos, DL);
    } else {
      Emitter->insertBarrier(MBB, Pos, NB.Waits, DL);
    }
    ++NumBarriers;
    const unsigned I = It.Barrier;
    ORE.emit([&]() {
      MachineOptimizationRemark Rem(DEBUG_TYPE, "BarrierInserted", DL, &MBB);
      Rem << (NB.isSplit() ? "inserted split barrier (wait here, signal "
                             "earlier in the block)"
                           : "inserted barrier");
      for (unsigned WI : R.Serves[I]) {
        const Window &W = R.Windows[WI];
        Rem << "; " << getHazardKindName(W.Kind) << " on "
            << Model.describeLocation(P.event(W.Consumer).Loc) << " between "
            << describeInstr(Model.instr(W.Producer)) << " and "
            << describeInstr(Model.instr(W.Consumer))
            << boundHint(P, P.event(W.Producer).Loc, P.event(W.Consumer).Loc);
      }
      return Rem;
    });
  }
  bool Changed = Stripped || !R.Barriers.empty() ||
                 !R.CompletedBarriers.empty() || !R.Waits.empty();
  Phase.reset();
  if (selfCheckEnabled()) {
    startPhase(Phase, "self-check", "Self-check (model and verifier)");
    selfCheck(MF, Facts, R, Model, SingleWave);
  }
  return Changed;
}

bool AMDGPULDSBarriers::runOnMachineFunction(MachineFunction &MF) {
  return placeLDSBarriers(
      MF, getAnalysis<MachineBlockFrequencyInfoWrapperPass>().getMBFI(),
      getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE());
}

PreservedAnalyses
AMDGPULDSBarriersPass::run(MachineFunction &MF,
                           MachineFunctionAnalysisManager &MFAM) {
  if (!placeLDSBarriers(
          MF, MFAM.getResult<MachineBlockFrequencyAnalysis>(MF),
          MFAM.getResult<MachineOptimizationRemarkEmitterAnalysis>(MF)))
    return PreservedAnalyses::all();
  PreservedAnalyses PA = getMachineFunctionPassPreservedAnalyses();
  PA.preserveSet<CFGAnalyses>();
  return PA;
}
