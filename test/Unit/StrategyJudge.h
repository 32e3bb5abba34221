//===- StrategyJudge.h - Whether a strategy's placement verifies ----------===//
//
// Judges a placement of any strategy by the independent verifier, against
// what the input already violates and what no placement can fix. Shared by
// the strategy unit test and the strategy benchmark.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_TEST_STRATEGYJUDGE_H
#define AMDGPU_LDS_BARRIERS_TEST_STRATEGYJUDGE_H

#include "LDSBarrierVerifier.h"
#include "Materialize.h"

namespace llvm {
namespace ldsbarriers {
namespace test {

/// Violations of the barriers themselves (divergent, unpaired): neither
/// races between waves nor a wave's own accesses to its transfers' bytes.
inline unsigned structuralViolations(const std::vector<Violation> &Vs) {
  unsigned N = 0;
  for (const Violation &V : Vs)
    N += V.Kind != Violation::Race && V.Kind != Violation::InFlight;
  return N;
}

/// Whether placement \p R of \p P verifies: no barrier violation the input
/// did not have (\p InputStructural of them; its own barriers in divergent
/// code, say), no wave's access to its own transfer in flight, and no race
/// but the \p Uncoverable ones the optimal placement reports (no strategy
/// can cover those). Each kind is counted apart: a wait that fixes an
/// in-flight access must not hide a divergent barrier.
inline bool placementVerifies(const AbstractProgram &P, const Placement &R,
                              unsigned Uncoverable, unsigned InputStructural) {
  std::vector<Violation> Vs =
      verifySynchronization(materialize(P, R, false), VerifierOptions());
  unsigned Races = 0, InFlight = 0;
  for (const Violation &V : Vs) {
    Races += V.Kind == Violation::Race;
    InFlight += V.Kind == Violation::InFlight;
  }
  return structuralViolations(Vs) <= InputStructural && !InFlight &&
         Races <= Uncoverable;
}

} // namespace test
} // namespace ldsbarriers
} // namespace llvm

#endif
