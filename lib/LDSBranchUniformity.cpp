//===- LDSBranchUniformity.cpp - Branches all waves take alike ------------===//
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
// Sync dependence (GenericUniformityImpl.h's theory, at the lane level of
// EXEC branches and the wave level of per-wave scalar branches): where the
// paths of a divergent branch meet, and at the exits of cycles it leaves,
// whatever its region defines takes the branch's level; a vector write
// where EXEC may be partial leaves the other lanes' old values.
//
//===----------------------------------------------------------------------===//

#include "LDSBranchUniformity.h"
#include "AMDGPULDSBarriersCommon.h"
#include "LDSUniformityLattice.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/CodeGen/MachineCycleAnalysis.h"
#include "llvm/CodeGen/MachinePostDominators.h"
#include "llvm/IR/Function.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::uniformity;

#define DEBUG_TYPE "amdgpu-lds-barriers"

bool Analysis::judge(const MachineInstr &Branch, const State &S, bool &IsVCC) {
  ScalarOp Op = Facts.scalarOp(Branch.getOpcode());
  IsVCC = Op == ScalarOp::BranchVCCZ || Op == ScalarOp::BranchVCCNZ;
  for (const MachineOperand &MO : Branch.operands()) {
    if (!MO.isReg() || !MO.isUse() || !MO.getReg())
      continue;
    MCRegister R = MO.getReg().asMCReg();
    uint16_t RF = Facts.registerFacts(R, TRI);
    if (RF & (IsVCC ? RegisterFacts::VCCPart : RegisterFacts::SCC))
      return zeroTestIsUniform(read(S, R), IsVCC && isWholeMask(MO));
  }
  return false; // No condition operand found: assume the worst.
}

