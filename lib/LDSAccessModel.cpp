//===- LDSAccessModel.cpp - MachineFunction -> abstract LDS program -------===//
//
// The model's blocks, points and objects: which LDS variable or object an
// access touches, its address as a function of the work-item, and the loops
// whose iterations the thread forms may depend on. The event each machine
// instruction makes is in LDSAccessEvents.cpp.
//
//===----------------------------------------------------------------------===//

#include "LDSAccessModel.h"
#include "AMDGPULDSBarriersCommon.h"
#include "LDSBranchUniformity.h"
#include "LDSDecidedBranches.h"
#include "LDSHazardAnalysis.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/AMDGPUAddrSpace.h"
#include "llvm/Support/Debug.h"
#include <set>

using namespace llvm;
using namespace llvm::ldsbarriers;

#define DEBUG_TYPE "amdgpu-lds-barriers"

LDSAccessModel::LDSAccessModel(MachineFunction &MF, const TargetFacts &Facts,
                               const MachineAnalyses &Analyses,
                               const ModelOptions &Opts)
    : LDSAccessModel(MF, Facts, Analyses, Opts, nullptr) {}

LDSAccessModel::LDSAccessModel(MachineFunction &MF, const TargetFacts &Facts,
                               const MachineAnalyses &Analyses,
                               const LDSAccessModel &Earlier)
    : LDSAccessModel(MF, Facts, Analyses,
                     {Earlier.Options.TrustScalarBranches,
                      Earlier.Options.ThreadAnalysis, std::nullopt,
                      Earlier.Options.Loads},
                     &Earlier) {}

LDSAccessModel::LDSAccessModel(MachineFunction &MF, const TargetFacts &Facts,
                               const MachineAnalyses &Analyses,
                               const ModelOptions &Opts,
                               const LDSAccessModel *Earlier)
    : Facts(Facts), Options(Opts),
      Launch(Earlier ? Earlier->Launch : getWorkgroupShape(MF.getFunction())) {
  Program.ThreadForms.emplace_back(); // Index 0: no form.
  Program.WaveSize = Facts.getWaveSize();
  Program.ExitEndsWave = isKernel(MF.getFunction());
  bool ThreadAnalysis = Opts.ThreadAnalysis != ThreadAnalysisMode::Off;
  if (Earlier && ThreadAnalysis) {
    // The same forms under the same ids; a new instruction gets its own.
    Program.ThreadForms = Earlier->Program.ThreadForms;
    Program.Shape = Earlier->Program.Shape;
    Program.StageInside = Earlier->Program.StageInside;
    Program.StageHeader = Earlier->Program.StageHeader;
    for (const Block &BB : Earlier->Program.Blocks)
      for (const Event &E : BB.Events)
        if (E.Kind == Event::Access)
          LentForms[Earlier->Instrs[E.Tag]] = E.Loc;
  } else if (ThreadAnalysis) {
    Program.Shape = threadAddresses(MF.getFunction()).shape();
  }
  DenseMap<const MachineBasicBlock *, unsigned> Index;
  for (MachineBasicBlock &MBB : MF) {
    Index[&MBB] = Blocks.size();
    Blocks.push_back(&MBB);
  }
  Program.Blocks.resize(Blocks.size());
  Program.Entry = 0;
  for (unsigned B = 0; B < Blocks.size(); ++B) {
    MachineBasicBlock &MBB = *Blocks[B];
    Block &AB = Program.Blocks[B];
    for (MachineBasicBlock *S : MBB.successors())
      AB.Succs.push_back(Index[S]);
    if (Analyses.Frequencies)
      AB.Freq = Analyses.Frequencies->getBlockFreqRelativeToEntryBlock(&MBB);
    for (MachineInstr &MI : MBB) {
      if (MI.isTerminator() &&
          Facts.classify(MI.getOpcode()).Role == OpcodeRole::ExecBranch)
        AB.DivergentBranch = true;
      addInstr(B, MI);
    }
    if (std::optional<DecidedBranch> D = decideBranch(MBB, Facts))
      DecidedEdges.push_back({B, Index[D->Never], D->AssumesExec});
    // A point after a terminator that is an event (a tail call) cannot be
    // materialized before the first terminator.
    if (!AB.Events.empty() && Instrs[AB.Events.back().Tag]->isTerminator())
      AB.HasEndPoint = false;
  }

  if (!Earlier && ThreadAddresses) {
    // Before any pair test: the accesses every work-item runs may bound
    // the launch.
    Program.Shape = ThreadAddresses->inferredShape();
    dropLoneIterationForms();
    boundTrackedForms();
    computeStageLoops(Analyses);
  }
  // Every stage loop of a form has an entry (a loop not found: -1), so
  // that the analyses see the program has stage slots.
  for (const auto &Forms : Program.ThreadForms)
    for (const ThreadAddress &TA : Forms)
      if (TA.StageLoop >= Program.StageHeader.size()) {
        Program.StageHeader.resize(TA.StageLoop + 1, -1);
        Program.StageInside.resize(TA.StageLoop + 1);
      }

  // Vector loads count for LDS DMA only: without any, their ticks go (one
  // walk over the instructions, which is what costs).
  if (!HasLDSDMA)
    for (Block &AB : Program.Blocks)
      llvm::erase_if(AB.Events,
                     [](const Event &E) { return E.Kind == Event::Tick; });

  if (Opts.Hazards && !Earlier)
    findSilentAccesses(*Opts.Hazards);
  if (Earlier) {
    PerWaveBranches = Earlier->PerWaveBranches;
    UniformLoads = Earlier->UniformLoads;
  } else if (!Opts.TrustScalarBranches)
    judgeScalarBranches(MF, Analyses);
  for (unsigned B = 0; B < Blocks.size(); ++B)
    if (PerWaveBranches.contains(Blocks[B]))
      Program.Blocks[B].DivergentBranch = Program.Blocks[B].ConcurrentArms =
          true;
  markDivergenceWithoutDecidedEdges(MF);
  // A function that is not a kernel gets no barrier: a call site may be
  // under a divergent branch or between the caller's own signal and wait,
  // which only the whole module tells. Its hazards are reported instead.
  if (!isKernel(MF.getFunction()))
    for (Block &BB : Program.Blocks)
      if (!BB.NoBarrier) {
        BB.NoBarrier = true;
        BB.DivergenceSource = Block::NotAKernel;
      }
}

