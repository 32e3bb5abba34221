//===- AMDGPULDSBarriers.h - The LDS barrier placement pass ---------------===//
//
// Declares the pass that places the workgroup barriers and counter waits
// that LDS accesses of different waves need, for the new pass manager. The
// legacy pass manager's pass is private to AMDGPULDSBarriers.cpp; AMDGPU.h
// declares its factory and ID.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERS_H
#define AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERS_H

#include "llvm/CodeGen/MachinePassManager.h"

namespace llvm {
class MachineOptimizationRemarkEmitter;
namespace ldsbarriers {
struct MachineAnalyses;
} // namespace ldsbarriers

/// Places the LDS barriers and counter waits of \p MF; returns whether it
/// changed the function. Both pass managers' passes call it.
bool placeLDSBarriers(MachineFunction &MF,
                      const ldsbarriers::MachineAnalyses &Analyses,
                      MachineOptimizationRemarkEmitter &ORE);

/// The pass for the new pass manager.
class AMDGPULDSBarriersPass : public PassInfoMixin<AMDGPULDSBarriersPass> {
public:
  /// Races are wrong code at every optimization level: never skipped.
  static bool isRequired() { return true; }
  PreservedAnalyses run(MachineFunction &MF,
                        MachineFunctionAnalysisManager &MFAM);
};

} // namespace llvm

#endif
