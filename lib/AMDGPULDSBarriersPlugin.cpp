//===- AMDGPULDSBarriersPlugin.cpp - Plugin registration ------------------===//
//
// Registers the pass with the legacy pass registry when the plugin is loaded
// (`llc -load=... -run-pass=amdgpu-lds-barriers`), and, under
// -amdgpu-lds-barriers, inserts it into the codegen pipeline of stock llc
// and clang right after the memory legalizer. Not part of in-tree builds,
// which register the pass in the AMDGPU target instead.
//
//===----------------------------------------------------------------------===//

#include "AMDGPULDSBarriers.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

static cl::opt<bool> EnableInPipeline(
    "amdgpu-lds-barriers",
    cl::desc("Run the AMDGPU LDS barrier placement pass in the codegen "
             "pipeline, after si-memory-legalizer"),
    cl::init(false));

static RegisterPass<AMDGPULDSBarriers>
    Registration("amdgpu-lds-barriers", "AMDGPU LDS barrier placement",
                 /*CFGOnly=*/false, /*is_analysis=*/false);

static RegisterTargetPassConfigCallback PipelineHook(
    [](TargetMachine &TM, legacy::PassManagerBase &, TargetPassConfig *PC) {
      if (!EnableInPipeline || TM.getTargetTriple().getArch() != Triple::amdgcn)
        return;
      const PassInfo *Legalizer = PassRegistry::getPassRegistry()->getPassInfo(
          StringRef("si-memory-legalizer"));
      if (!Legalizer)
        report_fatal_error("amdgpu-lds-barriers: si-memory-legalizer is not "
                           "registered; cannot join the pipeline");
      PC->insertPass(Legalizer->getTypeInfo(), &AMDGPULDSBarriers::ID);
    });