/// Under the hazard policy placement will use, whether each access meets
/// no access of the function: each of placement's hazard analyses reads
/// the answer instead of testing again (AbstractProgram::SilentAccesses).
void LDSAccessModel::findSilentAccesses(const AnalysisOptions &Hazards) {
  Program.SilentAccesses = accessesMeetingNoneIn(Program, Hazards);
  Program.SilentWAW = Hazards.WAW;
  Program.SilentAsyncWAW = Hazards.AsyncWAW;
}

/// Which scalar branches some waves may take differently: the uniformity
/// analysis, unless its answer cannot matter (no access meets another: no
/// window, forced barrier or wait). Then every scalar branch stays
/// per-wave, safe whatever the analysis would find, and its cost is saved.
void LDSAccessModel::judgeScalarBranches(const MachineFunction &MF,
                                         const MachineAnalyses &Analyses) {
  BranchUniformity BU = assumeScalarBranchesPerWave(MF, Facts);
  if (BU.PerWave.empty())
    return;
  std::optional<NamedRegionTimer> T;
  if (!Options.Hazards || !noAccessMeetsAnother(Program, *Options.Hazards)) {
    startPhase(T, "uniformity", "Branch uniformity (in the model)");
    // Loads are read as uniform in kernels only: a function's callers may
    // write what it reads without any window of its own showing it.
    UniformLoadPolicy Loads = Options.Loads;
    Loads.Enabled &= isKernel(MF.getFunction());
    BU = computeBranchUniformity(MF, Facts, Analyses.PostDominators,
                                 Analyses.Cycles, Loads);
  } else {
    LLVM_DEBUG(dbgs() << "uniformity: not needed (no access meets another); "
                      << BU.PerWave.size()
                      << " scalar branches taken as per wave\n");
  }
  PerWaveBranches = std::move(BU.PerWave);
  UniformLoads = std::move(BU.UniformLoads);
}

