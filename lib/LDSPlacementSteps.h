//===- LDSPlacementSteps.h - Steps shared by the placement strategies -----===//
//
// Placement as a sequence of steps over one context: its options, its result
// (Placement), the candidate points and the blocks on all paths between two
// blocks (PathCuts). The optimal placement (LDSBarrierPlacement.cpp) and the
// benchmarks' comparison strategies (utils/bench/PlacementStrategies.cpp)
// share every step but the choice of points.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSPLACEMENTSTEPS_H
#define AMDGPU_LDS_BARRIERS_LDSPLACEMENTSTEPS_H

#include "LDSHazardAnalysis.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <vector>

namespace llvm {
namespace ldsbarriers {

struct PlacementOptions {
  /// Branch-and-bound nodes for the whole function before the search
  /// settles for the best covers found so far.
  unsigned SearchBudget = 2000;
  /// Keep an asynchronous transfer's barrier out of the transfer's own block
  /// (keepPointsPastAsyncIssue) unless that costs more.
  bool AsyncLatency = true;
  /// Split barriers (gfx12): hoist each barrier's signal away from its wait.
  bool Split = false;
  /// Workgroups of one wave: no barriers, only the counter waits that
  /// asynchronous transfers need before the wave's own later accesses.
  bool SingleWave = false;
  /// Functions whose windows start in more blocks than this approximate
  /// PathCuts: the exact computation is linear per starting block.
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

  /// The synchronization the analysis assumes and the pass emits.
  Augmentation augmentation() const {
    return {Barriers, CompletedBarriers, Waits, {}};
  }
};

/// The points before each access and at the end of each reachable block
/// where a barrier is allowed and no split barrier's signal is pending: any
/// other point moves to the next of these without uncovering a window.
std::vector<Point> candidatePoints(const AbstractProgram &P);

/// The blocks executed in full on every path from the exit of one block to
/// the entry of another. Exact: the dominators of the second block in the
/// CFG rooted at the first block's exit. Approximate (many producer blocks,
/// windows forward in reverse post-order): the second block's dominators
/// that do not dominate the first, which lie after the first. A subset:
/// placement may miss a cheaper point, never take one that does not cut.
class PathCuts {
public:
  PathCuts(const AbstractProgram &P, bool Approximate);
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
  /// calls F with \p X, in constant time.
  bool onApproximatePath(unsigned From, unsigned To, unsigned X) const {
    return X != To && dominates(X, To) && !dominates(X, From);
  }

private:
  bool dominates(unsigned A, unsigned B) const {
    return Pre[A] && Pre[A] <= Pre[B] && Post[B] <= Post[A];
  }
  const std::vector<unsigned> &exactChain(unsigned From, unsigned To);
  const AbstractProgram &P;
  bool Approximate;
  std::map<unsigned, std::vector<int>> ByBlock;
  /// With the approximation on: the exact chains per pair of blocks, each
  /// block's componentOrder, and the blocks that reach the consumer block of
  /// the latest chain (ReachStamp == Walk).
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> ByPair;
  std::vector<unsigned> Component, ReachStamp;
  unsigned Walk = 0;
  uint64_t WalkedBlocks = 0;
  std::vector<SmallVector<unsigned, 2>> Preds;
  std::vector<int> IDom;           // Of the function's dominator tree.
  std::vector<unsigned> Pre, Post; // Its DFS numbers, for dominance.
  std::vector<unsigned> Rank;      // Reverse post-order numbers.
};

/// Candidate numbers [first, last).
using CandRange = std::pair<unsigned, unsigned>;
using CandRanges = SmallVector<CandRange, 4>;

/// The points among \p Candidates (sorted) that lie on every path of window
/// \p W, exactly when the approximation leaves none, as merged ranges of
/// candidate numbers in order: a block on all paths is one range.
CandRanges cuttingCandRanges(const AbstractProgram &P, const Window &W,
                             const std::vector<Point> &Candidates,
                             PathCuts &Cuts);
/// The same points, listed.
std::vector<unsigned> cuttingCandidates(const AbstractProgram &P,
                                        const Window &W,
                                        const std::vector<Point> &Candidates,
                                        PathCuts &Cuts);

/// What every step of one placement reads.
struct PlacementContext {
  /// \p PruneAnalysis: the analysis prunes its state at the candidate points
  /// (AnalysisOptions::Pruning), reporting the windows that imply the rest.
  PlacementContext(const AbstractProgram &P, const AnalysisOptions &Options,
                   const PlacementOptions &POpts, bool PruneAnalysis);

