//===- LDSBranchUniformity.cpp - Scalar branches on per-wave values -------===//
//
// Taint sources: V_READFIRSTLANE, V_READLANE, S_GETREG and vector compares
// (their SGPR lane mask). An instruction that reads a tainted register
// (other than EXEC, which every vector instruction reads) taints what it
// defines; any other definition clears the taint. Joins take the union.
//
//===----------------------------------------------------------------------===//

#include "LDSBranchUniformity.h"
#include "AMDGPUTargetFacts.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

DenseSet<const MachineBasicBlock *>
llvm::ldsbarriers::findPerWaveBranches(const MachineFunction &MF,
                                       const TargetFacts &Facts) {
  DenseSet<const MachineBasicBlock *> Result;
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  unsigned NumUnits = TRI.getNumRegUnits();

  // Register units of EXEC: read by every vector instruction, not data.
  BitVector ExecUnits(NumUnits);
  for (unsigned R = 1, E = TRI.getNumRegs(); R < E; ++R)
    if (StringRef(TRI.getName(R)).starts_with("EXEC"))
      for (MCRegUnit U : TRI.regunits(MCRegister(R)))
        ExecUnits.set(static_cast<unsigned>(U));

  auto ReadsTainted = [&](const MachineInstr &MI, const BitVector &T) {
    for (const MachineOperand &MO : MI.operands())
      if (MO.isReg() && MO.isUse() && MO.getReg().isPhysical())
        for (MCRegUnit U : TRI.regunits(MO.getReg().asMCReg()))
          if (T.test(static_cast<unsigned>(U)) &&
              !ExecUnits.test(static_cast<unsigned>(U)))
            return true;
    return false;
  };
  auto Transfer = [&](const MachineInstr &MI, BitVector &T) {
    OpcodeRole Role = Facts.classify(MI.getOpcode()).Role;
    bool Taint = Role == OpcodeRole::PerWaveSource || ReadsTainted(MI, T);
    for (const MachineOperand &MO : MI.operands())
      if (MO.isReg() && MO.isDef() && MO.getReg().isPhysical())
        for (MCRegUnit U : TRI.regunits(MO.getReg().asMCReg()))
          T[static_cast<unsigned>(U)] = Taint;
  };

  DenseMap<const MachineBasicBlock *, BitVector> In;
  ReversePostOrderTraversal<const MachineFunction *> RPOT(&MF);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const MachineBasicBlock *MBB : RPOT) {
      BitVector T = In.lookup(MBB);
      T.resize(NumUnits);
      for (const MachineInstr &MI : *MBB)
        Transfer(MI, T);
      for (const MachineBasicBlock *S : MBB->successors()) {
        BitVector &SIn = In[S];
        SIn.resize(NumUnits);
        BitVector Old = SIn;
        SIn |= T;
        Changed |= SIn != Old;
      }
    }
  }
  for (const MachineBasicBlock *MBB : RPOT) {
    BitVector T = In.lookup(MBB);
    T.resize(NumUnits);
    for (const MachineInstr &MI : *MBB) {
      if (MI.isConditionalBranch() &&
          Facts.classify(MI.getOpcode()).Role == OpcodeRole::ScalarBranch &&
          ReadsTainted(MI, T))
        Result.insert(MBB);
      Transfer(MI, T);
    }
  }
  return Result;
}