SmallVector<const MachineInstr *> LDSAccessModel::uniformLoadsIn(
    ArrayRef<std::tuple<EventRef, EventRef, bool>> Uncovered) const {
  SmallVector<const MachineInstr *> Found;
  if (UniformLoads.empty() || Uncovered.empty())
    return Found;
  SmallVector<const Event *> Loads;
  for (const Block &BB : Program.Blocks)
    for (const Event &E : BB.Events)
      if (E.Kind == Event::Access && UniformLoads.contains(Instrs[E.Tag]))
        Loads.push_back(&E);
  for (const auto &[Earlier, Later, Merged] : Uncovered)
    for (EventRef End : {Earlier, Later})
      for (const Event *E : Loads) {
        const MachineInstr *MI = Instrs[E->Tag];
        if (!llvm::is_contained(Found, MI) &&
            (MI == &instr(End) ||
             (Merged && Program.mayOverlap(Program.event(End).Loc, E->Loc))))
          Found.push_back(MI);
      }
  return Found;
}

/// Drops the edges of decided branches (LDSDecidedBranches.h) from the
/// model and marks the divergent blocks. An edge only a wave with EXEC zero
/// takes goes only from a block of a kernel outside divergent control flow
/// (a function's call sites may be under a divergent branch), which the
/// marking must tell with the edge gone too (edges change post-dominance):
/// an edge whose block the new marking puts under a divergent branch is
/// restored, and the marking is redone until it agrees.
void LDSAccessModel::markDivergenceWithoutDecidedEdges(
    const MachineFunction &MF) {
  bool Kernel = isKernel(MF.getFunction());
  if (DecidedEdges.empty()) {
    markDivergentBlocks(Program);
    return;
  }
  // The successors as the walk found them, for each block with a decided
  // branch; the others keep theirs.
  std::vector<SmallVector<unsigned, 2>> AllSuccs;
  for (const DecidedEdge &D : DecidedEdges)
    AllSuccs.push_back(Program.Blocks[D.Block].Succs);
  std::set<unsigned> Dropped, Rejected;
  auto Remark = [&] {
    for (unsigned I = 0; I < DecidedEdges.size(); ++I) {
      const DecidedEdge &D = DecidedEdges[I];
      SmallVector<unsigned, 2> &Succs = Program.Blocks[D.Block].Succs;
      Succs = AllSuccs[I];
      if (Dropped.count(D.Block))
        llvm::erase(Succs, D.Never);
    }
    for (Block &AB : Program.Blocks) {
      AB.NoBarrier = false;
      AB.DivergenceSource = -1;
    }
    markDivergentBlocks(Program);
  };
  for (const DecidedEdge &D : DecidedEdges)
    if (!D.AssumesExec)
      Dropped.insert(D.Block);
  Remark();
  for (unsigned Round = 0;; ++Round) {
    bool Added = false;
    for (const DecidedEdge &D : DecidedEdges)
      if (Kernel && D.AssumesExec && !Program.Blocks[D.Block].NoBarrier &&
          !Rejected.count(D.Block))
        Added |= Dropped.insert(D.Block).second;
    if (!Added)
      return;
    // Each round marks the function again: after a few, keep only the
    // edges no premise removes (usually the first round settles it).
    if (Round == 8) {
      for (const DecidedEdge &D : DecidedEdges)
        if (D.AssumesExec)
          Dropped.erase(D.Block);
      Remark();
      return;
    }
    for (bool Again = true; Again;) {
      Remark();
      Again = false;
      for (const DecidedEdge &D : DecidedEdges)
        if (D.AssumesExec && Program.Blocks[D.Block].NoBarrier &&
            Dropped.erase(D.Block)) {
          Rejected.insert(D.Block);
          Again = true;
        }
    }
  }
}

LDSAccessModel::~LDSAccessModel() = default;

MachineBasicBlock::iterator LDSAccessModel::insertionPoint(Point P) const {
  const Block &AB = Program.Blocks[P.Block];
  if (P.Index < AB.Events.size())
    return Instrs[AB.Events[P.Index].Tag]->getIterator();
  return Blocks[P.Block]->getFirstTerminator();
}

MachineBasicBlock::iterator
LDSAccessModel::earliestInsertionPoint(Point P) const {
  if (P.Index == 0)
    return Blocks[P.Block]->getFirstNonPHI();
  const Block &AB = Program.Blocks[P.Block];
  return std::next(Instrs[AB.Events[P.Index - 1].Tag]->getIterator());
}

