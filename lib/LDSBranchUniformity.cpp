//===- LDSBranchUniformity.cpp - Which scalar branches all waves take alike
//===//
//
// Every register unit the function names carries a value of the lattice
//
//   N: how the value varies: Uniform (the same in every lane of every wave
//      of the workgroup) < PerWave (the same in the lanes of one wave) <
//      PerLane;
//   P: for a register used as a lane mask, how the predicate "my bit is
//      set" varies over the lanes active at its definition (same levels);
//   Sub: no bit is set outside the lanes active at its definition.
//
// A vector compare of Uniform operands defines a mask with P = Uniform and
// Sub: it is either 0 or the wave's EXEC, so whether it is zero is the same
// in every wave (EXEC is never zero where a barrier may go: code under an
// EXEC branch is divergent anyway). A VCC branch on such a mask, or an SCC
// branch on a Uniform value, is workgroup-uniform; every other scalar branch
// is per-wave. EXEC itself is a PerWave value with P = Uniform and Sub (all
// active lanes set): `ballot(x) == exec` and `exec == -1` compare its
// numeric value and are per-wave.
//
// Sources (Design.rst says why): kernel SGPR arguments, constants and
// workgroup ids are Uniform, as are scalar loads from Uniform addresses;
// vector registers on entry (work-item ids), vector memory loads and LDS
// reads, lane ids and lane-mixing operations are PerLane; V_READFIRSTLANE of
// non-Uniform data, V_READLANE, hardware registers (wave id), TTMP registers,
// timers, message returns, scalar atomics, the SCC of
// S_BARRIER_SIGNAL_ISFIRST and SGPR arguments of non-kernel functions are
// PerWave. A mask keeps P and Sub only when the instruction defines it whole
// (the wave size wide): halves of two masks make no uniform mask. Scalars
// spilled to a lane with V_WRITELANE and read back from the same lane with
// V_READLANE (as at -O0) keep their value.
//
//===----------------------------------------------------------------------===//

#include "LDSBranchUniformity.h"
#include "AMDGPUTargetFacts.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/PseudoSourceValue.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"
#include "llvm/MC/MCRegisterInfo.h"
#include <map>

using namespace llvm;
using namespace llvm::ldsbarriers;

namespace {

enum Level : uint8_t { Uniform = 0, PerWave = 1, PerLane = 2 };

/// Identities of lane masks with P = Uniform. A register of several units
/// (a 64-bit mask is two 32-bit halves, moved, spilled and reloaded half by
/// half) is a uniform mask only when all its units hold pieces of the same
/// mask: the same tag. Pieces of two masks with different predicates make
/// a mask whose halves disagree.
enum : uint32_t {
  NoTag = 0,
  ZeroTag = 1,             // The constant 0.
  AllOnesTag = 2,          // The constant -1.
  ExecTag = 3,             // EXEC.
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

