//===- AMDGPULDSBarriersInTree.cpp - Registration in an LLVM source tree --===//
//
// What the plugin's registration file does, for an in-tree build (the patch
// series in llvm-patches/ adds this file to llvm/lib/Target/AMDGPU/): the
// legacy pass registry entries, the factory the GCN pipeline calls and the
// option that puts the pass after the memory legalizer. The plugin build only
// compiles it, to keep it honest; it is not linked into the plugin.
//
//===----------------------------------------------------------------------===//

#include "AMDGPULDSBarrierVerifier.h"
#include "AMDGPULDSBarriers.h"
#include "llvm/InitializePasses.h"
#include "llvm/PassRegistry.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> EnableLDSBarriers(
    "amdgpu-lds-barriers",
    cl::desc("Run the AMDGPU LDS barrier placement pass in the codegen "
             "pipeline, after si-memory-legalizer"),
    cl::init(false));

INITIALIZE_PASS_BEGIN(AMDGPULDSBarriers, "amdgpu-lds-barriers",
                      "AMDGPU LDS barrier placement", false, false)
INITIALIZE_PASS_DEPENDENCY(MachineBlockFrequencyInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(MachineOptimizationRemarkEmitterPass)
INITIALIZE_PASS_END(AMDGPULDSBarriers, "amdgpu-lds-barriers",
                    "AMDGPU LDS barrier placement", false, false)

INITIALIZE_PASS(AMDGPULDSBarrierVerifier, "amdgpu-lds-barrier-verify",
                "AMDGPU LDS synchronization verifier", false, false)

bool llvm::isAMDGPULDSBarriersEnabled() { return EnableLDSBarriers; }

FunctionPass *llvm::createAMDGPULDSBarriersPass() {
  return new AMDGPULDSBarriers();
}
