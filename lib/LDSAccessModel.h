//===- LDSAccessModel.h - MachineFunction -> abstract LDS program ---------===//
//
// The MIR adapter: classifies every instruction of a machine function as an
// LDS access, barrier or counter wait, keys accesses by LDS object and byte
// range from their memoperands, and builds the abstract program that the
// analysis and placement work on. It keeps the map back from abstract points
// to machine instructions.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSACCESSMODEL_H
#define AMDGPU_LDS_BARRIERS_LDSACCESSMODEL_H

#include "AMDGPUTargetFacts.h"
#include "LDSAbstractProgram.h"
#include "LDSBranchUniformity.h"
#include "LDSHazardAnalysis.h"
#include "LDSThreadAddress.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineCycleAnalysis.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class GlobalVariable;
class MachineMemOperand;
class MDNode;
class MachineBlockFrequencyInfo;
class MachineFunction;
class MachineInstr;
class MachineLoopInfo;
class MachinePostDominatorTree;

namespace ldsbarriers {

/// The LLVM analyses of a machine function that its model reads, from the
/// pass manager. Neither pass changes the CFG, so one set serves every
/// model of a function.
struct MachineAnalyses {
  const MachineLoopInfo &Loops;
  const MachinePostDominatorTree &PostDominators;
  const MachineCycleInfo &Cycles;
  /// Null: every block counts as running once (the checker).
  const MachineBlockFrequencyInfo *Frequencies = nullptr;
};

/// How a function is modelled.
struct ModelOptions {
  /// Take every scalar branch as workgroup-uniform; otherwise those on
  /// per-wave values count as divergent.
  bool TrustScalarBranches = false;
  /// With thread analysis, DS accesses get their addresses as functions of
  /// the work-item (LDSThreadAddress.h).
  ThreadAnalysisMode ThreadAnalysis = ThreadAnalysisMode::Off;
  /// The hazard policy placement will use, if any: the program then keeps
  /// whether each access meets another (AbstractProgram::SilentAccesses),
  /// and a function whose events are all accesses that meet none skips the
  /// branch-uniformity analysis and placement.
  std::optional<AnalysisOptions> Hazards;
  /// Which LDS loads the branch-uniformity analysis may read as
  /// workgroup-uniform: all of a uniform address but those excluded.
  UniformLoadPolicy Loads{true, {}};
};

class LDSAccessModel {
public:
  /// Builds the model of \p MF.
  LDSAccessModel(MachineFunction &MF, const TargetFacts &Facts,
                 const MachineAnalyses &Analyses, const ModelOptions &Opts);
  /// Re-models \p MF after instructions were inserted into it (the
  /// self-check), with \p Earlier's options: \p Earlier, the model before,
  /// lends its per-wave branches and the address forms of the instructions
  /// it modelled, which need not be derived again.
  LDSAccessModel(MachineFunction &MF, const TargetFacts &Facts,
                 const MachineAnalyses &Analyses,
                 const LDSAccessModel &Earlier);
  ~LDSAccessModel();

  const AbstractProgram &program() const { return Program; }
  /// Whether the function has LDS DMA (loads that write LDS through vmcnt).
  bool hasLDSDMA() const { return HasLDSDMA; }

  /// Whether any instruction may access LDS.
  bool hasLDSAccesses() const { return NumAccesses != 0; }

  /// A barrier instruction the pass cannot work with.
  struct UnmodeledBarrier {
    const MachineInstr *MI;
    std::string Reason;
    /// The instruction is invalid for the target, not just unsupported.
    bool Invalid;
  };
  /// The function must be left as it is when there are any.
  ArrayRef<UnmodeledBarrier> unmodeledBarriers() const { return Unmodeled; }

  MachineBasicBlock &block(unsigned B) const { return *Blocks[B]; }
  MachineInstr &instr(EventRef R) const {
    return *Instrs[Program.event(R).Tag];
  }
  /// Where to insert code for point \p P: as late as possible, right before
  /// the event at the point (or the block's first terminator).
  MachineBasicBlock::iterator insertionPoint(Point P) const;
  /// The earliest position for point \p P: right after the previous event
  /// (or at the top of the block).
  MachineBasicBlock::iterator earliestInsertionPoint(Point P) const;

  /// The loads the branch-uniformity analysis read as workgroup-uniform
  /// (UniformLoadPolicy) whose reading as uniform relies on windows that
  /// \p Uncovered (pairs of accesses: uncoverable windows, races) leave
  /// open: an end of a pair, or a load the pair's accesses may share bytes
  /// with when the pair stands for several producers (\p Merged).
  SmallVector<const MachineInstr *> uniformLoadsIn(
      ArrayRef<std::tuple<EventRef, EventRef, bool>> Uncovered) const;

