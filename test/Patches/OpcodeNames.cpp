//===- OpcodeNames.cpp - The AMDGPU target's opcode names -----------------===//
//
// Prints the name of every opcode of the amdgcn instruction table of the LLVM
// this project builds against, one a line. The names are those of the
// AMDGPU:: opcode enumerators, so test/Patches/intree-opcodes.test can check
// the in-tree target facts, which the plugin build cannot compile, against
// them.
//
// With --check-lookup, looks every name up again with the plugin's
// lookupOpcodeByName and counts the names resolved to another opcode and the
// target opcodes whose lookup had to scan the table
// (test/Patches/opcode-lookup.test).
//
// With --check-generic-names, compares getGenericOpcodeName on the name of
// every opcode with the plain removal of each encoding suffix until none is
// left (test/Patches/generic-names.test).
//
// With --check-registers, prints the facts of a few registers
// (test/Patches/register-facts.test).
//
//===----------------------------------------------------------------------===//

#include "AMDGPUTargetFacts.h"
#include "llvm/CodeGen/TargetOpcodes.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include <cstring>
#include <memory>

using namespace llvm;

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();

int main(int Argc, char **Argv) {
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(Triple("amdgcn"), Error);
  if (!T) {
    errs() << "OpcodeNames: " << Error << "\n";
    return 1;
  }
  std::unique_ptr<MCInstrInfo> MII(T->createMCInstrInfo());
  unsigned E = MII->getNumOpcodes();
  if (Argc > 1 && StringRef(Argv[1]) == "--check-generic-names") {
    // The suffixes of the encodings and register classes whose opcodes mean
    // what their pseudo instruction does.
    const char *const Suffixes[] = {
        "_gfx6_gfx7", "_gfx7",    "_vi_gfx9", "_vi_agpr", "_vi",
        "_gfx90a",    "_gfx940",  "_gfx9",    "_gfx10",   "_gfx11",
        "_gfx12",     "_gfx1250", "_agpr",    "_t16",     "_fake16"};
    unsigned Stripped = 0, Differ = 0;
    for (unsigned I = 0; I != E; ++I) {
      std::string Expected = MII->getName(I).str();
      for (bool Changed = true; Changed;) {
        Changed = false;
        for (const char *S : Suffixes) {
          size_t Len = strlen(S);
          if (Expected.size() >= Len &&
              Expected.compare(Expected.size() - Len, Len, S) == 0) {
            Expected.resize(Expected.size() - Len);
            Changed = true;
          }
        }
      }
      StringRef Got = ldsbarriers::getGenericOpcodeName(MII->getName(I));
      Stripped += Expected != MII->getName(I);
      if (Got != Expected) {
        ++Differ;
        errs() << MII->getName(I) << ": " << Got << ", expected " << Expected
               << "\n";
      }
    }
    outs() << E << " names, " << Stripped << " with a suffix, " << Differ
           << " stripped differently\n";
    return 0;
  }
  if (Argc > 1 && StringRef(Argv[1]) == "--check-registers") {
    std::unique_ptr<MCSubtargetInfo> STI(
        T->createMCSubtargetInfo(Triple("amdgcn-amd-amdhsa"), "gfx942", ""));
    std::unique_ptr<MCRegisterInfo> MRI(T->createMCRegInfo(Triple("amdgcn")));
    ldsbarriers::TargetFacts Facts = ldsbarriers::TargetFacts::get(*STI, *MII);
    for (const char *Name :
         {"VGPR0", "AGPR3", "SGPR5", "EXEC", "EXEC_LO", "VCC", "VCC_LO", "SCC",
          "TTMP0", "SRC_POPS_EXITING_WAVE_ID", "MODE", "SGPR_NULL",
          "SRC_SHARED_BASE", "M0"})
      for (unsigned R = 0, RE = MRI->getNumRegs(); R != RE; ++R)
        if (StringRef(MRI->getName(R)) == Name) {
          uint16_t F = Facts.registerFacts(R, *MRI);
          namespace RF = ldsbarriers::RegisterFacts;
          static const char *const Kinds[] = {"scalar", "vector", "exec",
                                              "wave", "const"};
          outs() << Name << ": " << Kinds[F & RF::KindMask]
                 << (F & RF::SGPR ? " sgpr" : "") << (F & RF::SCC ? " scc" : "")
                 << (F & RF::VCCPart ? " vcc-part" : "")
                 << (F & RF::IsExec ? " is-exec" : "")
                 << (F & RF::IsExecLo ? " is-exec-lo" : "")
                 << (F & RF::IsVCC ? " is-vcc" : "")
                 << (F & RF::IsVCCLo ? " is-vcc-lo" : "") << "\n";
        }
    return 0;
  }
  if (Argc > 1 && StringRef(Argv[1]) == "--check-lookup") {
    unsigned Wrong = 0, Scanned = 0;
    for (unsigned I = 0; I != E; ++I) {
      bool Scan = false;
      std::optional<unsigned> Found =
          ldsbarriers::lookupOpcodeByName(*MII, MII->getName(I), &Scan);
      if (Found != I) {
        ++Wrong;
        errs() << MII->getName(I) << ": found "
               << (Found ? MII->getName(*Found) : "nothing") << "\n";
      }
      // The generic opcodes come first and are found by the scan at once.
      Scanned += Scan && I > TargetOpcode::GENERIC_OP_END;
    }
    bool Scan = false;
    std::optional<unsigned> Absent =
        ldsbarriers::lookupOpcodeByName(*MII, "NOT_AN_AMDGPU_OPCODE", &Scan);
    outs() << E << " names, " << Wrong << " resolved wrongly, " << Scanned
           << " target opcodes needed a scan; an absent name: "
           << (Absent ? "found" : "not found") << (Scan ? ", scanned" : "")
           << "\n";
    return 0;
  }
  for (unsigned I = 0; I != E; ++I)
    outs() << MII->getName(I) << "\n";
  return 0;
}
