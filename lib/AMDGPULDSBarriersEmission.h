//===- AMDGPULDSBarriersEmission.h - Emitting a placement -------*- C++ -*-===//
//
// Inserts what a placement decided into the machine function, in the order
// of SyncOrder (LDSHazardAnalysis.h), with a remark for each insertion.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERSEMISSION_H
#define AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERSEMISSION_H

#include "LDSPlacementSteps.h"

namespace llvm {
class MachineOptimizationRemarkEmitter;

namespace ldsbarriers {
class BarrierEmitter;
class LDSAccessModel;

/// Inserts the standalone waits, the waits existing barriers lack and the
/// new barriers of \p R into the function \p Model models.
void emitPlacement(const Placement &R, const LDSAccessModel &Model,
                   const BarrierEmitter &Emitter,
                   MachineOptimizationRemarkEmitter &ORE);

} // namespace ldsbarriers
} // namespace llvm

#endif
