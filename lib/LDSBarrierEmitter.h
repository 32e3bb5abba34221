//===- LDSBarrierEmitter.h - Per-generation barrier and wait emission -----===//
//
// One emitter per target generation, chosen once from the subtarget (the
// shape of SIMemoryLegalizer's SICacheControl::create). Emitters only
// materialize decisions; they never decide where.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSBARRIEREMITTER_H
#define AMDGPU_LDS_BARRIERS_LDSBARRIEREMITTER_H

#include "AMDGPUTargetFacts.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include <memory>

namespace llvm {
class DebugLoc;
class TargetInstrInfo;

namespace ldsbarriers {

class BarrierEmitter {
public:
  virtual ~BarrierEmitter();

  /// The emitter for \p Facts' generation, or null when the pass does not
  /// support it (or the instruction table lacks an opcode it needs).
  static std::unique_ptr<BarrierEmitter> create(const TargetFacts &Facts,
                                                const TargetInstrInfo &TII);

  /// Inserts, before \p I, hard waits for \p Waits, then a workgroup barrier
  /// (on split targets: signal, then wait).
  virtual void insertBarrier(MachineBasicBlock &MBB,
                             MachineBasicBlock::iterator I,
                             const WaitThresholds &Waits,
                             const DebugLoc &DL) const = 0;

  /// Split targets: hard waits for \p Waits, then the signal, before \p I.
  virtual void insertSignal(MachineBasicBlock &MBB,
                            MachineBasicBlock::iterator I,
                            const WaitThresholds &Waits,
                            const DebugLoc &DL) const;

  /// Hard waits for \p Waits on their own, before \p I.
  virtual void insertWait(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
                          const WaitThresholds &Waits,
                          const DebugLoc &DL) const = 0;

  /// Split targets: the barrier wait, before \p I.
  virtual void insertBarrierWait(MachineBasicBlock &MBB,
                                 MachineBasicBlock::iterator I,
                                 const DebugLoc &DL) const;

  /// Inserts, right before the existing barrier or signal \p Barrier, the
  /// hard waits it lacks.
  void insertWaitBefore(MachineInstr &Barrier,
                        const WaitThresholds &Waits) const;

protected:
  BarrierEmitter(const TargetFacts &Facts, const TargetInstrInfo &TII)
      : Facts(Facts), TII(TII) {}
  const TargetFacts &Facts;
  const TargetInstrInfo &TII;
};

} // namespace ldsbarriers
} // namespace llvm

#endif
