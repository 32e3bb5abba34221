//===- LDSBranchUniformity.cpp - Scalar branches on per-wave values -------===//
//
// Taint sources: the vector registers live on entry (work-item ids, lane
// arguments), vector registers loaded from memory (each lane loads its own
// address), lane ids (V_MBCNT), lane masks of vector compares, S_GETREG. An
// instruction that reads a tainted register (other than EXEC, which every
// vector instruction reads) taints what it defines; any other definition
// clears the taint. So V_READFIRSTLANE / V_READLANE of lane-varying data are
// per-wave, while a scalar spilled to a VGPR lane with V_WRITELANE and read
// back with V_READLANE (as at -O0) stays uniform. Joins take the union.
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
#include <map>
#include <mutex>

using namespace llvm;
using namespace llvm::ldsbarriers;

DenseSet<const MachineBasicBlock *>
llvm::ldsbarriers::findPerWaveBranches(const MachineFunction &MF,
                                       const TargetFacts &Facts) {
  DenseSet<const MachineBasicBlock *> Result;
  // Straight-line code and code that branches on EXEC only: nothing to
  // find, and the dataflow below visits every instruction.
  if (llvm::none_of(MF, [&](const MachineBasicBlock &MBB) {
        return llvm::any_of(MBB.terminators(), [&](const MachineInstr &MI) {
          return MI.isConditionalBranch() &&
                 Facts.classify(MI.getOpcode()).Role ==
                     OpcodeRole::ScalarBranch;
        });
      }))
    return Result;
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  unsigned NumUnits = TRI.getNumRegUnits();

  // Register units of EXEC (read by every vector instruction, not data) and
  // of the vector registers: a scan of every register name, done once per
  // register table (keyed by the static name table, which outlives any
  // TargetRegisterInfo object).
  static std::mutex Lock;
  static std::map<const void *, std::pair<BitVector, BitVector>> UnitSets;
  BitVector ExecUnits, VectorUnits;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto [It, Inserted] =
        UnitSets.try_emplace(static_cast<const void *>(TRI.getName(1)));
    auto &[Exec, Vector] = It->second;
    if (Inserted) {
      Exec.resize(NumUnits);
      Vector.resize(NumUnits);
      for (unsigned R = 1, E = TRI.getNumRegs(); R < E; ++R) {
        StringRef Name = TRI.getName(R);
        BitVector *Set = Name.starts_with("EXEC") ? &Exec
                         : Name.starts_with("VGPR") || Name.starts_with("AGPR")
                             ? &Vector
                             : nullptr;
        if (Set)
          for (MCRegUnit U : TRI.regunits(MCRegister(R)))
            Set->set(static_cast<unsigned>(U));
      }
    }
    ExecUnits = Exec;
    VectorUnits = Vector;
  }

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
        for (MCRegUnit U : TRI.regunits(MO.getReg().asMCReg())) {
          unsigned Unit = static_cast<unsigned>(U);
          // A load into a vector register loads per lane.
          T[Unit] = Taint || (MI.mayLoad() && VectorUnits.test(Unit));
        }
  };

  DenseMap<const MachineBasicBlock *, BitVector> In;
  In[&MF.front()] = VectorUnits; // Work-item ids and lane arguments.
  ReversePostOrderTraversal<const MachineFunction *> RPOT(&MF);
  // The branches are judged in every pass over the function; the last pass,
  // in which no state changed, saw the final states.
  for (bool Changed = true; Changed;) {
    Changed = false;
    Result.clear();
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
      for (const MachineBasicBlock *S : MBB->successors()) {
        BitVector &SIn = In[S];
        SIn.resize(NumUnits);
        BitVector Old = SIn;
        SIn |= T;
        Changed |= SIn != Old;
      }
    }
  }
  return Result;
}
