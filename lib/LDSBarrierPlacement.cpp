//===- LDSBarrierPlacement.cpp - Choose where barriers go -----------------===//
//
// The optimal placement as a sequence of steps (placeOptimally): the shared
// ones of LDSPlacementSteps.h around its own: the windows that matter, the
// cover (a minimum hitting set, LDSHittingSet.h, or ranges on large
// instances), and the final check and repair.
//
//===----------------------------------------------------------------------===//

#include "LDSBarrierPlacement.h"
#include "LDSHittingSet.h"
#include "LDSPlacementSteps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

using namespace llvm;
using namespace llvm::ldsbarriers;

#define DEBUG_TYPE "amdgpu-lds-barriers"

/// Prints \p Pt as bb.Block:Index, the program's own numbering.
[[maybe_unused]] static raw_ostream &operator<<(raw_ostream &OS, Point Pt) {
  return OS << "bb." << Pt.Block << ":" << Pt.Index;
}

/// Per key, the window of its latest producer.
using LatestWindows = std::map<ProducerKey, unsigned>;

/// Across blocks: when every path from a far producer's block to the
/// consumer runs through the whole block of a nearer producer of the same
/// kind, the near window's cutting points are a subset of the far one's and
/// its wait completes the far producer too: the far one is dropped.
/// \p OnChain stamps the blocks on the far producer's path.
static void dropFarProducers(const AbstractProgram &P, PathCuts &PC,
                             const std::vector<Window> &Ws,
                             const LatestWindows &Latest,
                             std::vector<uint8_t> &Keep,
                             std::vector<unsigned> &OnChain, unsigned &Stamp) {
  std::map<std::tuple<unsigned, unsigned, bool>, SmallVector<unsigned, 4>>
      Groups;
  for (const auto &[Key, I] : Latest) {
    // An anchored window's producers are not issued at its start: the
    // nesting argument does not hold for them.
    if (Ws[I].isAnchored())
      continue;
    const Event &A = P.event(Ws[I].Producer);
    Groups[{unsigned(A.Ctr), unsigned(A.OrderClass), A.InOrder}].push_back(I);
  }
  for (const auto &[Key, Group] : Groups) {
    if (Group.size() < 2 || Group.size() > 4096)
      continue;
    for (unsigned Far : Group) {
      unsigned BF = Ws[Far].Producer.Block, BB = Ws[Far].Consumer.Block;
      // A producer earlier in the consumer's own block reaches it
      // without leaving the block: no other block is on that path.
      if (BF == BB && Ws[Far].Producer.Index < Ws[Far].Consumer.Index)
        continue;
      // An approximated path is the dominator chain: membership is a
      // constant-time dominance test, not a walk of the chain.
      bool Chain = PC.approximates(BF, BB);
      if (!Chain) {
        ++Stamp;
        PC.forEachBlock(BF, BB, /*Exact=*/false,
                        [&](unsigned D) { OnChain[D] = Stamp; });
      }
      for (unsigned Near : Group) {
        unsigned BN = Ws[Near].Producer.Block;
        if (Near == Far || !Keep[Near] || BN == BF || BN == BB)
          continue;
        if (Chain ? PC.onApproximatePath(BF, BB, BN) : OnChain[BN] == Stamp) {
          Keep[Far] = 0;
          break;
        }
      }
    }
  }
}

/// Placement step 2: the windows that matter. Of the windows of one consumer
/// with one ProducerKey only the latest producer's is kept, and a near
/// producer's over a far one's (dropFarProducers). This keeps the instance
/// near-linear in the number of accesses.
static std::vector<uint8_t>
keepWindowsThatMatter(PlacementContext &C, const std::vector<Window> &Ws) {
  std::vector<uint8_t> Keep(Ws.size(), 0);
  std::vector<unsigned> OnChain(C.P.Blocks.size(), 0);
  unsigned Stamp = 0;
  LatestWindows Latest;
  // The windows come sorted by consumer: each consumer's windows are
  // reduced on their own, keys in sorted order.
  for (unsigned Lo = 0, Hi; Lo < Ws.size(); Lo = Hi) {
    Latest.clear();
    for (Hi = Lo; Hi < Ws.size() && Ws[Hi].Consumer == Ws[Lo].Consumer; ++Hi) {
      // Instances of one instruction from different iterations complete
      // at different counts: each keeps its own window.
      auto [It, New] = Latest.try_emplace(producerKey(C.P, Ws[Hi]), Hi);
      if (!New && Ws[It->second].start().Index < Ws[Hi].start().Index)
        It->second = Hi;
    }
    for (const auto &[Key, I] : Latest)
      Keep[I] = 1;
    dropFarProducers(C.P, *C.Paths, Ws, Latest, Keep, OnChain, Stamp);
  }
  return Keep;
}

