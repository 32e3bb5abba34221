//===- AMDGPULDSBarriers.h - The LDS barrier placement pass ---------------===//
//
// Declares the MachineFunctionPass that places the workgroup barriers and
// counter waits that LDS accesses of different waves need.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERS_H
#define AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERS_H

#include "llvm/CodeGen/MachineFunctionPass.h"

namespace llvm {

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

} // namespace llvm

#endif
