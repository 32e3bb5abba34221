//===- AMDGPULDSBarriersDiagnostics.h - What the placer reports -*- C++ -*-===//
//
// The placer's statistics, remarks and diagnostics, its debug dump and its
// self-check, apart from the pass that decides when to call them.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERSDIAGNOSTICS_H
#define AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERSDIAGNOSTICS_H

#include "LDSPlacementSteps.h"

namespace llvm {
class Function;
class MachineFunction;
class MachineOptimizationRemarkEmitter;

namespace ldsbarriers {
class LDSAccessModel;
struct MachineAnalyses;
class TargetFacts;

/// Counts the windows of the input by kind (statistics).
void countWindows(const Placement &R);

/// Remarks on the existing barriers that order nothing (reported, never
/// removed).
void reportRedundantBarriers(const AbstractProgram &P,
                             const AnalysisOptions &AOpts, const Placement &R,
                             const LDSAccessModel &Model,
                             MachineOptimizationRemarkEmitter &ORE);

/// Warns (errors with \p AsError) about each window no barrier can cover,
/// with why: the divergent branch its accesses depend on (with its source
/// location), and what the author can do.
void reportUncoverable(const Function &F, const AbstractProgram &P,
                       const LDSAccessModel &Model, const Placement &R,
                       bool AsError);

/// Explains the pairs the thread-index analysis dropped: accesses whose
/// objects and byte ranges overlap, at least one writing, that different
/// work-items provably never make touch a common byte.
void reportThreadDisjointPairs(const AbstractProgram &P,
                               const LDSAccessModel &Model,
                               MachineOptimizationRemarkEmitter &ORE);

/// Warns about writes that may meet themselves: two work-items of different
/// waves executing the same store (or non-commutative atomic) once each may
/// write the same bytes, and no barrier can order one execution of an
/// instruction. Only accesses whose address the thread-index analysis
/// understood are judged (a uniform address written by every work-item is
/// the common broadcast idiom, not reported), and only collisions that a
/// one-dimensional launch would keep.
void reportSelfRaces(const Function &F, const AbstractProgram &P,
                     const LDSAccessModel &Model, unsigned WaveSize);

/// The windows and the placement chosen, for -debug-only=amdgpu-lds-barriers
/// (a build with assertions).
void dumpPlacement(const AbstractProgram &P, const LDSAccessModel &Model,
                   const Placement &R);

/// The pass options the self-check must model and judge with.
struct SelfCheckOptions {
  /// -amdgpu-lds-barriers-waw, a cl::boolOrDefault (wawPolicy).
  int WAW = 0;
  /// One wave per workgroup: races between waves are not reported.
  bool SingleWave = false;
};

/// Re-models the final function and verifies it. Races between the pairs
/// already reported as uncoverable are expected; anything else is a bug.
void selfCheck(MachineFunction &MF, const TargetFacts &Facts,
               const MachineAnalyses &Analyses, const Placement &R,
               const LDSAccessModel &Before, const SelfCheckOptions &Opts);

} // namespace ldsbarriers
} // namespace llvm

#endif
