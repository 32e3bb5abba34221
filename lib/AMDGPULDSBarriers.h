//===- AMDGPULDSBarriers.h - The LDS barrier placement pass ---------------===//
//
// Declares the MachineFunctionPass that places the workgroup barriers and
// counter waits that LDS accesses of different waves need.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERS_H
#define AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERS_H

#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachinePassManager.h"

namespace llvm {
class MachineBlockFrequencyInfo;
class MachineOptimizationRemarkEmitter;

/// Places the LDS barriers and counter waits of \p MF; returns whether it
/// changed the function. Both pass managers' passes call it.
bool placeLDSBarriers(MachineFunction &MF,
                      const MachineBlockFrequencyInfo &MBFI,
                      MachineOptimizationRemarkEmitter &ORE);

/// The pass for the legacy pass manager.

class AMDGPULDSBarriers : public MachineFunctionPass {
public:
  static char ID;
  AMDGPULDSBarriers();

  StringRef getPassName() const override {
    return "AMDGPU LDS barrier placement";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override;
  bool runOnMachineFunction(MachineFunction &MF) override;
};

/// The pass for the new pass manager ("amdgpu-lds-barriers" in
/// AMDGPUPassRegistry.def of an in-tree build).
class AMDGPULDSBarriersPass : public PassInfoMixin<AMDGPULDSBarriersPass> {
public:
  /// Races are wrong code at every optimization level: never skipped.
  static bool isRequired() { return true; }
  PreservedAnalyses run(MachineFunction &MF,
                        MachineFunctionAnalysisManager &MFAM);
};

} // namespace llvm

#endif
