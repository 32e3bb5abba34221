//===- LDSBarrierPlacement.h - Choose where barriers go -------------------===//
//
// Placement works on the abstract program only. It first completes existing
// barriers that a pending producer reaches (adding the wait they lack is
// cheaper than a second barrier), then covers the remaining windows with the
// fewest barrier executions (lowest total block frequency), then the fewest
// new barriers: an exact minimum hitting set over single points that cut
// every path of a window (LDSHittingSet.h). The steps are in
// LDSPlacementSteps.h.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSBARRIERPLACEMENT_H
#define AMDGPU_LDS_BARRIERS_LDSBARRIERPLACEMENT_H

#include "LDSHazardAnalysis.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <array>
#include <map>
#include <vector>

namespace llvm {
namespace ldsbarriers {

struct PlacementOptions {
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
  /// Functions whose windows start in more blocks than this take the blocks
  /// on all paths between two blocks from the function's dominator tree
  /// (PathCuts): the exact computation is linear per starting block.
  unsigned ExactPathBlocks = 64;
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
  /// Whether the barrier set is proven minimal (frequency, then count)
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

/// The blocks executed in full on every path from the exit of one block to
/// the entry of another. Exact: the dominators of the second block in the
/// CFG rooted at the first block's exit (computed per first block, cached:
/// linear each; in functions large enough for the approximation, per pair
/// of blocks, over the blocks on some path between them only). Approximate
/// (functions with many producer blocks, for windows that go forward in reverse
/// post-order): the dominators of the second block in the function's own
/// dominator tree that do not dominate the first: every path from the entry to
/// the first block and on to the second passes them, and some path to the first
/// avoids them, so they lie on the part after the first. A subset: the
/// placement may miss a cheaper point, never take a point that does not cut.
class PathCuts {
public:
  PathCuts(const AbstractProgram &P, bool Approximate);
  ~PathCuts();
  /// Calls \p F with each such block from \p From's exit to \p To, nearest
  /// to \p To first; none when \p To cannot be reached. \p Exact forces
  /// the exact set.
  void forEachBlock(unsigned From, unsigned To, bool Exact,
                    function_ref<void(unsigned)> F);
  /// Blocks visited so far finding exact blocks with the approximation on
  /// (the cost that must stay linear; tests read it).
  uint64_t walkedBlocks() const { return WalkedBlocks; }
  /// Whether forEachBlock(From, To, false, ...) may give a subset.
  bool approximates(unsigned From, unsigned To) const;
  /// When approximates(From, To): whether forEachBlock(From, To, false, ...)
  /// calls F with \p X, in constant time (a strict dominator of To that
  /// does not dominate From).
  bool onApproximatePath(unsigned From, unsigned To, unsigned X) const {
    auto Dom = [&](unsigned A, unsigned B) {
      return Pre[A] && Pre[A] <= Pre[B] && Post[B] <= Post[A];
    };
    return X != To && Dom(X, To) && !Dom(X, From);
  }

private:
  const std::vector<int> &exactDominators(unsigned From);
  const std::vector<unsigned> &exactChain(unsigned From, unsigned To);
  const AbstractProgram &P;
  bool Approximate;
  std::map<unsigned, std::vector<int>> ByBlock;
  /// With the approximation on (large functions): the exact chains per
  /// pair of blocks; each block's component in topological order
  /// (AbstractProgram::componentOrder), and the marks of the blocks that
  /// reach the consumer block of the latest chain (== Walk).
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> ByPair;
  std::vector<unsigned> Component;
  std::vector<unsigned> ReachStamp;
  unsigned Walk = 0;
  uint64_t WalkedBlocks = 0;
  std::vector<SmallVector<unsigned, 2>> Preds;
  std::vector<int> IDom;           // Of the function's dominator tree.
  std::vector<unsigned> Pre, Post; // Its DFS numbers, for dominance.
  std::vector<unsigned> Rank;      // Reverse post-order numbers.
};

/// The points among \p Candidates that lie on every path of window \p W,
/// exactly when \p Exact or when the approximation leaves none.
std::vector<unsigned> cuttingCandidates(const AbstractProgram &P,
                                        const Window &W,
                                        const std::vector<Point> &Candidates,
                                        PathCuts &Cuts, bool Exact = false);

/// Whether the point \p At lies on every path of window \p W (possibly
/// answering no for a point that does, when approximating).
bool pointCutsWindow(const AbstractProgram &P, Point At, const Window &W,
                     PathCuts &Cuts);

} // namespace ldsbarriers
} // namespace llvm

#endif
