//===- LDSAccessEvents.cpp - The event of each machine instruction --------===//
//
// Classification rules (docs/Design.rst, "Access model"):
//  - DS reads, writes and read-modify-write atomics from their opcode;
//    permutes, GWS, GDS and ordered-count are not LDS accesses;
//  - LDS DMA writes LDS asynchronously and completes on vmcnt;
//  - FLAT loads and stores through a generic pointer cast from an LDS
//    pointer access LDS there, out of order with DS accesses; calls, inline
//    asm, other FLAT accesses that may reach LDS (see flatMayAccessLDS) and
//    DS opcodes we cannot classify are opaque: read and write of all LDS;
//  - S_BARRIER is a barrier; hard waits are waits; soft waits are nothing.
//
//===----------------------------------------------------------------------===//

#include "LDSAccessModel.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/AMDGPUAddrSpace.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

/// The order classes of transfers into LDS (and vector memory loads, on
/// vmcnt) and out of it.
static constexpr uint8_t VMemLoadClass = 0;
static constexpr uint8_t VMemStoreClass = 1;

/// Whether the memoperands of a FLAT instruction allow an LDS address. A
/// generic pointer does not when its !noalias.addrspace excludes LDS, or
/// when it is based on a kernel's pointer argument or loaded from constant
/// memory: the host set it up, and AMDGPU alias analysis takes it as
/// disjoint from every LDS variable (AMDGPUAAResult::alias), which is all
/// the LDS a kernel has.
static bool flatMayAccessLDS(const MachineInstr &MI) {
  auto NotLDS = [](const MachineMemOperand &MMO) {
    if (const MDNode *Ranges = MMO.getAAInfo().NoAliasAddrSpace)
      for (unsigned I = 0; I + 1 < Ranges->getNumOperands(); I += 2)
        if (mdconst::extract<ConstantInt>(Ranges->getOperand(I))
                    ->getZExtValue() <= AMDGPUAS::LOCAL_ADDRESS &&
            AMDGPUAS::LOCAL_ADDRESS <
                mdconst::extract<ConstantInt>(Ranges->getOperand(I + 1))
                    ->getZExtValue())
          return true;
    const Value *Obj =
        MMO.getValue() ? getUnderlyingObject(MMO.getValue()) : nullptr;
    if (const auto *Arg = dyn_cast_or_null<Argument>(Obj))
      return Arg->getParent()->getCallingConv() == CallingConv::AMDGPU_KERNEL;
    const auto *LI = dyn_cast_or_null<LoadInst>(Obj);
    return LI && LI->getPointerAddressSpace() == AMDGPUAS::CONSTANT_ADDRESS;
  };
  return MI.memoperands_empty() ||
         llvm::any_of(MI.memoperands(), [&](const MachineMemOperand *MMO) {
           if (MMO->getAddrSpace() == AMDGPUAS::FLAT_ADDRESS)
             return !NotLDS(*MMO);
           return MMO->getAddrSpace() == AMDGPUAS::LOCAL_ADDRESS;
         });
}

/// Whether a DS instruction's memoperands say it accesses GDS only.
static bool isGDSOnly(const MachineInstr &MI) {
  return !MI.memoperands_empty() &&
         llvm::all_of(MI.memoperands(), [](const MachineMemOperand *MMO) {
           return MMO->getAddrSpace() == AMDGPUAS::REGION_ADDRESS;
         });
}

/// A DS read, write or atomic of LDS.
Event LDSAccessModel::dsAccessEvent(const MachineInstr &MI,
                                    const OpcodeInfo &Info) {
  AccessKind K = Info.Role == OpcodeRole::DSRead    ? AccessKind::Read
                 : Info.Role == OpcodeRole::DSWrite ? AccessKind::Write
                                                    : AccessKind::Atomic;
  Event E = Event::access(K, locationOf(MI, Info));
  if (K == AccessKind::Atomic && !Info.CommutativeOp.empty())
    E.CommutativeOp =
        CommutativeOpIds
            .try_emplace(Info.CommutativeOp, CommutativeOpIds.size() + 1)
            .first->second;
  return E;
}

