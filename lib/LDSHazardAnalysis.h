//===- LDSHazardAnalysis.h - Cross-wave LDS hazard windows ----------------===//
//
// Forward "may" dataflow over the abstract program, to a fixpoint, that finds
// every hazard window: a pair (producer, consumer) of conflicting LDS
// accesses such that some path from the producer reaches the consumer
// without passing a barrier at which the producer is complete. Back-edges
// are ordinary edges, so iteration i+1 meets iteration i.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSHAZARDANALYSIS_H
#define AMDGPU_LDS_BARRIERS_LDSHAZARDANALYSIS_H

#include "LDSAbstractProgram.h"
#include "llvm/ADT/ArrayRef.h"
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace llvm {
namespace ldsbarriers {

/// Why two accesses conflict.
enum class HazardKind : uint8_t {
  RAW,    // Write (or DMA) then read.
  WAR,    // Read then write.
  WAW,    // Write then write (only with AnalysisOptions::WAW).
  Atomic, // Read-modify-write against anything but the same commutative op.
  Opaque, // Either side is opaque.
};
StringRef getHazardKindName(HazardKind K);

/// Where the state may forget the entries whose windows other entries imply,
/// which keeps it, and so the analysis, near-linear (Design.rst, "Pruning
/// the state"). The windows and pending accesses found are then a subset
/// that implies the rest, for synchronization added at pruning points only:
/// barriers at pruning points that order the producer of every window found
/// before its consumer order those of every window.
struct StatePruning {
  /// Points[B][I]: (B, I) is a pruning point. Null: no pruning (every window
  /// is reported). The rules:
  /// - an access X right before a pruning point drops the earlier entries
  ///   that conflict and complete exactly as X does (same kind, location,
  ///   counter): a path from one of them through X reaches every later
  ///   consumer as a window of X's, which has that pruning point, and a
  ///   barrier that completes X completes them;
  /// - an access X that meets an LDS-counter producer A issued earlier in
  ///   its own block, with a pruning point in between, drops the LDS-counter
  ///   entries issued up to A: barriers that order every window have one
  ///   between A and X, waiting for the LDS counter, on every path through
  ///   X.
  const std::vector<std::vector<uint8_t>> *Points = nullptr;
  /// At the entry of a join block whose first point is a pruning point, more
  /// than this many entries of one key (producers of different blocks,
  /// carried along paths that skip each other's blocks) are merged into one
  /// entry anchored there (Window::Anchor). Sound (a barrier on every path
  /// from the anchor completes them all); the windows lose the part of their
  /// paths before the anchor. Keeps wide CFGs linear. 0: never.
  unsigned MergeAbove = 8;
};

struct AnalysisOptions {
  /// Treat write-after-write as a hazard: between DS writes (WAW), and when
  /// a write is an asynchronous transfer (AsyncWAW).
  bool WAW = false;
  bool AsyncWAW = false;
  /// Record, per consumer, only the latest producer of each ProducerKey: the
  /// windows placement needs (the others are covered whenever these are),
  /// linear in the number of accesses.
  bool MinimalWindows = false;
  /// Where the state may forget implied entries (placement's candidate
  /// points); none by default.
  StatePruning Pruning;
};

/// The hazard \p Later and \p Earlier make by their kinds alone (read,
/// write, atomic operation, opaque, asynchronous), if their bytes meet;
/// none when no bytes could make them conflict.
std::optional<HazardKind> conflictKind(const Event &Earlier, const Event &Later,
                                       const AnalysisOptions &Opts);

/// Numbers \p Accesses by what makes accesses alike for the hazard
/// analysis (kind, counter and order fields, location): \p KeyOf[I] is
/// the number of access I, numbers in order of first appearance; returns
/// each number's first access. Alike accesses conflict with the same
/// accesses and complete alike.
std::vector<unsigned> numberAlikeAccesses(ArrayRef<const Event *> Accesses,
                                          std::vector<unsigned> &KeyOf);

/// For every access of \p P, in block and event order, whether it
/// conflicts with none of them, by kind (the reads of a kernel that only
/// reads LDS) or by bytes (work-items that each keep to their own slots),
/// in any order and any relation of stage iterations: such accesses never
/// make a window, force a barrier or need a wait. Asynchronous transfers
/// are never counted so (their own wave may meet them in flight). The
/// builder's answer (AbstractProgram::SilentAccesses) when it was made
/// under the write-after-write policy of \p Opts; otherwise tested once per
/// number of numberAlikeAccesses, and the accesses the pair tests leave
/// undecided past a budget linear in the accesses count as conflicting.
std::vector<uint8_t> accessesMeetingNoneIn(const AbstractProgram &P,
                                           const AnalysisOptions &Opts);

/// Whether the program's builder found every event of \p P to be an access
/// that meets no access of the function under \p Opts
/// (AbstractProgram::SilentAccesses): then no window, forced barrier or
/// wait can arise, and placement has nothing to do.
bool noAccessMeetsAnother(const AbstractProgram &P,
                          const AnalysisOptions &Opts);

/// Decides whether \p Later, issued by some wave, conflicts with \p Earlier
/// issued by another wave, and why. Both must be accesses; \p Rel relates
/// the iterations of their stage loops (AbstractProgram::relation).
bool accessesConflict(const AbstractProgram &P, const Event &Earlier,
                      const Event &Later, const AnalysisOptions &Opts,
                      HazardKind *Kind = nullptr, IterationRelation Rel = {});

/// A hazard window: some path from Producer reaches Consumer with Producer
/// not ordered before it by a barrier.
struct Window {
  EventRef Producer;
  EventRef Consumer;
  HazardKind Kind;
  /// Where the window's paths are taken to begin when not right after the
  /// producer: the entry of a join block where the analysis merged the
  /// producers of one key (StatePruning::MergeAbove), or of a block
  /// where the producer's iteration of its stage loop ended (only paths
  /// through there conflict); the window then stands for each of them, on
  /// the paths through that entry.
  Point Anchor = {~0u, 0};
  /// The producer's iteration state on the window's paths
  /// (IterationState::code): one instruction may be a producer for the
  /// consumer only when issued some iterations earlier, and only that
  /// instance needs completing.
  unsigned Iteration = 0;
  /// For a window of two accesses in different arms of a branch with
  /// concurrent arms (concurrentArmWindows), the block of that branch: no
  /// path joins them, and no barrier can order them. -1 otherwise.
  int Fork = -1;
  bool isAnchored() const { return Anchor.Block != ~0u; }
  /// The first point of the window's paths.
  Point start() const {
    return isAnchored() ? Anchor : Point{Producer.Block, Producer.Index + 1};
  }
};

/// What makes the producers of two windows of one consumer interchangeable:
/// start block, side of the consumer, counter, order class, in-order
/// completion and iteration state. Of two windows with one key, the one that
/// starts later has a subset of the other's paths, and its wait completes
/// the other's producer too.
using ProducerKey =
    std::tuple<unsigned, bool, unsigned, unsigned, bool, unsigned>;
ProducerKey producerKey(const AbstractProgram &P, const Window &W);

/// The pairs of conflicting accesses that waves taking different arms of a
/// branch with concurrent arms run at the same time
/// (concurrentArmAccesses), each once, the earlier in block order as the
/// producer. No barrier can cover them.
std::vector<Window> concurrentArmWindows(const AbstractProgram &P,
                                         const AnalysisOptions &Opts);

/// Synchronization to assume on top of the program's own events: what the
/// placement proposes to insert.
struct Augmentation {
  /// A new barrier: monolithic when SignalAt == At; otherwise a split
  /// barrier signalled at SignalAt and waited for at At. What goes at one
  /// point is ordered by SyncOrder (below).
  struct NewBarrier {
    Point At;
    /// Hard waits right before the barrier (the signal).
    WaitThresholds Waits;
    Point SignalAt;
    NewBarrier(Point At, WaitThresholds Waits)
        : At(At), Waits(Waits), SignalAt(At) {}
    NewBarrier(Point At, CounterMask Zero)
        : NewBarrier(At, WaitThresholds::zero(Zero)) {}
    bool isSplit() const { return !(SignalAt == At); }
  };
  /// An existing barrier or signal event that gets a wait in front of it.
  struct CompletedBarrier {
    EventRef Barrier;
    WaitThresholds Waits;
  };
  /// A hard wait on its own (for the wave's own later access of an
  /// asynchronous transfer's bytes), applied first at its point.
  struct NewWait {
    Point At;
    WaitThresholds Waits;
  };
  std::vector<NewBarrier> Barriers;
  std::vector<CompletedBarrier> CompletedBarriers;
  std::vector<NewWait> Waits;
  /// Points whose state the result should report (HazardResult::Queried).
  std::vector<Point> Queries;
};

// The order in which new synchronization goes at one point of the program,
// shared by the hazard analysis (what it assumes), the split-barrier check,
// the emitter and the unit tests (what they insert).

/// What is inserted at one point, in the order it goes there.
enum class SyncOrder : uint8_t {
  /// Analysis only: the state before anything new (a query).
  Query,
  /// A standalone counter wait for the wave's own asynchronous transfers.
  OwnWait,
  /// The wait an existing barrier or signal lacks, right before it (the
  /// analysis applies it with the barrier's event).
  CompletedWait,
  /// The wait of a split barrier signalled elsewhere.
  BarrierWait,
  /// A monolithic barrier: its waits, then signal and wait at one point.
  Barrier,
  /// The waits and signal of a split barrier waited for elsewhere.
  Signal,
};

/// Whether synchronization \p A at point \p IndexA of a block goes before
/// \p B at point \p IndexB of the same block.
inline bool syncPrecedes(unsigned IndexA, SyncOrder A, unsigned IndexB,
                         SyncOrder B) {
  return IndexA != IndexB ? IndexA < IndexB : A < B;
}

/// One thing a placement inserts.
struct SyncItem {
  Point At;
  SyncOrder What;
  /// Index into the waits (OwnWait), the completed barriers (CompletedWait)
  /// or the new barriers (the rest).
  unsigned Index;
  /// The hard waits that go with it (none for a BarrierWait).
  WaitThresholds Waits;
};

/// What \p Barriers, \p Completed and \p Waits insert, in the order the
/// emitter inserts it: the standalone waits, the waits of existing barriers,
/// then the barrier parts by point and SyncOrder. Each point thus receives
/// its items in SyncOrder order (a point has at most one standalone wait and
/// one existing barrier).
std::vector<SyncItem>
orderedSync(ArrayRef<Augmentation::NewBarrier> Barriers,
            ArrayRef<Augmentation::CompletedBarrier> Completed,
            ArrayRef<Augmentation::NewWait> Waits);

/// Accesses still incomplete when an existing barrier or signal executes.
struct PendingAtBarrier {
  EventRef Barrier;
  std::vector<EventRef> Pending;
};

/// An incomplete access at a queried point, with the number of later
/// in-order operations of its counter (minimum over paths, saturated).
struct PendingAccess {
  EventRef Access;
  unsigned Later;
  /// Its iteration state there (Window::Iteration).
  unsigned Iteration = 0;
};

struct HazardResult {
  /// Windows, sorted by consumer then producer (a pair twice only with
  /// different anchors).
  std::vector<Window> Windows;
  /// For each existing barrier reached with incomplete accesses.
  std::vector<PendingAtBarrier> PendingBarriers;
  /// Asynchronous accesses that a later conflicting access of the same wave
  /// meets still in flight: the consumer needs their counter wait first.
  std::vector<Window> InFlight;
  /// For each Augmentation::Queries point, its incomplete accesses, but
  /// for those that conflict with no access of the program (they are never
  /// a window's producer, so no wait is ever needed for them).
  std::vector<std::vector<PendingAccess>> Queried;
};

/// Runs the analysis.
HazardResult analyzeHazards(const AbstractProgram &P,
                            const AnalysisOptions &Opts,
                            const Augmentation &Aug = Augmentation());

class HazardAnalyzer;

/// analyzeHazards kept alive: placement asks, after the fact, for the
/// incomplete accesses at points where it puts barriers, and queries do not
/// change the states, so they are answered by replaying the blocks that hold
/// them instead of running the analysis again.
class HazardAnalysis {
public:
  HazardAnalysis(const AbstractProgram &P, const AnalysisOptions &Opts,
                 const Augmentation &Aug = Augmentation());
  ~HazardAnalysis();
  /// What analyzeHazards(P, Opts, Aug) returns.
  const HazardResult &result() const;
  /// What analyzeHazards would report as Queried with Aug.Queries replaced
  /// by \p Queries.
  std::vector<std::vector<PendingAccess>>
  pendingAt(ArrayRef<Point> Queries) const;

private:
  std::unique_ptr<HazardAnalyzer> Impl;
};

} // namespace ldsbarriers
} // namespace llvm

#endif
