//===- AMDGPULDSBarriers.cpp - The LDS barrier placement pass -------------===//
//
// Drives the stages: access model -> hazard analysis -> placement ->
// emission (AMDGPULDSBarriersEmission.cpp), and has what it did reported
// (AMDGPULDSBarriersDiagnostics.cpp: statistics, remarks, diagnostics).
// It is a correctness pass once enabled: it never calls skipFunction.
//
//===----------------------------------------------------------------------===//

#include "AMDGPULDSBarriers.h"
#include "AMDGPULDSBarriersCommon.h"
#include "AMDGPULDSBarriersDiagnostics.h"
#include "AMDGPULDSBarriersEmission.h"
#include "AMDGPULDSBarriersPasses.h"
#include "AMDGPUTargetFacts.h"
#include "LDSAccessModel.h"
#include "LDSBarrierEmitter.h"
#include "LDSBarrierPlacement.h"
#include "LDSHazardAnalysis.h"
#include "LDSSplitBarriers.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineCycleAnalysis.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachinePostDominators.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/InitializePasses.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

#define DEBUG_TYPE "amdgpu-lds-barriers"
#define PASS_NAME "AMDGPU LDS barrier placement"

STATISTIC(NumKeptFunctions, "Number of functions whose workgroup barriers "
                            "stay because the placement without them "
                            "cannot cover every window");
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

/// A debugging aid, like LLVM's expensive checks: on when machine code is
/// verified.
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

static cl::opt<bool> PrintTargetFacts(
    "amdgpu-lds-barriers-print-target-facts", cl::Hidden,
    cl::desc("Print what the pass knows of every opcode and register of the "
             "first function's subtarget to the standard error, once"),
    cl::init(false));

static cl::opt<bool> StripExisting(
    "amdgpu-lds-barriers-strip-existing", cl::Hidden,
    cl::desc("In kernels with LDS accesses, delete the workgroup barriers "
             "(S_BARRIER; S_BARRIER_SIGNAL and S_BARRIER_WAIT of barrier -1) "
             "before placing: the source's barriers kept the optimizers from "
             "reordering LDS accesses across them, and the pass replaces "
             "them"),
    cl::init(false));

namespace {
/// The workgroup barriers -amdgpu-lds-barriers-strip-existing takes out of
/// a function, held until the placement without them is known to cover
/// every window; otherwise they go back, so that the output never has less
/// synchronization than the input.
struct StrippedBarriers {
  struct TakenInstr {
    MachineInstr *MI;
    MachineBasicBlock *MBB;
    /// The instruction that followed it (null: the block's end).
    MachineInstr *Next;
  };
  /// In program order.
  std::vector<TakenInstr> Taken;

  ~StrippedBarriers() { restoreBarriers(); }
  bool takeBarriers(MachineFunction &MF, const TargetFacts &Facts);
  void restoreBarriers() {
    // Last first: each one's successor is back (or was never taken).
    for (TakenInstr &T : llvm::reverse(Taken))
      T.MBB->insert(T.Next ? T.Next->getIterator() : T.MBB->end(), T.MI);
    Taken.clear();
  }
  void eraseBarriers() {
    NumStripped += Taken.size();
    for (TakenInstr &T : Taken)
      T.MBB->getParent()->deleteMachineInstr(T.MI);
    Taken.clear();
  }
};
} // namespace

