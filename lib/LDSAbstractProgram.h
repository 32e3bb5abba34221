//===- LDSAbstractProgram.h - Machine-independent model of LDS events -----===//
//
// The abstract program the algorithms work on: blocks with successor edges
// and frequencies, each holding the LDS events (accesses, barriers, counter
// waits) of a machine basic block in order. It does not depend on
// MachineInstr, so analysis and placement can be unit-tested, fuzzed and
// compared with a brute-force optimum on small programs.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSABSTRACTPROGRAM_H
#define AMDGPU_LDS_BARRIERS_LDSABSTRACTPROGRAM_H

#include "LDSCounters.h"
#include "LDSThreadAddress.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace llvm {
class raw_ostream;

namespace ldsbarriers {

/// What an access does to LDS.
enum class AccessKind : uint8_t {
  Read,
  Write,
  Atomic, // Read-modify-write.
  Opaque, // Read and write of anything (calls, inline asm, FLAT, unknown DS).
};
StringRef getAccessKindName(AccessKind K);

/// The bytes an access may touch. Object ids are assigned by the builder:
/// AnyObject may alias everything; AbsoluteObject holds objects with known
/// absolute LDS addresses (Begin is then an address) and may alias every
/// object that has none; every other id is a distinct allocation.
struct Location {
  static constexpr int AnyObject = -1;
  static constexpr int AbsoluteObject = 0;
  int Object = AnyObject;
  int64_t Begin = 0;
  /// Byte count; 0 means "anywhere in the object".
  uint64_t Size = 0;
  /// The module-LDS variable accessed (index into
  /// AbstractProgram::VariableDomains), 0 when not known.
  unsigned Variable = 0;
  /// Index into AbstractProgram::ThreadForms; 0: the address is not known as
  /// a function of the work-item.
  unsigned ThreadForm = 0;

  /// The fields packed in words, equal exactly when the locations are
  /// (a key for numberDistinct).
  std::array<uint64_t, 4> key() const {
    return {(uint64_t(uint32_t(Object)) << 32) | Variable, uint64_t(Begin),
            Size, ThreadForm};
  }
};

/// One LDS-relevant event, in program order within its block.
struct Event {
  enum EventKind : uint8_t {
    Access,      // An LDS access.
    Barrier,     // A monolithic workgroup barrier (signal and wait).
    Signal,      // Split barrier: this wave has arrived.
    BarrierWait, // Split barrier: wait until every wave has signalled.
    Wait,        // A hard counter wait.
    Tick,        // Not an LDS access, but an in-order operation on Ctr that
                 // later waits count (e.g. a global load on vmcnt).
  };
  EventKind Kind = Access;

  // Access fields.
  AccessKind AK = AccessKind::Read;
  /// Completion counter of the access (or the counter a Tick increments).
  Counter Ctr = Counter::LDS;
  /// Whether the access completes in issue order with the other in-order
  /// operations of its counter and order class (DS operations do; FLAT and
  /// calls do not).
  bool InOrder = true;
  /// Operations of one counter complete in order only within a class (on
  /// asynccnt: loads to LDS and stores from LDS are different classes).
  uint8_t OrderClass = 0;
  /// Asynchronous: not visible even to the issuing wave until its counter
  /// says so (LDS DMA, gfx1250 async and tensor transfers).
  bool Async = false;
  /// For atomics: nonzero id of an operation that commutes with itself
  /// (add/add, min/min, ...); 0 for exchange, compare-and-swap, etc.
  unsigned CommutativeOp = 0;
  Location Loc;

  // Wait fields.
  WaitThresholds Waits;

  /// Opaque handle for the builder (e.g. an index into its instruction map).
  unsigned Tag = 0;

