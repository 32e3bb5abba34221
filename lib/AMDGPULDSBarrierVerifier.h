//===- AMDGPULDSBarrierVerifier.h - The LDS synchronization checker pass --===//
//
// A MachineFunctionPass (`amdgpu-lds-barrier-verify`) that reports LDS races,
// unbalanced split barriers and barriers in divergent control flow in any
// MIR, and the reporting it shares with the placer's self-check.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERVERIFIER_H
#define AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERVERIFIER_H

#include "LDSBarrierVerifier.h"
#include "llvm/CodeGen/MachineFunctionPass.h"

namespace llvm {
class MachineOptimizationRemarkEmitter;

namespace ldsbarriers {
class LDSAccessModel;

/// How violations are reported.
enum class VerifyMode { Remark, Warning, Error };

/// Reports \p Violations of the function modeled by \p Model; returns how
/// many were reported.
unsigned reportViolations(const MachineFunction &MF,
                          const LDSAccessModel &Model,
                          ArrayRef<Violation> Violations, VerifyMode Mode,
                          MachineOptimizationRemarkEmitter &ORE,
                          StringRef Context);
} // namespace ldsbarriers

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
