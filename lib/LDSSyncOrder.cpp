//===- LDSSyncOrder.cpp - Order of the synchronization inserted at a point ===//
//
// Lists what a placement inserts in the order of LDSSyncOrder.h.
//
//===----------------------------------------------------------------------===//

#include "LDSSyncOrder.h"
#include <algorithm>

using namespace llvm;
using namespace llvm::ldsbarriers;

std::vector<SyncItem> llvm::ldsbarriers::orderedSync(
    ArrayRef<Augmentation::NewBarrier> Barriers,
    ArrayRef<Augmentation::CompletedBarrier> Completed,
    ArrayRef<Augmentation::NewWait> Waits) {
  std::vector<SyncItem> Items;
  for (unsigned I = 0; I < Waits.size(); ++I)
    Items.push_back({Waits[I].At, SyncOrder::OwnWait, I, Waits[I].Waits});
  for (unsigned I = 0; I < Completed.size(); ++I)
    Items.push_back({Completed[I].Barrier, SyncOrder::CompletedWait, I,
                     Completed[I].Waits});
  size_t FirstBarrier = Items.size();
  for (unsigned I = 0; I < Barriers.size(); ++I) {
    const Augmentation::NewBarrier &NB = Barriers[I];
    if (NB.isSplit()) {
      Items.push_back({NB.At, SyncOrder::BarrierWait, I, {}});
      Items.push_back({NB.SignalAt, SyncOrder::Signal, I, NB.Waits});
    } else {
      Items.push_back({NB.At, SyncOrder::Barrier, I, NB.Waits});
    }
  }
  std::sort(Items.begin() + FirstBarrier, Items.end(),
            [](const SyncItem &A, const SyncItem &B) {
              if (!(A.At == B.At))
                return A.At < B.At;
              return A.What != B.What ? A.What < B.What : A.Index < B.Index;
            });
  return Items;
}
