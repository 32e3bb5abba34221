//===- LDSSyncOrder.h - Order of the synchronization inserted at a point --===//
//
// The one definition of the order in which new synchronization goes at one
// point of the program, shared by the hazard analysis (what it assumes), the
// split-barrier check, the emitter and the unit tests (what they insert), and
// the list of what a placement inserts, in that order.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSSYNCORDER_H
#define AMDGPU_LDS_BARRIERS_LDSSYNCORDER_H

#include "LDSHazardAnalysis.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <vector>

namespace llvm {
namespace ldsbarriers {

/// What is inserted at one point, in the order it goes there.
enum class SyncOrder : uint8_t {
  /// Analysis only: the state before anything new (a query).
  Query,
  /// A standalone counter wait for the wave's own asynchronous transfers.
  OwnWait,
  /// The wait an existing barrier or signal lacks, right before it (the
  /// analysis applies it with the barrier's event).
  CompletedWait,
  /// The wait of a split barrier signalled elsewhere.
  BarrierWait,
  /// A monolithic barrier: its waits, then signal and wait at one point.
  Barrier,
  /// The waits and signal of a split barrier waited for elsewhere.
  Signal,
};

/// Whether synchronization \p A at point \p IndexA of a block goes before
/// \p B at point \p IndexB of the same block.
inline bool syncPrecedes(unsigned IndexA, SyncOrder A, unsigned IndexB,
                         SyncOrder B) {
  return IndexA != IndexB ? IndexA < IndexB : A < B;
}

/// One thing a placement inserts.
struct SyncItem {
  Point At;
  SyncOrder What;
  /// Index into the waits (OwnWait), the completed barriers (CompletedWait)
  /// or the new barriers (the rest).
  unsigned Index;
  /// The hard waits that go with it (none for a BarrierWait).
  WaitThresholds Waits;
};

/// What \p Barriers, \p Completed and \p Waits insert, in the order the
/// emitter inserts it: the standalone waits, the waits of existing barriers,
/// then the barrier parts by point and SyncOrder. Each point thus receives
/// its items in SyncOrder order (a point has at most one standalone wait and
/// one existing barrier).
std::vector<SyncItem>
orderedSync(ArrayRef<Augmentation::NewBarrier> Barriers,
            ArrayRef<Augmentation::CompletedBarrier> Completed,
            ArrayRef<Augmentation::NewWait> Waits);

inline std::vector<SyncItem> orderedSync(const Augmentation &Aug) {
  return orderedSync(Aug.Barriers, Aug.CompletedBarriers, Aug.Waits);
}

} // namespace ldsbarriers
} // namespace llvm

#endif