/// Placement step 2b: drops the windows of plain LDS producers (complete at
/// any barrier's zero LDS wait) whose cutting points contain a kept window's
/// in one consumer block, so that any cover of the kept one covers them:
/// - a window entering the block contains a direct window (producer and
///   consumer in the block) with a legal point no later than its consumer;
/// - of two windows from one start block (not anchored), the later
///   consumer's whose start is not after the other's contains the other's.
/// This removes the longest cutting sets (chains of uniform diamonds).
/// Windows of other iterations are left alone; step 5 re-verifies all.
static void
dropNestedWindows(const AbstractProgram &P, const std::vector<Window> &Ws,
                  const std::vector<std::vector<uint8_t>> &IsCandidate,
                  std::vector<uint8_t> &Keep) {
  auto Plain = [&](const Window &W) {
    const Event &A = P.event(W.Producer);
    return !W.Iteration && A.Ctr == Counter::LDS && A.InOrder && !A.Async &&
           A.OrderClass == 0;
  };
  auto Direct = [](const Window &W) {
    Point St = W.start();
    return St.Block == W.Consumer.Block && St.Index <= W.Consumer.Index;
  };
  // Per block, the first consumer of a direct window with a legal point.
  std::vector<unsigned> FirstCovered(P.Blocks.size(), ~0u);
  for (unsigned I = 0; I < Ws.size(); ++I) {
    const Window &W = Ws[I];
    unsigned B = W.Consumer.Block;
    if (!Keep[I] || W.isAnchored() || !Direct(W) || !Plain(W) ||
        W.Consumer.Index >= FirstCovered[B])
      continue;
    if (llvm::any_of(llvm::seq(W.Producer.Index + 1, W.Consumer.Index + 1),
                     [&](unsigned K) { return IsCandidate[B][K]; }))
      FirstCovered[B] = W.Consumer.Index;
  }
  // Windows come sorted by consumer: per consumer block, the latest start
  // index of each start block among the windows kept so far.
  DenseMap<unsigned, unsigned> LatestStart;
  unsigned Block = ~0u;
  for (unsigned I = 0; I < Ws.size(); ++I) {
    const Window &W = Ws[I];
    if (W.Consumer.Block != Block) {
      Block = W.Consumer.Block;
      LatestStart.clear();
    }
    if (!Keep[I] || Direct(W) || !Plain(W))
      continue;
    if (W.Consumer.Index >= FirstCovered[Block]) {
      Keep[I] = 0;
      continue;
    }
    if (W.isAnchored())
      continue;
    Point St = W.start();
    auto [It, New] = LatestStart.try_emplace(St.Block, St.Index);
    if (!New && It->second >= St.Index)
      Keep[I] = 0;
    else
      It->second = St.Index;
  }
}

/// Instances whose cutting sets hold more points than this in total are
/// placed from ranges of candidate numbers, without listing the points.
static constexpr uint64_t LargeCutPoints = 1u << 18;
/// ... when their windows' cutting sets are this long on average.
static constexpr uint64_t LongCutSet = 256;

/// The windows \p Order (by their last point) each take, unless a chosen
/// point already cuts them, the latest point of their least frequently
/// executed block. Each is served by the one barrier that cut it when its
/// turn came: listing every barrier on its paths would be quadratic again.
static Cover coverRangesGreedily(const PlacementContext &C,
                                 const std::vector<CandRanges> &Ranges,
                                 const std::vector<unsigned> &Order) {
  std::set<unsigned> ChosenSet;
  std::vector<unsigned> CutBy(Ranges.size(), ~0u);
  for (unsigned I : Order) {
    for (CandRange X : Ranges[I]) {
      auto It = ChosenSet.lower_bound(X.first);
      if (It != ChosenSet.end() && *It < X.second) {
        CutBy[I] = *It;
        break;
      }
    }
    if (CutBy[I] != ~0u)
      continue;
    // The ranges are disjoint and ascending: a later one wins ties.
    double Best = 0;
    for (CandRange X : Ranges[I]) {
      double F = C.freq(X.first);
      if (CutBy[I] == ~0u || compareCosts(F, Best) <= 0) {
        Best = F;
        CutBy[I] = X.second - 1;
      }
    }
    ChosenSet.insert(CutBy[I]);
  }
  std::vector<unsigned> Chosen(ChosenSet.begin(), ChosenSet.end());
  Cover Cv;
  for (unsigned G : Chosen)
    Cv.Points.push_back(C.Cands[G]);
  Cv.ServedBy.assign(Chosen.size(), {});
  for (unsigned I : Order) {
    unsigned K = llvm::lower_bound(Chosen, CutBy[I]) - Chosen.begin();
    Cv.ServedBy[K].push_back(I);
  }
  return Cv;
}

