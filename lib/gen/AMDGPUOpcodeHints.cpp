//===- AMDGPUOpcodeHints.cpp - Opcode numbers and classes for the plugin --===//
//
// A build-time generator over the amdgcn instruction table of the LLVM the
// plugin builds against. It writes:
//
// - for each instruction the plugin emits (SyncOpcode), its opcode, or -1
//   where the table has no such name. The plugin resolves its opcodes by
//   name at run time; a hinted opcode is found by reading one name instead
//   of searching the name table, and the plugin checks the name behind
//   every hint, so another LLVM only costs the search.
//
// - the class of every opcode: what the plugin's name-based classification
//   (classifyOpcodeByName, classifyValueRoleByName) says of it, and what
//   the name of every register says of it (classifyRegisterName), with the
//   GNU build id of the LLVM library the tables came from. The plugin uses
//   them only when it runs with the library of that build id, and reads the
//   names otherwise.
//
// Both exist because the name table is cold: only MIR printing reads it,
// and each page the first function of a process reads costs a page fault,
// more than the pass's analysis of a small kernel.
//
// usage: LDSOpcodeHintsGen <output file>
//
//===----------------------------------------------------------------------===//

#include "AMDGPUTargetFacts.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include <map>
#include <memory>
#include <tuple>

using namespace llvm;
using namespace llvm::ldsbarriers;

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();

static void writeSyncOpcodeHints(const MCInstrInfo &MII, raw_ostream &OS) {
  OS << "// The opcode of each SyncOpcode, -1 where the table has none.\n"
        "static constexpr int SyncOpcodeHints[NumSyncOpcodes] = {\n";
  for (unsigned Op = 0; Op != NumSyncOpcodes; ++Op) {
    StringRef Name = getSyncOpcodeName(SyncOpcode(Op));
    // The whole table, in whatever order it is: this runs once per build.
    int Found = -1;
    for (unsigned I = 0, E = MII.getNumOpcodes(); I != E; ++I)
      if (MII.getName(I) == Name) {
        Found = I;
        break;
      }
    OS << "    " << Found << ", // " << Name << "\n";
  }
  OS << "};\n\n";
}

/// Writes the classes, or an empty table (the plugin then reads names) when
/// the library has no build id or the classes do not fit in a byte.
static bool writeOpcodeClasses(const MCInstrInfo &MII, raw_ostream &OS,
                               const char *Argv0) {
  using Key = std::tuple<unsigned, unsigned, bool, unsigned, std::string>;
  std::map<Key, unsigned> ClassOfKey;
  std::vector<Key> Classes;
  std::vector<unsigned> ClassOf;
  std::string Library;
  std::string BuildId = getLoadedObjectBuildId(&MII.get(0), &Library);
  for (unsigned I = 0, E = MII.getNumOpcodes(); I != E; ++I) {
    OpcodeInfo Info = classifyOpcodeByName(MII, I);
    Key K{unsigned(Info.Role), unsigned(classifyValueRoleByName(MII, I)),
          Info.TwoAddress, Info.LaneBytes, Info.CommutativeOp};
    auto [It, Inserted] = ClassOfKey.try_emplace(K, Classes.size());
    if (Inserted)
      Classes.push_back(K);
    ClassOf.push_back(It->second);
  }
  const char *Why = BuildId.empty()        ? "the library has no build id"
                    : Classes.size() > 256 ? "more than 256 classes"
                                           : nullptr;
  if (Why) {
    errs() << Argv0 << ": no opcode classes (" << Why
           << "); the plugin will read opcode names\n";
    Classes.assign(1, Key{});
    ClassOf.assign(1, 0);
  }
  OS << "// What the names of the opcodes say of them: OpcodeClassOf[Opcode]\n"
        "// indexes OpcodeClasses. Valid for the library of this build id\n"
        "// only ("
     << (Why ? "none: " + std::string(Why) : Library) << ").\n";
  OS << "static constexpr char OpcodeTableBuildId[] = \"" << BuildId << "\";\n";
  OS << "static constexpr unsigned OpcodeTableSize = "
     << (Why ? 0 : MII.getNumOpcodes()) << ";\n";
  OS << "static constexpr GeneratedOpcodeClass OpcodeClasses[] = {\n";
  for (const Key &K : Classes) {
    auto [Role, Value, TwoAddress, LaneBytes, Commutative] = K;
    OS << "    {OpcodeRole(" << Role << "), ValueRole(" << Value << "), "
       << (TwoAddress ? "true" : "false") << ", " << LaneBytes << ", \""
       << Commutative << "\"},\n";
  }
  OS << "};\n";
  OS << "static constexpr uint8_t OpcodeClassOf[] = {";
  for (size_t I = 0; I != ClassOf.size(); ++I)
    OS << (I % 24 ? " " : "\n    ") << ClassOf[I] << ",";
  OS << "\n};\n";
  return !Why;
}

/// Writes the RegisterFacts of every register (an empty table when the
/// opcode classes are: the plugin takes both or neither).
static void writeRegisterFacts(const MCRegisterInfo &MRI, bool WithClasses,
                               raw_ostream &OS) {
  unsigned E = WithClasses ? MRI.getNumRegs() : 0;
  OS << "\n// What the name of every register says of it (RegisterFacts).\n"
        "static constexpr unsigned GeneratedRegisterCount = "
     << E << ";\nstatic constexpr uint16_t GeneratedRegisterFacts[] = {";
  for (unsigned R = 0; R != std::max(E, 1u); ++R)
    OS << (R % 16 ? " " : "\n    ")
       << (E ? classifyRegisterName(MRI.getName(R)) : 0) << ",";
  OS << "\n};\n";
}

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    errs() << "usage: " << Argv[0] << " <output file>\n";
    return 1;
  }
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(Triple("amdgcn"), Error);
  if (!T) {
    errs() << Argv[0] << ": " << Error << "\n";
    return 1;
  }
  std::unique_ptr<MCInstrInfo> MII(T->createMCInstrInfo());
  std::error_code EC;
  ToolOutputFile Out(Argv[1], EC, sys::fs::OF_Text);
  if (EC) {
    errs() << Argv[0] << ": " << Argv[1] << ": " << EC.message() << "\n";
    return 1;
  }
  raw_ostream &OS = Out.os();
  OS << "// Generated by LDSOpcodeHintsGen (lib/gen/AMDGPUOpcodeHints.cpp) "
        "from the\n// amdgcn instruction table of LLVM " LLVM_VERSION_STRING
        ".\n\n";
  writeSyncOpcodeHints(*MII, OS);
  bool WithClasses = writeOpcodeClasses(*MII, OS, Argv[0]);
  std::unique_ptr<MCRegisterInfo> MRI(T->createMCRegInfo(Triple("amdgcn")));
  writeRegisterFacts(*MRI, WithClasses, OS);
  Out.keep();
  return 0;
}
