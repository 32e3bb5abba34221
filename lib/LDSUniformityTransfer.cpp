//===- LDSUniformityTransfer.cpp - Branch uniformity: the transfer --------===//
//
// The transfer function of the branch-uniformity analysis: reading and
// writing the state (registers, their lanes and stack slots), then one
// function per value role of an instruction (AMDGPUTargetFacts classifies
// the opcodes): vector instructions, calls, the scalar roles, and the
// writes of the results to the destinations.
//
//===----------------------------------------------------------------------===//

#include "LDSUniformityLattice.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/PseudoSourceValue.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/Support/AMDGPUAddrSpace.h"

using namespace llvm;
using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::uniformity;

int Analysis::addUnit(MCRegUnit U) {
  int &D = DenseOf[static_cast<unsigned>(U)];
  if (D < 0) {
    D = Kinds.size();
    MCRegUnitRootIterator Root(U, &TRI);
    uint16_t RF = Facts.registerFacts(*Root, TRI);
    Kinds.push_back(kindOfUnitRoot(RF));
    SGPRUnit.push_back(RF & RegisterFacts::SGPR);
    IsSCC.push_back(RF & RegisterFacts::SCC);
    if (!StateSlot.empty())
      StateSlot.push_back(0); // Named after the slice was taken: outside.
  }
  return D;
}

const Analysis::RegInfo &Analysis::reg(MCRegister Reg) {
  static const RegInfo Unknown;
  if (Reg.id() >= RegSlot.size())
    return Unknown;
  int &Slot = RegSlot[Reg.id()];
  if (Slot < 0) {
    Slot = RegUnits.size();
    RegInfo RI;
    RI.Reg = Reg.id();
    for (MCRegUnit U : TRI.regunits(Reg)) {
      int D = addUnit(U);
      RI.Units.push_back(D);
      UnitKind K = Kinds[D];
      RI.AllTracked &= K == UnitKind::Scalar || K == UnitKind::Vector;
      RI.AnyVector |= K == UnitKind::Vector;
      RI.AnyExec |= K == UnitKind::Exec;
      RI.AnySCC |= IsSCC[D];
      RI.AnyData |= K == UnitKind::Scalar || K == UnitKind::Wave;
    }
    RegUnits.push_back(std::move(RI));
  }
  return RegUnits[Slot];
}

Val Analysis::read(const State &S, MCRegister Reg) {
  const RegInfo &RI = reg(Reg);
  // Units that all hold one value (the halves of most registers): that
  // value, which is their join.
  if (RI.AllTracked && !RI.Units.empty()) {
    Val First = at(S, RI.Units.front());
    if (llvm::all_of(drop_begin(RI.Units),
                     [&](int U) { return at(S, U) == First; }))
      return First;
  }
  std::optional<Val> V;
  for (int U : RI.Units)
    Val::accumulate(V, Kinds[U] == UnitKind::Exec    ? ExecValue
                       : Kinds[U] == UnitKind::Const ? UniformScalar
                       : Kinds[U] == UnitKind::Wave  ? PerWaveScalar
                                                     : at(S, U));
  return V ? *V : UniformScalar;
}

/// operandValue for an instruction that reads the lanes' data: a vector
/// register that is undefined but in the lanes V_WRITELANE wrote holds
/// those lanes' values (the others may be taken to hold the same).
Val Analysis::dataValue(const State &S, const MachineOperand &MO) {
  Val V = operandValue(S, MO);
  if (!V.isUndef() || S.Slots.empty())
    return V;
  const RegInfo &RI = reg(MO.getReg().asMCReg());
  std::optional<Val> Lanes;
  if (RI.AnyVector)
    for (const auto &[Key, SlotV] : S.Slots)
      if (llvm::is_contained(RI.Units, int(Key >> 32)))
        Val::accumulate(
            Lanes, Val::make(std::max(SlotV.n(), PerWave), PerLane, false));
  return Lanes ? *Lanes : V;
}

Val Analysis::operandValue(const State &S, const MachineOperand &MO) {
  if (MO.isReg())
    return MO.getReg() ? read(S, MO.getReg().asMCReg()) : UniformScalar;
  if (MO.isImm())
    return immediateValue(MO.getImm());
  return UniformScalar; // Frame indices, symbols, floating-point immediates.
}

