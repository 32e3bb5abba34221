//===- LDSPlacementSteps.h - Steps shared by the placement strategies -----===//
//
// Placement as a sequence of steps over one context. The optimal placement
// (LDSBarrierPlacement.cpp) and the comparison strategies of the
// benchmarks (utils/bench/PlacementStrategies.cpp) share the steps around the
// choice of points: the input's windows, completing existing barriers, the
// cutting points of the windows kept, recording the chosen barriers, their
// exact waits and the waits a wave needs for its own transfers.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSPLACEMENTSTEPS_H
#define AMDGPU_LDS_BARRIERS_LDSPLACEMENTSTEPS_H

#include "LDSBarrierPlacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <algorithm>
#include <optional>
#include <tuple>
#include <vector>

namespace llvm {
namespace ldsbarriers {

/// What every step of one placement reads.
struct PlacementContext {
  /// \p PruneAnalysis: the analysis prunes its state at the candidate points
  /// (AnalysisOptions::Pruning) and reports the windows that imply the rest;
  /// without it (the comparison strategies) every window.
  PlacementContext(const AbstractProgram &P, const AnalysisOptions &Options,
                   const PlacementOptions &POpts, bool PruneAnalysis);
  PlacementContext(const PlacementContext &) = delete;
  PlacementContext &operator=(const PlacementContext &) = delete;

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

/// Chosen barrier points and, for each, the windows (of
/// Placement::Windows) it serves.
struct Cover {
  std::vector<Point> Points;
  std::vector<std::vector<unsigned>> ServedBy;
};

/// The first steps of every strategy: the input's windows
/// (Result.InitialWindows), and placement step 1, the existing barriers
/// completed, which leaves in Result.Windows what new barriers must cover.
/// Returns false when there is nothing to cover (or the workgroup is one
/// wave): \p Result is then complete, with the same-wave waits only.
bool findWindowsToCover(PlacementContext &C, Placement &Result);

/// How many times as many barrier executions keeping an asynchronous
/// transfer in flight past its own block may cost: a barrier in the
/// transfer's block waits for it right after the issue, with nothing to
/// overlap; one in a block that runs a lot more often costs more than it
/// saves (a DMA before a loop is waited for before the loop, not in it).
constexpr double AsyncLatencyWorth = 2.0;

/// Whether keepPointsPastAsyncIssue may take points from window \p W: its
/// producer is an asynchronous transfer issued in another block than its
/// consumer, and the preference is on.
inline bool asyncLatencyMayRestrict(const AbstractProgram &P, bool AsyncLatency,
                                    const Window &W) {
  return AsyncLatency && P.event(W.Producer).Async &&
         W.Producer.Block != W.Consumer.Block;
}

/// An asynchronous transfer is waited for at the barrier that covers it:
/// one in the transfer's own block would stall right after the issue, with
/// nothing to overlap. Prefer the points further on when there are and they
/// do not run much more often (AsyncLatencyWorth). \p Items are window
/// \p W's cutting points in any form (points, ranges of them), \p BlockOf
/// an item's block. Returns whether items were dropped.
template <typename ContainerT, typename BlockFnT>
bool keepPointsPastAsyncIssue(const AbstractProgram &P, bool AsyncLatency,
                              const Window &W, ContainerT &Items,
                              BlockFnT BlockOf) {
  const Point &From = W.Producer;
  if (!asyncLatencyMayRestrict(P, AsyncLatency, W))
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

/// A kept window without any legal point does not cover its siblings (the
/// windows of its consumer from its start block, dropped as implied by it):
/// they may have legal points of their own. Keeps them, calling \p Compute
/// for each; \p HasNoPoint tells a kept window without points.
void reviveStuckSiblings(const std::vector<Window> &Ws,
                         std::vector<uint8_t> &Keep,
                         function_ref<bool(unsigned)> HasNoPoint,
                         function_ref<void(unsigned)> Compute);

/// The ranges of points (block, first index, last index) that lie on every
/// path of \p W.
std::vector<std::tuple<unsigned, unsigned, unsigned>>
cuttingRanges(const AbstractProgram &P, const Window &W, PathCuts &Cuts,
              bool Exact);

/// The cutting candidates of each window \p Keep marks (none for the
/// others), after keepPointsPastAsyncIssue (\p Restricted: it dropped
/// some) and reviveStuckSiblings. Kept windows without any go to
/// Result.Uncoverable.
/// \p Known, if given, may fill in window I's points itself (returning
/// true), when they are known already.
std::vector<std::vector<unsigned>> cutKeptWindows(
    PlacementContext &C, const std::vector<Window> &Ws,
    std::vector<uint8_t> &Keep, bool &Restricted, Placement &Result,
    function_ref<bool(unsigned, std::vector<unsigned> &)> Known = nullptr);

/// The cover by the candidates \p Chosen (ascending): each serves the
/// windows whose cutting candidates \p Cuts hold it.
Cover coverByCandidates(const PlacementContext &C,
                        const std::vector<unsigned> &Chosen,
                        const std::vector<std::vector<unsigned>> &Cuts);

/// Placement step 4: record what each barrier serves and the counters it
/// must wait for.
void recordBarriers(const PlacementContext &C, Cover Cv, Placement &Result);

/// Split barriers (PlacementOptions::Split): each new barrier's signal
/// hoisted away from its wait (pairSignals).
void splitSignals(const PlacementContext &C, Placement &Result);

/// Placement step 4b: exact counter values where each signal (or barrier)
/// is.
void setBarrierWaits(const PlacementContext &C, Placement &Result);

/// Adds, before each access that meets an asynchronous transfer of its own
/// wave still in flight on some path, the exact counter wait for it.
void addInFlightWaits(const PlacementContext &C, Placement &Result);

} // namespace ldsbarriers
} // namespace llvm

#endif
