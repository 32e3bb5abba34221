//===- LDSDecidedBranches.cpp - Branches their own block decides ----------===//
//
// A VCC branch whose mask is computed in its block by S_AND or S_ANDN2 of
// EXEC and a constant (an immediate, or a register the block set with
// S_MOV): the mask is 0 or EXEC, and the branch always goes one way. Only
// what the block itself shows counts: a mask or constant from elsewhere is
// not followed.
//
//===----------------------------------------------------------------------===//

#include "LDSDecidedBranches.h"
#include "AMDGPULDSBarriersCommon.h"
#include "AMDGPUTargetFacts.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

namespace {

enum class MaskValue { Unknown, Zero, AllOnes, Exec };

/// What one block shows of the masks its VCC branch tests.
struct BlockMasks {
  const MachineBasicBlock &MBB;
  const TargetRegisterInfo &TRI;
  const TargetFacts &Facts;
  unsigned WaveSize;

  std::optional<DecidedBranch> decide() const;

  /// Whether \p MI writes \p Reg: defines an overlapping register or
  /// clobbers it with a register mask.
  bool writes(const MachineInstr &MI, Register Reg) const {
    for (ArrayRef<MachineOperand> Ops : mayDefineOperands(MI))
      for (const MachineOperand &MO : Ops)
        if (MO.isRegMask() ? MO.clobbersPhysReg(Reg.asMCReg())
                           : MO.isReg() && MO.isDef() && MO.getReg() &&
                                 TRI.regsOverlap(MO.getReg(), Reg))
          return true;
    return false;
  }
  /// The last instruction before \p At in the block that writes \p Reg.
  const MachineInstr *lastWrite(const MachineInstr &At, Register Reg) const {
    for (const MachineInstr &MI :
         reverse(make_range(MBB.instr_begin(), At.getIterator())))
      if (!MI.isDebugInstr() && writes(MI, Reg))
        return &MI;
    return nullptr;
  }
  /// Whether \p Reg is the register of RegisterFacts flag \p Wave64 on a
  /// wave64 target, of \p Wave32 on a wave32 one.
  bool isNamed(Register Reg, uint16_t Wave64, uint16_t Wave32) const {
    return Reg.isPhysical() && (Facts.registerFacts(Reg.asMCReg(), TRI) &
                                (WaveSize == 64 ? Wave64 : Wave32));
  }
  MaskValue immediate(int64_t Imm) const {
    if (Imm == 0)
      return MaskValue::Zero;
    if (Imm == -1 || (WaveSize == 32 && Imm == 0xFFFFFFFF))
      return MaskValue::AllOnes;
    return MaskValue::Unknown;
  }
  MaskValue valueAt(const MachineOperand &MO, const MachineInstr &At) const;
  MaskValue maskAt(const MachineInstr &Branch) const;
};

} // namespace

/// An operand of a wave-sized logic operation at \p At: EXEC unwritten since
/// the block began, an immediate, or a register the block last set to one.
MaskValue BlockMasks::valueAt(const MachineOperand &MO,
                              const MachineInstr &At) const {
  if (MO.isImm())
    return immediate(MO.getImm());
  if (!MO.isReg() || !MO.getReg().isPhysical() || MO.getSubReg())
    return MaskValue::Unknown;
  Register Reg = MO.getReg();
  const MachineInstr *Def = lastWrite(At, Reg);
  if (isNamed(Reg, RegisterFacts::IsExec, RegisterFacts::IsExecLo))
    return Def ? MaskValue::Unknown : MaskValue::Exec;
  // A move that defines the whole of Reg, a mask as wide as the wave.
  if (!Def || Facts.scalarOp(Def->getOpcode()) != ScalarOp::Move ||
      Def->getNumOperands() < 2 || !Def->getOperand(0).isReg() ||
      Def->getOperand(0).getReg() != Reg || !Def->getOperand(1).isImm())
    return MaskValue::Unknown;
  return immediate(Def->getOperand(1).getImm());
}

