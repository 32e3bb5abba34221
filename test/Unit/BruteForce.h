//===- BruteForce.h - Exhaustive barrier placement for small programs -----===//
//
// The reference the placement is compared with: every set of candidate
// points, by increasing size, until one leaves no window. Used only in tests
// (and the measurements of docs/Benchmarks.rst that come from them).
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_TEST_BRUTEFORCE_H
#define AMDGPU_LDS_BARRIERS_TEST_BRUTEFORCE_H

#include "LDSBarrierPlacement.h"
#include <functional>

namespace llvm {
namespace ldsbarriers {
namespace test {

/// Calls \p Visit with every \p Count-subset of [0, \p N) (as sorted
/// indices) until it returns true; returns whether it did.
inline bool
forEachSubset(unsigned N, unsigned Count,
              const std::function<bool(const std::vector<unsigned> &)> &Visit) {
  std::vector<unsigned> Idx(Count);
  std::function<bool(unsigned, unsigned)> Go = [&](unsigned Pos,
                                                   unsigned Next) {
    if (Pos == Count)
      return Visit(Idx);
    for (unsigned I = Next; I < N; ++I) {
      Idx[Pos] = I;
      if (Go(Pos + 1, I + 1))
        return true;
    }
    return false;
  };
  return Go(0, 0);
}

/// Whether new barriers (waiting for \p Waits) at the candidate points
/// \p Idx leave no window.
inline bool coversAll(const AbstractProgram &P, const std::vector<Point> &C,
                      const std::vector<unsigned> &Idx, CounterMask Waits) {
  Augmentation Aug;
  for (unsigned I : Idx)
    Aug.Barriers.push_back({C[I], Waits});
  return analyzeHazards(P, AnalysisOptions(), Aug).Windows.empty();
}

/// The fewest new barriers that leave no window, searching up to \p Limit
/// barriers; ~0u when there is none that small.
inline unsigned minimumBarrierCount(
    const AbstractProgram &P, unsigned Limit,
    CounterMask Waits = counterBit(Counter::LDS) | counterBit(Counter::VM)) {
  std::vector<Point> C = candidatePoints(P);
  for (unsigned K = 0; K <= Limit && K <= C.size(); ++K)
    if (forEachSubset(C.size(), K, [&](const std::vector<unsigned> &Idx) {
          return coversAll(P, C, Idx, Waits);
        }))
      return K;
  return ~0u;
}

/// The smallest total block frequency of \p Count new barriers that leave
/// no window; negative when there is none.
inline double minimumBarrierCost(const AbstractProgram &P, unsigned Count,
                                 CounterMask Waits = counterBit(Counter::LDS) |
                                                     counterBit(Counter::VM)) {
  std::vector<Point> C = candidatePoints(P);
  double Best = -1;
  forEachSubset(C.size(), Count, [&](const std::vector<unsigned> &Idx) {
    double Cost = 0;
    for (unsigned I : Idx)
      Cost += P.Blocks[C[I].Block].Freq;
    if ((Best < 0 || Cost < Best) && coversAll(P, C, Idx, Waits))
      Best = Cost;
    return false;
  });
  return Best;
}

/// The least total frequency of any cover by at most \p Limit new barriers
/// (-1 if none), and in \p Count the fewest barriers reaching it.
inline double minimumDynamicCost(const AbstractProgram &P, unsigned Limit,
                                 unsigned &Count) {
  double Best = -1;
  Count = ~0u;
  for (unsigned K = 0; K <= Limit; ++K) {
    double C = minimumBarrierCost(P, K);
    if (C >= 0 && (Best < 0 || C < Best - 1e-9)) {
      Best = C;
      Count = K;
    }
  }
  return Best;
}

} // namespace test
} // namespace ldsbarriers
} // namespace llvm

#endif
