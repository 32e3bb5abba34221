//===- AMDGPULDSBarriersCommon.cpp - Helpers shared by the passes ---------===//

#include "AMDGPULDSBarriersCommon.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

bool llvm::ldsbarriers::isSingleWave(const Function &F, unsigned WaveSize) {
  Attribute A = F.getFnAttribute("amdgpu-flat-work-group-size");
  if (A.isStringAttribute()) {
    auto [Min, Max] = A.getValueAsString().split(',');
    unsigned MaxSize;
    if (!Max.trim().getAsInteger(10, MaxSize) && MaxSize <= WaveSize)
      return true;
  }
  if (const MDNode *MD = F.getMetadata("reqd_work_group_size")) {
    if (MD->getNumOperands() != 3)
      return false;
    uint64_t Size = 1;
    for (const MDOperand &Op : MD->operands()) {
      auto *C = mdconst::dyn_extract<ConstantInt>(Op);
      if (!C)
        return false;
      Size *= C->getZExtValue();
    }
    return Size <= WaveSize;
  }
  return false;
}

void llvm::ldsbarriers::diagnose(const Function &F, const DebugLoc &DL,
                                 const Twine &Msg,
                                 DiagnosticSeverity Severity) {
  F.getContext().diagnose(DiagnosticInfoGenericWithLoc(
      "amdgpu-lds-barriers: " + Msg, F, DiagnosticLocation(DL), Severity));
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
