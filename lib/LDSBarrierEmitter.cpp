//===- LDSBarrierEmitter.cpp - Per-generation barrier and wait emission ---===//
//
// gfx9, gfx10, gfx11: one hard S_WAITCNT with the needed counters at zero
// (the generation's field layout), then S_BARRIER.
// gfx12, gfx1250: S_WAIT_DSCNT 0 (and the other counters' own waits), then
// S_BARRIER_SIGNAL_IMM -1; later S_BARRIER_WAIT -1. S_BARRIER does not exist
// there.
//
//===----------------------------------------------------------------------===//

#include "LDSBarrierEmitter.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/TargetInstrInfo.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

BarrierEmitter::~BarrierEmitter() = default;

void BarrierEmitter::insertSignal(MachineBasicBlock &,
                                  MachineBasicBlock::iterator,
                                  const WaitThresholds &,
                                  const DebugLoc &) const {
  llvm_unreachable("split barrier on a monolithic-barrier target");
}

void BarrierEmitter::insertBarrierWait(MachineBasicBlock &,
                                       MachineBasicBlock::iterator,
                                       const DebugLoc &) const {
  llvm_unreachable("split barrier on a monolithic-barrier target");
}

void BarrierEmitter::insertWaitBefore(MachineInstr &Barrier,
                                      const WaitThresholds &Waits) const {
  insertWait(*Barrier.getParent(), Barrier.getIterator(), Waits,
             Barrier.getDebugLoc());
}

namespace {

/// gfx9-gfx11: monolithic S_BARRIER after a combined S_WAITCNT.
class WaitcntEmitter : public BarrierEmitter {
public:
  WaitcntEmitter(const TargetFacts &Facts, const TargetInstrInfo &TII,
                 unsigned WaitcntOpc, unsigned BarrierOpc)
      : BarrierEmitter(Facts, TII), WaitcntOpc(WaitcntOpc),
        BarrierOpc(BarrierOpc) {}

  void insertBarrier(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
                     const WaitThresholds &Waits,
                     const DebugLoc &DL) const override {
    insertWait(MBB, I, Waits, DL);
    BuildMI(MBB, I, DL, TII.get(BarrierOpc));
  }

  void insertWait(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
                  const WaitThresholds &Waits,
                  const DebugLoc &DL) const override {
    if (Waits.any())
      BuildMI(MBB, I, DL, TII.get(WaitcntOpc))
          .addImm(Facts.encodeWaitcnt(Waits));
  }

private:
  unsigned WaitcntOpc, BarrierOpc;
};

/// gfx12 and gfx1250: split barriers, one wait instruction per counter.
class SplitEmitter : public BarrierEmitter {
public:
  struct Opcodes {
    unsigned Signal, Wait;
    /// Per Counter, the wait instruction for it (0: none on this target).
    unsigned CounterWait[NumCounters];
  };

  SplitEmitter(const TargetFacts &Facts, const TargetInstrInfo &TII,
               Opcodes Ops)
      : BarrierEmitter(Facts, TII), Ops(Ops) {}

  void insertBarrier(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
                     const WaitThresholds &Waits,
                     const DebugLoc &DL) const override {
    insertSignal(MBB, I, Waits, DL);
    insertBarrierWait(MBB, I, DL);
  }

  void insertSignal(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
                    const WaitThresholds &Waits,
                    const DebugLoc &DL) const override {
    insertWait(MBB, I, Waits, DL);
    BuildMI(MBB, I, DL, TII.get(Ops.Signal)).addImm(-1);
  }

  void insertBarrierWait(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
                         const DebugLoc &DL) const override {
    BuildMI(MBB, I, DL, TII.get(Ops.Wait)).addImm(-1);
  }

  void insertWait(MachineBasicBlock &MBB, MachineBasicBlock::iterator I,
                  const WaitThresholds &Waits,
                  const DebugLoc &DL) const override {
    for (unsigned C = 0; C < NumCounters; ++C)
      if (Waits.Value[C] != WaitThresholds::NoWait) {
        assert(Ops.CounterWait[C] && "no wait instruction for the counter");
        BuildMI(MBB, I, DL, TII.get(Ops.CounterWait[C])).addImm(Waits.Value[C]);
      }
  }

private:
  Opcodes Ops;
};

} // namespace

std::unique_ptr<BarrierEmitter>
BarrierEmitter::create(const TargetFacts &Facts, const TargetInstrInfo &TII) {
  switch (Facts.getGeneration()) {
  case Generation::GFX9:
  case Generation::GFX10:
  case Generation::GFX11: {
    auto Waitcnt = Facts.getOpcode(SyncOpcode::Waitcnt);
    auto Barrier = Facts.getOpcode(SyncOpcode::Barrier);
    if (!Waitcnt || !Barrier)
      return nullptr;
    return std::make_unique<WaitcntEmitter>(Facts, TII, *Waitcnt, *Barrier);
  }
  case Generation::GFX12:
  case Generation::GFX1250: {
    auto Signal = Facts.getOpcode(SyncOpcode::BarrierSignalImm);
    auto Wait = Facts.getOpcode(SyncOpcode::BarrierWait);
    auto DS = Facts.getOpcode(SyncOpcode::WaitDSCnt);
    auto Exp = Facts.getOpcode(SyncOpcode::WaitExpCnt);
    if (!Signal || !Wait || !DS || !Exp)
      return nullptr;
    SplitEmitter::Opcodes Ops{*Signal, *Wait, {}};
    Ops.CounterWait[unsigned(Counter::LDS)] = *DS;
    Ops.CounterWait[unsigned(Counter::Exp)] = *Exp;
    if (Facts.getGeneration() == Generation::GFX1250) {
      auto Async = Facts.getOpcode(SyncOpcode::WaitAsyncCnt);
      auto Tensor = Facts.getOpcode(SyncOpcode::WaitTensorCnt);
      if (!Async || !Tensor)
        return nullptr;
      Ops.CounterWait[unsigned(Counter::Async)] = *Async;
      Ops.CounterWait[unsigned(Counter::Tensor)] = *Tensor;
    }
    return std::make_unique<SplitEmitter>(Facts, TII, Ops);
  }
  case Generation::Unsupported:
    return nullptr;
  }
  return nullptr;
}
