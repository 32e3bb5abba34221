//===- LDSBranchUniformity.h - Which scalar branches all waves take alike -===//
//
// A scalar branch (S_CBRANCH_SCC*/VCC*) is uniform within a wave but not
// necessarily within a workgroup: when its condition derives from a per-wave
// value (EXEC, a ballot of lane data, V_READFIRSTLANE of lane data, the wave
// id, a timer), waves of one workgroup may go different ways, and a barrier
// it controls may hang. Conversely a vector compare of workgroup-uniform
// values is a lane mask whose every active bit is the same in every wave:
// a VCC branch on it is workgroup-uniform. This finds the per-wave branches
// with a forward dataflow of a value-uniformity lattice over the physical
// registers (the code is post-RA), with the sync dependence of values on
// the divergent branches whose paths meet where they are used.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSBRANCHUNIFORMITY_H
#define AMDGPU_LDS_BARRIERS_LDSBRANCHUNIFORMITY_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/CodeGen/MachineCycleAnalysis.h"

namespace llvm {
class MachineBasicBlock;
class MachineFunction;
class MachineInstr;
class MachinePostDominatorTree;

namespace ldsbarriers {
class TargetFacts;

struct BranchUniformity {
  /// Blocks ending in a scalar conditional branch whose condition may
  /// differ between the waves of a workgroup.
  DenseSet<const MachineBasicBlock *> PerWave;
  /// Scalar conditional branches on VCC found workgroup-uniform.
  unsigned UniformVCCBranches = 0;
  /// LDS loads read as workgroup-uniform (see UniformLoadPolicy).
  SmallPtrSet<const MachineInstr *, 4> UniformLoads;
};

/// Which LDS loads the analysis may read as workgroup-uniform. A DS read
/// at a uniform address under a full EXEC reads one location in every
/// wave; its value is the same in all of them unless a write of that
/// location runs between their reads. Every such write meets the read in
/// a hazard window, which placement covers with a barrier all waves pass
/// and the checker reports when nothing does. By induction over the
/// barriers the waves pass, all agree as long as every window of such a
/// load is covered: the model's users check that (LDSAccessModel::
/// uniformLoadsIn) and exclude the loads whose windows are not, then
/// redo the analysis. Enabled also reads plain global loads of a uniform
/// address as uniform, which rests on the program having no data race on
/// global memory instead (see Analysis::isUniformLoad).
struct UniformLoadPolicy {
  bool Enabled = false;
  SmallPtrSet<const MachineInstr *, 4> Excluded;
};

/// Judges every scalar conditional branch of \p MF. The regions of
/// divergent branches come from \p PDT and \p Cycles, the function's
/// post-dominator tree and cycles.
BranchUniformity computeBranchUniformity(const MachineFunction &MF,
                                         const TargetFacts &Facts,
                                         const MachinePostDominatorTree &PDT,
                                         const MachineCycleInfo &Cycles,
                                         const UniformLoadPolicy &Loads);

/// The answer without the analysis: every block of \p MF that ends in a
/// scalar conditional branch is PerWave (none when it has no such branch).
BranchUniformity assumeScalarBranchesPerWave(const MachineFunction &MF,
                                             const TargetFacts &Facts);

} // namespace ldsbarriers
} // namespace llvm

#endif