/// The VCC a branch tests: its last write in the block, an AND or ANDN2
/// (x & ~y) of two known operands.
MaskValue BlockMasks::maskAt(const MachineInstr &Branch) const {
  // The branch names $vcc (wave32 tests its low half) or $vcc_lo.
  Register VCC;
  for (const MachineOperand &MO : Branch.operands()) {
    if (!MO.isReg() || !MO.isUse() || !MO.getReg().isPhysical())
      continue;
    MCRegister R = MO.getReg().asMCReg();
    if (isNamed(R, RegisterFacts::IsVCC, RegisterFacts::IsVCCLo))
      VCC = R;
    else if (WaveSize == 32 &&
             (Facts.registerFacts(R, TRI) & RegisterFacts::IsVCC))
      for (MCPhysReg Sub : TRI.subregs(R))
        if (Facts.registerFacts(Sub, TRI) & RegisterFacts::IsVCCLo)
          VCC = Sub;
  }
  const MachineInstr *Def = VCC ? lastWrite(Branch, VCC) : nullptr;
  if (!Def || Def->getNumOperands() < 3 || !Def->getOperand(0).isReg() ||
      !isNamed(Def->getOperand(0).getReg(), RegisterFacts::IsVCC,
               RegisterFacts::IsVCCLo))
    return MaskValue::Unknown;
  // Def defines all of VCC (VCC_LO on wave32): an operation of the wave's
  // width.
  ScalarOp Op = Facts.scalarOp(Def->getOpcode());
  bool And = Op == ScalarOp::And, AndNot = Op == ScalarOp::AndNot;
  if (!And && !AndNot)
    return MaskValue::Unknown;
  MaskValue X = valueAt(Def->getOperand(1), *Def);
  MaskValue Y = valueAt(Def->getOperand(2), *Def);
  if (And && X == MaskValue::AllOnes)
    std::swap(X, Y);
  if (X == MaskValue::Zero || (And && Y == MaskValue::Zero) ||
      (AndNot && Y == MaskValue::AllOnes))
    return MaskValue::Zero;
  if (X == MaskValue::Exec &&
      (And ? Y == MaskValue::AllOnes || Y == MaskValue::Exec
           : Y == MaskValue::Zero))
    return MaskValue::Exec;
  return MaskValue::Unknown;
}

std::optional<DecidedBranch> BlockMasks::decide() const {
  if (MBB.succ_size() != 2)
    return std::nullopt;
  for (const MachineInstr &MI : MBB.terminators()) {
    if (!MI.isConditionalBranch())
      continue;
    ScalarOp Op = Facts.scalarOp(MI.getOpcode());
    bool IfZero = Op == ScalarOp::BranchVCCZ;
    if ((!IfZero && Op != ScalarOp::BranchVCCNZ) || !MI.getOperand(0).isMBB())
      return std::nullopt;
    const MachineBasicBlock *Target = MI.getOperand(0).getMBB();
    const MachineBasicBlock *Other = nullptr;
    for (const MachineBasicBlock *S : MBB.successors())
      if (S != Target)
        Other = S;
    if (!Other || !MBB.isSuccessor(Target))
      return std::nullopt;
    MaskValue Mask = maskAt(MI);
    if (Mask == MaskValue::Unknown || Mask == MaskValue::AllOnes)
      return std::nullopt;
    // Taken when the mask is zero (VCCZ) or not (VCCNZ).
    bool Zero = Mask == MaskValue::Zero;
    return DecidedBranch{IfZero == Zero ? Other : Target, !Zero};
  }
  return std::nullopt;
}

std::optional<DecidedBranch>
llvm::ldsbarriers::decideBranch(const MachineBasicBlock &MBB,
                                const TargetFacts &Facts) {
  return BlockMasks{MBB, *MBB.getParent()->getSubtarget().getRegisterInfo(),
                    Facts, Facts.getWaveSize()}
      .decide();
}
