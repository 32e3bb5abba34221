//===- LDSBarrierPlacement.h - Choose where barriers go -------------------===//
//
// Placement works on the abstract program only. It first completes existing
// barriers that a pending producer reaches (adding the wait they lack is
// cheaper than a second barrier), then covers the remaining windows with the
// fewest new barriers, then the lowest total frequency: an exact minimum
// hitting set over single points that cut every path of a window, solved by
// kernelization and a budgeted branch and bound, with a right-end greedy
// (optimal on interval instances) as upper bound and fallback.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSBARRIERPLACEMENT_H
#define AMDGPU_LDS_BARRIERS_LDSBARRIERPLACEMENT_H

#include "LDSHazardAnalysis.h"
#include <array>
#include <vector>

namespace llvm {
namespace ldsbarriers {

/// How the barrier points are chosen. Optimal is the pass; the others are
/// the strategies of other systems, on the same analysis, for comparison
/// (utils/bench): they are not meant for production.
enum class PlacementStrategy {
  /// Fewest barriers, then lowest total block frequency (hitting set).
  Optimal,
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

struct PlacementOptions {
  PlacementStrategy Strategy = PlacementStrategy::Optimal;
  /// Branch-and-bound nodes for the whole function before the search
  /// settles for the best covers found so far.
  unsigned SearchBudget = 2000;
  /// Keep an asynchronous transfer's barrier out of the transfer's own block
  /// where later points do not run much more often (its wait would stall
  /// right after the issue), unless that costs barrier executions or
  /// barriers.
  bool AsyncLatency = true;
  /// Split barriers (gfx12): hoist each barrier's signal away from its wait.
  bool Split = false;
  /// Workgroups of one wave: no barriers, only the counter waits that
  /// asynchronous transfers need before the wave's own later accesses.
  bool SingleWave = false;
  /// Largest encodable wait value per counter.
  std::array<unsigned, NumCounters> CounterMax = {63, 63, 63, 63, 7};
};

struct Placement {
  /// Windows of the input program before anything was placed.
  std::vector<Window> InitialWindows;
  /// Existing barriers that get the wait they lack.
  std::vector<Augmentation::CompletedBarrier> CompletedBarriers;
  /// New barriers, sorted by point.
  std::vector<Augmentation::NewBarrier> Barriers;
  /// Standalone counter waits before a wave's own access to bytes an
  /// asynchronous transfer of it may still be writing or reading.
  std::vector<Augmentation::NewWait> Waits;
  /// For each new barrier, the windows (of Windows) that it covers.
  std::vector<std::vector<unsigned>> Serves;
  /// The windows left after completing existing barriers.
  std::vector<Window> Windows;
  /// Windows that no legal point can cover (every cutting point is in
  /// divergent control flow); nothing is placed for them.
  std::vector<Window> Uncoverable;
  /// Whether the barrier set is proven minimal (count, then frequency)
  /// among covers by single cutting points.
  bool ProvenOptimal = true;
  /// Sum of the block frequencies of the new barriers.
  double Cost = 0;

  /// The placement as synchronization on top of the program (what the
  /// analysis assumes and the pass emits).
  Augmentation augmentation() const {
    Augmentation Aug;
    Aug.Barriers = Barriers;
    Aug.CompletedBarriers = CompletedBarriers;
    Aug.Waits = Waits;
    return Aug;
  }
};

/// Chooses barriers for \p P. The result is checked by re-running the
/// analysis; windows it cannot cover end up in Uncoverable.
Placement placeBarriers(const AbstractProgram &P, const AnalysisOptions &AOpts,
                        const PlacementOptions &POpts = PlacementOptions());

/// Existing barriers (and split-barrier signals) that order nothing: with
/// the placement in \p R, removing one of them alone would open no window.
/// Checked for at most \p Limit barriers (one analysis each).
std::vector<EventRef> redundantBarriers(const AbstractProgram &P,
                                        const AnalysisOptions &Opts,
                                        const Placement &R,
                                        unsigned Limit = 32);

/// The candidate points of the program: just before each access and at the
/// end of each reachable block where a barrier is allowed and no split
/// barrier's signal is pending. Any other point can be moved to the next
/// candidate in its block without uncovering a window, so these suffice for
/// optimality.
std::vector<Point> candidatePoints(const AbstractProgram &P);

/// The points among \p Candidates that lie on every path of window \p W.
/// \p IDomFromProducerBlock are immediate dominators of the block graph
/// extended with a root node (index Blocks.size()) whose successors are those
/// of the producer's block.
std::vector<unsigned> cuttingCandidates(const AbstractProgram &P,
                                        const Window &W,
                                        const std::vector<Point> &Candidates,
                                        const std::vector<int> &IDom);

/// Whether the point \p At lies on every path of window \p W (same \p IDom
/// as cuttingCandidates).
bool pointCutsWindow(const AbstractProgram &P, Point At, const Window &W,
                     const std::vector<int> &IDom);

/// Immediate dominators for cuttingCandidates.
std::vector<int> dominatorsFromBlockExit(const AbstractProgram &P,
                                         unsigned Block);

} // namespace ldsbarriers
} // namespace llvm

#endif
