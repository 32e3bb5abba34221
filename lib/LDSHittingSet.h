//===- LDSHittingSet.h - Cheapest points that hit every set ---------------===//
//
// The covering problem under barrier placement, on its own: sets of points
// (a window's cutting points), each to be hit by a chosen point, at the
// lowest total cost of the chosen points (block frequencies: barrier
// executions), then the fewest points. Exact per independent component by
// kernelization and a budgeted branch and bound, with a right-end greedy
// (optimal on interval instances) as upper bound and fallback.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSHITTINGSET_H
#define AMDGPU_LDS_BARRIERS_LDSHITTINGSET_H

#include <cstdint>
#include <vector>

namespace llvm {
namespace ldsbarriers {

/// Compares two sums of block frequencies (-1, 0, 1), equal within a
/// tolerance relative to \p B: sums of the same frequencies taken in
/// different orders differ in their last bits.
int compareCosts(double A, double B);

/// The objective of placement: total block frequency of the barriers (how
/// often barriers execute), then their number (code size).
struct Score {
  unsigned Count = ~0u;
  double Cost = 0;
  /// Lower cost, or the same cost and fewer points.
  bool betterThan(const Score &O) const {
    int C = compareCosts(Cost, O.Cost);
    return C < 0 || (C == 0 && Count < O.Count);
  }
  /// Better in cost or in count, and worse in neither.
  bool dominates(const Score &O) const {
    int C = compareCosts(Cost, O.Cost);
    return C <= 0 && Count <= O.Count && (C < 0 || Count < O.Count);
  }
};

/// Right-end greedy: sets by their last point (in program order); each set
/// not yet hit takes its point that hits the most remaining sets, then the
/// cheapest, then the latest. Optimal when every set is an interval of
/// points. \p Sets are non-empty ascending lists of point numbers.
std::vector<unsigned>
greedyCover(const std::vector<std::vector<unsigned>> &Sets,
            const std::vector<double> &Cost);

/// Set x point products of a component beyond which it gets the greedy
/// only: the exact search keeps a bit matrix of that size.
constexpr uint64_t HittingSetLargeComponent = 1u << 16;

struct HittingSet {
  /// The chosen points, ascending.
  std::vector<unsigned> Points;
  /// Whether every component was solved exactly within the budget.
  bool Optimal = true;
};

/// A cheapest set of points hitting every non-empty set of \p Sets, \p Cost
/// giving each point's cost. Independent components are solved apart,
/// sharing \p Budget branch-and-bound nodes; components beyond
/// HittingSetLargeComponent get greedyCover.
HittingSet solveHittingSet(const std::vector<std::vector<unsigned>> &Sets,
                           const std::vector<double> &Cost, unsigned Budget);

} // namespace ldsbarriers
} // namespace llvm

#endif
