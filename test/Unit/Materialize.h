//===- Materialize.h - A placement as events of the program ---------------===//
//
// Inserts the barriers, signals, waits and counter waits of a placement into
// a copy of the abstract program, in the order the emitters produce them,
// so that the verifier can check the result.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_TEST_MATERIALIZE_H
#define AMDGPU_LDS_BARRIERS_TEST_MATERIALIZE_H

#include "LDSBarrierPlacement.h"
#include <algorithm>

namespace llvm {
namespace ldsbarriers {
namespace test {

inline AbstractProgram materialize(const AbstractProgram &P, const Placement &R,
                                   bool Split) {
  AbstractProgram Out = P;
  std::vector<std::vector<std::pair<unsigned, Event>>> Insert(P.Blocks.size());
  for (const auto &CB : R.CompletedBarriers) {
    WaitThresholds W = CB.Waits;
    Insert[CB.Barrier.Block].push_back(
        {CB.Barrier.Index * 4 + 0, Event::wait(W)});
  }
  for (const auto &NB : R.Barriers) {
    WaitThresholds W = NB.Waits;
    if (NB.isSplit()) {
      Insert[NB.At.Block].push_back(
          {NB.At.Index * 4 + 0, Event::barrierWait()});
      Insert[NB.SignalAt.Block].push_back(
          {NB.SignalAt.Index * 4 + 2, Event::wait(W)});
      Insert[NB.SignalAt.Block].push_back(
          {NB.SignalAt.Index * 4 + 3, Event::signal()});
    } else {
      Insert[NB.At.Block].push_back({NB.At.Index * 4 + 1, Event::wait(W)});
      Insert[NB.At.Block].push_back(
          {NB.At.Index * 4 + 1, Split ? Event::signal() : Event::barrier()});
      if (Split)
        Insert[NB.At.Block].push_back(
            {NB.At.Index * 4 + 1, Event::barrierWait()});
    }
  }
  for (const auto &NW : R.Waits)
    Insert[NW.At.Block].push_back({NW.At.Index * 4 + 0, Event::wait(NW.Waits)});
  for (unsigned B = 0; B < P.Blocks.size(); ++B) {
    // By position, keeping the insertion order at one position.
    std::vector<std::pair<unsigned, unsigned>> Keys;
    for (unsigned K = 0; K < Insert[B].size(); ++K)
      Keys.push_back({Insert[B][K].first, K});
    std::sort(Keys.begin(), Keys.end());
    std::vector<std::pair<unsigned, Event>> Sorted;
    for (auto [Pos, K] : Keys)
      Sorted.push_back(Insert[B][K]);
    Insert[B] = std::move(Sorted);
    std::vector<Event> Events;
    auto It = Insert[B].begin();
    for (unsigned I = 0; I <= P.Blocks[B].Events.size(); ++I) {
      for (; It != Insert[B].end() && It->first / 4 == I; ++It)
        Events.push_back(It->second);
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