bool Analysis::isWholeMask(const MachineOperand &MO) {
  MCRegister Reg = MO.getReg().asMCReg();
  auto [It, Inserted] = WholeMask.try_emplace(Reg.id());
  if (Inserted) {
    // The operand's class answers when it holds the register and has a
    // mask's size: getMinimalPhysRegClass reads every class of the target.
    const MCInstrDesc &D = MO.getParent()->getDesc();
    unsigned OpIdx = MO.getOperandNo();
    const TargetRegisterClass *RC =
        OpIdx < D.getNumOperands() ? TII.getRegClass(D, OpIdx) : nullptr;
    unsigned Bits = RC && RC->contains(Reg) ? TRI.getRegSizeInBits(*RC) : 0;
    if (Bits != 32 && Bits != 64) {
      RC = TRI.getMinimalPhysRegClass(Reg);
      Bits = RC ? TRI.getRegSizeInBits(*RC) : 0;
    }
    It->second = Bits == WaveSize;
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
    It->second = RC && Facts.isScalarRegClass(*RC, TRI);
  }
  return It->second;
}

void Analysis::write(State &S, MCRegister Reg, Val V, bool KeepSlots) {
  for (int U : units(Reg)) {
    if (Kinds[U] != UnitKind::Scalar && Kinds[U] != UnitKind::Vector)
      continue;
    at(S, U) = V;
    if (!KeepSlots && Kinds[U] == UnitKind::Vector && !S.Slots.empty())
      llvm::erase_if(S.Slots,
                     [&](const auto &E) { return int(E.first >> 32) == U; });
  }
}

int Analysis::stackObjectOf(const MachineInstr &MI) {
  const auto *PSV = MI.hasOneMemOperand()
                        ? dyn_cast_or_null<FixedStackPseudoSourceValue>(
                              (*MI.memoperands_begin())->getPseudoValue())
                        : nullptr;
  return PSV ? PSV->getFrameIndex() : -1;
}

bool Analysis::mayStoreToStack(const MachineInstr &MI) {
  return MI.mayStore() &&
         (MI.memoperands_empty() ||
          llvm::any_of(MI.memoperands(), [](const MachineMemOperand *MMO) {
            return MMO->getAddrSpace() == AMDGPUAS::PRIVATE_ADDRESS ||
                   MMO->getAddrSpace() == AMDGPUAS::FLAT_ADDRESS;
          }));
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
  uint64_t RegBase = slotKey(units(R).front(), 0);
  uint64_t Base = stackBase(FI);
  if (MI.mayStore()) {
    moveSlots(S.Slots, RegBase, Base, read(S, R));
    return true;
  }
  write(S, R, slotValue(S.Slots, Base | WholeLane).value_or(Top));
  moveSlots(S.Slots, Base, RegBase);
  return true;
}

/// A store that may write a stack object ends what is known of its lanes.
void Analysis::forgetStackSlots(const MachineInstr &MI, State &S) {
  if (S.Slots.empty() || !mayStoreToStack(MI))
    return;
  int FI = stackObjectOf(MI);
  llvm::erase_if(S.Slots, [&](const auto &E) {
    unsigned Obj = unsigned(E.first >> 32);
    return (Obj & (1u << 31)) && (FI < 0 || Obj == ((1u << 31) | unsigned(FI)));
  });
}

void Analysis::moveSlots(SlotList &Slots, uint64_t From, uint64_t To,
                         std::optional<Val> Whole) {
  auto Object = [](uint64_t Key) { return Key & ~0xFFFFFFFFull; };
  llvm::erase_if(Slots, [&](const auto &E) { return Object(E.first) == To; });
  SlotList Copied;
  for (const auto &[Key, V] : Slots)
    if (Object(Key) == From && uint32_t(Key) != WholeLane)
      Copied.push_back({To | uint32_t(Key), V});
  if (Whole)
    Copied.push_back({To | WholeLane, *Whole});
  llvm::append_range(Slots, Copied);
  llvm::sort(Slots, llvm::less_first());
}

void Analysis::copySlots(State &S, MCRegister From, MCRegister To) {
  ArrayRef<int> FU = units(From), TU = units(To);
  if (!FU.empty() && !TU.empty())
    moveSlots(S.Slots, slotKey(FU.front(), 0), slotKey(TU.front(), 0));
}

