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
#include "LDSHazardAnalysis.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/TargetInstrInfo.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

std::unique_ptr<BarrierEmitter>
BarrierEmitter::create(const TargetFacts &Facts, const TargetInstrInfo &TII) {
  std::unique_ptr<BarrierEmitter> E(new BarrierEmitter(Facts, TII));
  // The opcodes the generation needs, and where each goes.
  SmallVector<std::pair<SyncOpcode, unsigned *>, 6> Needed;
  switch (Facts.getGeneration()) {
  case Generation::GFX9:
  case Generation::GFX10:
  case Generation::GFX11:
    Needed = {{SyncOpcode::Waitcnt, &E->Waitcnt},
              {SyncOpcode::Barrier, &E->Barrier}};
    break;
  case Generation::GFX1250:
    Needed = {
        {SyncOpcode::WaitAsyncCnt, &E->CounterWait[unsigned(Counter::Async)]},
        {SyncOpcode::WaitTensorCnt,
         &E->CounterWait[unsigned(Counter::Tensor)]}};
    [[fallthrough]];
  case Generation::GFX12:
    E->Split = true;
    Needed.append(
        {{SyncOpcode::BarrierSignalImm, &E->Signal},
         {SyncOpcode::BarrierWait, &E->Wait},
         {SyncOpcode::WaitDSCnt, &E->CounterWait[unsigned(Counter::LDS)]},
         {SyncOpcode::WaitExpCnt, &E->CounterWait[unsigned(Counter::Exp)]}});
    break;
  case Generation::Unsupported:
    return nullptr;
  }
  for (auto [Op, Opcode] : Needed) {
    std::optional<unsigned> Found = Facts.getOpcode(Op);
    if (!Found)
      return nullptr;
    *Opcode = *Found;
  }
  return E;
}

void BarrierEmitter::insert(MachineBasicBlock &MBB,
                            MachineBasicBlock::iterator I, SyncOrder What,
                            const WaitThresholds &Waits,
                            const DebugLoc &DL) const {
  if (!Split) {
    if (Waits.any())
      BuildMI(MBB, I, DL, TII.get(Waitcnt)).addImm(Facts.encodeWaitcnt(Waits));
  } else {
    for (unsigned C = 0; C < NumCounters; ++C)
      if (Waits.Value[C] != WaitThresholds::NoWait) {
        assert(CounterWait[C] && "no wait instruction for the counter");
        BuildMI(MBB, I, DL, TII.get(CounterWait[C])).addImm(Waits.Value[C]);
      }
  }
  if (What == SyncOrder::Barrier) {
    assert(!Split && "S_BARRIER on a split-barrier target");
    BuildMI(MBB, I, DL, TII.get(Barrier));
  } else if (What == SyncOrder::Signal || What == SyncOrder::BarrierWait) {
    assert(Split && "split barrier on a monolithic-barrier target");
    BuildMI(MBB, I, DL, TII.get(What == SyncOrder::Signal ? Signal : Wait))
        .addImm(-1);
  }
}
