//===- LDSSplitBarriers.h - Split-barrier alternation and signal pairing --===//
//
// On gfx12 a barrier is a signal (S_BARRIER_SIGNAL_IMM -1) and a later wait
// (S_BARRIER_WAIT -1). Only accesses complete at the signal are ordered
// before accesses after the wait, so the signal goes as early as possible
// after the producers and the wait as late as possible before the consumers.
//
// Invariant kept on every program: whether a signal is pending is a function
// of the program point (the same on every path reaching it) and false at
// every exit, so signals and waits strictly alternate on every path.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSSPLITBARRIERS_H
#define AMDGPU_LDS_BARRIERS_LDSSPLITBARRIERS_H

#include "LDSHazardAnalysis.h"
#include <string>

namespace llvm {
namespace ldsbarriers {

/// Whether a signal is pending at every point of a program.
struct SignalState {
  /// Pending[B][I]: at point (B, I); only meaningful when Problem is empty.
  std::vector<std::vector<bool>> Pending;
  /// Empty, or why the program's split barriers do not alternate.
  std::string Problem;
  /// Where the problem shows (an event, or the end of a block).
  Point ProblemAt;
  bool consistent() const { return Problem.empty(); }
};

/// Computes SignalState for the program's own events plus \p Aug.
SignalState computeSignalState(const AbstractProgram &P,
                               const Augmentation &Aug = Augmentation());

/// Moves the signal of every barrier in \p Barriers as early as it can go:
/// after the last event that must precede it, up a chain of equally
/// frequent blocks; then back below any access the re-run analysis finds
/// unordered. If hoisting leaves a window, the signals fall back to their
/// waits.
void pairSignals(const AbstractProgram &P, const AnalysisOptions &Opts,
                 const std::vector<Window> &Windows,
                 const std::vector<std::vector<unsigned>> &Serves,
                 const std::vector<Augmentation::CompletedBarrier> &Completed,
                 std::vector<Augmentation::NewBarrier> &Barriers);

} // namespace ldsbarriers
} // namespace llvm

#endif
