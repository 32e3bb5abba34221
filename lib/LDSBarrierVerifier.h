//===- LDSBarrierVerifier.h - Independent check of LDS synchronization ----===//
//
// Re-derives, from a program as it is, whether it is correctly synchronized:
// every conflicting pair of LDS accesses (from different waves) separated on
// every path by a barrier at which the earlier one is complete; split
// barriers alternating on every path; no barrier that some waves may skip.
//
// It shares the access model (classification, locations) with the placer but
// none of its hazard logic: conflicts, completion and barrier semantics,
// alternation and divergence are re-implemented here with other algorithms
// (an explicit state-space search per producer instead of one joint
// dataflow, path-state search for alternation, region flooding for
// divergence), so that each checks the other.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSBARRIERVERIFIER_H
#define AMDGPU_LDS_BARRIERS_LDSBARRIERVERIFIER_H

#include "LDSAbstractProgram.h"
#include <string>
#include <vector>

namespace llvm {
namespace ldsbarriers {

struct Violation {
  enum ViolationKind : uint8_t {
    Race,             // Earlier may reach Later unordered.
    DivergentBarrier, // A barrier event some waves may skip.
    Alternation,      // Split barriers do not alternate.
    InFlight,         // The wave itself accesses bytes of its own async
                      // transfer before the transfer's counter wait.
  };
  ViolationKind Kind;
  /// Race: the two accesses. Others: the event (or block end) concerned.
  EventRef Earlier, Later;
  /// Race: "RAW", "WAR", "WAW", "atomic" or "opaque"; others: explanation.
  std::string What;
  /// Race: the block of the branch on a per-wave value in whose different
  /// arms the two accesses run at the same time (in block order, with no
  /// path between them), or -1 for a race along a path.
  int Fork = -1;
};

struct VerifierOptions {
  /// Write/write pairs race: of two DS writes (WAW), or when one write is
  /// an asynchronous transfer (AsyncWAW).
  bool WAW = false;
  bool AsyncWAW = false;
};

/// Checks \p P. Blocks must have DivergentBranch set; NoBarrier is ignored
/// (the verifier derives divergence on its own).
std::vector<Violation> verifySynchronization(const AbstractProgram &P,
                                             const VerifierOptions &Opts);

} // namespace ldsbarriers
} // namespace llvm

#endif