/// The join of the values \p Vs that reach block \p Block (one per
/// predecessor) where \p Old was the block's value before.
Val Analysis::joinAt(unsigned Block, ArrayRef<Val> Vs, Val Old, bool Settle) {
  Val J = Vs.front();
  for (Val V : Vs.drop_front())
    J = J.join(V);
  SmallVector<Val, 4> Defined(
      make_filter_range(Vs, [](Val V) { return !V.isUndef(); }));
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
bool Analysis::isUndefIn(const State &S, uint64_t Key) const {
  uint32_t Obj = uint32_t(Key >> 32);
  if (!(Obj & (1u << 31)))
    return S.Units[StateSlot[Obj]].isUndef();
  std::optional<Val> Whole =
      slotValue(S.Slots, (Key & ~0xFFFFFFFFull) | WholeLane);
  return Whole && Whole->isUndef();
}

bool Analysis::computeIn(unsigned Block, unsigned Number,
                         ArrayRef<const State *> Preds, State &In,
                         bool Settle) {
  State New;
  New.ExecPartial =
      llvm::any_of(Preds, [](const State *P) { return P->ExecPartial; });
  New.Units.resize(Preds.front()->Units.size());
  New.Units[0] = Top; // The slot of the units outside the slice.
  SmallVector<Val, 4> Vs;
  bool HadOld = !In.Units.empty();
  for (unsigned U = 1; U < New.Units.size(); ++U) {
    // Equal values join to themselves (most units, at most joins).
    Val First = Preds.front()->Units[U];
    if (llvm::all_of(Preds.drop_front(),
                     [&](const State *P) { return P->Units[U] == First; })) {
      New.Units[U] = First;
      continue;
    }
    Vs.clear();
    for (const State *P : Preds)
      Vs.push_back(P->Units[U]);
    New.Units[U] = joinAt(Block, Vs, HadOld ? In.Units[U] : Vs.front(), Settle);
  }
  // Slots known on every path where their vector register is defined (one
  // path: its slots as they are).
  std::vector<uint64_t> Keys;
  if (Preds.size() == 1)
    New.Slots = Preds.front()->Slots;
  else
    for (const State *P : Preds)
      for (const auto &E : P->Slots)
        Keys.push_back(E.first);
  llvm::sort(Keys);
  Keys.erase(llvm::unique(Keys), Keys.end());
  for (uint64_t Key : Keys) {
    Vs.clear();
    bool Unknown = false;
    for (const State *P : Preds) {
      if (std::optional<Val> V = slotValue(P->Slots, Key))
        Vs.push_back(*V);
      else if (!isUndefIn(*P, Key))
        Unknown = true;
    }
    if (Unknown || Vs.empty())
      continue;
    std::optional<Val> Old = HadOld ? slotValue(In.Slots, Key) : std::nullopt;
    New.Slots.push_back(
        {Key, joinAt(Block, Vs, Old.value_or(Vs.front()), Settle)});
  }
  applySyncDependence(Number, New);
  bool Changed = !HadOld || New != In;
  In = std::move(New);
  return Changed;
}

bool Analysis::definesExec(const MachineInstr &MI) {
  return llvm::any_of(MI.operands(), [&](const MachineOperand &MO) {
    return MO.isReg() && MO.isDef() && MO.getReg() &&
           MO.getReg().isPhysical() && reg(MO.getReg().asMCReg()).AnyExec;
  });
}

/// A conditional branch on a scalar condition (SCC, VCC): the branches the
/// analysis judges.
static bool isScalarBranch(const MachineInstr &MI, const TargetFacts &Facts) {
  return MI.isConditionalBranch() &&
         Facts.classify(MI.getOpcode()).Role == OpcodeRole::ScalarBranch;
}

/// Records the registers \p MI (site \p Site) defines and tells whether
/// the fixpoint must run it whatever branches depend on (a root of the
/// slice, markRelevant). The registers it only reads are named when the
/// slice or the fixpoint reads them.
Analysis::SiteRoot Analysis::noteSite(unsigned Site, const MachineInstr &MI) {
  bool WritesExec = false;
  // The first read of most instructions' operands in the pass: the
  // explicit uses are not needed here (mayDefineOperands).
  for (ArrayRef<MachineOperand> Ops : mayDefineOperands(MI))
    for (const MachineOperand &MO : Ops) {
      if (!MO.isReg() || !MO.isDef() || !MO.getReg() ||
          !MO.getReg().isPhysical())
        continue;
      MCRegister Reg = MO.getReg().asMCReg();
      WritesExec |= reg(Reg).AnyExec;
      Defs.push_back({CurrentBlock, Site, Reg.id()});
    }
  bool StackStore = mayStoreToStack(MI);
  ExecWrites[CurrentBlock] += WritesExec;
  StoresStack[CurrentBlock] |= StackStore || MI.isCall() || MI.isInlineAsm();
  if (isScalarBranch(MI, Facts) || (StackStore && stackObjectOf(MI) >= 0))
    return SiteRoot::WithUses;
  // A copy into EXEC may restore it from a saved copy (whole-wave mode):
  // the copy's value is needed.
  if (WritesExec && Facts.valueRole(MI.getOpcode()) == ValueRole::Move)
    return SiteRoot::WithUses;
  if (MI.isCall() || MI.isInlineAsm() || WritesExec || StackStore)
    return SiteRoot::Alone;
  return SiteRoot::None;
}

/// The instructions the fixpoint runs: those whose results may reach a
/// judged branch condition (closed over register units regardless of order
/// and paths), and those with other effects: calls and inline assembly
/// (they clobber), writes of EXEC (whole-wave mode), and stores that may
/// write the stack (they end spill records; a vector spill moves its
/// records, so what it reads counts too). Any other instruction only writes
/// registers no judged branch depends on, so skipping it changes nothing
/// the judgements read.
void Analysis::markRelevant() {
  // The sites that define each unit.
  std::vector<SmallVector<unsigned, 2>> DefSites(Kinds.size());
  for (auto [Block, Site, Reg] : Defs)
    for (int U : units(Reg))
      DefSites[U].push_back(Site);
  std::vector<uint8_t> InSlice(Kinds.size(), 0);
  std::vector<int> Work;
  Relevant.assign(Sites.size(), 0);
  std::vector<uint8_t> UsesInSlice(Sites.size(), 0);
  auto Mark = [&](unsigned Site, bool WithUses) {
    Relevant[Site] = 1;
    if (!WithUses || UsesInSlice[Site])
      return;
    UsesInSlice[Site] = 1;
    for (const MachineOperand &MO : Sites[Site]->operands())
      if (MO.isReg() && MO.isUse() && MO.getReg() && MO.getReg().isPhysical())
        for (int U : units(MO.getReg().asMCReg())) {
          // Named now (read, never written): no site defines it.
          if (unsigned(U) >= InSlice.size())
            InSlice.resize(Kinds.size(), 0);
          if (!InSlice[U]) {
            InSlice[U] = 1;
            Work.push_back(U);
          }
        }
  };
  for (auto [Site, Root] : Roots)
    Mark(Site, Root == SiteRoot::WithUses);
  while (!Work.empty()) {
    int U = Work.back();
    Work.pop_back();
    if (unsigned(U) >= DefSites.size())
      continue; // Named after the definitions were listed: none.
    for (unsigned Site : DefSites[U])
      Mark(Site, /*WithUses=*/true);
  }
  // The state keeps the units of the slice only: every instruction that
  // runs with its uses reads those alone; the others (calls, writes of EXEC,
  // stores) read nothing a judged value depends on, and what they write
  // outside the slice goes to one shared slot.
  InSlice.resize(Kinds.size(), 0);
  StateSlot.assign(Kinds.size(), 0);
  NumSlots = 1;
  for (unsigned U = 0; U < Kinds.size(); ++U)
    if (InSlice[U])
      StateSlot[U] = NumSlots++;
  // The slots each block defines, for the regions of divergent branches.
  BlockDefs.assign(MF.getNumBlockIDs(), {});
  for (auto [Block, Site, Reg] : Defs)
    for (int U : units(Reg))
      if (StateSlot[U])
        BlockDefs[Block].push_back(StateSlot[U]);
  Defs = {};
  for (auto &Slots : BlockDefs) {
    llvm::sort(Slots);
    Slots.erase(llvm::unique(Slots), Slots.end());
  }
}

/// The blocks of the region of the branch ending block \p Block (those
/// reached from it before its immediate post-dominator, all reachable ones
/// without one) and its join blocks, as GenericUniformityImpl.h finds
/// them: where paths from different successors meet (each successor
/// labels the blocks it reaches; a block reached with two labels is a join
/// and labels on with its own), the immediate post-dominator, and the
/// exits, in the region, of the cycles the branch is in (temporal
/// divergence). With an irreducible cycle every block of the region with
/// several predecessors counts as a join.
void Analysis::regionOf(unsigned Block, SmallVectorImpl<unsigned> &Region,
                        SmallVectorImpl<unsigned> &Joins) {
  int Stop = IPDom[Block];
  DenseSet<unsigned> InRegion;
  SmallVector<const MachineBasicBlock *, 16> Work;
  auto VisitSuccessors = [&](const MachineBasicBlock *MBB) {
    for (const MachineBasicBlock *Succ : MBB->successors())
      if (Succ->getNumber() != Stop &&
          InRegion.insert(Succ->getNumber()).second)
        Work.push_back(Succ);
  };
  VisitSuccessors(MF.getBlockNumbered(Block));
  while (!Work.empty()) {
    const MachineBasicBlock *MBB = Work.pop_back_val();
    Region.push_back(MBB->getNumber());
    VisitSuccessors(MBB);
  }
  if (Stop >= 0)
    Joins.push_back(Stop);
  if (HasIrreducibleCycle) {
    for (unsigned B : Region)
      if (MF.getBlockNumbered(B)->pred_size() > 1)
        Joins.push_back(B);
    return;
  }
  // Labels in reverse post-order, again while a back-edge changes one.
  llvm::sort(Region, [&](unsigned A, unsigned B) {
    return RPONumber[A] < RPONumber[B];
  });
  DenseMap<unsigned, int> Label;
  DenseSet<unsigned> JoinSet;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned B : Region) {
      if (JoinSet.contains(B))
        continue;
      int L = -1;
      bool Join = false;
      for (const MachineBasicBlock *Pred :
           MF.getBlockNumbered(B)->predecessors()) {
        unsigned P = Pred->getNumber();
        // Only the blocks of the region carry labels.
        int PL = P == Block ? int(B) : Label.lookup_or(P, -1);
        if (PL < 0)
          continue;
        Join |= L >= 0 && L != PL;
        L = PL;
      }
      if (Join) {
        JoinSet.insert(B);
        L = B;
      }
      if (L >= 0 && Label.lookup_or(B, -1) != L) {
        Label[B] = L;
        Changed = true;
      }
    }
  }
  for (unsigned B : Region)
    if (JoinSet.contains(B))
      Joins.push_back(B);
  for (const auto *C = Cycles.getCycle(MF.getBlockNumbered(Block)); C;
       C = C->getParentCycle()) {
    SmallVector<MachineBasicBlock *, 4> Exits;
    C->getExitBlocks(Exits);
    for (const MachineBasicBlock *X : Exits)
      if (InRegion.contains(X->getNumber()))
        Joins.push_back(X->getNumber());
  }
}

