//===- AMDGPULDSBarrierVerifier.cpp - The LDS synchronization checker -----===//
//
// The pass amdgpu-lds-barrier-verify runs the independent verifier on any
// machine function and reports LDS races, unbalanced split barriers and
// barriers in divergent control flow: after the placer (its self-check), or
// alone as a static LDS race checker for hand-written synchronization. Soft
// waits promise nothing, so run it after si-insert-waitcnts (which turns the
// soft waits it keeps into hard ones) to check what the hardware will
// execute. The reporting it shares with the placer's self-check is
// reportViolations (AMDGPULDSBarriersCommon.h), defined here.
//
//===----------------------------------------------------------------------===//

#include "AMDGPULDSBarriersCommon.h"
#include "AMDGPULDSBarriersPasses.h"
#include "AMDGPUTargetFacts.h"
#include "LDSAccessModel.h"
#include "LDSBarrierVerifier.h"
#include "llvm/ADT/Statistic.h"
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
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

#define DEBUG_TYPE "amdgpu-lds-barrier-verify"
#define PASS_NAME "AMDGPU LDS synchronization verifier"

STATISTIC(NumRaces, "Number of LDS races found by the verifier");
STATISTIC(NumBadBarriers,
          "Number of unbalanced or divergent barriers found by the verifier");

// Named -amdgpu-lds-barriers-checker-*, not after the pass
// (amdgpu-lds-barrier-verify): every option of the plugin starts with
// -amdgpu-lds-barriers-, and a name one letter away from another option's
// would be easy to mistake for it.
static cl::opt<VerifyMode>
    Mode("amdgpu-lds-barriers-checker-severity", cl::Hidden,
         cl::desc("How the checker (the amdgpu-lds-barrier-verify pass) "
                  "reports violations"),
         cl::values(clEnumValN(VerifyMode::Remark, "remark",
                               "as missed-optimization remarks"),
                    clEnumValN(VerifyMode::Warning, "warning", "as warnings"),
                    clEnumValN(VerifyMode::Error, "error",
                               "as errors (fails the compilation)")),
         cl::init(VerifyMode::Warning));

static cl::opt<bool> VerifyTrustScalar(
    "amdgpu-lds-barriers-checker-trust-scalar-branches", cl::Hidden,
    cl::desc("In the checker (the amdgpu-lds-barrier-verify pass), treat "
             "every scalar branch as workgroup-uniform"),
    cl::init(false));

static cl::opt<cl::boolOrDefault> VerifyWAW(
    "amdgpu-lds-barriers-checker-waw", cl::Hidden,
    cl::desc("Report write-after-write pairs as races in the checker (the "
             "amdgpu-lds-barrier-verify pass; default: on with the "
             "thread-index analysis)"));

void llvm::ldsbarriers::reportViolations(const MachineFunction &MF,
                                         const LDSAccessModel &Model,
                                         ArrayRef<Violation> Violations,
                                         VerifyMode Mode,
                                         MachineOptimizationRemarkEmitter &ORE,
                                         StringRef Context) {
  const AbstractProgram &P = Model.program();
  // One report per cause, naming its first violation.
  SmallVector<CauseItem> Items;
  for (const Violation &V : Violations) {
    // Null at the end of a block.
    const MachineInstr *Where =
        V.Later.Index < P.Blocks[V.Later.Block].Events.size()
            ? &Model.instr(V.Later)
            : nullptr;
    ++(V.Kind == Violation::Race ? NumRaces : NumBadBarriers);
    // Without lines, races by their kind and object, barriers by what is
    // wrong with them.
    if (V.Kind == Violation::Race)
      Items.push_back(
          {&Model.instr(V.Earlier), Where, /*Kind=*/V.Fork >= 0,
           uint64_t(hash_combine(V.What, P.event(V.Later).Loc.Object))});
    else
      Items.push_back({Where, Where, 1 + uint64_t(hash_value(V.What)), 0});
  }
  for (auto [I, Count] : groupByCause(Items)) {
    const Violation &V = Violations[I];
    std::string Msg;
    const MachineInstr *Where = Items[I].Second;
    if (V.Kind == Violation::Race) {
      Msg = V.What + " race on " +
            Model.describeLocation(P.event(V.Later).Loc) + " between " +
            describeInstr(Model.instr(V.Earlier)) + " and " +
            describeInstr(Model.instr(V.Later)) +
            (V.Fork >= 0
                 ? ": they are in different arms of the branch in bb." +
                       std::to_string(Model.block(V.Fork).getNumber()) +
                       ", which waves of one workgroup may take differently "
                       "and then run at the same time"
                 : ": no barrier at which the first is complete separates "
                   "them on some path");
    } else {
      Msg = V.What;
      if (Where)
        Msg += " at " + describeInstr(*Where);
      Msg += " in bb." + std::to_string(Model.block(V.Later.Block).getNumber());
    }
    Msg += moreOfCause(Items[I], Count);
    if (!Context.empty())
      Msg = Context.str() + ": " + Msg;
    DebugLoc DL = Where ? nearestDebugLoc(*Where) : DebugLoc();
    if (Mode == VerifyMode::Remark) {
      ORE.emit([&]() {
        return MachineOptimizationRemarkMissed(
                   DEBUG_TYPE,
                   V.Kind == Violation::Race ? "LDSRace" : "BadBarrier", DL,
                   &Model.block(V.Later.Block))
               << Msg;
      });
    } else {
      diagnose(MF.getFunction(), DL, Msg,
               Mode == VerifyMode::Error ? DS_Error : DS_Warning);
    }
  }
}