  /// A human-readable name of the object an access touches (for remarks).
  std::string describeLocation(const Location &L) const;
  /// The access's address as a function of the work-item, if known.
  std::string describeThreadForm(const Location &L) const;
  /// The workgroup bounds the thread-index analysis used.
  std::string describeShape() const;
  /// The launches the function's attributes allow (getWorkgroupShape).
  const WorkgroupShape &launch() const { return Launch; }

private:
  LDSAccessModel(MachineFunction &MF, const TargetFacts &Facts,
                 const MachineAnalyses &Analyses, const ModelOptions &Opts,
                 const LDSAccessModel *Earlier);
  /// The thread-address builder, made on first use.
  ThreadAddressBuilder &threadAddresses(const Function &F);
  void addInstr(unsigned B, MachineInstr &MI);
  Event dsAccessEvent(const MachineInstr &MI, const OpcodeInfo &Info);
  bool dmaExists(const MachineInstr &MI, const OpcodeInfo &Info);
  Event asyncTransferEvent(const MachineInstr &MI, const OpcodeInfo &Info);
  std::optional<Event> syncEvent(const MachineInstr &MI, const OpcodeInfo &Info,
                                 unsigned Tag);
  /// The LDS pointer through which \p MMO accesses LDS: its value for an
  /// LDS memoperand, and for a FLAT one the LDS pointer its generic pointer
  /// is cast from (an address in the LDS aperture: `volatile` accesses to
  /// __shared__ data through a generic pointer). False when \p MMO is
  /// neither; \p Ptr may be null for an LDS memoperand.
  static bool ldsPointer(const MachineMemOperand &MMO, const Value *&Ptr);
  /// \p ExactOffset, if given, is set when the range is the access's own
  /// bytes rather than its whole object.
  Location locationOf(const MachineInstr &MI, const OpcodeInfo &Info,
                      bool *ExactOffset = nullptr);
  /// The module-LDS variable that \p MMO accesses (by its lowering's
  /// alias scope), or 0. \p ModuleLDS is the lowering's struct under its
  /// address, if it is.
  unsigned variableOf(const MachineMemOperand &MMO,
                      const GlobalVariable *ModuleLDS);
  /// The thread form of \p MI, whose location is \p Loc. With \p WaveBytes,
  /// the access writes that many bytes from the first active lane's address
  /// (LDS DMA): a form only when every lane of a wave has that address. An
  /// address that tells no work-items apart gets no form, but its absolute
  /// bytes, where known, narrow \p Loc.
  unsigned threadForm(const MachineInstr &MI, Location &Loc,
                      uint64_t WaveBytes = 0);
  /// Fills Program.StageInside for the stage loops of the thread forms.
  void computeStageLoops(const MachineAnalyses &Analyses);
  void boundTrackedForms();
  void dropLoneIterationForms();
  void markDivergenceWithoutDecidedEdges(const MachineFunction &MF);
  void findSilentAccesses(const AnalysisOptions &Hazards);
  void judgeScalarBranches(const MachineFunction &MF,
                           const MachineAnalyses &Analyses);
  int objectId(const GlobalVariable &GV, int64_t &Begin);

  const TargetFacts &Facts;
  ModelOptions Options;
  WorkgroupShape Launch;
  AbstractProgram Program;
  std::vector<MachineBasicBlock *> Blocks;
  std::vector<MachineInstr *> Instrs;
  std::vector<UnmodeledBarrier> Unmodeled;
  StringMap<unsigned> CommutativeOpIds;
  /// Each variable's object id and the address added to offsets in it.
  DenseMap<const GlobalVariable *, std::pair<int, int64_t>> ObjectIds;
  DenseMap<const MDNode *, unsigned> VariableIds, DomainIds;
  std::vector<const GlobalVariable *> Objects;
  std::unique_ptr<ThreadAddressBuilder> ThreadAddresses;
  /// The ids of the thread forms by the hash of their addresses.
  std::map<size_t, SmallVector<unsigned, 1>> ThreadFormIds;
  /// Locations (form ids and narrowed bytes) of the instructions an earlier
  /// model lent.
  DenseMap<const MachineInstr *, Location> LentForms;
  DenseSet<const MachineBasicBlock *> PerWaveBranches;
  /// The LDS loads the branch-uniformity analysis read as uniform.
  SmallPtrSet<const MachineInstr *, 4> UniformLoads;
  /// The blocks that end in a decided branch (LDSDecidedBranches.h), in
  /// order, found in the walk over the instructions, and the successor
  /// their branch never goes to.
  struct DecidedEdge {
    unsigned Block, Never;
    bool AssumesExec;
  };
  std::vector<DecidedEdge> DecidedEdges;
  unsigned NumAccesses = 0;
  /// Whether the function has LDS DMA, for which plain vector memory loads
  /// are counting events.
  bool HasLDSDMA = false;
};

} // namespace ldsbarriers
} // namespace llvm

#endif