  static Event of(EventKind K, unsigned Tag = 0) {
    Event E;
    E.Kind = K;
    E.Tag = Tag;
    return E;
  }
  static Event access(AccessKind K, Location L, unsigned Tag = 0) {
    Event E = of(Access, Tag);
    E.AK = K;
    E.Loc = L;
    return E;
  }
  static Event barrier(unsigned Tag = 0) { return of(Barrier, Tag); }
  static Event signal(unsigned Tag = 0) { return of(Signal, Tag); }
  static Event barrierWait(unsigned Tag = 0) { return of(BarrierWait, Tag); }
  static Event tick(Counter C, uint8_t OrderClass = 0, unsigned Tag = 0) {
    Event E = of(Tick, Tag);
    E.Ctr = C;
    E.OrderClass = OrderClass;
    return E;
  }
  static Event wait(WaitThresholds W, unsigned Tag = 0) {
    Event E = of(Wait, Tag);
    E.Waits = W;
    return E;
  }
};

/// A basic block of the abstract program.
struct Block {
  std::vector<Event> Events;
  SmallVector<unsigned, 2> Succs;
  /// Estimated execution frequency relative to the entry.
  double Freq = 1.0;
  /// Whether the block ends in a branch that waves of one workgroup may take
  /// differently (EXEC-based, or on a per-wave value).
  bool DivergentBranch = false;
  /// Whether that branch is on a per-wave value: a wave takes one successor
  /// only, so waves that go different ways run them at the same time, with
  /// no path from one to the other (the structurizer puts the arms of an
  /// EXEC branch one after the other; a scalar branch keeps them apart).
  bool ConcurrentArms = false;
  /// Set for blocks where a barrier is never allowed (see
  /// markDivergentBlocks).
  bool NoBarrier = false;
  /// For a NoBarrier block, the block whose divergent branch it depends on
  /// (for diagnostics), NotAKernel in a function that is not a kernel, or
  /// -1.
  int DivergenceSource = -1;
  static constexpr int NotAKernel = -2;
  /// False when the block's last event is a terminator (a tail call), so
  /// that nothing can be inserted after it.
  bool HasEndPoint = true;
};

/// A program point: before event Index of block Block; Index equal to the
/// number of events means the end of the block (before its terminators).
struct Point {
  unsigned Block = 0;
  unsigned Index = 0;
  bool operator==(const Point &O) const {
    return Block == O.Block && Index == O.Index;
  }
  bool operator<(const Point &O) const {
    return Block != O.Block ? Block < O.Block : Index < O.Index;
  }
};

/// The position of an event.
using EventRef = Point;

/// Where a path stands, since an access, in the iterations of a stage
/// loop: K header entries along it (Many: two or more, or the loop was
/// left), counted for the access's own stage loop, or (Absolute) for the
/// first stage loop the path entered from outside, whose first iteration
/// then runs while K = 1.
struct IterationState {
  static constexpr uint8_t Many = 2;
  unsigned Loop = 0;
  uint8_t K = 0;
  bool Absolute = false;
  bool operator==(const IterationState &O) const {
    return Loop == O.Loop && K == O.K && Absolute == O.Absolute;
  }
  bool operator<(const IterationState &O) const {
    return std::tie(Loop, K, Absolute) < std::tie(O.Loop, O.K, O.Absolute);
  }
  /// A small integer that names the state (0 for the start without loop).
  unsigned code() const { return (Loop << 3) | (K << 1) | Absolute; }
};

/// Successor lists of a directed graph.
using Graph = std::vector<SmallVector<unsigned, 2>>;

/// The abstract program.
struct AbstractProgram {
  std::vector<Block> Blocks;
  unsigned Entry = 0;
  /// VariableDomains[V]: the domain of module-LDS variable V (entry 0
  /// unused).
  std::vector<unsigned> VariableDomains = {0};
  /// ThreadForms[I]: the addresses (one per memoperand; a merged ds_read2
  /// has two) of the accesses whose Location.ThreadForm is I, as functions
  /// of the work-item; entry 0 is unused.
  std::vector<SmallVector<ThreadAddress, 1>> ThreadForms;
  WorkgroupShape Shape;
  /// Whether a block without successors ends the wave (S_ENDPGM: a
  /// kernel), rather than returning to a caller that goes on.
  bool ExitEndsWave = false;
  /// The subtarget's wave size, for the same-wave rule (oneWaveRunsBoth);
  /// 0: not known, no access is taken as one wave's.
  unsigned WaveSize = 0;
  /// For each stage loop L of thread forms (ThreadAddress::StageLoop):
  /// StageInside[L][B] when entering block B keeps the iteration of L (B is
  /// in the loop and not its header), and StageHeader[L], the header
  /// block, where each entry starts another iteration. A loop without a
  /// row (the model could not find it in the machine CFG) changes its
  /// iteration on every edge.
  std::vector<std::vector<uint8_t>> StageInside;
  std::vector<int> StageHeader;
  /// Set by the builder once the events are final: per access, in block
  /// and event order, whether it meets no access of the function
  /// (accessesMeetingNone) when write-after-write counts as SilentWAW and
  /// SilentAsyncWAW say. The hazard analysis under that policy takes them
  /// from here instead of testing again. Empty: not known.
  std::vector<uint8_t> SilentAccesses;
  bool SilentWAW = false, SilentAsyncWAW = false;

