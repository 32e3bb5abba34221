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
// With --check-hints, compares the opcodes the build found for the
// instructions the plugin emits (lib/gen) with a scan of the table, and
// looks each up again with a wrong hint (test/Patches/opcode-hints.test).
//
// With --check-roles, compares with the classification by name of every
// opcode both the plugin's TargetFacts::classify and valueRole (which use the
// classes the build generated when this is the LLVM library they came from)
// and the classification without those classes, which reads no name of an
// opcode whose descriptor rules out every role; counts the differences
// (test/Patches/opcode-roles.test).
//
// With --check-generic-names, compares getGenericOpcodeName on the name of
// every opcode with the plain removal of each encoding suffix until none is
// left (test/Patches/generic-names.test).
//
// With --check-registers, compares TargetFacts::registerFacts (from the
// build's table with this library) with the facts of every register's name,
// and prints the facts of a few registers (test/Patches/register-facts.test).
//
// With --check-table, prints the path and build id of the LLVM library that
// holds the amdgcn instruction table, whether the generated classes are for
// it, and whether they would be taken for a library of another build id or
// of none (test/Patches/opcode-classes.test).
//
//===----------------------------------------------------------------------===//

#include "AMDGPUTargetFacts.h"
#include "llvm/CodeGen/TargetOpcodes.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
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
  if (Argc > 1 && StringRef(Argv[1]) == "--check-roles") {
    std::unique_ptr<MCSubtargetInfo> STI(
        T->createMCSubtargetInfo(Triple("amdgcn-amd-amdhsa"), "gfx942", ""));
    ldsbarriers::TargetFacts Facts = ldsbarriers::TargetFacts::get(*STI, *MII);
    auto Same = [](const ldsbarriers::OpcodeInfo &A,
                   const ldsbarriers::OpcodeInfo &B) {
      return A.Role == B.Role && A.TwoAddress == B.TwoAddress &&
             A.LaneBytes == B.LaneBytes && A.CommutativeOp == B.CommutativeOp;
    };
    unsigned WithRole = 0, NotVector = 0, Differ = 0, FlagsDiffer = 0;
    for (unsigned I = 0; I != E; ++I) {
      ldsbarriers::OpcodeInfo Named =
          ldsbarriers::classifyOpcodeByName(*MII, I);
      ldsbarriers::ValueRole Value =
          ldsbarriers::classifyValueRoleByName(*MII, I);
      WithRole += Named.Role != ldsbarriers::OpcodeRole::None;
      NotVector += Value != ldsbarriers::ValueRole::VectorOp &&
                   Value != ldsbarriers::ValueRole::Generic;
      if (!Same(Facts.classify(I), Named) || Facts.valueRole(I) != Value) {
        ++Differ;
        errs() << MII->getName(I) << ": classified differently\n";
      }
      if (!Same(ldsbarriers::classifyOpcodeByFlagsAndName(*MII, I), Named)) {
        ++FlagsDiffer;
        errs() << MII->getName(I) << ": classified differently by its flags\n";
      }
    }
    outs() << E << " opcodes, " << WithRole << " with a role, " << NotVector
           << " with a special value role; " << Differ
           << " classified differently, " << FlagsDiffer
           << " differently without the generated classes; generated "
              "classes "
           << (Facts.usesGeneratedClasses() ? "used" : "not used") << "\n";
    return 0;
  }
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
    unsigned Differ = 0;
    for (unsigned R = 0, RE = MRI->getNumRegs(); R != RE; ++R)
      if (Facts.registerFacts(R, *MRI) !=
          ldsbarriers::classifyRegisterName(MRI->getName(R))) {
        ++Differ;
        errs() << MRI->getName(R) << ": other facts\n";
      }
    outs() << MRI->getNumRegs() << " registers, " << Differ
           << " with other facts than their names'; generated table "
           << (Facts.usesGeneratedClasses() ? "used" : "not used") << "\n";
    // A few registers by name, through the table.
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
  if (Argc > 1 && StringRef(Argv[1]) == "--check-table") {
    std::string Library;
    std::string Id =
        ldsbarriers::getLoadedObjectBuildId(&MII->get(0), &Library);
    outs() << "library: " << Library << "\nbuild id: " << Id << "\n";
    // This executable too: its first note segment (the property notes) is
    // aligned to 8, unlike the library's.
    std::string Self;
    std::string SelfId = ldsbarriers::getLoadedObjectBuildId(
        reinterpret_cast<const void *>(&main), &Self);
    if (Self.empty()) // The loader names the executable "".
      Self =
          sys::fs::getMainExecutable(Argv[0], reinterpret_cast<void *>(&main));
    outs() << "tool: " << Self << "\ntool build id: " << SelfId << "\n";
    auto Taken = [&](StringRef Running) {
      return ldsbarriers::findGeneratedOpcodeClasses(*MII, Running) ? "taken"
                                                                    : "refused";
    };
    // The same id with its last digit changed.
    std::string Other = Id;
    if (!Other.empty())
      Other.back() = Other.back() == '0' ? '1' : '0';
    outs() << "classes for this library: " << Taken(Id)
           << "\nclasses for another build id: " << Taken(Other)
           << "\nclasses for a library without build id: " << Taken("") << "\n";
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
  if (Argc > 1 && StringRef(Argv[1]) == "--check-hints") {
    // Each hint against a scan of the whole table; then a wrong hint (the
    // next opcode) must still resolve by the search.
    unsigned Hinted = 0, Wrong = 0, Misled = 0;
    for (unsigned Op = 0; Op != ldsbarriers::NumSyncOpcodes; ++Op) {
      StringRef Name =
          ldsbarriers::getSyncOpcodeName(ldsbarriers::SyncOpcode(Op));
      int Hint = ldsbarriers::getSyncOpcodeHint(ldsbarriers::SyncOpcode(Op));
      int Scanned = -1;
      for (unsigned I = 0; I != E && Scanned < 0; ++I)
        if (MII->getName(I) == Name)
          Scanned = I;
      Hinted += Hint >= 0;
      if (Hint != Scanned) {
        ++Wrong;
        errs() << Name << ": hint " << Hint << ", table " << Scanned << "\n";
      }
      if (Scanned >= 0 &&
          ldsbarriers::lookupOpcodeByName(*MII, Name, nullptr, Scanned + 1) !=
              unsigned(Scanned))
        ++Misled;
    }
    outs() << ldsbarriers::NumSyncOpcodes << " emitted opcodes, " << Hinted
           << " hinted, " << Wrong << " hints wrong, " << Misled
           << " misled by a wrong hint\n";
    return 0;
  }
  for (unsigned I = 0; I != E; ++I)
    outs() << MII->getName(I) << "\n";
  return 0;
}
