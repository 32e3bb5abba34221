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

/// Remarks on the existing barriers that order nothing (never removed).
void reportRedundantBarriers(const AbstractProgram &P,
                             const AnalysisOptions &AOpts, const Placement &R,
                             const LDSAccessModel &Model,
                             MachineOptimizationRemarkEmitter &ORE);

/// Warns (errors with \p AsError) about each window no barrier can cover,
/// with why and what the author can do.
void reportUncoverable(const Function &F, const AbstractProgram &P,
                       const LDSAccessModel &Model, const Placement &R,
                       bool AsError);

/// Explains the pairs the thread-index analysis dropped: overlapping
/// accesses, one writing, whose work-items never touch a common byte.
void reportThreadDisjointPairs(const AbstractProgram &P,
                               const LDSAccessModel &Model,
                               MachineOptimizationRemarkEmitter &ORE);

/// Warns about writes that may meet themselves: work-items of different
/// waves executing one store (or non-commutative atomic) may write the same
/// bytes, and no barrier orders one execution of an instruction. Only
/// addresses the thread-index analysis understood are judged (a uniform one
/// is the broadcast idiom), and only collisions a 1-D launch would keep.
void reportSelfRaces(const Function &F, const AbstractProgram &P,
                     const LDSAccessModel &Model, unsigned WaveSize);

/// The windows and the placement, for -debug-only=amdgpu-lds-barriers.
void dumpPlacement(const AbstractProgram &P, const LDSAccessModel &Model,
                   const Placement &R);

/// Re-models the final function and verifies it, with -amdgpu-lds-barriers-waw
/// \p WAW (wawPolicy); with \p SingleWave no race is reported. Races between
/// the pairs already reported as uncoverable are expected; anything else is
/// a bug.
void selfCheck(MachineFunction &MF, const TargetFacts &Facts,
               const MachineAnalyses &Analyses, const Placement &R,
               const LDSAccessModel &Before, int WAW, bool SingleWave);

} // namespace ldsbarriers
} // namespace llvm

#endif
