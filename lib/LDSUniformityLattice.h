//===- LDSUniformityLattice.h - Branch uniformity: lattice and state ------===//
//
// The value lattice of the branch-uniformity analysis (LDSBranchUniformity.cpp
// describes it), the dataflow state with the scalars kept in single lanes of
// vector registers, and the analysis class whose transfer functions live in
// LDSUniformityTransfer.cpp. Private to those two files.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSUNIFORMITYLATTICE_H
#define AMDGPU_LDS_BARRIERS_LDSUNIFORMITYLATTICE_H

#include "AMDGPUTargetFacts.h"
#include "LDSBranchUniformity.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineCycleAnalysis.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/MC/MCRegister.h"
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace llvm {
namespace ldsbarriers {
namespace uniformity {

enum Level : uint8_t { Uniform = 0, PerWave = 1, PerLane = 2 };

/// Identities of lane masks with P = Uniform. A register of several units
/// (a 64-bit mask is two halves, moved and spilled half by half) is a
/// uniform mask only when all its units hold pieces of one mask: one tag.
enum : uint32_t {
  NoTag = 0,
  ZeroTag = 1,             // The constant 0.
  AllOnesTag = 2,          // The constant -1.
  ExecTag = 3,             // EXEC.
  FullExecTag = 4,         // EXEC holding every lane the wave entered with.
  FirstSiteTag = 16,       // Defined by an instruction (numbered).
  FirstJoinTag = 1u << 31, // Pieces of different masks met at a join, the
                           // same pieces on every path.
  SelfTag = ~0u - 1,       // In a join key: the block's own earlier tag.
  MixedTag = ~0u,          // Unknown pieces.
};

/// One lattice value: N in bits 0-1, P in bits 2-3, and bit 4 set when a
/// bit outside the active lanes may be set (not Sub), and the mask's tag.
/// The join is the field-wise maximum; tags that differ make MixedTag.
struct Val {
  uint8_t Bits = 0;
  uint32_t Tag = NoTag;

  /// A uniform-predicate mask needs a tag (not MixedTag).
  static Val make(Level N, Level P, bool Sub, uint32_t Tag = NoTag) {
    if (P == Uniform && (Tag == NoTag || Tag == MixedTag)) {
      P = PerLane;
      Sub = false;
    }
    if (P != Uniform)
      Tag = NoTag;
    return Val{uint8_t(N | (P << 2) | (Sub ? 0 : 16)), Tag};
  }
  /// IMPLICIT_DEF: the bottom. As for LLVM's uniformity analysis, any use
  /// of undef may pick a uniform value.
  static Val undef() { return Val{32, NoTag}; }
  bool isUndef() const { return Bits & 32; }
  Level n() const { return Level(Bits & 3); }
  Level p() const { return Level((Bits >> 2) & 3); }
  bool sub() const { return !(Bits & 16); }
  Val withTag(uint32_t T) const { return make(n(), p(), sub(), T); }
  Val join(Val O) const {
    if (isUndef())
      return O;
    if (O.isUndef())
      return *this;
    return make(std::max(n(), O.n()), std::max(p(), O.p()), sub() && O.sub(),
                Tag == O.Tag ? Tag : MixedTag);
  }
  /// Joins into an accumulator that starts empty.
  static void accumulate(std::optional<Val> &Acc, Val V) {
    Acc = Acc ? Acc->join(V) : V;
  }
  bool operator==(Val O) const { return Bits == O.Bits && Tag == O.Tag; }
};

inline const Val Top = Val::make(PerLane, PerLane, false);
inline const Val UniformScalar = Val::make(Uniform, PerLane, false);
inline const Val PerWaveScalar = Val::make(PerWave, PerLane, false);
inline const Val ExecValue = Val::make(PerWave, Uniform, true, ExecTag);

/// Whether a test of \p V against zero comes out the same in every wave.
/// \p Whole: the register tested is a whole lane mask.
inline bool zeroTestIsUniform(Val V, bool Whole) {
  return V.n() == Uniform || (Whole && V.p() == Uniform && V.sub());
}

/// How a lane selected by mask \p V varies.
inline Level maskLevel(Val V) {
  return std::max(V.p(), V.n() == PerLane ? PerLane : Uniform);
}

inline Val immediateValue(int64_t Imm) {
  if (Imm == 0)
    return Val::make(Uniform, Uniform, true, ZeroTag);
  if (Imm == -1 || Imm == 0xFFFFFFFF)
    return Val::make(Uniform, Uniform, false, AllOnesTag);
  return UniformScalar;
}

/// What a register unit is, for the values it can hold.
enum class UnitKind : uint8_t {
  Scalar, // SGPRs, VCC, M0, SCC and the rest: tracked.
  Vector, // VGPRs and AGPRs: tracked.
  Exec,   // Pinned to ExecValue (writes to EXEC happen in divergent code).
  Const,  // Pinned Uniform: MODE, SGPR_NULL, the aperture bases.
  Wave,   // Pinned PerWave: TTMP registers and other per-wave sources.
};

/// The kind of a unit whose root register has the RegisterFacts \p Facts.
inline UnitKind kindOfUnitRoot(uint16_t Facts) {
  switch (Facts & RegisterFacts::KindMask) {
  case RegisterFacts::Vector:
    return UnitKind::Vector;
  case RegisterFacts::Exec:
    return UnitKind::Exec;
  case RegisterFacts::Wave:
    return UnitKind::Wave;
  case RegisterFacts::Const:
    return UnitKind::Const;
  default:
    return UnitKind::Scalar;
  }
}

/// The dataflow state at a point: one value per tracked unit, and the
/// scalars known to sit in single lanes of vector registers (V_WRITELANE
/// with a constant lane), sorted by key.
using SlotList = std::vector<std::pair<uint64_t, Val>>;
struct State {
  std::vector<Val> Units;
  SlotList Slots;
  /// EXEC may hold fewer lanes than the wave entered the function with (at
  /// a block's entry: on some path into it; at its exit: on leaving it).
  bool ExecPartial = false;
  bool operator==(const State &O) const {
    return ExecPartial == O.ExecPartial && Units == O.Units && Slots == O.Slots;
  }
  bool operator!=(const State &O) const { return !(*this == O); }
};

/// \p V where the paths of a branch of level \p L that defined it differently
/// meet (sync dependence): as varying as the branch at least.
inline Val raiseTo(Val V, Level L) {
  if (V.isUndef() || L == Uniform)
    return V;
  if (L == PerLane)
    return Top;
  return Val::make(std::max(V.n(), L), std::max(V.p(), L), V.sub(), V.Tag);
}

/// The first slot of \p Slots (sorted by key) with a key not below \p Key.
template <typename ListT> auto findSlot(ListT &Slots, uint64_t Key) {
  return llvm::partition_point(Slots,
                               [Key](const auto &E) { return E.first < Key; });
}
inline std::optional<Val> slotValue(const SlotList &Slots, uint64_t Key) {
  auto It = findSlot(Slots, Key);
  if (It != Slots.end() && It->first == Key)
    return It->second;
  return std::nullopt;
}

/// The explicit sources of a scalar instruction, how varying they are
/// together (an implicit EXEC masks lanes, not data), and the default
/// result: as varying as the sources.
struct Operands {
  SmallVector<const MachineOperand *, 4> Sources;
  Level Inputs = Uniform;
  Val Default;
};

/// What an instruction defines: its destinations, SCC when its role says
/// (the default otherwise), and vector results too when VectorResult (an
/// LDS load of a uniform location).
struct Effect {
  Val Result;
  std::optional<Val> SCC;
  bool VectorResult = false;
};

/// The forward dataflow over one function: LDSBranchUniformity.cpp holds the
/// joins and the fixpoint, LDSUniformityTransfer.cpp the transfer.
class Analysis {
public:
  Analysis(const MachineFunction &MF, const TargetFacts &Facts,
           const MachinePostDominatorTree &PDT, const MachineCycleInfo &Cycles,
           const UniformLoadPolicy &Loads)
      : MF(MF), Facts(Facts), PDT(PDT), Cycles(Cycles), Loads(Loads),
        TRI(*MF.getSubtarget().getRegisterInfo()),
        TII(*MF.getSubtarget().getInstrInfo()),
        DenseOf(TRI.getNumRegUnits(), -1), RegSlot(TRI.getNumRegs(), -1) {}

  BranchUniformity run();

private:
  void recordSites();
  /// A register's units (dense indices) and what kinds they are.
  struct RegInfo {
    unsigned Reg = 0;
    SmallVector<int, 4> Units;
    bool AllTracked = true; // Every unit Scalar or Vector: in the state.
    bool AnyVector = false, AnyExec = false, AnySCC = false;
    bool AnyData = false; // A Scalar or Wave unit: data, not a lane mask.
  };
  const RegInfo &reg(MCRegister Reg);
  ArrayRef<int> units(MCRegister Reg) { return reg(Reg).Units; }
  int addUnit(MCRegUnit U);
  Val read(const State &S, MCRegister Reg);
  Val dataValue(const State &S, const MachineOperand &MO);
  Val operandValue(const State &S, const MachineOperand &MO);
  /// Whether register operand \p MO is as wide as the wave.
  bool isWholeMask(const MachineOperand &MO);
  bool isLaneMaskOperand(const MachineInstr &MI, unsigned OpIdx);
  void write(State &S, MCRegister Reg, Val V, bool KeepSlots = false);
  void transfer(const MachineInstr &MI, State &S);
  void transferVector(const MachineInstr &MI, State &S);
  void transferCall(const MachineInstr &MI, State &S);
  Operands gatherOperands(const MachineInstr &MI, const State &S);
  Effect scalarLogic(const MachineInstr &MI, const State &S,
                     const Operands &Ops);
  Val scalarSelect(const MachineInstr &MI, const State &S, const Operands &Ops);
  Val scalarCompare(const MachineInstr &MI, const State &S,
                    const Operands &Ops);
  Val readLane(const MachineInstr &MI, const State &S);
  bool writeLane(const MachineInstr &MI, State &S);
  void writeResults(const MachineInstr &MI, State &S, ValueRole Role,
                    const Operands &Ops, const Effect &E);
  bool judge(const MachineInstr &Branch, const State &S, bool &IsVCC);
  /// Whether the fixpoint runs an instruction whatever branches depend on,
  /// with the definitions of what it reads, or alone.
  enum class SiteRoot : uint8_t { None, WithUses, Alone };
  SiteRoot noteSite(unsigned Site, const MachineInstr &MI);
  void markRelevant();
  static uint64_t slotKey(int Unit, int64_t Lane) {
    return (uint64_t(unsigned(Unit)) << 32) | uint32_t(Lane);
  }
  Val joinAt(unsigned Block, ArrayRef<Val> Vs, Val Old, bool Settle);
  void findExecRegions();
  bool addDivergentBranch(unsigned Block, Level L);
  void applySyncDependence(unsigned Block, State &S) const;
  bool definesExec(const MachineInstr &MI);
  bool isUndefIn(const State &S, uint64_t Key) const;
  bool computeIn(unsigned Block, unsigned Number, ArrayRef<const State *> Preds,
                 State &In, bool Settle);
  /// The tag of the value the instruction being transferred defines.
  uint32_t siteTag() const { return FirstSiteTag + CurrentSite; }
  /// Unit \p U's value (units outside the slice share an unread slot).
  Val &at(State &S, int U) const { return S.Units[StateSlot[U]]; }
  Val at(const State &S, int U) const { return S.Units[StateSlot[U]]; }
  void copySlots(State &S, MCRegister From, MCRegister To);
  /// Makes the lane slots of object \p To (a key's high word) those of
  /// \p From, and \p Whole its whole value.
  static void moveSlots(SlotList &Slots, uint64_t From, uint64_t To,
                        std::optional<Val> Whole = std::nullopt);
  bool spillOrReload(const MachineInstr &MI, State &S);
  void forgetStackSlots(const MachineInstr &MI, State &S);
  /// The frame object a private memory access touches, or -1.
  static int stackObjectOf(const MachineInstr &MI);
  static bool mayStoreToStack(const MachineInstr &MI);
  static uint64_t stackBase(int FI) {
    return uint64_t((1u << 31) | unsigned(FI)) << 32;
  }
  static constexpr uint32_t WholeLane = ~0u;

  const MachineFunction &MF;
  const TargetFacts &Facts;
  const MachinePostDominatorTree &PDT;
  const MachineCycleInfo &Cycles;
  const UniformLoadPolicy Loads;
  /// By LDS load, whether its last transfer read it as uniform.
  DenseMap<const MachineInstr *, bool> LoadVerdicts;
  bool isUniformLoad(const MachineInstr &MI, const Operands &Ops);
  const TargetRegisterInfo &TRI;
  const TargetInstrInfo &TII;
  std::vector<int> DenseOf;
  std::vector<UnitKind> Kinds;
  std::vector<bool> SGPRUnit, IsSCC;
  /// The registers named so far, and each one's position there (or -1).
  std::vector<RegInfo> RegUnits;
  std::vector<int> RegSlot;
  DenseMap<unsigned, bool> WholeMask;
  DenseMap<std::pair<unsigned, unsigned>, bool> MaskOperand;
  /// By site (instruction in function order): whether the fixpoint runs it
  /// (markRelevant); and the site it runs now.
  std::vector<uint8_t> Relevant;
  uint32_t CurrentSite = 0;
  /// What recordSites found: the sites, each block's first and end site,
  /// the slice's roots and the definitions.
  std::vector<const MachineInstr *> Sites;
  std::vector<unsigned> FirstSite, EndSite;
  std::vector<std::pair<unsigned, SiteRoot>> Roots;
  /// (block, site, register) of each definition of a physical register.
  std::vector<std::tuple<unsigned, unsigned, unsigned>> Defs;
  /// By unit: its slot in State::Units, 1 + its position in the slice
  /// (markRelevant), or 0, the slot the others share.
  std::vector<int> StateSlot;
  unsigned NumSlots = 1;
  /// Tags of pieces of different masks met at a join: (block, tags met) ->
  /// tag; and the block (plus one) that made each.
  std::map<std::pair<unsigned, SmallVector<uint32_t, 4>>, uint32_t> JoinTags;
  DenseMap<uint32_t, unsigned> JoinTagOwner;
  /// EXEC is all ones since its last write in the block (the whole-wave
  /// copies around spills of vector registers).
  bool ExecAllOnes = false;
  /// EXEC may be partial at the instruction being transferred: a vector
  /// write leaves the inactive lanes' old values.
  bool ExecPartialNow = false;

  /// Control divergence, by block (findExecRegions): the immediate
  /// post-dominator (-1: none), whether the block is in the region of an
  /// EXEC branch (EXEC may be partial throughout), ends in one, and may
  /// store to the stack.
  std::vector<int> IPDom, RPONumber;
  bool HasIrreducibleCycle = false;
  std::vector<uint8_t> InExecRegion, EndsInExecBranch, StoresStack;
  /// How many instructions write EXEC, and how many EXEC branches have the
  /// block as immediate post-dominator (its first writes restore EXEC).
  std::vector<unsigned> ExecWrites, ExecJoins;
  /// The write of EXEC just transferred activates every lane the wave
  /// entered with (all ones, or a copy of a FullExecTag mask).
  bool ExecFullAfter = false;
  /// The state slots each block's instructions define.
  std::vector<SmallVector<unsigned, 4>> BlockDefs;
  /// A divergent branch: its level and what its region defines (state
  /// slots, stack objects), which take that level where its paths meet.
  struct Divergence {
    Level L = Uniform;
    BitVector Defined;
    bool StackStores = false;
    SmallVector<unsigned, 4> Joins;
  };
  DenseMap<unsigned, Divergence> DivergentBranches;
  /// By block number: the divergent branches whose paths meet there.
  std::vector<SmallVector<unsigned, 2>> JoinOf;
  /// The blocks of branch \p Block's region, and where its paths may meet.
  void regionOf(unsigned Block, SmallVectorImpl<unsigned> &Region,
                SmallVectorImpl<unsigned> &Joins);
  unsigned CurrentBlock = 0;
  unsigned WaveSize = 64;
};

} // namespace uniformity
} // namespace ldsbarriers
} // namespace llvm

#endif
