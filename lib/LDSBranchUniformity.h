//===- LDSBranchUniformity.h - Scalar branches on per-wave values ---------===//
//
// A scalar branch (S_CBRANCH_SCC*/VCC*) is uniform within a wave but not
// necessarily within a workgroup: when its condition derives from a per-wave
// value (V_READFIRSTLANE / V_READLANE of lane data, a vector compare's lane
// mask, S_GETREG of the wave's hardware id), waves of one workgroup may go
// different ways, and a barrier it controls may hang. This finds such
// branches with a forward taint dataflow over scalar register units.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSBRANCHUNIFORMITY_H
#define AMDGPU_LDS_BARRIERS_LDSBRANCHUNIFORMITY_H

#include "llvm/ADT/DenseSet.h"

namespace llvm {
class MachineBasicBlock;
class MachineFunction;

namespace ldsbarriers {
class TargetFacts;

/// Blocks ending in a scalar conditional branch whose condition may depend
/// on a per-wave value.
DenseSet<const MachineBasicBlock *>
findPerWaveBranches(const MachineFunction &MF, const TargetFacts &Facts);

} // namespace ldsbarriers
} // namespace llvm

#endif
