//===- AMDGPULDSBarriersPlugin.cpp - Plugin registration ------------------===//
//
// Registers the passes with the legacy pass registry when the plugin is
// loaded (`llc -load=... -run-pass=amdgpu-lds-barriers`), and, under
// -amdgpu-lds-barriers-in-pipeline, inserts the placer into the codegen
// pipeline of stock llc and clang right after the memory legalizer. Not part of
// in-tree builds, which register the passes in the AMDGPU target instead.
//
//===----------------------------------------------------------------------===//

#include "AMDGPULDSBarriersPasses.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"
#include <optional>

using namespace llvm;

static cl::opt<bool> EnableInPipeline(
    "amdgpu-lds-barriers-in-pipeline",
    cl::desc("Run the AMDGPU LDS barrier placement pass in the codegen "
             "pipeline, after si-memory-legalizer"),
    cl::init(false));

static cl::opt<bool> VerifyInPipeline(
    "amdgpu-lds-barriers-checker-in-pipeline", cl::Hidden,
    cl::desc("Run the checker (the amdgpu-lds-barrier-verify pass) in the "
             "codegen pipeline, after si-insert-waitcnts (checks what the "
             "hardware executes)"),
    cl::init(false));

namespace {
/// Registers both passes when the plugin is loaded, as
/// LLVMInitializeAMDGPUTarget does in-tree.
struct RegisterPasses {
  RegisterPasses() {
    PassRegistry &R = *PassRegistry::getPassRegistry();
    initializeAMDGPULDSBarriersLegacyPass(R);
    initializeAMDGPULDSBarrierVerifierPass(R);
    // The pipeline option's first name was the pass's own, which opt has
    // just made an option; elsewhere (llc, clang) it stays as an alias.
    if (!cl::getRegisteredOptions().count("amdgpu-lds-barriers"))
      LegacyName.emplace("amdgpu-lds-barriers", cl::Hidden,
                         cl::desc("Alias for -amdgpu-lds-barriers-in-pipeline"),
                         cl::aliasopt(EnableInPipeline));
  }
  std::optional<cl::alias> LegacyName;
} Registration;
} // namespace

/// The type id of an already registered pass, by its command-line name.
static const void *passID(StringRef Name) {
  const PassInfo *PI = PassRegistry::getPassRegistry()->getPassInfo(Name);
  if (!PI)
    report_fatal_error("amdgpu-lds-barriers: " + Name +
                       " is not registered; cannot join the pipeline");
  return PI->getTypeInfo();
}

static RegisterTargetPassConfigCallback PipelineHook(
    [](TargetMachine &TM, legacy::PassManagerBase &, TargetPassConfig *PC) {
      if (TM.getTargetTriple().getArch() != Triple::amdgcn)
        return;
      if (EnableInPipeline)
        PC->insertPass(passID("si-memory-legalizer"), &AMDGPULDSBarriersID);
      if (VerifyInPipeline)
        PC->insertPass(passID("si-insert-waitcnts"),
                       &AMDGPULDSBarrierVerifierID);
    });
