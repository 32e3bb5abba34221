//===- AMDGPULDSBarriersEmission.cpp - Emitting a placement ---------------===//
//
// Walks the placement's items (orderedSync) and has the generation's
// BarrierEmitter insert each, with its statistic and remark.
//
//===----------------------------------------------------------------------===//

#include "AMDGPULDSBarriersEmission.h"
#include "AMDGPULDSBarriersCommon.h"
#include "LDSAccessModel.h"
#include "LDSBarrierEmitter.h"
#include "LDSHazardAnalysis.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/DebugCounter.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

#define DEBUG_TYPE "amdgpu-lds-barriers"

STATISTIC(NumBarriers, "Number of barriers inserted");
// Bisecting a bad placement: -debug-counter=amdgpu-lds-barriers-insert=...
// keeps the barriers in the given ranges of their order and drops the rest
// (a split barrier's signal and wait together).
DEBUG_COUNTER(InsertBarrierCounter, "amdgpu-lds-barriers-insert",
              "Controls which new LDS barriers are inserted");
STATISTIC(NumCompletedBarriers,
          "Number of existing barriers given the wait they lacked");
STATISTIC(NumWaits, "Number of counter waits inserted for asynchronous "
                    "transfers of the wave itself");

/// The remark for new barrier \p I of \p R: the windows it serves.
static MachineOptimizationRemark barrierRemark(const Placement &R,
                                               const LDSAccessModel &Model,
                                               unsigned I, const DebugLoc &DL,
                                               const MachineBasicBlock &MBB) {
  const AbstractProgram &P = Model.program();
  MachineOptimizationRemark Rem(DEBUG_TYPE, "BarrierInserted", DL, &MBB);
  Rem << (R.Barriers[I].isSplit() ? "inserted split barrier (wait here, "
                                    "signal earlier in the block)"
                                  : "inserted barrier");
  for (unsigned WI : R.Serves[I]) {
    const Window &W = R.Windows[WI];
    Rem << "; " << getHazardKindName(W.Kind) << " on "
        << Model.describeLocation(P.event(W.Consumer).Loc) << " between "
        << describeInstr(Model.instr(W.Producer)) << " and "
        << describeInstr(Model.instr(W.Consumer))
        << boundHint(P, P.event(W.Producer).Loc, P.event(W.Consumer).Loc);
  }
  return Rem;
}

void llvm::ldsbarriers::emitPlacement(const Placement &R,
                                      const LDSAccessModel &Model,
                                      const BarrierEmitter &Emitter,
                                      MachineOptimizationRemarkEmitter &ORE) {
  std::vector<SyncItem> Items =
      orderedSync(R.Barriers, R.CompletedBarriers, R.Waits);
  // By new barrier: left out by the debug counter.
  BitVector Dropped(R.Barriers.size());
  for (unsigned I = 0; I < R.Barriers.size(); ++I)
    Dropped[I] = !DebugCounter::shouldExecute(InsertBarrierCounter);
  for (unsigned K = 0; K < Items.size(); ++K) {
    const SyncItem &It = Items[K];
    MachineBasicBlock &MBB = Model.block(It.At.Block);
    MachineBasicBlock::iterator Pos = Model.insertionPoint(It.At);
    DebugLoc DL = Pos != MBB.end() ? Pos->getDebugLoc() : DebugLoc();
    if (It.What == SyncOrder::CompletedWait || It.What == SyncOrder::OwnWait) {
      // A completed wait's Pos is its existing barrier (or signal).
      Emitter.insert(MBB, Pos, It.What, It.Waits, DL);
      bool Completes = It.What == SyncOrder::CompletedWait;
      ++(Completes ? NumCompletedBarriers : NumWaits);
      ORE.emit([&]() {
        return MachineOptimizationRemark(DEBUG_TYPE,
                                         Completes ? "BarrierWaitAdded"
                                                   : "AsyncWaitInserted",
                                         DL, &MBB)
               << (Completes
                       ? "added the wait that existing barrier lacked for an "
                         "LDS access still in flight at it"
                       : "inserted counter wait: an asynchronous transfer of "
                         "this wave may still be accessing the bytes the next "
                         "instruction uses");
      });
      continue;
    }
    if (Dropped[It.Index]) {
      LLVM_DEBUG(dbgs() << "amdgpu-lds-barriers: barrier " << It.Index
                        << " dropped by the debug counter\n");
      continue;
    }
    // A signal first at its point goes right after the previous event, above
    // unrelated code; only an earlier barrier part at the point keeps it down.
    bool FirstAtPoint = K == 0 || Items[K - 1].What < SyncOrder::BarrierWait ||
                        !(Items[K - 1].At == It.At);
    MachineBasicBlock::iterator SignalPos =
        FirstAtPoint ? Model.earliestInsertionPoint(It.At) : Pos;
    if (It.What == SyncOrder::Signal) {
      Emitter.insert(MBB, SignalPos, It.What, It.Waits, DL);
      continue;
    }
    if (It.What == SyncOrder::Barrier && Emitter.hasSplitBarriers()) {
      Emitter.insert(MBB, SignalPos, SyncOrder::Signal, It.Waits, DL);
      Emitter.insert(MBB, Pos, SyncOrder::BarrierWait, WaitThresholds(), DL);
    } else {
      // A BarrierWait has no waits of its own.
      Emitter.insert(MBB, Pos, It.What, It.Waits, DL);
    }
    ++NumBarriers;
    LLVM_DEBUG(dbgs() << "emit: barrier " << It.Index << " in "
                      << printMBBReference(MBB) << " before "
                      << (Pos != MBB.end() ? describeInstr(*Pos)
                                           : std::string("the block's end"))
                      << "\n");
    ORE.emit([&]() { return barrierRemark(R, Model, It.Index, DL, MBB); });
  }
}