  const Event &event(EventRef R) const {
    return Blocks[R.Block].Events[R.Index];
  }
  unsigned numPoints(unsigned B) const { return Blocks[B].Events.size() + 1; }

  /// Predecessor lists, derived from the successor lists.
  std::vector<SmallVector<unsigned, 2>> predecessors() const;
  /// The successor lists as a Graph, for the graph algorithms.
  Graph successorGraph() const;
  /// Per block, 1 when a path from the entry reaches it.
  std::vector<uint8_t> reachableBlocks() const;
  /// Blocks reachable from the entry, in reverse post-order.
  std::vector<unsigned> reversePostOrder() const;
  /// Per block reachable from the entry, the number of its strongly
  /// connected component in a topological order of the components: a block
  /// that reaches another has a number no greater. Unreachable blocks get
  /// ~0u.
  std::vector<unsigned> componentOrder() const;

  /// Whether \p A and \p B are different module-LDS variables of one
  /// domain (VariableDomains): distinct allocations, whatever the
  /// work-items.
  bool distinctVariables(unsigned A, unsigned B) const {
    return A && B && A != B && A < VariableDomains.size() &&
           B < VariableDomains.size() &&
           VariableDomains[A] == VariableDomains[B];
  }
  /// Whether two locations, accessed by different work-items, may share a
  /// byte, B after A with the iterations of stage loops related by \p Rel.
  bool mayOverlap(const Location &A, const Location &B,
                  IterationRelation Rel = {}) const;
  /// Whether the thread forms of A and B prove that one wave runs every
  /// work-item of both (onlyWave): then no other wave runs either, and the
  /// wave's in-order DS operations order them (not so for an asynchronous
  /// transfer, which the caller must rule out).
  bool oneWaveRunsBoth(const Location &A, const Location &B) const;
  /// Whether accesses \p Earlier and \p Later of different waves may share
  /// a byte: mayOverlap, unless neither is an asynchronous transfer and one
  /// wave alone runs both (oneWaveRunsBoth, the cheaper test, first).
  bool wavesMayMeet(const Event &Earlier, const Event &Later,
                    IterationRelation Rel = {}) const;
  /// Whether the thread forms of A and B prove that different work-items
  /// touch different bytes.
  bool threadDisjoint(const Location &A, const Location &B,
                      IterationRelation Rel = {}) const;
  /// Whether every pair of the thread forms of A and B is disjoint between
  /// work-items in launches of \p Launch (a shape to advise, such as a
  /// one-dimensional one); not cached per pair.
  bool threadDisjointIn(const Location &A, const Location &B,
                        const WorkgroupShape &Launch) const;
  /// LDS addresses [first, end) that cover every byte any work-item may
  /// touch at \p L, from its thread form or its absolutely placed object;
  /// none when not known. Locations whose ranges are apart never overlap.
  std::optional<std::pair<int64_t, int64_t>>
  addressRange(const Location &L) const;
  /// Whether two address ranges (addressRange) are known and share no byte.
  static bool rangesApart(const std::optional<std::pair<int64_t, int64_t>> &A,
                          const std::optional<std::pair<int64_t, int64_t>> &B) {
    return A && B && (A->first >= B->second || B->first >= A->second);
  }
  /// The stage loop of \p L's thread forms, 0 when none (or when forms
  /// name different loops: no iteration is then the same).
  unsigned stageLoop(const Location &L) const;
  /// Where a path from an access at \p L starts in the iterations of stage
  /// loops, and where it stands after the edge \p From -> \p To.
  IterationState startIteration(const Location &L) const {
    return {stageLoop(L), 0, false};
  }
  IterationState crossEdge(IterationState S, unsigned From, unsigned To) const;
  /// How an access reached in state \p S relates to a later access at
  /// \p Later.
  IterationRelation relation(IterationState S, const Location &Later) const;
  /// Whether some thread form has a stage slot of a loop.
  bool hasStageLoops() const { return !StageHeader.empty(); }