/// Placement step 3, large instances (loop nests of thousands of accesses):
/// each kept window's cutting set stays a few ranges of candidate numbers,
/// covered greedily; near-linear, not proven optimal. Returns nothing on
/// smaller instances.
static std::optional<Cover> coverLargeInstance(PlacementContext &C,
                                               const std::vector<Window> &Ws,
                                               std::vector<uint8_t> &Keep,
                                               bool &Restricted,
                                               Placement &Result) {
  std::vector<CandRanges> Ranges(Ws.size());
  uint64_t Total = 0, Kept = 0;
  auto Compute = [&](unsigned I) {
    Ranges[I] = cuttingCandRanges(C.P, Ws[I], C.Cands, *C.Paths);
    Restricted |= keepPointsPastAsyncIssue(
        C.P, C.POpts.AsyncLatency, Ws[I], Ranges[I],
        [&](CandRange X) { return C.Cands[X.first].Block; });
    for (CandRange X : Ranges[I])
      Total += X.second - X.first;
  };
  for (unsigned I = 0; I < Ws.size(); ++I)
    if (Keep[I]) {
      Compute(I);
      ++Kept;
    }
  // Many windows with short cutting sets (wide CFGs) split into small
  // components the exact search handles; long sets are what it cannot.
  if (Total <= LargeCutPoints || Total <= LongCutSet * Kept)
    return std::nullopt;
  reviveStuckSiblings(
      Ws, Keep, [&](unsigned I) { return Ranges[I].empty(); }, Compute);
  std::vector<unsigned> Order;
  for (unsigned I = 0; I < Ws.size(); ++I) {
    if (!Keep[I])
      continue;
    if (Ranges[I].empty())
      Result.Uncoverable.push_back(Ws[I]);
    else
      Order.push_back(I);
  }
  llvm::sort(Order, [&](unsigned A, unsigned B) {
    return std::make_pair(Ranges[A].back().second, A) <
           std::make_pair(Ranges[B].back().second, B);
  });
  Cover Cv = coverRangesGreedily(C, Ranges, Order);
  Result.ProvenOptimal = false;
  LLVM_DEBUG({
    dbgs() << "cover (greedy, " << Total << " cutting points in "
           << Order.size() << " windows):";
    for (Point Pt : Cv.Points)
      dbgs() << " " << Pt;
    dbgs() << "\n";
  });
  return Cv;
}

/// Placement step 3: the cutting candidates of the kept windows covered by a
/// minimum hitting set of independent components, the cost of a point being
/// how often its block executes.
static Cover coverExactly(PlacementContext &C, const std::vector<Window> &Ws,
                          std::vector<uint8_t> &Keep, bool &Restricted,
                          Placement &Result) {
  std::vector<std::vector<unsigned>> Cuts =
      cutKeptWindows(C, Ws, Keep, Restricted, Result);
  std::vector<double> Cost(C.Cands.size());
  for (unsigned G = 0; G < C.Cands.size(); ++G)
    Cost[G] = C.freq(G);
  LLVM_DEBUG({
    for (unsigned I = 0; I < Ws.size(); ++I) {
      if (!Keep[I])
        continue;
      dbgs() << "cut: window " << Ws[I].Producer << " -> " << Ws[I].Consumer
             << ":";
      for (unsigned G : Cuts[I])
        dbgs() << " " << C.Cands[G];
      dbgs() << "\n";
    }
  });
  HittingSet HS = solveHittingSet(Cuts, Cost, C.POpts.SearchBudget);
  Result.ProvenOptimal &= HS.Optimal;
  LLVM_DEBUG({
    dbgs() << "cover (" << (HS.Optimal ? "optimal" : "search budget spent")
           << "):";
    for (unsigned G : HS.Points)
      dbgs() << " " << C.Cands[G];
    dbgs() << "\n";
  });
  return coverByCandidates(C, HS.Points, Cuts);
}

