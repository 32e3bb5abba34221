//===- LDSDecidedBranches.h - Branches their own block decides --*- C++ -*-===//
//
// The structurizer gives an if/else on a uniform condition "Flow" blocks
// that rejoin the arms through VCC branches on constant masks:
//
//   $sgpr0_sgpr1 = S_MOV_B64 0           $sgpr0_sgpr1 = S_MOV_B64 -1
//   $vcc = S_ANDN2_B64 $exec, $sgpr0_sgpr1
//   S_CBRANCH_VCCZ %bb.then              S_CBRANCH_VCCNZ %bb.join
//
// The left one branches only when EXEC is zero, the right one never: each
// has one successor no wave goes to. Seen as possible, those edges join
// the two arms of the if/else and let each arm's accesses meet the other's
// and accesses many if/elses away. This finds such branches.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSDECIDEDBRANCHES_H
#define AMDGPU_LDS_BARRIERS_LDSDECIDEDBRANCHES_H

#include <optional>

namespace llvm {
class MachineBasicBlock;

namespace ldsbarriers {
class TargetFacts;

/// A conditional branch that always goes one way.
struct DecidedBranch {
  /// The successor it never goes to.
  const MachineBasicBlock *Never = nullptr;
  /// Never taken only where EXEC is not zero (the mask is EXEC itself):
  /// true of every wave outside divergent control flow, where the model
  /// trusts scalar branches on uniform masks already.
  bool AssumesExec = false;
};

/// The branch that ends \p MBB when it is a VCC branch whose mask the block
/// itself computes, from EXEC and constants, as 0 or as EXEC.
std::optional<DecidedBranch> decideBranch(const MachineBasicBlock &MBB,
                                          const TargetFacts &Facts);

} // namespace ldsbarriers
} // namespace llvm

#endif
