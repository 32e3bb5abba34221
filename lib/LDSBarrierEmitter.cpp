//===- LDSBarrierEmitter.cpp - Per-generation barrier and wait emission ---===//
//
// gfx9: S_WAITCNT (hard) with the needed counters at zero, then S_BARRIER.
//
//===----------------------------------------------------------------------===//

#include "LDSBarrierEmitter.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/TargetInstrInfo.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

BarrierEmitter::~BarrierEmitter() = default;

namespace {

/// gfx9: monolithic S_BARRIER after a combined S_WAITCNT.
class GFX9Emitter : public BarrierEmitter {
public:
  GFX9Emitter(const TargetFacts &Facts, const TargetInstrInfo &TII,
              unsigned WaitcntOpc, unsigned BarrierOpc)
      : BarrierEmitter(Facts, TII), WaitcntOpc(WaitcntOpc),
        BarrierOpc(BarrierOpc) {}

  void insertBarrier(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
                     CounterMask Waits, const DebugLoc &DL) const override {
    insertWaits(MBB, I, Waits, DL);
    BuildMI(MBB, I, DL, TII.get(BarrierOpc));
  }

  void insertWaitBefore(MachineInstr &Barrier,
                        CounterMask Waits) const override {
    insertWaits(*Barrier.getParent(), Barrier.getIterator(), Waits,
                Barrier.getDebugLoc());
  }

private:
  void insertWaits(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
                   CounterMask Waits, const DebugLoc &DL) const {
    if (Waits)
      BuildMI(MBB, I, DL, TII.get(WaitcntOpc))
          .addImm(Facts.encodeWaitcntZero(Waits));
  }

  unsigned WaitcntOpc, BarrierOpc;
};

} // namespace

std::unique_ptr<BarrierEmitter>
BarrierEmitter::create(const TargetFacts &Facts, const TargetInstrInfo &TII) {
  switch (Facts.getGeneration()) {
  case Generation::GFX9: {
    auto Waitcnt = Facts.getOpcode("S_WAITCNT");
    auto Barrier = Facts.getOpcode("S_BARRIER");
    if (!Waitcnt || !Barrier)
      return nullptr;
    return std::make_unique<GFX9Emitter>(Facts, TII, *Waitcnt, *Barrier);
  }
  default:
    return nullptr;
  }
}
