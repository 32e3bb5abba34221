//===- PlacementStrategies.h - Other systems' placements --------*- C++ -*-===//
//
// Where other systems put barriers, on the pass's analysis: the comparison
// strategies of the strategy benchmark and the unit tests. Not part of the
// pass, which has one placement (placeBarriers).
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_PLACEMENTSTRATEGIES_H
#define AMDGPU_LDS_BARRIERS_PLACEMENTSTRATEGIES_H

#include "LDSBarrierPlacement.h"

namespace llvm {
namespace ldsbarriers {

enum class PlacementStrategy {
  /// A barrier right before every consumer of a window (before the latest
  /// legal point when that one is in divergent code).
  Naive,
  /// Windows in program order (reverse post-order), each not yet cut gets a
  /// barrier right before its consumer: the latest point, as a pass that
  /// walks the program and synchronizes at the first conflicting access
  /// does (with a fixpoint over the CFG, which the analysis provides).
  Latest,
  /// Interval stabbing in layout order: a window is the interval from its
  /// producer to its consumer (a loop-carried one from the top of its loop
  /// to the consumer), stabbed greedily at right ends. Points are trusted
  /// wherever they are, divergent code included; the verifier judges.
  Intervals,
};
StringRef getPlacementStrategyName(PlacementStrategy S);

/// The placement of strategy \p S: the pass's analysis and waits, the
/// strategy's own points, no final check.
Placement placeWithStrategy(PlacementStrategy S, const AbstractProgram &P,
                            const AnalysisOptions &AOpts,
                            const PlacementOptions &POpts);

} // namespace ldsbarriers
} // namespace llvm

#endif
