//===- LDSBarrierEmitter.h - Per-generation barrier and wait emission -----===//
//
// The barrier and wait instructions of the target's generation, resolved
// once from the subtarget. The emitter only materializes decisions; it
// never decides where.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSBARRIEREMITTER_H
#define AMDGPU_LDS_BARRIERS_LDSBARRIEREMITTER_H

#include "AMDGPUTargetFacts.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include <array>
#include <memory>

namespace llvm {
class DebugLoc;
class TargetInstrInfo;

namespace ldsbarriers {
enum class SyncOrder : uint8_t;

class BarrierEmitter {
public:
  /// The emitter for \p Facts' generation, or null when the pass does not
  /// support it or the instruction table lacks an opcode it needs.
  static std::unique_ptr<BarrierEmitter> create(const TargetFacts &Facts,
                                                const TargetInstrInfo &TII);

  /// Inserts before \p I the hard waits for \p Waits (gfx9-gfx11 one
  /// S_WAITCNT, split targets one instruction per counter), then what \p What
  /// adds to them: S_BARRIER (monolithic targets), the signal or the barrier
  /// wait (split targets), or nothing (OwnWait, CompletedWait).
  void insert(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
              SyncOrder What, const WaitThresholds &Waits,
              const DebugLoc &DL) const;

  /// Whether barriers are a signal and a later wait (gfx12, gfx1250).
  bool hasSplitBarriers() const { return Split; }

private:
  BarrierEmitter(const TargetFacts &Facts, const TargetInstrInfo &TII)
      : Facts(Facts), TII(TII) {}
  const TargetFacts &Facts;
  const TargetInstrInfo &TII;
  /// gfx12 and gfx1250: S_BARRIER_SIGNAL_IMM -1 and S_BARRIER_WAIT -1;
  /// otherwise S_WAITCNT and S_BARRIER.
  bool Split = false;
  unsigned Waitcnt = 0, Barrier = 0, Signal = 0, Wait = 0;
  /// Split targets: per Counter, its wait instruction (0: none).
  std::array<unsigned, NumCounters> CounterWait = {};
};

} // namespace ldsbarriers
} // namespace llvm

#endif