int LDSAccessModel::objectId(const GlobalVariable &GV, int64_t &Begin) {
  auto [It, Inserted] = ObjectIds.try_emplace(&GV);
  auto &[Id, Address] = It->second;
  if (Inserted) {
    Address = 0;
    if (std::optional<ConstantRange> R = GV.getAbsoluteSymbolRange()) {
      const APInt *Addr = R->getSingleElement();
      Id = Addr ? Location::AbsoluteObject : Location::AnyObject;
      if (Addr)
        Address = Addr->getSExtValue();
    } else if (GV.isDeclaration() || GV.getParent()
                                         ->getDataLayout()
                                         .getTypeAllocSize(GV.getValueType())
                                         .isZero()) {
      // Declarations and zero-sized arrays are dynamic LDS: they share one
      // address with every other such variable.
      Id = Location::AnyObject;
    } else {
      Objects.push_back(&GV);
      Id = Objects.size();
    }
  }
  Begin += Address;
  return Id;
}

/// The one LDS variable every object underlying \p V is (through phis and
/// selects of pointers into it), or null.
static const GlobalVariable *underlyingGlobal(const Value *V) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(V, Objects);
  const GlobalVariable *Result = nullptr;
  for (const Value *O : Objects) {
    const auto *GV = dyn_cast<GlobalVariable>(O);
    if (!GV || (Result && GV != Result))
      return nullptr;
    Result = GV;
  }
  return Result;
}

namespace {
/// What an LDS address value is based on, as locationOf needs it.
struct PointerBase {
  /// GetPointerBaseWithConstantOffset's base and offset.
  const Value *Base;
  int64_t Offset;
  /// The pointer's index width: offsets wrap at it.
  unsigned IndexBits;
  /// The one LDS variable under every object the base may point into
  /// (through phis and selects), or null.
  const GlobalVariable *Underlying;
  /// Its size in bytes.
  uint64_t UnderlyingBytes;
  /// getUnderlyingObject's answer when it is the struct module-LDS
  /// lowering packs variables in, or null.
  const GlobalVariable *ModuleLDS;
};
} // namespace

/// The base of \p V, and in \p Offset the constant offset of \p V from it.
static PointerBase pointerBase(const Value *V, const DataLayout &DL,
                               int64_t &Offset) {
  // SeparateConstOffsetFromGEP leaves each access's address a byte GEP by a
  // constant over a variable GEP that many accesses share. Those constants
  // are summed here (modulo the index width, as LLVM sums them), and the
  // base is that of the shared value. A bounded number of steps: a GEP of
  // itself is valid IR in an unreachable block.
  uint64_t Sum = 0;
  const Value *Rest = V;
  for (unsigned Step = 0; Step < 16; ++Step) {
    const auto *GEP = dyn_cast<GEPOperator>(Rest);
    if (!GEP || GEP->getNumIndices() != 1 || !GEP->getType()->isPointerTy() ||
        !GEP->getSourceElementType()->isIntegerTy(8))
      break;
    const auto *C = dyn_cast<ConstantInt>(GEP->getOperand(1));
    if (!C || C->getBitWidth() > 64)
      break;
    Sum += uint64_t(C->getSExtValue());
    Rest = GEP->getPointerOperand();
  }
  auto Compute = [&](const Value *P) {
    PointerBase PB;
    PB.IndexBits = DL.getIndexTypeSizeInBits(P->getType());
    // A GEP with an index that is no constant is its own base (where the
    // walk over constant offsets would stop at once, after setting up
    // its offset arithmetic).
    const auto *GEP = dyn_cast<GEPOperator>(P);
    if (GEP && llvm::any_of(GEP->indices(),
                            [](const Use &I) { return !isa<Constant>(I); })) {
      PB.Base = P;
      PB.Offset = 0;
    } else {
      PB.Base = GetPointerBaseWithConstantOffset(P, PB.Offset, DL);
    }
    PB.Underlying =
        isa<GlobalVariable>(PB.Base) ? nullptr : underlyingGlobal(P);
    PB.UnderlyingBytes =
        PB.Underlying
            ? DL.getTypeAllocSize(PB.Underlying->getValueType()).getFixedValue()
            : 0;
    PB.ModuleLDS = dyn_cast<GlobalVariable>(getUnderlyingObject(P));
    if (PB.ModuleLDS &&
        !PB.ModuleLDS->getName().starts_with("llvm.amdgcn.kernel.") &&
        PB.ModuleLDS->getName() != "llvm.amdgcn.module.lds")
      PB.ModuleLDS = nullptr;
    return PB;
  };
  PointerBase PB = Compute(Rest);
  if (PB.IndexBits > 64 && Rest != V) {
    // Not a width the sum above wraps at (no LDS pointer has one).
    PB = Compute(V);
    Sum = 0;
  }
  Offset = PB.IndexBits > 64
               ? PB.Offset
               : SignExtend64(Sum + uint64_t(PB.Offset), PB.IndexBits);
  return PB;
}