/// Records that the branch ending block \p Block is divergent at level
/// \p L; false when it was known so already.
bool Analysis::addDivergentBranch(unsigned Block, Level L) {
  Divergence &D = DivergentBranches[Block];
  if (D.L >= L)
    return false;
  bool New = D.L == Uniform;
  D.L = L;
  if (!New)
    return true;
  SmallVector<unsigned, 16> Region, Joins;
  regionOf(Block, Region, Joins);
  D.Defined.resize(NumSlots);
  for (unsigned B : Region) {
    // EXEC may hold fewer lanes throughout an EXEC branch's region.
    InExecRegion[B] |= L == PerLane;
    for (unsigned Slot : BlockDefs[B])
      D.Defined.set(Slot);
    D.StackStores |= StoresStack[B];
  }
  for (unsigned J : Joins)
    if (!llvm::is_contained(JoinOf[J], Block))
      JoinOf[J].push_back(Block);
  D.Joins.assign(Joins.begin(), Joins.end());
  return true;
}

/// Sync dependence: where the paths of a divergent branch meet, whatever
/// its region defines takes the branch's level (the lanes or waves that
/// did not take a path keep older values), as do the scalars kept in lanes
/// of those vector registers and, if the region may store to the stack,
/// on the stack.
void Analysis::applySyncDependence(unsigned Block, State &S) const {
  for (unsigned B : JoinOf[Block]) {
    const Divergence &D = DivergentBranches.find(B)->second;
    for (unsigned Slot : D.Defined.set_bits())
      S.Units[Slot] = raiseTo(S.Units[Slot], D.L);
    for (auto &[Key, V] : S.Slots) {
      unsigned Obj = unsigned(Key >> 32);
      bool Stack = Obj & (1u << 31);
      if (Stack ? D.StackStores : D.Defined.test(StateSlot[Obj]))
        V = raiseTo(V, D.L);
    }
  }
}