  /// Checks the structural invariants (edges in range, scope table square);
  /// returns an empty string or a description of the first problem.
  std::string validate() const;

  void print(raw_ostream &OS) const;

private:
  /// What the pair tests derive from ThreadForms, rebuilt when its size
  /// changes: the distinct addresses of all forms (equal ones, in forms of
  /// different memoperand pairs, share an index, so that each is
  /// enumerated once and each pair of them tested once), each form's
  /// address indices, and each form's address range (none: not known).
  void refreshFormTables() const;
  bool addressesDisjoint(unsigned X, unsigned Y, IterationRelation Rel) const;
  /// Whether every pair of the addresses of A's and B's forms is of
  /// distinct variables or \p Disjoint holds for it (false when either
  /// has none).
  bool everyAddressPair(const Location &A, const Location &B,
                        function_ref<bool(unsigned, unsigned)> Disjoint) const;
  mutable size_t TablesForForms = 0;
  mutable std::vector<const ThreadAddress *> Addresses;
  mutable std::vector<SmallVector<unsigned, 2>> FormAddresses;
  mutable std::vector<std::optional<std::pair<int64_t, int64_t>>> FormRanges;
  /// Pair results by (address, address, relation code).
  mutable DenseMap<std::tuple<unsigned, unsigned, unsigned>, bool>
      DisjointCache;
  /// Each address's enumeration over the work-items, for its pair tests.
  mutable ThreadIdCache IdCache;
};

/// Immediate dominators of the nodes of \p G reachable from \p Root (works
/// on irreducible graphs).
/// The root is its own immediate dominator; unreachable nodes get -1.
std::vector<int> computeImmediateDominators(const Graph &G, unsigned Root);
/// The same for the graph of nodes 0..N-1 whose successors \p Succs gives.
std::vector<int>
computeImmediateDominators(unsigned N, unsigned Root,
                           function_ref<ArrayRef<unsigned>(unsigned)> Succs);

/// Immediate post-dominators of the program's blocks: dominators of the
/// reversed graph rooted at a virtual exit (index Blocks.size()) that every
/// block without successors flows into. Blocks that cannot reach an exit
/// get -1.
std::vector<int> computeImmediatePostDominators(const AbstractProgram &P);

/// Sets NoBarrier on the blocks some waves of a workgroup may execute and
/// others not: those transitively control dependent on a divergent branch,
/// and, when the program has one, those that cannot reach an exit. An early
/// exit is not divergent: when exits end the wave (ExitEndsWave), no LDS
/// access reaches the branch and one successor reaches no LDS access or
/// barrier event, the waves taking it end with nothing pending, and a
/// barrier waits for the waves that have not ended only (Design.rst,
/// "Early exit").
void markDivergentBlocks(AbstractProgram &P);

/// The accesses of each reachable branch with concurrent arms
/// (Block::ConcurrentArms), by successor: those each successor reaches
/// before the branch's immediate post-dominator and before any barrier
/// event. Waves that take different successors may run the accesses of
/// different arms at the same time, and no barrier that every wave
/// executes lies between them.
struct ArmAccesses {
  unsigned Fork;
  std::vector<std::vector<EventRef>> Arms;
};
std::vector<ArmAccesses> concurrentArmAccesses(const AbstractProgram &P);

} // namespace ldsbarriers
} // namespace llvm

#endif