/// Vector instructions: each lane's result is a function of that lane's
/// operands; scalar results are lane masks of per-lane predicates.
void Analysis::transferVector(const MachineInstr &MI, State &S) {
  Level PerLaneInputs = Uniform;
  for (const auto &[I, MO] : enumerate(MI.operands())) {
    if (MO.isReg() && (!MO.isUse() || !MO.getReg()))
      continue;
    // Implicit: EXEC masks lanes and is not data; MODE is Uniform; VCC is
    // a lane mask (V_CNDMASK_B32_e32, carries, V_DIV_FMAS); M0 a scalar.
    bool Implicit = MO.isReg() && MO.isImplicit();
    if (Implicit && !reg(MO.getReg().asMCReg()).AnyData)
      continue;
    Val V = Implicit ? read(S, MO.getReg().asMCReg()) : dataValue(S, MO);
    bool Mask = Implicit ? Facts.registerFacts(MO.getReg().asMCReg(), TRI) &
                               RegisterFacts::VCCPart
                         : MO.isReg() && I < MI.getDesc().getNumOperands() &&
                               isLaneMaskOperand(MI, I);
    PerLaneInputs = std::max(PerLaneInputs, Mask ? maskLevel(V) : V.n());
  }
  for (const MachineOperand &MO : MI.operands()) {
    if (!MO.isReg() || !MO.isDef() || !MO.getReg())
      continue;
    MCRegister R = MO.getReg().asMCReg();
    // Under a partial EXEC the inactive lanes keep older values (and a
    // lane mask is zero in a wave with no lane active).
    if (ExecPartialNow && !reg(R).AnyExec)
      write(S, R, Top);
    else if (reg(R).AnyVector)
      write(S, R, Val::make(PerLaneInputs, PerLaneInputs, false));
    else // A lane mask: 0 for inactive lanes, so Sub.
      write(S, R, Val::make(PerWave, PerLaneInputs, true, siteTag()));
  }
}

/// Calls and inline assembly: anything they define or clobber is unknown.
void Analysis::transferCall(const MachineInstr &MI, State &S) {
  for (const MachineOperand &MO : MI.operands()) {
    if (MO.isReg() && MO.isDef() && MO.getReg())
      write(S, MO.getReg().asMCReg(), Top);
    // Clobbered registers: the ones the mask does not preserve.
    if (MO.isRegMask())
      for (const RegInfo &RI : RegUnits)
        if (MO.clobbersPhysReg(MCRegister(RI.Reg)))
          write(S, MCRegister(RI.Reg), Top, /*KeepSlots=*/true);
  }
}

Operands Analysis::gatherOperands(const MachineInstr &MI, const State &S) {
  Operands Ops;
  for (const MachineOperand &MO : MI.operands()) {
    if (MO.isReg() && (!MO.isUse() || !MO.getReg()))
      continue;
    if (MO.isReg() && MO.isImplicit()) {
      if (reg(MO.getReg().asMCReg()).AnyExec)
        continue;
    } else if (MO.isReg() || MO.isImm()) {
      Ops.Sources.push_back(&MO);
    }
    Ops.Inputs = std::max(Ops.Inputs, dataValue(S, MO).n());
  }
  Ops.Default = Val::make(Ops.Inputs, PerLane, false);
  return Ops;
}

/// Bitwise, lane by lane: each operand's pieces must agree (read() checks),
/// different operands need not.
Effect Analysis::scalarLogic(const MachineInstr &MI, const State &S,
                             const Operands &Ops) {
  Level N = Uniform, P = Uniform;
  bool AllSub = true, AnySub = false, FirstSub = false;
  for (const MachineOperand *MO : Ops.Sources) {
    Val O = operandValue(S, *MO);
    N = std::max(N, O.n());
    P = std::max(P, O.p());
    AllSub &= O.sub();
    AnySub |= O.sub();
    FirstSub |= MO == Ops.Sources.front() && O.sub();
  }
  ScalarOp Op = Facts.scalarOp(MI.getOpcode());
  bool Sub = (Op == ScalarOp::And && AnySub) ||
             (Op == ScalarOp::AndNot && FirstSub) ||
             ((Op == ScalarOp::Or || Op == ScalarOp::Xor) && AllSub);
  Val Result = Val::make(N, P, Sub, siteTag());
  bool Whole = MI.getNumOperands() && MI.getOperand(0).isReg() &&
               MI.getOperand(0).isDef() && isWholeMask(MI.getOperand(0));
  return {Result,
          zeroTestIsUniform(Result, Whole) ? UniformScalar : PerWaveScalar};
}

Val Analysis::scalarSelect(const MachineInstr &MI, const State &S,
                           const Operands &Ops) {
  Val Cond = UniformScalar;
  for (const MachineOperand &MO : MI.operands())
    if (MO.isReg() && MO.isUse() && MO.isImplicit() && MO.getReg())
      Cond = Cond.join(read(S, MO.getReg().asMCReg()));
  SmallVector<Val, 3> Choices;
  for (const MachineOperand *MO : Ops.Sources)
    Choices.push_back(operandValue(S, *MO));
  // S_CMOV keeps its destination when SCC is clear.
  if (Ops.Sources.size() == 1 && MI.getOperand(0).isReg())
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
  return Val::make(N, P, Sub, siteTag());
}