/// The regions of EXEC branches: there EXEC may hold fewer lanes than the
/// wave entered with, and lanes that do not take a path keep older values
/// (a divergent branch of lane level). LLVM lowers divergent control flow
/// so that EXEC is restored where the paths meet (SI_END_CF at the top of
/// the join block, the exit of a loop); the pass relies on it here as it
/// does for barriers: EXEC shrinks only under EXEC branches.
void Analysis::findExecRegions() {
  unsigned N = MF.getNumBlockIDs();
  IPDom.assign(N, -1);
  InExecRegion.assign(N, 0);
  EndsInExecBranch.assign(N, 0);
  ExecJoins.assign(N, 0);
  JoinOf.assign(N, {});
  bool Any = false;
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB.terminators())
      if (Facts.classify(MI.getOpcode()).Role == OpcodeRole::ExecBranch)
        Any = EndsInExecBranch[MBB.getNumber()] = 1;
  HasIrreducibleCycle =
      llvm::any_of(Cycles.toplevel_cycles(), [](const MachineCycle *Top) {
        return llvm::any_of(depth_first(Top), [](const MachineCycle *C) {
          return !C->isReducible();
        });
      });
  for (const MachineBasicBlock &MBB : MF) {
    MachineDomTreeNode *Node = PDT.getNode(&MBB);
    if (Node && Node->getIDom() && Node->getIDom()->getBlock())
      IPDom[MBB.getNumber()] = Node->getIDom()->getBlock()->getNumber();
  }
  if (!Any)
    return;
  for (unsigned B = 0; B < N; ++B) {
    if (!EndsInExecBranch[B])
      continue;
    addDivergentBranch(B, PerLane);
    if (IPDom[B] >= 0)
      ++ExecJoins[IPDom[B]];
  }
}

