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

  // Blocks in reverse post-order, each passed over again only when its
  // in-state grew after its last pass (behind a back-edge): acyclic code
  // is walked once. A block's branch is judged on each pass over it, the
  // last one seeing its final state.
  ReversePostOrderTraversal<const MachineFunction *> RPOT(&MF);
  std::vector<const MachineBasicBlock *> Order(RPOT.begin(), RPOT.end());
  std::vector<unsigned> Position(MF.getNumBlockIDs(), 0);
  for (unsigned I = 0; I < Order.size(); ++I)
    Position[Order[I]->getNumber()] = I;
  std::vector<BitVector> In(Order.size(), BitVector(NumUnits));
  In[0] = VectorUnits; // Work-item ids and lane arguments.
  std::vector<uint8_t> Dirty(Order.size(), 1), PerWave(Order.size(), 0);
  for (bool Again = true; Again;) {
    Again = false;
    for (unsigned I = 0; I < Order.size(); ++I) {
      if (!Dirty[I])
        continue;
      Dirty[I] = 0;
      BitVector T = In[I];
      PerWave[I] = 0;
      for (const MachineInstr &MI : *Order[I]) {
        if (MI.isConditionalBranch() &&
            Facts.classify(MI.getOpcode()).Role == OpcodeRole::ScalarBranch &&
            ReadsTainted(MI, T))
          PerWave[I] = 1;
        Transfer(MI, T);
      }
      for (const MachineBasicBlock *S : Order[I]->successors()) {
        unsigned SI = Position[S->getNumber()];
        if (!T.subsetOf(In[SI])) {
          In[SI] |= T;
          Dirty[SI] = 1;
          Again |= SI <= I;
        }
      }
    }
  }
  for (unsigned I = 0; I < Order.size(); ++I)
    if (PerWave[I])
      Result.insert(Order[I]);
  return Result;
}