/// Placement step 5: the result is checked, not assumed: every window, not
/// only the minimal ones, must be gone but the uncoverable ones. One left
/// over (its minimal sibling had no legal point, or a bug in the cutting
/// rules) gets a barrier at its latest legal cutting point.
static void repairLeftWindows(PlacementContext &C, Placement &Result) {
  const AbstractProgram &P = C.P;
  AnalysisOptions AllWindows = C.AOpts;
  AllWindows.MinimalWindows = false;
  for (unsigned Round = 0;; ++Round) {
    std::vector<Window> Left;
    for (const Window &W :
         analyzeHazards(P, AllWindows, Result.augmentation()).Windows)
      if (llvm::none_of(Result.Uncoverable, [&](const Window &U) {
            return U.Producer == W.Producer && U.Consumer == W.Consumer;
          }))
        Left.push_back(W);
    if (Left.empty() || Round == 8)
      break;
    LLVM_DEBUG(dbgs() << "repair: " << Left.size()
                      << " windows left by the cover\n");
    Result.ProvenOptimal = false;
    for (const Window &W : Left) {
      std::vector<unsigned> Cut = cuttingCandidates(P, W, C.Cands, *C.Paths);
      if (Cut.empty()) {
        Result.Uncoverable.push_back(W);
        continue;
      }
      // An existing new barrier at the point becomes monolithic and waits
      // for W's counter too.
      Point At = C.Cands[Cut.back()];
      CounterMask M = counterBit(P.event(W.Producer).Ctr);
      bool Present = false;
      for (auto &NB : Result.Barriers)
        if (NB.At == At) {
          NB.SignalAt = At;
          NB.Waits |= WaitThresholds::zero(M);
          Present = true;
        }
      if (Present)
        continue;
      Result.Barriers.push_back({At, M});
      Result.Serves.push_back({});
      Result.Cost += P.Blocks[At.Block].Freq;
    }
  }
}

/// One optimal placement under \p POpts; \p Restricted tells whether the
/// asynchronous latency preference took points away from some window.
static Placement placeOptimally(const AbstractProgram &P,
                                const AnalysisOptions &Options,
                                const PlacementOptions &POpts,
                                bool &Restricted) {
  PlacementContext C(P, Options, POpts, /*PruneAnalysis=*/true);
  Placement Result;
  if (!findWindowsToCover(C, Result))
    return Result;
  const std::vector<Window> &Ws = Result.Windows;
  std::vector<uint8_t> Keep = keepWindowsThatMatter(C, Ws);
  dropNestedWindows(P, Ws, C.IsCandidate, Keep);
  LLVM_DEBUG(dbgs() << "windows: " << Result.InitialWindows.size()
                    << " in the input, " << Ws.size()
                    << " left once existing barriers are completed, "
                    << llvm::count(Keep, 1) << " kept to cover, of "
                    << C.Cands.size() << " candidate points\n");
  std::optional<Cover> Cv = coverLargeInstance(C, Ws, Keep, Restricted, Result);
  if (!Cv)
    Cv = coverExactly(C, Ws, Keep, Restricted, Result);
  recordBarriers(C, std::move(*Cv), Result);
  splitSignals(C, Result);
  setBarrierWaits(C, Result);
  repairLeftWindows(C, Result);
  addInFlightWaits(C, Result);
  return Result;
}

Placement llvm::ldsbarriers::placeBarriers(const AbstractProgram &P,
                                           const AnalysisOptions &Options,
                                           const PlacementOptions &POpts) {
  bool Restricted = false;
  Placement Result = placeOptimally(P, Options, POpts, Restricted);
  // The asynchronous latency preference yields to the placement without it
  // when that one is better in barrier executions or barriers and worse in
  // neither (not when it saves executions only with an extra barrier).
  if (Restricted) {
    PlacementOptions Plain = POpts;
    Plain.AsyncLatency = false;
    Placement Other = placeOptimally(P, Options, Plain, Restricted);
    Score Ours{unsigned(Result.Barriers.size()), Result.Cost};
    if (Score{unsigned(Other.Barriers.size()), Other.Cost}.dominates(Ours))
      Result = std::move(Other);
  }
  // Accesses in the concurrent arms of a per-wave branch: the analysis
  // above sees them only along a path, if any, and no barrier orders them.
  // Each pair is reported once, as what it is.
  std::vector<Window> Arms = concurrentArmWindows(P, Options);
  LLVM_DEBUG(if (!Arms.empty()) dbgs()
             << "concurrent arms: " << Arms.size() << " pairs\n");
  std::set<std::pair<EventRef, EventRef>> Pairs;
  for (const Window &W : Arms)
    Pairs.insert({W.Producer, W.Consumer});
  llvm::erase_if(Result.Uncoverable, [&](const Window &W) {
    return Pairs.count(
        {std::min(W.Producer, W.Consumer), std::max(W.Producer, W.Consumer)});
  });
  llvm::append_range(Result.Uncoverable, Arms);
  return Result;
}