namespace {
class AMDGPULDSBarrierVerifier : public MachineFunctionPass {
public:
  static char ID;
  AMDGPULDSBarrierVerifier() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override { return PASS_NAME; }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    AU.addRequired<MachineOptimizationRemarkEmitterPass>();
    AU.addRequired<MachineLoopInfoWrapperPass>();
    AU.addRequired<MachinePostDominatorTreeWrapperPass>();
    AU.addRequired<MachineCycleInfoWrapperPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;
};
} // namespace

char AMDGPULDSBarrierVerifier::ID = 0;

char &llvm::AMDGPULDSBarrierVerifierID = AMDGPULDSBarrierVerifier::ID;

INITIALIZE_PASS_BEGIN(AMDGPULDSBarrierVerifier, DEBUG_TYPE, PASS_NAME, false,
                      false)
INITIALIZE_PASS_DEPENDENCY(MachineOptimizationRemarkEmitterPass)
INITIALIZE_PASS_DEPENDENCY(MachineLoopInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(MachinePostDominatorTreeWrapperPass)
INITIALIZE_PASS_DEPENDENCY(MachineCycleInfoWrapperPass)
INITIALIZE_PASS_END(AMDGPULDSBarrierVerifier, DEBUG_TYPE, PASS_NAME, false,
                    false)

bool AMDGPULDSBarrierVerifier::runOnMachineFunction(MachineFunction &MF) {
  const Function &F = MF.getFunction();
  if (MF.getTarget().getTargetTriple().getArch() != Triple::amdgcn)
    return false;
  const TargetSubtargetInfo &ST = MF.getSubtarget();
  TargetFacts Facts = TargetFacts::get(ST, *ST.getInstrInfo());
  if (Facts.getGeneration() == Generation::Unsupported) {
    diagnose(F, DebugLoc(),
             "target '" + Facts.getCPU() + "' is not supported; not verified");
    return false;
  }
  MachineAnalyses Analyses{
      getAnalysis<MachineLoopInfoWrapperPass>().getLI(),
      getAnalysis<MachinePostDominatorTreeWrapperPass>().getPostDomTree(),
      getAnalysis<MachineCycleInfoWrapperPass>().getCycleInfo()};
  UniformLoadPolicy Loads{true, {}};
  auto BuildModel = [&]() {
    return std::make_unique<LDSAccessModel>(
        MF, Facts, Analyses,
        ModelOptions{VerifyTrustScalar, threadAnalysis(), {}, Loads});
  };
  std::unique_ptr<LDSAccessModel> Model = BuildModel();
  if (!Model->unmodeledBarriers().empty()) {
    const auto &U = Model->unmodeledBarriers().front();
    diagnose(F, nearestDebugLoc(*U.MI),
             describeInstr(*U.MI) + ": " + U.Reason + "; not verified");
    return false;
  }
  if (!Model->hasLDSAccesses() ||
      isSingleWave(Model->launch(), Facts.getWaveSize()))
    return false;
  VerifierOptions Opts;
  wawPolicy(VerifyWAW, Opts.WAW, Opts.AsyncWAW);
  std::vector<Violation> Violations;
  // A load read as workgroup-uniform that races may differ between waves:
  // the check starts again without reading it so.
  for (;;) {
    Violations = verifySynchronization(Model->program(), Opts);
    SmallVector<std::tuple<EventRef, EventRef, bool>> Races;
    for (const Violation &V : Violations)
      if (V.Kind == Violation::Race)
        Races.push_back({V.Earlier, V.Later, false});
    SmallVector<const MachineInstr *> Unsupported =
        Model->uniformLoadsIn(Races);
    if (Unsupported.empty())
      break;
    Loads.Excluded.insert_range(Unsupported);
    Model = BuildModel();
  }
  auto &ORE = getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE();
  reportViolations(MF, *Model, Violations, Mode, ORE, "");
  return false;
}