unsigned LDSAccessModel::variableOf(const MachineMemOperand &MMO,
                                    const GlobalVariable *ModuleLDS) {
  // Module-LDS lowering gives each variable it packs into the kernel's
  // struct a scope of an unnamed domain: `distinct !{!S, !D}` with
  // `!D = distinct !{!D}`, listed in !alias.scope of the accesses to that
  // variable. Distinct variables are distinct allocations whatever the
  // work-item. Scopes with names (the inliner's, from restrict arguments,
  // loop versioning's) hold within one work-item only and are not used.
  const MDNode *Scopes = MMO.getAAInfo().Scope;
  if (!Scopes || !ModuleLDS)
    return 0;
  const MDNode *Found = nullptr, *Domain = nullptr;
  for (const MDOperand &Op : Scopes->operands()) {
    const auto *S = dyn_cast<MDNode>(Op);
    if (!S || !S->isDistinct() || S->getNumOperands() != 2 ||
        S->getOperand(0) != S)
      continue;
    const auto *D = dyn_cast<MDNode>(S->getOperand(1));
    if (!D || !D->isDistinct() || D->getNumOperands() != 1 ||
        D->getOperand(0) != D)
      continue;
    if (Found)
      return 0; // Two variables: no single identity.
    Found = S;
    Domain = D;
  }
  if (!Found)
    return 0;
  auto [It, Inserted] = VariableIds.try_emplace(Found, 0);
  if (Inserted) {
    It->second = Program.VariableDomains.size();
    auto [DIt, DInserted] =
        DomainIds.try_emplace(Domain, unsigned(DomainIds.size()) + 1);
    Program.VariableDomains.push_back(DIt->second);
  }
  return It->second;
}

bool LDSAccessModel::ldsPointer(const MachineMemOperand &MMO,
                                const Value *&Ptr) {
  Ptr = MMO.getValue();
  if (MMO.getAddrSpace() == AMDGPUAS::LOCAL_ADDRESS)
    return true;
  if (MMO.getAddrSpace() != AMDGPUAS::FLAT_ADDRESS)
    return false;
  // AMDGPUCodeGenPrepare makes a cast of a pointer known not to be null an
  // intrinsic.
  const Value *From = nullptr;
  if (const auto *Cast = dyn_cast_or_null<AddrSpaceCastOperator>(Ptr))
    From = Cast->getPointerOperand();
  else if (const auto *II = dyn_cast_or_null<IntrinsicInst>(Ptr);
           II &&
           II->getIntrinsicID() == Intrinsic::amdgcn_addrspacecast_nonnull)
    From = II->getArgOperand(0);
  if (!From ||
      From->getType()->getPointerAddressSpace() != AMDGPUAS::LOCAL_ADDRESS)
    return false;
  Ptr = From;
  return true;
}

Location LDSAccessModel::locationOf(const MachineInstr &MI,
                                    const OpcodeInfo &Info, bool *ExactOffset) {
  if (ExactOffset)
    *ExactOffset = false;
  bool Exact = true;
  Location Result;
  bool First = true;
  for (const MachineMemOperand *MMO : MI.memoperands()) {
    const Value *V;
    if (!ldsPointer(*MMO, V))
      continue;
    if (!V)
      return Location();
    Location L;
    int64_t Offset = 0;
    const DataLayout &DL = MI.getMF()->getDataLayout();
    PointerBase PB = pointerBase(V, DL, Offset);
    if (const auto *GV = dyn_cast<GlobalVariable>(PB.Base)) {
      L.Begin = Offset + MMO->getOffset();
      L.Object = objectId(*GV, L.Begin);
      LocationSize Size = MMO->getSize();
      if (Size.hasValue() && !Size.isScalable() && !Info.TwoAddress &&
          L.Object != Location::AnyObject)
        L.Size = Size.getValue().getFixedValue();
    } else if (const GlobalVariable *Obj = PB.Underlying) {
      Exact = false;
      // An unknown offset: anywhere in the object. An absolutely placed
      // object (module LDS lowering places every kernel's variables so) is
      // then its whole address range.
      int64_t Addr = 0;
      L.Object = objectId(*Obj, Addr);
      if (L.Object == Location::AbsoluteObject) {
        uint64_t Bytes = PB.UnderlyingBytes;
        if (Bytes == 0)
          L.Object = Location::AnyObject;
        L.Begin = Addr;
        L.Size = Bytes;
      }
    } else {
      return Location();
    }
    L.Variable = variableOf(*MMO, PB.ModuleLDS);
    if (First) {
      Result = L;
      First = false;
      continue;
    }
    // Several memoperands: one range over the same object, or anything.
    if (L.Object != Result.Object || !L.Size || !Result.Size)
      return Location();
    int64_t End = std::max(Result.Begin + int64_t(Result.Size),
                           L.Begin + int64_t(L.Size));
    Result.Begin = std::min(Result.Begin, L.Begin);
    Result.Size = End - Result.Begin;
    if (L.Variable != Result.Variable)
      Result.Variable = 0;
  }
  if (ExactOffset)
    *ExactOffset = Exact && !First && Result.Size;
  return Result;
}