/// The SCC of a scalar compare. A test of a register against zero: uniform
/// when its zero test is.
Val Analysis::scalarCompare(const MachineInstr &MI, const State &S,
                            const Operands &Ops) {
  if (Facts.scalarOp(MI.getOpcode()) != ScalarOp::EqualityCompare ||
      Ops.Sources.size() != 2)
    return Ops.Default;
  const MachineOperand *A = Ops.Sources[0], *B = Ops.Sources[1];
  if (A->isImm())
    std::swap(A, B);
  if (!B->isImm() || B->getImm() != 0 || !A->isReg())
    return Ops.Default;
  return zeroTestIsUniform(read(S, A->getReg().asMCReg()), isWholeMask(*A))
             ? UniformScalar
             : PerWaveScalar;
}

/// Lane I of a vector register is not the same in every wave (it may be
/// inactive) unless a V_WRITELANE put a known value there.
Val Analysis::readLane(const MachineInstr &MI, const State &S) {
  if (MI.getNumOperands() < 3 || !MI.getOperand(1).isReg() ||
      !MI.getOperand(2).isImm())
    return PerWaveScalar;
  ArrayRef<int> Us = units(MI.getOperand(1).getReg().asMCReg());
  if (Us.empty())
    return PerWaveScalar;
  if (std::optional<Val> V =
          slotValue(S.Slots, slotKey(Us.front(), MI.getOperand(2).getImm())))
    return *V;
  // A lane no one wrote is undefined.
  return at(S, Us.front()).isUndef() ? UniformScalar : PerWaveScalar;
}

/// $vdst = V_WRITELANE_B32 $src, $lane, $vdst(tied): the scalar goes to its
/// lane. False when the lane is not a constant (the result is unknown).
bool Analysis::writeLane(const MachineInstr &MI, State &S) {
  if (MI.getNumOperands() < 3 || !MI.getOperand(0).isReg() ||
      !MI.getOperand(2).isImm())
    return false;
  Val Src = operandValue(S, MI.getOperand(1));
  MCRegister R = MI.getOperand(0).getReg().asMCReg();
  ArrayRef<int> Us = units(R);
  // An undefined register stays so outside its slots (read() sees them).
  bool Undef = !Us.empty() && at(S, Us.front()).isUndef();
  write(S, R, Undef ? Val::undef() : Top, /*KeepSlots=*/true);
  if (!Us.empty()) {
    uint64_t Key = slotKey(Us.front(), MI.getOperand(2).getImm());
    auto It = findSlot(S.Slots, Key);
    if (It != S.Slots.end() && It->first == Key)
      It->second = Src;
    else
      S.Slots.insert(It, {Key, Src});
  }
  return true;
}

void Analysis::writeResults(const MachineInstr &MI, State &S, ValueRole Role,
                            const Operands &Ops, const Effect &E) {
  const MachineOperand *Src =
      Ops.Sources.empty() ? nullptr : Ops.Sources.front();
  for (const MachineOperand &MO : MI.operands()) {
    if (!MO.isReg() || !MO.isDef() || !MO.getReg())
      continue;
    MCRegister R = MO.getReg().asMCReg();
    const RegInfo &RI = reg(R);
    if (RI.AnyExec) {
      // All lanes on (whole-wave mode around spills) or some other mask.
      bool AllOn = Src && Src->isImm() && Src->getImm() == -1;
      ExecAllOnes =
          AllOn && (Role == ValueRole::Move ||
                    (Role == ValueRole::ExecSave &&
                     Facts.scalarOp(MI.getOpcode()) == ScalarOp::OrSaveExec));
      // A copy of EXEC saved where it was full restores it (the end of
      // whole-wave mode around spills).
      ExecFullAfter =
          ExecAllOnes || (Role == ValueRole::Move && Src && Src->isReg() &&
                          operandValue(S, *Src).Tag == FullExecTag);
      continue;
    }
    if (RI.AnyVector && Role == ValueRole::Move) {
      write(S, R, ExecPartialNow ? Top : E.Result);
      // A copy of every lane carries the scalars kept in single lanes.
      if (ExecAllOnes && Src && Src->isReg())
        copySlots(S, Src->getReg().asMCReg(), R);
    } else if (RI.AnyVector) // Loaded per lane (vector memory, LDS), or mixed.
      write(S, R, E.VectorResult ? E.Result : Top);
    else if (RI.AnySCC)
      write(S, R, E.SCC ? *E.SCC : Ops.Default);
    else
      write(S, R, E.Result);
  }
}