/// LDS DMA exists on gfx9 and gfx10 only; the store from LDS on gfx9 only
/// (it counts on vscnt, which the pass does not model, on gfx10). Records
/// the instruction as unmodeled where it does not exist.
bool LDSAccessModel::dmaExists(const MachineInstr &MI, const OpcodeInfo &Info) {
  if (Facts.getGeneration() == Generation::GFX9 ||
      (Info.Role != OpcodeRole::LDSDMAStore &&
       Facts.getGeneration() == Generation::GFX10))
    return true;
  Unmodeled.push_back(
      {&MI,
       (Info.Role == OpcodeRole::LDSDMA ? "LDS DMA" : "a store from LDS") +
           std::string(" does not exist on ") + Facts.getCPU().str(),
       true});
  return false;
}

/// An asynchronous transfer between memory and LDS (LDS DMA, the gfx1250
/// async and tensor transfers), with the counter it completes on.
Event LDSAccessModel::asyncTransferEvent(const MachineInstr &MI,
                                         const OpcodeInfo &Info) {
  // An LDS DMA memoperand describes the first lane while the wave writes
  // wave-size times as much from M0 upwards. The gfx1250 transfers take an
  // LDS address per lane (keep the object only); stores from LDS carry
  // only their global memoperand and tensor transfers none: those are
  // "anywhere in LDS".
  bool Exact = false;
  Location L = locationOf(MI, Info, &Exact);
  if (Info.Role == OpcodeRole::LDSDMAStore)
    L = Location(); // Wave-size dwords from M0: no memoperand says where.
  else if (Info.Role != OpcodeRole::LDSDMA)
    L.Size = 0;
  else if (Exact) // The opcode's width: the memoperand says 4 bytes.
    L.Size = uint64_t(Info.LaneBytes) * Facts.getWaveSize();
  bool Reads = Info.Role == OpcodeRole::AsyncStoreFromLDS ||
               Info.Role == OpcodeRole::TensorStoreFromLDS ||
               Info.Role == OpcodeRole::LDSDMAStore;
  Event E = Event::access(Reads ? AccessKind::Read : AccessKind::Write, L);
  E.Async = true;
  // Stores are not known to complete in order with loads: no later load
  // counts for one.
  E.OrderClass = Reads ? VMemStoreClass : VMemLoadClass;
  if (Info.Role == OpcodeRole::LDSDMA || Info.Role == OpcodeRole::LDSDMAStore)
    E.Ctr = Counter::VM;
  else if (Info.Role == OpcodeRole::AsyncLoadToLDS ||
           Info.Role == OpcodeRole::AsyncStoreFromLDS)
    E.Ctr = Counter::Async;
  else
    E.Ctr = Counter::Tensor;
  HasLDSDMA |= Info.Role == OpcodeRole::LDSDMA;
  return E;
}

/// Barriers and waits: the event of a modeled form (\p Tag numbers it);
/// none for an unmodeled one (recorded) or a wait that waits for nothing.
std::optional<Event> LDSAccessModel::syncEvent(const MachineInstr &MI,
                                               const OpcodeInfo &Info,
                                               unsigned Tag) {
  // The last immediate operand: a barrier's id, a wait's counts.
  const MachineOperand *Imm = nullptr;
  for (const MachineOperand &MO : MI.explicit_operands())
    if (MO.isImm())
      Imm = &MO;
  switch (Info.Role) {
  case OpcodeRole::Barrier:
    if (Facts.hasSplitBarriers()) {
      Unmodeled.push_back({&MI,
                           "S_BARRIER does not exist on " +
                               getGenerationName(Facts.getGeneration()).str(),
                           true});
      return std::nullopt;
    }
    return Event::barrier(Tag);
  case OpcodeRole::HardWait: {
    WaitThresholds W =
        Facts.decodeWait(MI.getOpcode(), Imm ? Imm->getImm() : 0);
    if (!W.any())
      return std::nullopt;
    return Event::wait(W, Tag);
  }
  case OpcodeRole::BarrierSignal:
  case OpcodeRole::BarrierWait:
    // Only the workgroup barrier (id -1) of split-barrier targets is modeled.
    if (Facts.hasSplitBarriers() && Imm && Imm->getImm() == -1)
      return Info.Role == OpcodeRole::BarrierSignal ? Event::signal(Tag)
                                                    : Event::barrierWait(Tag);
    [[fallthrough]];
  default: // OpcodeRole::UnmodeledBarrier
    Unmodeled.push_back({&MI, "barrier form is not modeled", false});
    return std::nullopt;
  }
}