ThreadAddressBuilder &LDSAccessModel::threadAddresses(const Function &F) {
  if (!ThreadAddresses)
    ThreadAddresses = std::make_unique<ThreadAddressBuilder>(
        F, Launch, assumesOneDimensional(F, Options.ThreadAnalysis));
  return *ThreadAddresses;
}

unsigned LDSAccessModel::threadForm(const MachineInstr &MI, Location &Loc,
                                    uint64_t WaveBytes) {
  if (Options.ThreadAnalysis == ThreadAnalysisMode::Off)
    return 0;
  if (auto It = LentForms.find(&MI); It != LentForms.end()) {
    // Absolute bytes mean the same in every model.
    const Location &Lent = It->second;
    if (Lent.Object == Location::AbsoluteObject && Lent.Size) {
      Loc.Object = Location::AbsoluteObject;
      Loc.Begin = Lent.Begin;
      Loc.Size = Lent.Size;
    }
    return Lent.ThreadForm;
  }
  threadAddresses(MI.getMF()->getFunction());
  const BasicBlock *At = MI.getParent()->getBasicBlock();
  SmallVector<ThreadAddress, 1> Forms;
  bool Unknown = false;
  for (const MachineMemOperand *MMO : MI.memoperands()) {
    const Value *V;
    if (!ldsPointer(*MMO, V))
      continue;
    LocationSize Size = MMO->getSize();
    std::optional<ThreadAddress> TA;
    if (V && Size.hasValue() && !Size.isScalable())
      TA = ThreadAddresses->build(V, MMO->getOffset(),
                                  Size.getValue().getFixedValue(), At);
    if (!TA) {
      Unknown = true;
      break;
    }
    int64_t Offset = 0;
    TA->Variable = variableOf(
        *MMO, pointerBase(V, MI.getMF()->getDataLayout(), Offset).ModuleLDS);
    if (WaveBytes) {
      if (!isWaveUniform(*TA, ThreadAddresses->shape(), Facts.getWaveSize()))
        return 0;
      TA->Size = WaveBytes;
    }
    Forms.push_back(std::move(*TA));
  }
  // Without an address, who runs the access may still tell it apart: one
  // work-item under `if (t == 0)`. (Not a wave's transfer: its lanes'
  // bytes need an address.)
  if (Unknown || Forms.empty()) {
    std::optional<ThreadAddress> TA;
    if (!WaveBytes)
      TA = ThreadAddresses->anyAddressAt(At);
    if (!TA)
      return 0;
    Forms.assign(1, std::move(*TA));
  }
  // An address independent of the work-item (on every work-item that may
  // execute it) tells work-items apart only against an access of the same
  // base whose bytes lie elsewhere for every work-item: too rare to be worth
  // a form, which costs a pair check against every other access.
  // Its bytes may still be narrower than the location's object: a store
  // to `b[idx[t] & 255]` lies in b, not anywhere in the block module LDS
  // lowering packs b in.
  const WorkgroupShape &Shape = Program.Shape;
  if (llvm::all_of(Forms, [&](const ThreadAddress &TA) {
        return TA.Stage.empty() && !TA.distinguishedDims(Shape);
      })) {
    std::optional<std::pair<int64_t, int64_t>> Bytes;
    for (const ThreadAddress &TA : Forms) {
      auto R = addressBytes(TA, Shape);
      if (!R)
        return 0;
      Bytes = Bytes ? std::pair(std::min(Bytes->first, R->first),
                                std::max(Bytes->second, R->second))
                    : *R;
    }
    if (Loc.Object == Location::AbsoluteObject && Loc.Size)
      Bytes = {std::max(Bytes->first, Loc.Begin),
               std::min(Bytes->second, Loc.Begin + int64_t(Loc.Size))};
    if (Bytes->first < Bytes->second &&
        (Loc.Object == Location::AnyObject ||
         Loc.Object == Location::AbsoluteObject)) {
      Loc.Object = Location::AbsoluteObject;
      Loc.Begin = Bytes->first;
      Loc.Size = Bytes->second - Bytes->first;
    }
    return 0;
  }
  // Equal forms share an index, so that pair results are cached once.
  size_t Hash = 0;
  for (ThreadAddress &TA : Forms) {
    TA.canonicalize();
    Hash = Hash * 31 + TA.hash();
  }
  SmallVector<unsigned, 1> &Same = ThreadFormIds[Hash];
  for (unsigned Id : Same)
    if (Program.ThreadForms[Id] == Forms)
      return Id;
  Same.push_back(Program.ThreadForms.size());
  Program.ThreadForms.push_back(std::move(Forms));
  return Program.ThreadForms.size() - 1;
}