  const AbstractProgram &P;
  const PlacementOptions &POpts;
  /// candidatePoints(P), and the same as a flag per point.
  std::vector<Point> Cands;
  std::vector<std::vector<uint8_t>> IsCandidate;
  /// The options of every analysis the placement runs.
  AnalysisOptions AOpts;
  /// The blocks on all paths between two blocks; set by findWindowsToCover.
  std::optional<PathCuts> Paths;
  /// The analysis of the input with the waits findWindowsToCover added to
  /// its barriers, kept for the pending accesses at later points.
  std::optional<HazardAnalysis> Run;

  /// How often a barrier at candidate \p Cand executes.
  double freq(unsigned Cand) const { return P.Blocks[Cands[Cand].Block].Freq; }
};

/// Chosen barrier points and the windows (of Placement::Windows) each serves.
struct Cover {
  std::vector<Point> Points;
  std::vector<std::vector<unsigned>> ServedBy;
};

/// The input's windows (Result.InitialWindows), and placement step 1: the
/// existing barriers completed, leaving in Result.Windows what new barriers
/// must cover. Returns false when there is nothing to cover (or the
/// workgroup is one wave): \p Result is then complete.
bool findWindowsToCover(PlacementContext &C, Placement &Result);

/// How many times as many barrier executions keeping an asynchronous
/// transfer in flight past its own block may cost: a barrier in the
/// transfer's block waits for it right after the issue, with nothing to
/// overlap; one in a block that runs a lot more often costs more than it
/// saves (a DMA before a loop is waited for before the loop, not in it).
constexpr double AsyncLatencyWorth = 2.0;

/// Of window \p W's cutting points \p Items (points or ranges of them,
/// \p BlockOf giving an item's block), keeps those past the block of its
/// asynchronous producer, when its consumer is in another block, there are
/// some and they do not run much more often (AsyncLatencyWorth). Returns
/// whether items were dropped.
template <typename ContainerT, typename BlockFnT>
bool keepPointsPastAsyncIssue(const AbstractProgram &P, bool AsyncLatency,
                              const Window &W, ContainerT &Items,
                              BlockFnT BlockOf) {
  const Point &From = W.Producer;
  if (!AsyncLatency || !P.event(From).Async || From.Block == W.Consumer.Block)
    return false;
  ContainerT Later;
  double LaterFreq = 0;
  for (const auto &X : Items)
    if (BlockOf(X) != From.Block) {
      double F = P.Blocks[BlockOf(X)].Freq;
      LaterFreq = Later.empty() ? F : std::min(LaterFreq, F);
      Later.push_back(X);
    }
  if (!Later.empty() && Later.size() < Items.size() &&
      LaterFreq <= AsyncLatencyWorth * P.Blocks[From.Block].Freq) {
    Items = std::move(Later);
    return true;
  }
  return false;
}

/// A kept window without any legal point does not cover its siblings (its
/// consumer's windows from its start block, dropped as implied by it), which
/// may have points of their own: keeps them, calling \p Compute for each.
void reviveStuckSiblings(const std::vector<Window> &Ws,
                         std::vector<uint8_t> &Keep,
                         function_ref<bool(unsigned)> HasNoPoint,
                         function_ref<void(unsigned)> Compute);

/// The cutting candidates of each window \p Keep marks (none for the
/// others), after keepPointsPastAsyncIssue (\p Restricted: it dropped
/// some) and reviveStuckSiblings. Kept windows without any go to
/// Result.Uncoverable.
std::vector<std::vector<unsigned>>
cutKeptWindows(PlacementContext &C, const std::vector<Window> &Ws,
               std::vector<uint8_t> &Keep, bool &Restricted, Placement &Result);

/// The cover by the candidates \p Chosen (ascending): each serves the
/// windows whose cutting candidates \p Cuts hold it.
Cover coverByCandidates(const PlacementContext &C,
                        const std::vector<unsigned> &Chosen,
                        const std::vector<std::vector<unsigned>> &Cuts);

/// Placement step 4: record what each barrier serves and the counters it
/// must wait for.
void recordBarriers(const PlacementContext &C, Cover Cv, Placement &Result);

/// With PlacementOptions::Split, hoists each new barrier's signal away from
/// its wait (pairSignals).
void splitSignals(const PlacementContext &C, Placement &Result);

/// Placement step 4b: exact counter values where each signal (or barrier) is.
void setBarrierWaits(const PlacementContext &C, Placement &Result);

/// Adds, before each access that meets an asynchronous transfer of its own
/// wave still in flight on some path, the exact counter wait for it.
void addInFlightWaits(const PlacementContext &C, Placement &Result);

} // namespace ldsbarriers
} // namespace llvm

#endif