/// Takes the workgroup barriers out of \p MF; returns whether it took any.
/// S_BARRIER_SIGNAL_ISFIRST defines SCC that the program may branch on, and
/// its wait cannot go without it: a function with one keeps all its
/// barriers (with a warning).
bool StrippedBarriers::takeBarriers(MachineFunction &MF,
                                    const TargetFacts &Facts) {
  SmallPtrSet<MachineInstr *, 16> Dead;
  // The soft waits of LDS alone right before a barrier (what the release
  // fence of __syncthreads() waits for LDS and LDS DMA) go with it: the
  // pass places the waits its barriers need. Waits of other memory stay.
  auto LDSOnlySoftWait = [&](const MachineInstr &MI) {
    if (Facts.classify(MI.getOpcode()).Role != OpcodeRole::SoftWait)
      return false;
    if (Facts.scalarOp(MI.getOpcode()) == ScalarOp::LDSDirectSoftWait)
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
  for (MachineBasicBlock &MBB : MF)
    for (MachineInstr &MI : MBB) {
      OpcodeRole Role = Facts.classify(MI.getOpcode()).Role;
      if (Role != OpcodeRole::Barrier && Role != OpcodeRole::BarrierSignal &&
          Role != OpcodeRole::BarrierWait)
        continue;
      if (Role != OpcodeRole::Barrier &&
          Facts.scalarOp(MI.getOpcode()) == ScalarOp::IsFirstSignal) {
        diagnose(MF.getFunction(), nearestDebugLoc(MI),
                 describeInstr(MI) +
                     ": the function's barriers are kept (its SCC result "
                     "may be used); not stripping them",
                 DS_Warning);
        return false;
      }
      // The model accepted the function: every signal and wait left is of
      // the workgroup barrier.
      Dead.insert(&MI);
      for (auto It = std::next(MI.getReverseIterator());
           It != MBB.rend() && LDSOnlySoftWait(*It); ++It)
        Dead.insert(&*It);
    }
  for (MachineBasicBlock &MBB : MF)
    for (MachineInstr &MI : MBB)
      if (Dead.contains(&MI)) {
        auto Next = std::next(MI.getIterator());
        Taken.push_back({&MI, &MBB, Next == MBB.end() ? nullptr : &*Next});
      }
  for (TakenInstr &T : Taken)
    T.MI->removeFromBundle();
  return !Taken.empty();
}

/// Whether the input's split barriers alternate (signal, then wait) on every
/// path; diagnoses where they do not (the function is then left unchanged).
static bool splitBarriersAlternate(const Function &F,
                                   const LDSAccessModel &Model) {
  const AbstractProgram &P = Model.program();
  SignalState Input = computeSignalState(P);
  if (Input.consistent())
    return true;
  DebugLoc DL;
  if (Input.ProblemAt.Index < P.Blocks[Input.ProblemAt.Block].Events.size())
    DL = nearestDebugLoc(Model.instr(Input.ProblemAt));
  diagnose(F, DL,
           "split barriers in the input do not alternate (" + Input.Problem +
               " in bb." +
               Twine(Model.block(Input.ProblemAt.Block).getNumber()) +
               "); function left unchanged");
  return false;
}

/// Prints every fact \p Facts holds that is not the default, one per line,
/// keyed by name: utils/intree-check.sh compares the two implementations'.
static void printTargetFacts(const TargetFacts &Facts, const MCInstrInfo &MII,
                             const MCRegisterInfo &TRI, raw_ostream &OS) {
  OS << "target facts of " << Facts.getCPU() << " ("
     << getGenerationName(Facts.getGeneration()) << ", wave"
     << Facts.getWaveSize() << ")\n";
  // Machine functions hold pseudo opcodes only; the real encodings (the
  // _vi, _gfx10, ... forms) come in at emission.
  for (unsigned Opc = 0, E = MII.getNumOpcodes(); Opc < E; ++Opc) {
    if (!MII.get(Opc).isPseudo())
      continue;
    OpcodeInfo Info = Facts.classify(Opc);
    ValueRole VR = Facts.valueRole(Opc);
    ScalarOp SO = Facts.scalarOp(Opc);
    if (Info.Role == OpcodeRole::None && Info.CommutativeOp.empty() &&
        !Info.TwoAddress && !Info.LaneBytes && VR == ValueRole::Generic &&
        SO == ScalarOp::Other)
      continue;
    OS << MII.getName(Opc) << " role " << unsigned(Info.Role) << " value "
       << unsigned(VR) << " scalar " << unsigned(SO);
    if (!Info.CommutativeOp.empty())
      OS << " commutes " << Info.CommutativeOp;
    if (Info.TwoAddress)
      OS << " two-address";
    if (Info.LaneBytes)
      OS << " lane-bytes " << Info.LaneBytes;
    OS << "\n";
  }
  for (unsigned Reg = 1, E = TRI.getNumRegs(); Reg < E; ++Reg)
    if (uint16_t F = Facts.registerFacts(MCRegister(Reg), TRI))
      OS << TRI.getName(Reg) << " facts " << F << "\n";
}

bool llvm::placeLDSBarriers(MachineFunction &MF,
                            const MachineAnalyses &Analyses,
                            MachineOptimizationRemarkEmitter &ORE) {
  const Function &F = MF.getFunction();
  LLVM_DEBUG(dbgs() << "=== amdgpu-lds-barriers: " << MF.getName() << " ===\n");
  if (MF.getTarget().getTargetTriple().getArch() != Triple::amdgcn) {
    diagnose(F, DebugLoc(), "not an AMDGPU (amdgcn) function; left unchanged");
    return false;
  }
  const TargetSubtargetInfo &ST = MF.getSubtarget();
  const TargetInstrInfo &TII = *ST.getInstrInfo();
  TargetFacts Facts = TargetFacts::get(ST, TII);
  if (PrintTargetFacts) {
    printTargetFacts(Facts, TII, *ST.getRegisterInfo(), errs());
    PrintTargetFacts = false;
  }
  auto Unsupported = [&]() {
    diagnose(F, DebugLoc(),
             "target '" + Facts.getCPU() + "' (" +
                 getGenerationName(Facts.getGeneration()) +
                 ") is not supported; function left unchanged");
    return false;
  };
  if (Facts.getGeneration() == Generation::Unsupported)
    return Unsupported();
  // Resolving opcodes by name reads cold tables: made only once the function
  // will change, and before any change, so that it stays as it was without.
  std::unique_ptr<BarrierEmitter> Emitter;
  auto MakeEmitter = [&]() {
    if (!Emitter)
      Emitter = BarrierEmitter::create(Facts, TII);
    return Emitter != nullptr;
  };

  AnalysisOptions AOpts;
  wawPolicy(EnableWAW, AOpts.WAW, AOpts.AsyncWAW);
  AOpts.MinimalWindows = true;
  std::optional<NamedRegionTimer> Phase;
  UniformLoadPolicy Loads{true, {}};
  auto BuildModel = [&]() {
    startPhase(Phase, "model", "Access model");
    auto M = std::make_unique<LDSAccessModel>(
        MF, Facts, Analyses,
        ModelOptions{TrustScalarBranches, threadAnalysis(), AOpts, Loads});
    Phase.reset();
    return M;
  };
  std::unique_ptr<LDSAccessModel> Model = BuildModel();
  if (!Model->unmodeledBarriers().empty()) {
    for (const auto &U : Model->unmodeledBarriers())
      diagnose(F, nearestDebugLoc(*U.MI),
               describeInstr(*U.MI) + ": " + U.Reason +
                   "; function left unchanged",
               U.Invalid ? DS_Error : DS_Warning);
    return false;
  }
  if (!Model->hasLDSAccesses())
    return false;
  // One wave per workgroup: nothing to order between waves, but the wave's
  // own asynchronous transfers still need their counter waits.
  const WorkgroupShape &Launch = Model->launch();
  bool SingleWave = isSingleWave(Launch, Facts.getWaveSize());
  if (!Launch.Ignored.empty())
    diagnose(F, DebugLoc(),
             "ignoring " + Launch.Ignored + ": the workgroup may have up to " +
                 Twine(Launch.MaxFlat) + " work-items",
             DS_Warning);
  PlacementOptions POpts;
  POpts.SearchBudget = SearchBudget;
  POpts.Split = Facts.hasSplitBarriers();
  POpts.CounterMax = Facts.getCounterMax();
  POpts.SingleWave = SingleWave;
  // A load read as workgroup-uniform whose windows stay uncoverable may
  // differ between waves: placement starts again without reading it so.
  auto Place =
      [&](std::unique_ptr<LDSAccessModel> &M) -> std::optional<Placement> {
    for (;;) {
      const AbstractProgram &P = M->program();
      assert(P.validate().empty() && "builder made an invalid program");
      if (Facts.hasSplitBarriers() && !splitBarriersAlternate(F, *M))
        return std::nullopt;
      // Accesses that all meet none (the model's answer under this policy)
      // leave placement nothing to do.
      if (noAccessMeetsAnother(P, AOpts))
        return Placement();
      LLVM_DEBUG(P.print(dbgs()));
      startPhase(Phase, "placement", "Analysis and placement");
      Placement R = placeBarriers(P, AOpts, POpts);
      Phase.reset();
      SmallVector<std::tuple<EventRef, EventRef, bool>> Open;
      for (const Window &W : R.Uncoverable)
        Open.push_back({W.Producer, W.Consumer, W.Anchor.Block != ~0u});
      SmallVector<const MachineInstr *> Unsupported = M->uniformLoadsIn(Open);
      if (Unsupported.empty())
        return R;
      LLVM_DEBUG(dbgs() << "uniformity: " << Unsupported.size()
                        << " LDS loads no longer read as uniform\n");
      Loads.Excluded.insert_range(Unsupported);
      M = BuildModel();
    }
  };

  // Stripped only once the function is known to get a placement; without
  // its barriers every window must be covered, or they all stay.
  StrippedBarriers Stripped;
  std::unique_ptr<LDSAccessModel> Unstripped;
  if (StripExisting && isKernel(F)) {
    if (!MakeEmitter())
      return Unsupported();
    if (Stripped.takeBarriers(MF, Facts)) {
      Unstripped = std::move(Model);
      Model = BuildModel();
    }
  }
  std::optional<Placement> Placed = Place(Model);
  if (Unstripped && (!Placed || !Placed->Uncoverable.empty())) {
    if (Placed)
      ORE.emit([&]() {
        return MachineOptimizationRemarkMissed(DEBUG_TYPE, "BarriersKept",
                                               DebugLoc(), &MF.front())
               << "kept the function's own synchronization ("
               << ore::NV("Instructions", Stripped.Taken.size())
               << " instructions): without it "
               << ore::NV("Windows", unsigned(Placed->Uncoverable.size()))
               << " hazards could not be covered";
      });
    ++NumKeptFunctions;
    Stripped.restoreBarriers();
    Model = std::move(Unstripped);
    Placed = Place(Model);
  }
  if (!Placed)
    return false;
  bool Changed = !Stripped.Taken.empty();
  Stripped.eraseBarriers();
  Placement &R = *Placed;
  const AbstractProgram &P = Model->program();
  LLVM_DEBUG(dumpPlacement(P, *Model, R));
  countWindows(R);
  startPhase(Phase, "emission", "Remarks and emission");
  // Remarks that cost analyses of their own only when asked for.
  bool Explain = ORE.allowExtraAnalysis(DEBUG_TYPE);
  LLVM_DEBUG(Explain = true);
  if (Explain || AreStatisticsEnabled()) {
    std::optional<NamedRegionTimer> T;
    startPhase(T, "redundant", "Redundant barriers (remarks)");
    reportRedundantBarriers(P, AOpts, R, *Model, ORE);
  }
  if (!SingleWave && isKernel(F))
    reportSelfRaces(F, P, *Model, Facts.getWaveSize());
  if (Explain)
    reportThreadDisjointPairs(P, *Model, ORE);
  reportUncoverable(F, P, *Model, R, UncoverableIsError);
  if (!R.Barriers.empty() || !R.CompletedBarriers.empty() || !R.Waits.empty()) {
    if (!MakeEmitter())
      return Unsupported();
    emitPlacement(R, *Model, *Emitter, ORE);
    Changed = true;
  }
  Phase.reset();
  if (selfCheckEnabled()) {
    startPhase(Phase, "self-check", "Self-check (model and verifier)");
    selfCheck(MF, Facts, Analyses, R, *Model, EnableWAW, SingleWave);
  }
  return Changed;
}

namespace {
/// The pass for the legacy pass manager.
class AMDGPULDSBarriersLegacy : public MachineFunctionPass {
public:
  static char ID;
  AMDGPULDSBarriersLegacy() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override { return PASS_NAME; }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    AU.addRequired<MachineBlockFrequencyInfoWrapperPass>();
    AU.addRequired<MachineLoopInfoWrapperPass>();
    AU.addRequired<MachinePostDominatorTreeWrapperPass>();
    AU.addRequired<MachineCycleInfoWrapperPass>();
    AU.addRequired<MachineOptimizationRemarkEmitterPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override {
    MachineAnalyses Analyses{
        getAnalysis<MachineLoopInfoWrapperPass>().getLI(),
        getAnalysis<MachinePostDominatorTreeWrapperPass>().getPostDomTree(),
        getAnalysis<MachineCycleInfoWrapperPass>().getCycleInfo(),
        &getAnalysis<MachineBlockFrequencyInfoWrapperPass>().getMBFI()};
    return placeLDSBarriers(
        MF, Analyses,
        getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE());
  }
};
} // namespace

char AMDGPULDSBarriersLegacy::ID = 0;

char &llvm::AMDGPULDSBarriersID = AMDGPULDSBarriersLegacy::ID;

INITIALIZE_PASS_BEGIN(AMDGPULDSBarriersLegacy, DEBUG_TYPE, PASS_NAME, false,
                      false)
INITIALIZE_PASS_DEPENDENCY(MachineBlockFrequencyInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(MachineLoopInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(MachinePostDominatorTreeWrapperPass)
INITIALIZE_PASS_DEPENDENCY(MachineCycleInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(MachineOptimizationRemarkEmitterPass)
INITIALIZE_PASS_END(AMDGPULDSBarriersLegacy, DEBUG_TYPE, PASS_NAME, false,
                    false)

FunctionPass *llvm::createAMDGPULDSBarriersLegacyPass() {
  return new AMDGPULDSBarriersLegacy();
}

PreservedAnalyses
AMDGPULDSBarriersPass::run(MachineFunction &MF,
                           MachineFunctionAnalysisManager &MFAM) {
  MachineAnalyses Analyses{MFAM.getResult<MachineLoopAnalysis>(MF),
                           MFAM.getResult<MachinePostDominatorTreeAnalysis>(MF),
                           MFAM.getResult<MachineCycleAnalysis>(MF),
                           &MFAM.getResult<MachineBlockFrequencyAnalysis>(MF)};
  if (!placeLDSBarriers(
          MF, Analyses,
          MFAM.getResult<MachineOptimizationRemarkEmitterAnalysis>(MF)))
    return PreservedAnalyses::all();
  PreservedAnalyses PA = getMachineFunctionPassPreservedAnalyses();
  PA.preserveSet<CFGAnalyses>();
  return PA;
}