/// An IterationForm tells apart only two accesses of one iteration that
/// both have one: where one access of a loop alone has it, it goes, and
/// with it the stage loop it gave the form (the analysis would track that
/// loop's iterations for nothing, and a window from before the loop would
/// then start at its header, losing the points before it).
void LDSAccessModel::dropLoneIterationForms() {
  DenseMap<unsigned, unsigned> WithForm;
  for (const Block &BB : Program.Blocks)
    for (const Event &E : BB.Events)
      if (E.Kind == Event::Access && E.Loc.ThreadForm)
        if (const ThreadAddress *TA = llvm::find_if(
                Program.ThreadForms[E.Loc.ThreadForm],
                [](const ThreadAddress &T) { return T.Iteration != nullptr; });
            TA != Program.ThreadForms[E.Loc.ThreadForm].end())
          ++WithForm[TA->Iteration->Loop];
  for (SmallVector<ThreadAddress, 1> &Forms : Program.ThreadForms)
    for (ThreadAddress &TA : Forms)
      if (TA.Iteration && WithForm.lookup(TA.Iteration->Loop) < 2) {
        TA.Iteration.reset();
        TA.canonicalize();
      }
}

/// Each distinct form whose bytes may meet another access's is a location
/// the hazard analysis tracks separately in every block: such forms times
/// blocks stays at most 2^16 (but 32 forms are always kept), and the
/// accesses of tracked forms past the bound lose their form. Forms that meet no
/// access cost the analysis nothing and are all kept. A stripped form may make
/// another meet its accesses, so the test repeats until nothing changes; the
/// pair tests stop at a budget linear in the accesses, and undecided forms
/// count as tracked.
void LDSAccessModel::boundTrackedForms() {
  size_t MaxForms = std::max<size_t>(
      32, (size_t(1) << 16) / std::max<size_t>(1, Blocks.size()));
  if (Program.ThreadForms.size() - 1 <= MaxForms)
    return;
  // The distinct locations of the accesses (forms repeat a lot).
  std::vector<const Location *> All;
  for (const Block &BB : Program.Blocks)
    for (const Event &E : BB.Events)
      if (E.Kind == Event::Access)
        All.push_back(&E.Loc);
  std::vector<Location> Locs;
  for (unsigned I : numberDistinct(
           All.size(), [&](unsigned I) { return All[I]->key(); },
           /*NumberOf=*/nullptr))
    Locs.push_back(*All[I]);
  unsigned NumForms = Program.ThreadForms.size();
  std::vector<uint8_t> Tracked(NumForms, 0), Stripped(NumForms, 0);
  uint64_t Budget = 16 * uint64_t(NumAccesses) + 4096;
  auto StrippedLoc = [&](Location L) {
    if (Stripped[L.ThreadForm])
      L.ThreadForm = 0;
    return L;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Location &L : Locs) {
      if (!L.ThreadForm || Tracked[L.ThreadForm])
        continue;
      // Itself first: most forms that meet anything meet themselves (the
      // rows of a possible 2-D launch), which needs no enumeration.
      if (Program.mayOverlap(L, L)) {
        Tracked[L.ThreadForm] = 1;
        continue;
      }
      for (const Location &M : Locs) {
        if (Budget == 0 || Program.mayOverlap(L, StrippedLoc(M))) {
          Tracked[L.ThreadForm] = 1;
          break;
        }
        --Budget;
      }
    }
    size_t Kept = 0;
    for (unsigned F = 1; F < NumForms; ++F)
      if (Tracked[F] && !Stripped[F] && ++Kept > MaxForms) {
        Stripped[F] = 1;
        Changed = true;
      }
  }
  for (Block &BB : Program.Blocks)
    for (Event &E : BB.Events)
      if (E.Kind == Event::Access && Stripped[E.Loc.ThreadForm])
        E.Loc.ThreadForm = 0;
}

