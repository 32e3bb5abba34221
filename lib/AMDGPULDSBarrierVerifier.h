//===- AMDGPULDSBarrierVerifier.h - The LDS synchronization checker pass --===//
//
// A MachineFunctionPass (`amdgpu-lds-barrier-verify`) that reports LDS races,
// unbalanced split barriers and barriers in divergent control flow in any
// MIR. The reporting it shares with the placer's self-check is in
// AMDGPULDSBarriersCommon.h.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERVERIFIER_H
#define AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERVERIFIER_H

#include "llvm/CodeGen/MachineFunctionPass.h"

namespace llvm {

class AMDGPULDSBarrierVerifier : public MachineFunctionPass {
public:
  static char ID;
  AMDGPULDSBarrierVerifier();

  StringRef getPassName() const override {
    return "AMDGPU LDS synchronization verifier";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override;
  bool runOnMachineFunction(MachineFunction &MF) override;
};

} // namespace llvm

#endif
