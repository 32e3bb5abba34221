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

/// The vmcnt order class of vector memory loads and LDS DMA.
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
  if (K == AccessKind::Atomic && !Info.CommutativeOp.empty()) {
    E.CommutativeOp =
        CommutativeOpIds
            .try_emplace(Info.CommutativeOp, CommutativeOpIds.size() + 1)
            .first->second;
  }
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
  if (Info.Role == OpcodeRole::LDSDMA) {
    // The width comes from the opcode: the memoperand says 4 bytes for
    // every width.
    uint64_t WaveBytes = uint64_t(Info.LaneBytes) * Facts.getWaveSize();
    if (Exact)
      L.Size = WaveBytes;
  } else if (Info.Role == OpcodeRole::LDSDMAStore) {
    // Wave-size dwords from M0: no memoperand says where.
    L = Location();
  } else
    L.Size = 0;
  bool Reads = Info.Role == OpcodeRole::AsyncStoreFromLDS ||
               Info.Role == OpcodeRole::TensorStoreFromLDS ||
               Info.Role == OpcodeRole::LDSDMAStore;
  Event E = Event::access(Reads ? AccessKind::Read : AccessKind::Write, L);
  E.Async = true;
  switch (Info.Role) {
  case OpcodeRole::LDSDMA:
    E.Ctr = Counter::VM;
    E.OrderClass = VMemLoadClass;
    HasLDSDMA = true;
    break;
  case OpcodeRole::LDSDMAStore:
    // Stores are not known to complete in order with loads: no later
    // load counts for it.
    E.Ctr = Counter::VM;
    E.OrderClass = VMemStoreClass;
    break;
  case OpcodeRole::AsyncLoadToLDS:
  case OpcodeRole::AsyncStoreFromLDS:
    E.Ctr = Counter::Async;
    E.OrderClass = Reads ? 1 : 0;
    break;
  default:
    E.Ctr = Counter::Tensor;
    E.OrderClass = Reads ? 1 : 0;
    break;
  }
  return E;
}

/// Barriers and waits: the event of a modeled form (\p Tag numbers it);
/// none for an unmodeled one (recorded) or a wait that waits for nothing.
std::optional<Event> LDSAccessModel::syncEvent(const MachineInstr &MI,
                                               const OpcodeInfo &Info,
                                               unsigned Tag) {
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
  case OpcodeRole::BarrierSignal:
  case OpcodeRole::BarrierWait: {
    // Only the workgroup barrier (id -1) of split-barrier targets is modeled.
    const MachineOperand *Id = nullptr;
    for (const MachineOperand &MO : MI.explicit_operands())
      if (MO.isImm())
        Id = &MO;
    if (!Facts.hasSplitBarriers() || !Id || Id->getImm() != -1) {
      Unmodeled.push_back({&MI, "barrier form is not modeled", false});
      return std::nullopt;
    }
    return Info.Role == OpcodeRole::BarrierSignal ? Event::signal(Tag)
                                                  : Event::barrierWait(Tag);
  }
  case OpcodeRole::HardWait: {
    int64_t Imm = 0;
    for (const MachineOperand &MO : MI.explicit_operands())
      if (MO.isImm())
        Imm = MO.getImm();
    WaitThresholds W = Facts.decodeWait(MI.getOpcode(), Imm);
    if (!W.any())
      return std::nullopt;
    return Event::wait(W, Tag);
  }
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
  auto Opaque = [&]() {
    Event E = Event::access(AccessKind::Opaque, Location());
    E.InOrder = false;
    AddAccess(E);
  };

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
        })) {
      Event E =
          Event::access(MI.mayLoad() ? AccessKind::Read : AccessKind::Write,
                        locationOf(MI, Info));
      E.InOrder = false;
      return AddFormedAccess(E);
    }
    if (MI.mayStore())
      return Opaque();
    // A FLAT load (volatile __shared__ data, a generic pointer) reads
    // whatever LDS its address may reach, out of order with DS accesses.
    Event E = Event::access(AccessKind::Read, Location());
    E.InOrder = false;
    return AddAccess(E);
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