  /// A uniform-predicate mask needs a tag: without one (or with
  /// MixedTag) its pieces may come from different masks.
  static Val make(Level N, Level P, bool Sub, uint32_t Tag = NoTag) {
    if (P == Uniform && (Tag == NoTag || Tag == MixedTag)) {
      P = PerLane;
      Sub = false;
    }
    if (P != Uniform)
      Tag = NoTag;
    return Val{uint8_t(N | (P << 2) | (Sub ? 0 : 16)), Tag};
  }
  /// No defined value yet (IMPLICIT_DEF): the bottom of the lattice. As
  /// LLVM's uniformity analysis does for undef, any use of it may pick a
  /// uniform value.
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
  bool operator!=(Val O) const { return !(*this == O); }
};

const Val Top = Val::make(PerLane, PerLane, false);
const Val UniformScalar = Val::make(Uniform, PerLane, false);
const Val PerWaveScalar = Val::make(PerWave, PerLane, false);
const Val ExecValue = Val::make(PerWave, Uniform, true, ExecTag);

/// Whether a test of \p V against zero comes out the same in every wave.
/// \p Whole: the register tested is a whole lane mask.
bool zeroTestIsUniform(Val V, bool Whole) {
  return V.n() == Uniform || (Whole && V.p() == Uniform && V.sub());
}

/// How a lane selected by mask \p V varies.
Level maskLevel(Val V) {
  return std::max(V.p(), V.n() == PerLane ? PerLane : Uniform);
}

Val immediateValue(int64_t Imm) {
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

UnitKind kindOfUnitRoot(StringRef Name) {
  if (Name.starts_with("VGPR") || Name.starts_with("AGPR"))
    return UnitKind::Vector;
  if (Name.starts_with("EXEC"))
    return UnitKind::Exec;
  if (Name.starts_with("TTMP") || Name.starts_with("SRC_POPS") ||
      Name.starts_with("SRC_EXECZ") || Name.starts_with("SRC_VCCZ") ||
      Name.starts_with("SRC_SCC"))
    return UnitKind::Wave;
  if (Name == "MODE" || Name.starts_with("SGPR_NULL") ||
      Name.starts_with("SRC_"))
    return UnitKind::Const;
  return UnitKind::Scalar;
}

/// The dataflow state at a point: one value per tracked unit, and the
/// scalars known to sit in single lanes of vector registers (V_WRITELANE
/// with a constant lane), sorted by key.
using SlotList = std::vector<std::pair<uint64_t, Val>>;
struct State {
  std::vector<Val> Units;
  SlotList Slots;
};

/// The first slot of \p Slots (sorted by key) with a key not below \p Key.
SlotList::iterator findSlot(SlotList &Slots, uint64_t Key) {
  return llvm::partition_point(Slots,
                               [Key](const auto &E) { return E.first < Key; });
}
SlotList::const_iterator findSlot(const SlotList &Slots, uint64_t Key) {
  return llvm::partition_point(Slots,
                               [Key](const auto &E) { return E.first < Key; });
}

class Analysis {
public:
  Analysis(const MachineFunction &MF, const TargetFacts &Facts)
      : MF(MF), Facts(Facts), TRI(*MF.getSubtarget().getRegisterInfo()),
        TII(*MF.getSubtarget().getInstrInfo()),
        DenseOf(TRI.getNumRegUnits(), -1) {}

  BranchUniformity run();

private:
  /// Dense indices of the units of \p Reg (tracked or pinned).
  ArrayRef<int> units(MCRegister Reg);
  int addUnit(MCRegUnit U);
  Val read(const State &S, MCRegister Reg);
  Val operandValue(const State &S, const MachineOperand &MO);
  bool isWholeMask(MCRegister Reg);
  bool isLaneMaskOperand(const MachineInstr &MI, unsigned OpIdx);
  void write(State &S, MCRegister Reg, Val V, bool KeepSlots = false);
  void transfer(const MachineInstr &MI, State &S);
  void transferVector(const MachineInstr &MI, State &S);
  bool judge(const MachineInstr &Branch, const State &S, bool &IsVCC);
  static uint64_t slotKey(int Unit, int64_t Lane) {
    return (uint64_t(unsigned(Unit)) << 32) | uint32_t(Lane);
  }
  Val joinAt(unsigned Block, ArrayRef<Val> Vs, Val Old, bool Settle);
  static bool isUndefIn(const State &S, uint64_t Key);
  bool computeIn(unsigned Block, ArrayRef<const State *> Preds, State &In,
                 bool Settle);
  uint32_t siteTag(const MachineInstr &MI) const {
    return FirstSiteTag + SiteNumbers.lookup(&MI);
  }
  void copySlots(State &S, MCRegister From, MCRegister To);
  bool spillOrReload(const MachineInstr &MI, State &S);
  void forgetStackSlots(const MachineInstr &MI, State &S);
  static uint64_t stackBase(int FI) {
    return uint64_t((1u << 31) | unsigned(FI)) << 32;
  }
  static constexpr uint32_t WholeLane = ~0u;

  const MachineFunction &MF;
  const TargetFacts &Facts;
  const TargetRegisterInfo &TRI;
  const TargetInstrInfo &TII;
  std::vector<int> DenseOf;
  std::vector<UnitKind> Kinds;
  std::vector<bool> SGPRUnit, IsSCC;
  DenseMap<unsigned, SmallVector<int, 4>> RegUnits;
  DenseMap<unsigned, bool> WholeMask;
  DenseMap<std::pair<unsigned, unsigned>, bool> MaskOperand;
  DenseMap<const MachineInstr *, uint32_t> SiteNumbers;
  /// Tags of pieces of different masks met at a join: (block, tag on the
  /// paths so far, tag on the new path) -> tag.
  std::map<std::pair<unsigned, SmallVector<uint32_t, 4>>, uint32_t> JoinTags;
  /// The block (plus one) that made each join tag.
  DenseMap<uint32_t, unsigned> JoinTagOwner;
  /// EXEC is all ones since the last write of it in the block (the
  /// whole-wave copies around spills of vector registers).
  bool ExecAllOnes = false;
  unsigned WaveSize = 64;
};

} // namespace

int Analysis::addUnit(MCRegUnit U) {
  int &D = DenseOf[static_cast<unsigned>(U)];
  if (D < 0) {
    D = Kinds.size();
    MCRegUnitRootIterator Root(U, &TRI);
    StringRef Name = TRI.getName(*Root);
    Kinds.push_back(kindOfUnitRoot(Name));
    SGPRUnit.push_back(Name.starts_with("SGPR"));
    IsSCC.push_back(Name == "SCC");
  }
  return D;
}

ArrayRef<int> Analysis::units(MCRegister Reg) {
  auto [It, Inserted] = RegUnits.try_emplace(Reg.id());
  if (Inserted)
    for (MCRegUnit U : TRI.regunits(Reg))
      It->second.push_back(addUnit(U));
  return It->second;
}

Val Analysis::read(const State &S, MCRegister Reg) {
  std::optional<Val> V;
  for (int U : units(Reg)) {
    switch (Kinds[U]) {
    case UnitKind::Exec:
      Val::accumulate(V, ExecValue);
      break;
    case UnitKind::Const:
      Val::accumulate(V, UniformScalar);
      break;
    case UnitKind::Wave:
      Val::accumulate(V, PerWaveScalar);
      break;
    default:
      Val::accumulate(V, S.Units[U]);
    }
  }
  return V ? *V : UniformScalar;
}

Val Analysis::operandValue(const State &S, const MachineOperand &MO) {
  if (MO.isReg())
    return MO.getReg() ? read(S, MO.getReg().asMCReg()) : UniformScalar;
  if (MO.isImm())
    return immediateValue(MO.getImm());
  return UniformScalar; // Frame indices, symbols, floating-point immediates.
}

bool Analysis::isWholeMask(MCRegister Reg) {
  auto [It, Inserted] = WholeMask.try_emplace(Reg.id());
  if (Inserted) {
    const TargetRegisterClass *RC = TRI.getMinimalPhysRegClass(Reg);
    It->second = RC && TRI.getRegSizeInBits(*RC) == WaveSize;
  }
  return It->second;
}

/// Whether explicit operand \p OpIdx of a vector instruction is a lane mask
/// (V_CNDMASK's selector, a carry-in) rather than a scalar broadcast to
/// every lane: its operand class admits scalar registers only.
bool Analysis::isLaneMaskOperand(const MachineInstr &MI, unsigned OpIdx) {
  auto [It, Inserted] = MaskOperand.try_emplace({MI.getOpcode(), OpIdx});
  if (Inserted) {
    const TargetRegisterClass *RC = TII.getRegClass(MI.getDesc(), OpIdx);
    It->second = RC && StringRef(TRI.getRegClassName(RC)).starts_with("SReg");
  }
  return It->second;
}

void Analysis::write(State &S, MCRegister Reg, Val V, bool KeepSlots) {
  for (int U : units(Reg)) {
    if (Kinds[U] != UnitKind::Scalar && Kinds[U] != UnitKind::Vector)
      continue;
    S.Units[U] = V;
    if (!KeepSlots && Kinds[U] == UnitKind::Vector && !S.Slots.empty())
      llvm::erase_if(S.Slots,
                     [&](const auto &E) { return int(E.first >> 32) == U; });
  }
}

/// Vector instructions: each lane's result is a function of that lane's
/// operands; scalar results are lane masks of per-lane predicates.
void Analysis::transferVector(const MachineInstr &MI, State &S) {
  Level PerLaneInputs = Uniform;
  for (unsigned I = 0, E = MI.getNumOperands(); I < E; ++I) {
    const MachineOperand &MO = MI.getOperand(I);
    if (MO.isReg() && (!MO.isUse() || !MO.getReg()))
      continue;
    if (MO.isReg() && MO.isImplicit()) {
      // EXEC masks lanes and is not data; MODE is Uniform; VCC is a lane
      // mask (V_CNDMASK_B32_e32, carries, V_DIV_FMAS); M0 is a scalar.
      MCRegister R = MO.getReg().asMCReg();
      Val V = read(S, R);
      bool Data = false;
      for (int U : units(R))
        Data |= Kinds[U] == UnitKind::Scalar || Kinds[U] == UnitKind::Wave;
      if (!Data)
        continue;
      Level L =
          StringRef(TRI.getName(R)).starts_with("VCC") ? maskLevel(V) : V.n();
      PerLaneInputs = std::max(PerLaneInputs, L);
      continue;
    }
    Val V = operandValue(S, MO);
    bool Mask = MO.isReg() && I < MI.getDesc().getNumOperands() &&
                isLaneMaskOperand(MI, I);
    PerLaneInputs = std::max(PerLaneInputs, Mask ? maskLevel(V) : V.n());
  }
  for (const MachineOperand &MO : MI.operands()) {
    if (!MO.isReg() || !MO.isDef() || !MO.getReg())
      continue;
    MCRegister R = MO.getReg().asMCReg();
    bool Vector = false;
    for (int U : units(R))
      Vector |= Kinds[U] == UnitKind::Vector;
    if (Vector)
      write(S, R, Val::make(PerLaneInputs, PerLaneInputs, false));
    else // A lane mask: 0 for inactive lanes, so Sub.
      write(S, R, Val::make(PerWave, PerLaneInputs, true, siteTag(MI)));
  }
}

void Analysis::transfer(const MachineInstr &MI, State &S) {
  if (MI.isDebugInstr())
    return;
  // Calls and inline assembly: anything they define or clobber is unknown.
  if (MI.isCall() || MI.isInlineAsm()) {
    for (const MachineOperand &MO : MI.operands()) {
      if (MO.isReg() && MO.isDef() && MO.getReg())
        write(S, MO.getReg().asMCReg(), Top);
      // Clobbered registers: the ones the mask does not preserve.
      if (MO.isRegMask())
        for (auto &[Reg, Units] : RegUnits)
          if (MO.clobbersPhysReg(MCRegister(Reg)))
            for (int U : Units)
              if (Kinds[U] == UnitKind::Scalar || Kinds[U] == UnitKind::Vector)
                S.Units[U] = Top;
    }
    return;
  }

  if (ExecAllOnes && spillOrReload(MI, S))
    return;
  if (MI.mayStore())
    forgetStackSlots(MI, S);
  if (MI.isImplicitDef()) {
    for (const MachineOperand &MO : MI.operands())
      if (MO.isReg() && MO.isDef() && MO.getReg())
        write(S, MO.getReg().asMCReg(), Val::undef());
    return;
  }
  ValueRole Role = Facts.classify(MI.getOpcode()).Value;
  if (Role == ValueRole::VectorOp) {
    transferVector(MI, S);
    return;
  }

  // The explicit sources, and what every result is by default: as varying
  // as the sources (EXEC read implicitly masks lanes and is not data).
  SmallVector<const MachineOperand *, 4> Sources;
  Level Inputs = Uniform;
  for (const MachineOperand &MO : MI.operands()) {
    if (MO.isReg() && (!MO.isUse() || !MO.getReg()))
      continue;
    if (MO.isReg() && MO.isImplicit()) {
      bool Masking = false;
      for (int U : units(MO.getReg().asMCReg()))
        Masking |= Kinds[U] == UnitKind::Exec;
      if (Masking)
        continue;
    } else if (MO.isReg() || MO.isImm()) {
      Sources.push_back(&MO);
    }
    Level N = operandValue(S, MO).n();
    Inputs = std::max(Inputs, N);
  }
  Val Default = Val::make(Inputs, PerLane, false);
  Val Result = Default;
  std::optional<Val> SCC;
  StringRef Name = TII.getName(MI.getOpcode());

  switch (Role) {
  case ValueRole::Move:
    Result = Sources.empty() ? Default : operandValue(S, *Sources.front());
    break;
  case ValueRole::ScalarLogic: {
    // Bitwise, lane by lane: each operand's pieces must agree (read()
    // checks), different operands need not.
    Level N = Uniform, P = Uniform;
    bool AllSub = true, AnySub = false;
    for (const MachineOperand *MO : Sources) {
      Val O = operandValue(S, *MO);
      N = std::max(N, O.n());
      P = std::max(P, O.p());
      AllSub &= O.sub();
      AnySub |= O.sub();
    }
    bool FirstSub = !Sources.empty() && operandValue(S, *Sources[0]).sub();
    bool Sub = false;
    if (Name.contains("ANDN2") || Name.contains("AND_NOT1"))
      Sub = FirstSub;
    else if (Name.contains("S_AND_"))
      Sub = AnySub;
    else if (Name.contains("S_OR_") || Name.contains("S_XOR_"))
      Sub = AllSub;
    Result = Val::make(N, P, Sub, siteTag(MI));
    const MachineOperand *Dst = MI.getNumOperands() &&
                                        MI.getOperand(0).isReg() &&
                                        MI.getOperand(0).isDef()
                                    ? &MI.getOperand(0)
                                    : nullptr;
    bool Whole = Dst && isWholeMask(Dst->getReg().asMCReg());
    SCC = zeroTestIsUniform(Result, Whole) ? UniformScalar : PerWaveScalar;
    break;
  }
  case ValueRole::ExecSave:
    Result = ExecValue;
    SCC = PerWaveScalar;
    break;
  case ValueRole::ScalarSelect: {
    Val Cond = UniformScalar;
    for (const MachineOperand &MO : MI.operands())
      if (MO.isReg() && MO.isUse() && MO.isImplicit() && MO.getReg())
        Cond = Cond.join(read(S, MO.getReg().asMCReg()));
    SmallVector<Val, 3> Choices;
    for (const MachineOperand *MO : Sources)
      Choices.push_back(operandValue(S, *MO));
    // S_CMOV keeps its destination when SCC is clear.
    if (Sources.size() == 1 && MI.getOperand(0).isReg())
      Choices.push_back(read(S, MI.getOperand(0).getReg().asMCReg()));
    // Masks, each with a uniform predicate, chosen uniformly: a new mask
    // with a uniform predicate.
    Level N = Cond.n(), P = Cond.n();
    bool Sub = true;
    for (Val C : Choices) {
      N = std::max(N, C.n());
      P = std::max(P, C.p());
      Sub &= C.sub();
    }
    Result = Val::make(N, P, Sub, siteTag(MI));
    break;
  }
  case ValueRole::ScalarCompare: {
    // A test of a register against zero: uniform when its zero test is.
    bool ZeroTest = (Name.contains("_EQ_") || Name.contains("_LG_") ||
                     Name.contains("_NE_")) &&
                    Sources.size() == 2;
    if (ZeroTest) {
      const MachineOperand *A = Sources[0], *B = Sources[1];
      if (A->isImm())
        std::swap(A, B);
      if (B->isImm() && B->getImm() == 0 && A->isReg()) {
        MCRegister R = A->getReg().asMCReg();
        SCC = zeroTestIsUniform(read(S, R), isWholeMask(R)) ? UniformScalar
                                                            : PerWaveScalar;
        break;
      }
    }
    SCC = Val::make(std::max(Inputs, Uniform), PerLane, false);
    break;
  }
  case ValueRole::ScalarLoad:
    Result = Val::make(std::max(Inputs, Uniform), PerLane, false);
    break;
  case ValueRole::ReadFirstLane:
    Result = Inputs == Uniform ? UniformScalar : PerWaveScalar;
    break;
  case ValueRole::ReadLane: {
    // Lane I of a vector register is not the same in every wave (it may
    // be inactive) unless a V_WRITELANE put a known value there.
    Result = PerWaveScalar;
    if (MI.getNumOperands() >= 3 && MI.getOperand(1).isReg() &&
        MI.getOperand(2).isImm()) {
      ArrayRef<int> Us = units(MI.getOperand(1).getReg().asMCReg());
      if (!Us.empty()) {
        uint64_t Key = slotKey(Us.front(), MI.getOperand(2).getImm());
        auto It = findSlot(S.Slots, Key);
        if (It != S.Slots.end() && It->first == Key)
          Result = It->second;
        else if (S.Units[Us.front()].isUndef())
          Result = UniformScalar; // A lane no one wrote: undefined.
      }
    }
    break;
  }
  case ValueRole::WriteLane: {
    // $vdst = V_WRITELANE_B32 $src, $lane, $vdst(tied)
    if (MI.getNumOperands() >= 3 && MI.getOperand(0).isReg() &&
        MI.getOperand(2).isImm()) {
      Val Src = operandValue(S, MI.getOperand(1));
      MCRegister R = MI.getOperand(0).getReg().asMCReg();
      ArrayRef<int> Us = units(R);
      bool Undef = !Us.empty() && S.Units[Us.front()].isUndef();
      write(S, R, Undef ? Val::undef() : Top, /*KeepSlots=*/true);
      if (!Us.empty()) {
        uint64_t Key = slotKey(Us.front(), MI.getOperand(2).getImm());
        auto It = findSlot(S.Slots, Key);
        if (It != S.Slots.end() && It->first == Key)
          It->second = Src;
        else
          S.Slots.insert(It, {Key, Src});
      }
      return;
    }
    Result = Top;
    break;
  }
  case ValueRole::LaneVarying:
    Result = Top;
    SCC = Top;
    break;
  case ValueRole::PerWave:
    Result = PerWaveScalar;
    SCC = PerWaveScalar;
    break;
  case ValueRole::VectorOp:
  case ValueRole::Generic:
    // A scalar result read from memory by something other than a scalar
    // load (scalar atomics are PerWave already) may differ between waves.
    if (MI.mayLoad())
      Result = Val::make(std::max(Inputs, PerWave), PerLane, false);
    break;
  }

  for (const MachineOperand &MO : MI.operands()) {
    if (!MO.isReg() || !MO.isDef() || !MO.getReg())
      continue;
    MCRegister R = MO.getReg().asMCReg();
    bool IsVector = false, SCCDef = false, ExecDef = false;
    for (int U : units(R)) {
      IsVector |= Kinds[U] == UnitKind::Vector;
      SCCDef |= IsSCC[U];
      ExecDef |= Kinds[U] == UnitKind::Exec;
    }
    if (ExecDef) {
      // All lanes on (whole-wave mode around spills) or some other mask.
      bool AllOn = !Sources.empty() && Sources.front()->isImm() &&
                   Sources.front()->getImm() == -1;
      ExecAllOnes =
          AllOn && (Role == ValueRole::Move || Name.contains("S_OR_SAVEEXEC"));
      continue;
    }
    if (IsVector && Role == ValueRole::Move) {
      write(S, R, Result);
      // A copy of every lane carries the scalars kept in single lanes.
      if (ExecAllOnes && !Sources.empty() && Sources.front()->isReg())
        copySlots(S, Sources.front()->getReg().asMCReg(), R);
    } else if (IsVector) // Loaded per lane (vector memory, LDS), or mixed.
      write(S, R, Top);
    else if (SCCDef)
      write(S, R, SCC ? *SCC : Default);
    else
      write(S, R, Result);
  }
}

bool Analysis::judge(const MachineInstr &Branch, const State &S, bool &IsVCC) {
  StringRef G = getGenericOpcodeName(TII.getName(Branch.getOpcode()));
  IsVCC = G.starts_with("S_CBRANCH_VCC");
  for (const MachineOperand &MO : Branch.operands()) {
    if (!MO.isReg() || !MO.isUse() || !MO.getReg())
      continue;
    MCRegister R = MO.getReg().asMCReg();
    StringRef RN = TRI.getName(R);
    if (IsVCC ? RN.starts_with("VCC") : RN == "SCC")
      return zeroTestIsUniform(read(S, R), IsVCC && isWholeMask(R));
  }
  return false; // No condition operand found: assume the worst.
}

/// The join of the values \p Vs that reach block \p Block (one per
/// predecessor) where \p Old was the block's value before.
Val Analysis::joinAt(unsigned Block, ArrayRef<Val> Vs, Val Old, bool Settle) {
  Val J = Vs.front();
  for (Val V : Vs.drop_front())
    J = J.join(V);
  SmallVector<Val, 4> Defined;
  for (Val V : Vs)
    if (!V.isUndef())
      Defined.push_back(V);
  if (Settle || Defined.empty() ||
      llvm::all_of(Defined, [&](Val V) { return V.Tag == Defined[0].Tag; }))
    return J;
  Vs = Defined;
  // Pieces of different masks: units that carry the same tag on every
  // incoming path get the same new tag. A tag this block made before that
  // comes back over a back-edge is the unit's own value passed through the
  // loop, the same for every unit that shared it.
  bool AllUniform = llvm::all_of(Vs, [](Val V) { return V.p() == Uniform; });
  if (!AllUniform)
    return J;
  SmallVector<uint32_t, 4> Key;
  bool OldIsOwn =
      Old.p() == Uniform && JoinTagOwner.lookup(Old.Tag) == Block + 1;
  for (Val V : Vs)
    Key.push_back(OldIsOwn && V.Tag == Old.Tag ? SelfTag : V.Tag);
  auto [It, Inserted] = JoinTags.try_emplace({Block, Key}, 0);
  if (Inserted) {
    It->second = FirstJoinTag + JoinTags.size();
    JoinTagOwner[It->second] = Block + 1;
  }
  bool Sub = llvm::all_of(Vs, [](Val V) { return V.sub(); });
  return Val::make(J.n(), Uniform, Sub, It->second);
}

/// Whether the vector register or stack object of slot \p Key holds no
/// defined value in \p S.
bool Analysis::isUndefIn(const State &S, uint64_t Key) {
  uint32_t Obj = uint32_t(Key >> 32);
  if (!(Obj & (1u << 31)))
    return S.Units[Obj].isUndef();
  uint64_t Whole = (Key & ~0xFFFFFFFFull) | WholeLane;
  auto It = findSlot(S.Slots, Whole);
  return It != S.Slots.end() && It->first == Whole && It->second.isUndef();
}

bool Analysis::computeIn(unsigned Block, ArrayRef<const State *> Preds,
                         State &In, bool Settle) {
  State New;
  New.Units.resize(Preds.front()->Units.size());
  SmallVector<Val, 4> Vs;
  bool HadOld = !In.Units.empty();
  for (unsigned U = 0; U < New.Units.size(); ++U) {
    Vs.clear();
    for (const State *P : Preds)
      Vs.push_back(P->Units[U]);
    New.Units[U] = joinAt(Block, Vs, HadOld ? In.Units[U] : Vs.front(), Settle);
  }
  // Slots known on every path where their vector register is defined.
  std::vector<uint64_t> Keys;
  for (const State *P : Preds)
    for (const auto &E : P->Slots)
      Keys.push_back(E.first);
  llvm::sort(Keys);
  Keys.erase(std::unique(Keys.begin(), Keys.end()), Keys.end());
  for (uint64_t Key : Keys) {
    Vs.clear();
    bool Unknown = false;
    for (const State *P : Preds) {
      auto It = findSlot(P->Slots, Key);
      if (It != P->Slots.end() && It->first == Key)
        Vs.push_back(It->second);
      else if (!isUndefIn(*P, Key))
        Unknown = true;
    }
    if (Unknown || Vs.empty())
      continue;
    Val Old = Vs.front();
    if (HadOld) {
      auto It = findSlot(In.Slots, Key);
      if (It != In.Slots.end() && It->first == Key)
        Old = It->second;
    }
    New.Slots.push_back({Key, joinAt(Block, Vs, Old, Settle)});
  }
  bool Changed = !HadOld || New.Units != In.Units || New.Slots != In.Slots;
  In = std::move(New);
  return Changed;
}

/// The frame object a private memory access touches, or -1.
static int stackObjectOf(const MachineInstr &MI) {
  if (!MI.hasOneMemOperand())
    return -1;
  const MachineMemOperand *MMO = *MI.memoperands_begin();
  if (const auto *PSV =
          dyn_cast_or_null<FixedStackPseudoSourceValue>(MMO->getPseudoValue()))
    return PSV->getFrameIndex();
  return -1;
}

/// A whole-wave store of a vector register to a stack object, or a load of
/// one back (the spills of the vector registers that hold spilled scalars,
/// on targets without AGPRs): the scalars kept in its lanes go along.
bool Analysis::spillOrReload(const MachineInstr &MI, State &S) {
  int FI = stackObjectOf(MI);
  if (FI < 0 || MI.mayLoad() == MI.mayStore())
    return false;
  const MachineOperand *Data = nullptr;
  unsigned Vectors = 0;
  for (const MachineOperand &MO : MI.operands())
    if (MO.isReg() && MO.getReg() && !MO.isImplicit() &&
        MO.isDef() == MI.mayLoad() &&
        Kinds[units(MO.getReg().asMCReg()).front()] == UnitKind::Vector) {
      Data = &MO;
      ++Vectors;
    }
  if (Vectors != 1 || units(Data->getReg().asMCReg()).size() > 2)
    return false;
  MCRegister R = Data->getReg().asMCReg();
  uint64_t RegBase = uint64_t(unsigned(units(R).front())) << 32;
  uint64_t Base = stackBase(FI);
  auto Move = [&](uint64_t From, uint64_t To, std::optional<Val> Whole) {
    llvm::erase_if(S.Slots, [&](const auto &E) {
      return (E.first & ~0xFFFFFFFFull) == To;
    });
    std::vector<std::pair<uint64_t, Val>> Copied;
    for (const auto &E : S.Slots)
      if ((E.first & ~0xFFFFFFFFull) == From && uint32_t(E.first) != WholeLane)
        Copied.push_back({To | (E.first & 0xFFFFFFFFull), E.second});
    if (Whole)
      Copied.push_back({To | WholeLane, *Whole});
    llvm::append_range(S.Slots, Copied);
    llvm::sort(S.Slots,
               [](const auto &A, const auto &B) { return A.first < B.first; });
  };
  if (MI.mayStore()) {
    Move(RegBase, Base, read(S, R));
    return true;
  }
  auto It = findSlot(S.Slots, Base | WholeLane);
  Val Whole =
      It != S.Slots.end() && It->first == (Base | WholeLane) ? It->second : Top;
  write(S, R, Whole);
  Move(Base, RegBase, std::nullopt);
  return true;
}

/// A store that may write a stack object ends what is known of its lanes.
void Analysis::forgetStackSlots(const MachineInstr &MI, State &S) {
  if (S.Slots.empty())
    return;
  int FI = stackObjectOf(MI);
  bool Private = MI.memoperands_empty();
  for (const MachineMemOperand *MMO : MI.memoperands())
    Private |= MMO->getAddrSpace() == 5 || MMO->getAddrSpace() == 0;
  if (!Private)
    return;
  llvm::erase_if(S.Slots, [&](const auto &E) {
    unsigned Obj = unsigned(E.first >> 32);
    return (Obj & (1u << 31)) && (FI < 0 || Obj == ((1u << 31) | unsigned(FI)));
  });
}

void Analysis::copySlots(State &S, MCRegister From, MCRegister To) {
  ArrayRef<int> FU = units(From), TU = units(To);
  if (FU.empty() || TU.empty())
    return;
  uint64_t FKey = uint64_t(unsigned(FU.front())) << 32;
  uint64_t TKey = uint64_t(unsigned(TU.front())) << 32;
  std::vector<std::pair<uint64_t, Val>> Copied;
  for (const auto &E : S.Slots)
    if ((E.first & ~0xFFFFFFFFull) == FKey)
      Copied.push_back({TKey | (E.first & 0xFFFFFFFFull), E.second});
  llvm::append_range(S.Slots, Copied);
  llvm::sort(S.Slots,
             [](const auto &A, const auto &B) { return A.first < B.first; });
}

BranchUniformity Analysis::run() {
  BranchUniformity Result;
  auto IsScalarBranch = [&](const MachineInstr &MI) {
    return MI.isConditionalBranch() &&
           Facts.classify(MI.getOpcode()).Role == OpcodeRole::ScalarBranch;
  };
  // Straight-line code and code that branches on EXEC only: nothing to
  // judge, and the dataflow below visits every instruction.
  if (llvm::none_of(MF, [&](const MachineBasicBlock &MBB) {
        return llvm::any_of(MBB.terminators(), IsScalarBranch);
      }))
    return Result;
  WaveSize = Facts.getWaveSize();

  // The units the function names, and the entry state: SGPR arguments of a
  // kernel are Uniform (kernel arguments, workgroup ids; the scratch wave
  // offset is used for scratch addressing only), of any other function
  // PerWave (each wave calls with its own); vector registers hold
  // work-item ids and lane arguments.
  for (const MachineBasicBlock &MBB : MF) {
    for (const auto &LI : MBB.liveins())
      (void)units(LI.PhysReg);
    for (const MachineInstr &MI : MBB) {
      SiteNumbers[&MI] = SiteNumbers.size();
      for (const MachineOperand &MO : MI.operands())
        if (MO.isReg() && MO.getReg() && MO.getReg().isPhysical())
          (void)units(MO.getReg().asMCReg());
    }
  }
  CallingConv::ID CC = MF.getFunction().getCallingConv();
  bool Kernel =
      CC == CallingConv::AMDGPU_KERNEL || CC == CallingConv::SPIR_KERNEL;
  State Entry;
  Entry.Units.resize(Kinds.size());
  for (unsigned U = 0; U < Kinds.size(); ++U)
    Entry.Units[U] = Kinds[U] == UnitKind::Vector ? Top
                     : SGPRUnit[U] && Kernel      ? UniformScalar
                                                  : PerWaveScalar;
  // Blocks in reverse post-order, each passed over again only when its
  // in-state changed after its last pass (behind a back-edge): acyclic code
  // is walked once. A block's branch is judged on each pass, the last one
  // seeing its final state.
  ReversePostOrderTraversal<const MachineFunction *> RPOT(&MF);
  std::vector<const MachineBasicBlock *> Order(RPOT.begin(), RPOT.end());
  std::vector<int> Position(MF.getNumBlockIDs(), -1);
  for (unsigned I = 0; I < Order.size(); ++I)
    Position[Order[I]->getNumber()] = I;
  std::vector<State> In(Order.size()), Out(Order.size());
  std::vector<uint8_t> Dirty(Order.size(), 0);
  std::vector<unsigned> Rounds(Order.size(), 0);
  std::vector<uint8_t> PerWaveBranch(Order.size(), 0), VCC(Order.size(), 0);
  if (Order.empty())
    return Result;
  Dirty[0] = 1;
  SmallVector<const State *, 4> Preds;
  for (bool Again = true; Again;) {
    Again = false;
    for (unsigned I = 0; I < Order.size(); ++I) {
      if (!Dirty[I])
        continue;
      Dirty[I] = 0;
      {
        // The entry block's state also arrives from the function's entry.
        Preds.clear();
        if (I == 0)
          Preds.push_back(&Entry);
        for (const MachineBasicBlock *Pred : Order[I]->predecessors()) {
          int PI = Position[Pred->getNumber()];
          if (PI >= 0 && !Out[PI].Units.empty())
            Preds.push_back(&Out[PI]);
        }
        bool Settle = ++Rounds[I] > 8;
        if (Preds.empty() ||
            (!computeIn(I, Preds, In[I], Settle) && !Out[I].Units.empty()))
          continue;
      }
      State S = In[I];
      PerWaveBranch[I] = 0;
      ExecAllOnes = false;
      for (const MachineInstr &MI : *Order[I]) {
        if (IsScalarBranch(MI)) {
          bool IsVCC = false;
          if (!judge(MI, S, IsVCC))
            PerWaveBranch[I] = 1;
          VCC[I] |= IsVCC;
        }
        transfer(MI, S);
      }
      if (S.Units == Out[I].Units && S.Slots == Out[I].Slots)
        continue;
      Out[I] = std::move(S);
      for (const MachineBasicBlock *Succ : Order[I]->successors()) {
        int SI = Position[Succ->getNumber()];
        if (SI < 0)
          continue;
        Dirty[SI] = 1;
        Again |= unsigned(SI) <= I;
      }
    }
  }
  for (unsigned I = 0; I < Order.size(); ++I) {
    if (PerWaveBranch[I])
      Result.PerWave.insert(Order[I]);
    else if (VCC[I])
      ++Result.UniformVCCBranches;
  }
  return Result;
}

BranchUniformity
llvm::ldsbarriers::analyzeBranchUniformity(const MachineFunction &MF,
                                           const TargetFacts &Facts) {
  return Analysis(MF, Facts).run();
}