/// One walk over the instructions in function order records the sites,
/// the definitions and the slice's roots.
void Analysis::recordSites() {
  unsigned N = MF.getNumBlockIDs();
  FirstSite.assign(N, 0);
  EndSite.assign(N, 0);
  ExecWrites.assign(N, 0);
  StoresStack.assign(N, 0);
  for (const MachineBasicBlock &MBB : MF) {
    CurrentBlock = MBB.getNumber();
    // Registers are named as instructions define or read them: a live-in
    // that no instruction reads is in no slice.
    FirstSite[CurrentBlock] = Sites.size();
    for (const MachineInstr &MI : MBB) {
      unsigned Site = Sites.size();
      Sites.push_back(&MI);
      SiteRoot Root = noteSite(Site, MI);
      if (Root != SiteRoot::None)
        Roots.push_back({Site, Root});
    }
    EndSite[CurrentBlock] = Sites.size();
  }
}

BranchUniformity Analysis::run() {
  BranchUniformity Result;
  WaveSize = Facts.getWaveSize();

  recordSites();
  markRelevant();
  // Each block's sites that run, in order, in one array: the fixpoint walks
  // these, not the block's list of instructions (a pointer chase through
  // every instruction of the function on every pass).
  std::vector<unsigned> RunSites, RunBegin(MF.getNumBlockIDs() + 1, 0);
  for (unsigned B = 0; B < MF.getNumBlockIDs(); ++B) {
    RunBegin[B] = RunSites.size();
    for (unsigned Site = FirstSite[B]; Site < EndSite[B]; ++Site)
      if (Relevant[Site])
        RunSites.push_back(Site);
  }
  RunBegin[MF.getNumBlockIDs()] = RunSites.size();
  // SGPR arguments of a kernel are Uniform (kernel arguments, workgroup
  // ids; the scratch wave offset only addresses scratch), of any other
  // function PerWave (each wave calls with its own); vector registers hold
  // work-item ids and lane arguments.
  bool Kernel = isKernel(MF.getFunction());
  State Entry;
  Entry.Units.assign(NumSlots, Top);
  for (unsigned U = 0; U < Kinds.size(); ++U)
    if (StateSlot[U])
      at(Entry, U) = Kinds[U] == UnitKind::Vector ? Top
                     : SGPRUnit[U] && Kernel      ? UniformScalar
                                                  : PerWaveScalar;
  // Blocks in reverse post-order, each passed over again only when its
  // in-state changed after its last pass (behind a back-edge): acyclic code
  // is walked once. A block's branch is judged on each pass, the last one
  // seeing its final state.
  ReversePostOrderTraversal<const MachineFunction *> RPOT(&MF);
  std::vector<const MachineBasicBlock *> Order(RPOT.begin(), RPOT.end());
  RPONumber.assign(MF.getNumBlockIDs(), -1);
  for (unsigned I = 0; I < Order.size(); ++I)
    RPONumber[Order[I]->getNumber()] = I;
  findExecRegions();
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
          int PI = RPONumber[Pred->getNumber()];
          if (PI >= 0 && !Out[PI].Units.empty())
            Preds.push_back(&Out[PI]);
        }
        bool Settle = ++Rounds[I] > 8;
        if (Preds.empty() ||
            (!computeIn(I, Order[I]->getNumber(), Preds, In[I], Settle) &&
             !Out[I].Units.empty()))
          continue;
      }
      State S = In[I];
      PerWaveBranch[I] = 0;
      ExecAllOnes = false;
      // EXEC may be partial in an EXEC branch's region, before the first
      // write of EXEC in a block entered with it partial, between writes
      // of EXEC, and after the last one in a block that ends in an EXEC
      // branch; the last write in any other block restores it.
      unsigned N = Order[I]->getNumber();
      unsigned ExecWritesSeen = 0;
      bool Partial = InExecRegion[N] || S.ExecPartial;
      // Scalar branches run (markRelevant): each is judged before its
      // transfer, on the state that reaches it.
      for (unsigned K = RunBegin[N]; K < RunBegin[N + 1]; ++K) {
        const MachineInstr &MI = *Sites[RunSites[K]];
        if (isScalarBranch(MI, Facts)) {
          bool IsVCC = false;
          if (!judge(MI, S, IsVCC))
            PerWaveBranch[I] = 1;
          VCC[I] |= IsVCC;
        }
        CurrentSite = RunSites[K];
        ExecPartialNow = Partial && !ExecAllOnes;
        ExecFullAfter = false;
        transfer(MI, S);
        if (ExecWritesSeen < ExecWrites[N] && definesExec(MI)) {
          // The restores of the EXEC branches that end here, the last
          // write of a block that is left without an EXEC branch, or a
          // write of the full mask.
          ++ExecWritesSeen;
          bool Full = ExecFullAfter || ExecWritesSeen == ExecJoins[N] ||
                      (ExecWritesSeen == ExecWrites[N] && !EndsInExecBranch[N]);
          Partial = InExecRegion[N] || !Full;
        }
      }
      S.ExecPartial = Partial;
      S.Units[0] = Top;
      if (S == Out[I])
        continue;
      Out[I] = std::move(S);
      for (const MachineBasicBlock *Succ : Order[I]->successors()) {
        int SI = RPONumber[Succ->getNumber()];
        if (SI < 0)
          continue;
        Dirty[SI] = 1;
        Again |= unsigned(SI) <= I;
      }
    }
    // Sync dependence of the branches found per-wave at the fixpoint (a
    // judgement on the way there may still see a path not yet walked):
    // where their paths meet, what they define is raised, and the
    // fixpoint goes on from there. Each round adds branches, so this ends.
    if (!Again)
      for (unsigned I = 0; I < Order.size(); ++I)
        if (PerWaveBranch[I] &&
            addDivergentBranch(Order[I]->getNumber(), PerWave))
          for (unsigned J : DivergentBranches[Order[I]->getNumber()].Joins)
            if (int JI = RPONumber[J]; JI >= 0)
              Again = Dirty[JI] = 1;
  }
  LLVM_DEBUG({
    for (const auto &[B, D] : DivergentBranches) {
      dbgs() << "uniformity: bb." << B << " branches "
             << (D.L == PerLane ? "per lane" : "per wave") << "; joins:";
      for (unsigned J : D.Joins)
        dbgs() << " bb." << J;
      dbgs() << '\n';
    }
  });
  for (unsigned I = 0; I < Order.size(); ++I) {
    auto D = DivergentBranches.find(Order[I]->getNumber());
    if (PerWaveBranch[I] ||
        (D != DivergentBranches.end() && D->second.L == PerWave))
      Result.PerWave.insert(Order[I]);
    else if (VCC[I])
      ++Result.UniformVCCBranches;
  }
  for (const auto &[MI, Uniform] : LoadVerdicts)
    if (Uniform) {
      Result.UniformLoads.insert(MI);
      LLVM_DEBUG(dbgs() << "uniformity: LDS load read as uniform: " << *MI);
    }
  LLVM_DEBUG(dbgs() << "uniformity: " << Result.PerWave.size()
                    << " scalar branches per wave, "
                    << Result.UniformVCCBranches
                    << " VCC branches workgroup-uniform\n");
  return Result;
}

BranchUniformity
llvm::ldsbarriers::assumeScalarBranchesPerWave(const MachineFunction &MF,
                                               const TargetFacts &Facts) {
  BranchUniformity Result;
  for (const MachineBasicBlock &MBB : MF)
    if (llvm::any_of(MBB.terminators(), [&](const MachineInstr &MI) {
          return isScalarBranch(MI, Facts);
        }))
      Result.PerWave.insert(&MBB);
  return Result;
}

BranchUniformity llvm::ldsbarriers::computeBranchUniformity(
    const MachineFunction &MF, const TargetFacts &Facts,
    const MachinePostDominatorTree &PDT, const MachineCycleInfo &Cycles,
    const UniformLoadPolicy &Loads) {
  return Analysis(MF, Facts, PDT, Cycles, Loads).run();
}
