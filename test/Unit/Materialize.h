//===- Materialize.h - A placement as events of the program ---------------===//
//
// Inserts the barriers, signals, waits and counter waits of a placement into
// a copy of the abstract program, in the order the emitter inserts them
// (orderedSync, LDSHazardAnalysis.h), so that the verifier can check the
// result.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_TEST_MATERIALIZE_H
#define AMDGPU_LDS_BARRIERS_TEST_MATERIALIZE_H

#include "LDSBarrierPlacement.h"
#include "LDSHazardAnalysis.h"

namespace llvm {
namespace ldsbarriers {
namespace test {

inline AbstractProgram materialize(const AbstractProgram &P, const Placement &R,
                                   bool Split) {
  AbstractProgram Out = P;
  // Per block, the events inserted at each point, in orderedSync's order
  // (SyncOrder order at every point).
  std::vector<std::vector<std::vector<Event>>> Insert(P.Blocks.size());
  for (unsigned B = 0; B < P.Blocks.size(); ++B)
    Insert[B].resize(P.Blocks[B].Events.size() + 1);
  for (const SyncItem &S :
       orderedSync(R.Barriers, R.CompletedBarriers, R.Waits)) {
    std::vector<Event> &At = Insert[S.At.Block][S.At.Index];
    switch (S.What) {
    case SyncOrder::Query:
      break;
    case SyncOrder::OwnWait:
    case SyncOrder::CompletedWait:
      At.push_back(Event::wait(S.Waits));
      break;
    case SyncOrder::BarrierWait:
      At.push_back(Event::barrierWait());
      break;
    case SyncOrder::Barrier:
      At.push_back(Event::wait(S.Waits));
      At.push_back(Split ? Event::signal() : Event::barrier());
      if (Split)
        At.push_back(Event::barrierWait());
      break;
    case SyncOrder::Signal:
      At.push_back(Event::wait(S.Waits));
      At.push_back(Event::signal());
      break;
    }
  }
  for (unsigned B = 0; B < P.Blocks.size(); ++B) {
    std::vector<Event> Events;
    for (unsigned I = 0; I <= P.Blocks[B].Events.size(); ++I) {
      Events.insert(Events.end(), Insert[B][I].begin(), Insert[B][I].end());
      if (I < P.Blocks[B].Events.size())
        Events.push_back(P.Blocks[B].Events[I]);
    }
    Out.Blocks[B].Events = Events;
  }
  return Out;
}

} // namespace test
} // namespace ldsbarriers
} // namespace llvm

#endif