void LDSAccessModel::addInstr(unsigned B, MachineInstr &MI) {
  if (MI.isDebugInstr() || MI.isMetaInstruction())
    return;
  std::vector<Event> &Events = Program.Blocks[B].Events;
  unsigned Tag = Instrs.size();
  // An event of \p MI that is not an access.
  auto AddEvent = [&](Event E) {
    Instrs.push_back(&MI);
    Events.push_back(E);
  };
  auto AddAccess = [&](Event E) {
    E.Tag = Tag;
    AddEvent(E);
    ++NumAccesses;
  };
  // An access whose address may be a function of the work-item.
  auto AddFormedAccess = [&](Event E, uint64_t WaveBytes = 0) {
    E.Loc.ThreadForm = threadForm(MI, E.Loc, WaveBytes);
    AddAccess(E);
  };
  // An access out of order with DS accesses; without a location: anywhere.
  auto Unordered = [](AccessKind K, Location L = Location()) {
    Event E = Event::access(K, L);
    E.InOrder = false;
    return E;
  };
  auto Opaque = [&]() { AddAccess(Unordered(AccessKind::Opaque)); };

  if (MI.isInlineAsm() || MI.isCall())
    return Opaque();

  const OpcodeInfo Info = Facts.classify(MI.getOpcode());

  switch (Info.Role) {
  case OpcodeRole::None:
  case OpcodeRole::SoftWait:
  case OpcodeRole::ExecBranch:
  case OpcodeRole::ScalarBranch:
    // Anything else that claims an LDS memoperand is treated as opaque.
    for (const MachineMemOperand *MMO : MI.memoperands())
      if (MMO->getAddrSpace() == AMDGPUAS::LOCAL_ADDRESS)
        return Opaque();
    return;
  case OpcodeRole::DSRead:
  case OpcodeRole::DSWrite:
  case OpcodeRole::DSAtomic:
    if (!isGDSOnly(MI))
      AddFormedAccess(dsAccessEvent(MI, Info));
    return;
  case OpcodeRole::DSUnknown:
    if (isGDSOnly(MI))
      return;
    return Opaque();
  case OpcodeRole::LDSDMA:
  case OpcodeRole::LDSDMAStore:
    if (!dmaExists(MI, Info))
      return;
    [[fallthrough]];
  case OpcodeRole::AsyncLoadToLDS:
  case OpcodeRole::AsyncStoreFromLDS:
  case OpcodeRole::TensorLoadToLDS:
  case OpcodeRole::TensorStoreFromLDS:
    // LDS DMA writes the wave's lanes' bytes from the first lane's address.
    if (Info.Role == OpcodeRole::LDSDMA)
      return AddFormedAccess(asyncTransferEvent(MI, Info),
                             uint64_t(Info.LaneBytes) * Facts.getWaveSize());
    return AddAccess(asyncTransferEvent(MI, Info));
  case OpcodeRole::VMemLoad:
    // Counted only when there is LDS DMA to count for (dropped at the end
    // otherwise).
    return AddEvent(Event::tick(Counter::VM, VMemLoadClass, Tag));
  case OpcodeRole::LDSDirect: {
    Event E = Event::access(AccessKind::Read, locationOf(MI, Info));
    E.Ctr = Counter::Exp;
    return AddAccess(E);
  }
  case OpcodeRole::FlatMemory: {
    if (!flatMayAccessLDS(MI))
      return;
    // Through a generic pointer cast from an LDS pointer, a load or store
    // accesses LDS at that address, out of order with DS accesses.
    const Value *Ptr;
    if (MI.mayLoad() != MI.mayStore() && !MI.memoperands_empty() &&
        llvm::all_of(MI.memoperands(), [&](const MachineMemOperand *MMO) {
          return ldsPointer(*MMO, Ptr) && Ptr;
        }))
      return AddFormedAccess(
          Unordered(MI.mayLoad() ? AccessKind::Read : AccessKind::Write,
                    locationOf(MI, Info)));
    // A FLAT load (volatile __shared__ data, a generic pointer) reads
    // whatever LDS its address may reach; a store or atomic may do anything.
    return AddFormedAccess(
        Unordered(MI.mayStore() ? AccessKind::Opaque : AccessKind::Read));
  }
  case OpcodeRole::Barrier:
  case OpcodeRole::BarrierSignal:
  case OpcodeRole::BarrierWait:
  case OpcodeRole::UnmodeledBarrier:
  case OpcodeRole::HardWait:
    if (std::optional<Event> E = syncEvent(MI, Info, Tag))
      AddEvent(*E);
    return;
  }
}