/// Whether every memoperand of \p MI is a plain (not volatile, not atomic)
/// access of global or constant memory.
static bool plainGlobalLoad(const MachineInstr &MI) {
  return !MI.memoperands_empty() &&
         llvm::all_of(MI.memoperands(), [](const MachineMemOperand *MMO) {
           unsigned AS = MMO->getAddrSpace();
           return !MMO->isVolatile() && !MMO->isAtomic() &&
                  (AS == AMDGPUAS::GLOBAL_ADDRESS ||
                   AS == AMDGPUAS::CONSTANT_ADDRESS ||
                   AS == AMDGPUAS::CONSTANT_ADDRESS_32BIT);
         });
}

/// A load of a uniform address under a full EXEC that the policy allows to
/// read as uniform (UniformLoadPolicy): an LDS read, or a plain vector load
/// of global or constant memory (`*numDevice` of a byte, which has no
/// scalar load). The latter needs no window: a write of the location by
/// another work-item between two waves' reads would be a data race on
/// global memory, which the program may not have.
bool Analysis::isUniformLoad(const MachineInstr &MI, const Operands &Ops) {
  if (!Loads.Enabled)
    return false;
  bool OneValue = !ExecPartialNow && Ops.Inputs == Uniform;
  OpcodeRole Role = Facts.classify(MI.getOpcode()).Role;
  if (Role == OpcodeRole::VMemLoad)
    return OneValue && plainGlobalLoad(MI);
  if (Role != OpcodeRole::DSRead)
    return false;
  OneValue &= !Loads.Excluded.contains(&MI);
  LoadVerdicts[&MI] = OneValue;
  return OneValue;
}

void Analysis::transfer(const MachineInstr &MI, State &S) {
  if (MI.isDebugInstr())
    return;
  if (MI.isCall() || MI.isInlineAsm()) {
    transferCall(MI, S);
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
  ValueRole Role = Facts.valueRole(MI.getOpcode());
  if (Role == ValueRole::VectorOp) {
    transferVector(MI, S);
    return;
  }

  Operands Ops = gatherOperands(MI, S);
  Effect E{Ops.Default, std::nullopt};
  switch (Role) {
  case ValueRole::Move:
    // A whole-wave copy takes the scalars kept in lanes along (copySlots);
    // any other reads the lanes.
    if (!Ops.Sources.empty())
      E.Result = ExecAllOnes ? operandValue(S, *Ops.Sources.front())
                             : dataValue(S, *Ops.Sources.front());
    break;
  case ValueRole::ScalarLogic:
    E = scalarLogic(MI, S, Ops);
    break;
  case ValueRole::ExecSave:
    E = {ExecPartialNow ? ExecValue : ExecValue.withTag(FullExecTag),
         PerWaveScalar};
    break;
  case ValueRole::ScalarSelect:
    E.Result = scalarSelect(MI, S, Ops);
    break;
  case ValueRole::ScalarCompare:
    E.SCC = scalarCompare(MI, S, Ops);
    break;
  case ValueRole::ScalarLoad: // As varying as its address: the default.
    break;
  case ValueRole::ReadFirstLane:
    E.Result = Ops.Inputs == Uniform ? UniformScalar : PerWaveScalar;
    break;
  case ValueRole::ReadLane:
    E.Result = readLane(MI, S);
    break;
  case ValueRole::WriteLane:
    if (writeLane(MI, S))
      return;
    E.Result = Top;
    break;
  case ValueRole::LaneVarying:
    E = {Top, Top};
    break;
  case ValueRole::PerWave:
    E = {PerWaveScalar, PerWaveScalar};
    if (MI.getNumOperands() > 1 && MI.getOperand(1).isImm() &&
        Facts.readsWorkgroupUniformHwReg(MI.getOpcode(),
                                         MI.getOperand(1).getImm()))
      E = {UniformScalar, UniformScalar};
    break;
  case ValueRole::VectorOp:
  case ValueRole::Generic:
    // A scalar result read from memory by something other than a scalar
    // load (scalar atomics are PerWave already) may differ between waves.
    if (isUniformLoad(MI, Ops))
      E = {UniformScalar, std::nullopt, /*VectorResult=*/true};
    else if (MI.mayLoad())
      E.Result = Val::make(std::max(Ops.Inputs, PerWave), PerLane, false);
    break;
  }
  writeResults(MI, S, Role, Ops, E);
}
