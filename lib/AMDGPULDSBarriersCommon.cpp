//===- AMDGPULDSBarriersCommon.cpp - Helpers shared by the passes ---------===//

#include "AMDGPULDSBarriersCommon.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

static cl::opt<bool> ThreadAnalysis(
    "amdgpu-lds-barriers-thread-analysis", cl::Hidden,
    cl::desc("Prove from the work-item id in LDS addresses when two accesses "
             "of different work-items cannot overlap (placer and verifier)"),
    cl::init(true));

static cl::opt<cl::boolOrDefault> Assume1D(
    "amdgpu-lds-barriers-assume-1d-workgroups", cl::Hidden,
    cl::desc("Let the thread-index analysis assume workgroups of y and z "
             "size 1 (default: for kernels that read no y or z work-item "
             "id; =false: only where the kernel's attributes bound them)"));

ThreadAnalysisMode llvm::ldsbarriers::threadAnalysis() {
  if (!ThreadAnalysis)
    return ThreadAnalysisMode::Off;
  if (Assume1D == cl::BOU_UNSET)
    return ThreadAnalysisMode::Infer1D;
  return Assume1D == cl::BOU_TRUE ? ThreadAnalysisMode::Assume1D
                                  : ThreadAnalysisMode::On;
}

void llvm::ldsbarriers::wawPolicy(int Option, bool &DS, bool &Async) {
  DS = Option == cl::BOU_UNSET ? bool(ThreadAnalysis) : Option == cl::BOU_TRUE;
  Async = Option == cl::BOU_TRUE;
}

bool llvm::ldsbarriers::isSingleWave(const WorkgroupShape &Shape,
                                     unsigned WaveSize) {
  return Shape.MaxFlat <= WaveSize;
}

void llvm::ldsbarriers::diagnose(const Function &F, const DebugLoc &DL,
                                 const Twine &Msg,
                                 DiagnosticSeverity Severity) {
  // The line in the function being compiled, not in an inlined header (the
  // barrier of __syncthreads(), say): the message names the whole chain.
  if (DL) {
    F.getContext().diagnose(DiagnosticInfoGenericWithLoc(
        "amdgpu-lds-barriers: " + Msg, F,
        DiagnosticLocation(DebugLoc(DL->getInlinedAtLocation())), Severity));
    return;
  }
  // No line (no -g, or no instruction with one): the function, by name
  // and, when it has debug information, by its first line.
  std::string Where = ("in function '" + F.getName() + "'").str();
  if (const DISubprogram *SP = F.getSubprogram())
    Where =
        (SP->getFilename() + ":" + Twine(SP->getLine()) + ": " + Where).str();
  F.getContext().diagnose(
      DiagnosticInfoGeneric(Where + ": amdgpu-lds-barriers: " + Msg, Severity));
}

DebugLoc llvm::ldsbarriers::nearestDebugLoc(const MachineInstr &MI) {
  // Instructions the backend made (branches, waits, copies) often have
  // none; the closest earlier one of the block, else the closest later one,
  // stands for them.
  const MachineBasicBlock &MBB = *MI.getParent();
  for (auto It = MI.getReverseIterator(); It != MBB.rend(); ++It)
    if (It->getDebugLoc())
      return It->getDebugLoc();
  for (auto It = MI.getIterator(); It != MBB.end(); ++It)
    if (It->getDebugLoc())
      return It->getDebugLoc();
  return DebugLoc();
}

std::string llvm::ldsbarriers::describeInstr(const MachineInstr &MI) {
  std::string S;
  raw_string_ostream OS(S);
  OS << MI.getMF()->getSubtarget().getInstrInfo()->getName(MI.getOpcode());
  if (const DebugLoc &DL = MI.getDebugLoc()) {
    OS << " (";
    DL.print(OS);
    OS << ")";
  }
  return S;
}

/// The file and line of \p MI, or none.
static std::pair<const MDNode *, unsigned> sourceLine(const MachineInstr *MI) {
  const DILocation *Loc = MI ? MI->getDebugLoc().get() : nullptr;
  if (!Loc)
    return {nullptr, 0};
  Loc = Loc->getInlinedAtLocation();
  return {Loc->getFile(), Loc->getLine()};
}

SmallVector<std::pair<unsigned, unsigned>>
llvm::ldsbarriers::groupByCause(ArrayRef<CauseItem> Items) {
  using Line = std::pair<const MDNode *, unsigned>;
  MapVector<std::tuple<uint64_t, Line, Line, uint64_t>,
            std::pair<unsigned, unsigned>>
      Causes;
  for (unsigned I = 0; I < Items.size(); ++I) {
    const CauseItem &It = Items[I];
    Line A = sourceLine(It.First), B = sourceLine(It.Second);
    auto Cause = A.first && B.first
                     ? std::tuple(It.Kind, A, B, uint64_t(0))
                     : std::tuple(It.Kind, Line(), Line(), It.Detail);
    ++Causes.try_emplace(Cause, I, 0).first->second.second;
  }
  return to_vector(make_second_range(Causes));
}

std::string llvm::ldsbarriers::moreOfCause(const CauseItem &Item,
                                           unsigned Count) {
  if (Count < 2)
    return "";
  bool HasLines = sourceLine(Item.First).first && sourceLine(Item.Second).first;
  return " (and " + std::to_string(Count - 1) +
         (HasLines ? " more between the same source lines)"
                   : " more of this kind)");
}

std::string llvm::ldsbarriers::boundHint(const AbstractProgram &P,
                                         const Location &A, const Location &B) {
  if (!A.ThreadForm || !B.ThreadForm)
    return "";
  WorkgroupShape OneD = P.Shape;
  OneD.MaxDim[1] = OneD.MaxDim[2] = 1;
  bool Is1D = P.Shape.MaxDim[1] == 1 && P.Shape.MaxDim[2] == 1;
  if (!Is1D && P.threadDisjointIn(A, B, OneD))
    return "; disjoint if the workgroup is one-dimensional (a 1-D launch: "
           "-amdgpu-lds-barriers-assume-1d-workgroups)";
  // A smaller bound is advice only for a kernel that declares none: one
  // that does was written for its size.
  if (P.Shape.MaxFlat < 1024 || P.Shape.Required)
    return "";
  // The largest bound that proves it.
  for (int64_t N = 512; N >= 64; N /= 2)
    for (bool Flat : {false, true}) {
      if (Flat && Is1D)
        continue;
      WorkgroupShape S = Flat ? OneD : P.Shape;
      S.MaxFlat = N;
      for (int64_t &M : S.MaxDim)
        M = std::min(M, N);
      if (P.threadDisjointIn(A, B, S))
        return "; disjoint with at most " + std::to_string(N) + " work-items" +
               (Flat ? " in one dimension" : "") + " (__launch_bounds__(" +
               std::to_string(N) + ")" + (Flat ? " and a 1-D launch" : "") +
               ")";
    }
  return "";
}