/// The iteration of an IR loop changes where its header's phis execute: in
/// the machine CFG, the entry of the one block made from the header, when
/// it heads a natural loop whose inner loops are the IR's own and which
/// holds no irreducible cycle (code motion inside the loop keeps iterations
/// apart). Tail duplication of the header into a latch or preheader moves
/// the start of an iteration into another block (no back-edge to the
/// header, a second loop head or entry): such a loop is not used, and every
/// block entry counts as a new iteration.
void LDSAccessModel::computeStageLoops(const MachineAnalyses &Analyses) {
  SmallVector<unsigned, 4> Loops;
  for (const SmallVector<ThreadAddress, 1> &Forms : Program.ThreadForms)
    for (const ThreadAddress &TA : Forms)
      if (TA.StageLoop)
        Loops.push_back(TA.StageLoop);
  if (Loops.empty())
    return;
  llvm::sort(Loops);
  Loops.erase(llvm::unique(Loops), Loops.end());
  Program.StageInside.resize(Loops.back() + 1);
  Program.StageHeader.assign(Loops.back() + 1, -1);
  for (unsigned L : Loops) {
    const BasicBlock *Header = ThreadAddresses->stageHeader(L);
    auto MadeFromHeader = [&](const MachineBasicBlock *MBB) {
      return MBB->getBasicBlock() == Header;
    };
    if (llvm::count_if(Blocks, MadeFromHeader) != 1)
      continue;
    auto HeaderIt = llvm::find_if(Blocks, MadeFromHeader);
    const MachineBasicBlock *H = *HeaderIt;
    const MachineLoop *Loop = Analyses.Loops.getLoopFor(H);
    if (!Loop || Loop->getHeader() != H)
      continue;
    // Every inner loop is one of the IR's, and every cycle inside is one.
    bool Valid =
        llvm::all_of(Loop->getLoopsInPreorder(), [&](const MachineLoop *In) {
          const BasicBlock *BB = In->getHeader()->getBasicBlock();
          return In == Loop ||
                 (BB && BB != Header && ThreadAddresses->isLoopHeader(BB));
        });
    for (const MachineBasicBlock *MBB : Loop->blocks())
      for (const MachineCycle *C = Analyses.Cycles.getCycle(MBB);
           Valid && C && C->getHeader() != H && Loop->contains(C->getHeader());
           C = C->getParentCycle())
        Valid = C->isReducible();
    if (!Valid)
      continue;
    for (const MachineBasicBlock *MBB : Blocks)
      Program.StageInside[L].push_back(MBB != H && Loop->contains(MBB));
    Program.StageHeader[L] = HeaderIt - Blocks.begin();
  }
}

std::string LDSAccessModel::describeThreadForm(const Location &L) const {
  if (!L.ThreadForm || L.ThreadForm >= Program.ThreadForms.size())
    return "";
  std::string S;
  for (const ThreadAddress &TA : Program.ThreadForms[L.ThreadForm])
    S += (S.empty() ? "" : "; ") + TA.str();
  return S;
}

std::string LDSAccessModel::describeShape() const {
  return ThreadAddresses ? ThreadAddresses->describeShape() : "";
}

std::string LDSAccessModel::describeLocation(const Location &L) const {
  if (L.Object == Location::AnyObject)
    return "any LDS";
  std::string S = L.Object == Location::AbsoluteObject
                      ? "LDS"
                      : "@" + Objects[L.Object - 1]->getName().str();
  if (L.Size)
    S += "[" + std::to_string(L.Begin) + ", " +
         std::to_string(L.Begin + int64_t(L.Size)) + ")";
  return S;
}
