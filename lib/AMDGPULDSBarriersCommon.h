//===- AMDGPULDSBarriersCommon.h - Helpers shared by the passes -----------===//
//
// Function-level facts, diagnostics, the reporting of verifier violations,
// the phase timer and the operands that may define a register, used by both
// the placer and the verifier pass.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERSCOMMON_H
#define AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERSCOMMON_H

#include "LDSAbstractProgram.h"
#include "LDSThreadAddress.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/Pass.h"
#include "llvm/Support/Timer.h"
#include <array>
#include <optional>
#include <string>

namespace llvm {
class MachineFunction;
class MachineOptimizationRemarkEmitter;

namespace ldsbarriers {
class LDSAccessModel;
struct Violation;

/// Whether every workgroup of launches \p Shape fits in one wave.
bool isSingleWave(const WorkgroupShape &Shape, unsigned WaveSize);

/// The thread-index analysis options: the placer and the verifier pass
/// must see the same model.
ThreadAnalysisMode threadAnalysis();

/// Whether write-after-write is a hazard between DS writes (\p DS) and with
/// an asynchronous write (\p Async): \p Option (a cl::boolOrDefault) when
/// given; by default DS only with the thread-index analysis (which proves
/// plain initialization disjoint), asynchronous never (their per-wave LDS
/// ranges are outside the analysis).
void wawPolicy(int Option, bool &DS, bool &Async);

/// Emits a diagnostic prefixed with the pass name, at \p DL's line in \p F
/// (the outermost of an inlined chain), or naming \p F without one.
void diagnose(const Function &F, const DebugLoc &DL, const Twine &Msg,
              DiagnosticSeverity Severity = DS_Warning);

/// \p MI's debug location, else that of the nearest instruction of its
/// block that has one.
DebugLoc nearestDebugLoc(const MachineInstr &MI);

/// "DS_WRITE_B32_gfx9 (k.hip:12:3)" for remarks and diagnostics.
std::string describeInstr(const MachineInstr &MI);

/// The operands of \p MI that may define or clobber a register, in two
/// runs: for a non-call with fixed operands, its explicit definitions and
/// implicit operands (skipping the uses' cache lines); else all of them.
inline std::array<ArrayRef<MachineOperand>, 2>
mayDefineOperands(const MachineInstr &MI) {
  const MCInstrDesc &Desc = MI.getDesc();
  ArrayRef<MachineOperand> All(MI.operands_begin(), MI.operands_end());
  if (Desc.isVariadic() || Desc.isCall() || Desc.hasOptionalDef() ||
      All.size() < Desc.getNumOperands())
    return {All, {}};
  return {All.take_front(Desc.getNumDefs()),
          All.drop_front(Desc.getNumOperands())};
}

/// A diagnostic about a pair of instructions (the same one twice for one):
/// \p Kind tells diagnostics of different meaning apart, \p Detail stands
/// for its cause where either instruction lacks a source line.
struct CauseItem {
  const MachineInstr *First, *Second;
  uint64_t Kind, Detail;
};
/// One diagnostic per cause: the Kind and the (outermost) source lines of
/// the two instructions, or the Kind and Detail where either has no line.
/// Returns, in order, each cause's first item and how many items it has.
SmallVector<std::pair<unsigned, unsigned>>
groupByCause(ArrayRef<CauseItem> Items);
/// What a cause's diagnostic adds for its other \p Count - 1 items.
std::string moreOfCause(const CauseItem &Item, unsigned Count);

/// The launch bound that would prove two accesses disjoint between
/// work-items, as advice; empty when none would.
std::string boundHint(const AbstractProgram &P, const Location &A,
                      const Location &B);

enum class VerifyMode { Remark, Warning, Error };

/// Reports \p Violations of the function modeled by \p Model.
void reportViolations(const MachineFunction &MF, const LDSAccessModel &Model,
                      ArrayRef<Violation> Violations, VerifyMode Mode,
                      MachineOptimizationRemarkEmitter &ORE, StringRef Context);

/// Starts timing a phase of the pass (ending the previous one) under
/// -time-passes, to set each phase's cost beside other passes'.
inline void startPhase(std::optional<NamedRegionTimer> &Timer, StringRef Name,
                       StringRef Description) {
  Timer.reset();
  Timer.emplace(Name, Description, "amdgpu-lds-barriers",
                "AMDGPU LDS barrier placement phases", TimePassesIsEnabled);
}

} // namespace ldsbarriers
} // namespace llvm

#endif
