//===- OpcodeNames.cpp - Print the AMDGPU target's opcode names -----------===//
//
// Prints the name of every opcode of the amdgcn instruction table of the LLVM
// this project builds against, one a line. The names are those of the
// AMDGPU:: opcode enumerators, so test/Patches/intree-opcodes.test can check
// the in-tree target facts, which the plugin build cannot compile, against
// them.
//
//===----------------------------------------------------------------------===//

#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include <memory>

using namespace llvm;

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();

int main() {
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(Triple("amdgcn"), Error);
  if (!T) {
    errs() << "OpcodeNames: " << Error << "\n";
    return 1;
  }
  std::unique_ptr<MCInstrInfo> MII(T->createMCInstrInfo());
  for (unsigned I = 0, E = MII->getNumOpcodes(); I != E; ++I)
    outs() << MII->getName(I) << "\n";
  return 0;
}
