//===- AMDGPUTargetFactsCommon.cpp - Target facts of both builds ----------===//
//
// The parts of AMDGPUTargetFacts.h that do not depend on how the facts are
// resolved, shared by the plugin's and the in-tree implementation.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUTargetFacts.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCRegisterInfo.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

StringRef llvm::ldsbarriers::getGenerationName(Generation G) {
  static constexpr StringLiteral Names[] = {"unsupported", "gfx9",  "gfx10",
                                            "gfx11",       "gfx12", "gfx1250"};
  return Names[unsigned(G)];
}

StringRef llvm::ldsbarriers::getGenericOpcodeName(StringRef Name) {
  // Every suffix ends in '_' and a lower-case letter and what follows; a
  // name whose last '_' is not followed by one (S_AND_B64, DS_WRITE_B32)
  // has no suffix, which spares comparing each (test/Patches/
  // generic-names.test checks every opcode of the table).
  size_t Last = Name.rfind('_');
  if (Last == StringRef::npos || Last + 1 == Name.size() ||
      !isLower(Name[Last + 1]))
    return Name;
  // Real-encoding and register-class variants share their pseudo's meaning.
  static constexpr StringLiteral Suffixes[] = {
      "_gfx6_gfx7", "_gfx7",    "_vi_gfx9", "_vi_agpr", "_vi",
      "_gfx90a",    "_gfx940",  "_gfx9",    "_gfx10",   "_gfx11",
      "_gfx12",     "_gfx1250", "_agpr",    "_t16",     "_fake16"};
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (StringLiteral S : Suffixes)
      if (Name.consume_back(S))
        Changed = true;
  }
  return Name;
}

uint16_t llvm::ldsbarriers::classifyRegisterName(StringRef Name) {
  using namespace RegisterFacts;
  uint16_t Kind = Scalar;
  if (Name.starts_with("VGPR") || Name.starts_with("AGPR"))
    Kind = Vector;
  else if (Name.starts_with("EXEC"))
    Kind = Exec;
  else if (Name.starts_with("TTMP") || Name.starts_with("SRC_POPS") ||
           Name.starts_with("SRC_EXECZ") || Name.starts_with("SRC_VCCZ") ||
           Name.starts_with("SRC_SCC"))
    Kind = Wave;
  else if (Name == "MODE" || Name.starts_with("SGPR_NULL") ||
           Name.starts_with("SRC_"))
    Kind = Const;
  return Kind | (Name.starts_with("SGPR") ? SGPR : 0) |
         (Name == "SCC" ? SCC : 0) | (Name.starts_with("VCC") ? VCCPart : 0) |
         (Name == "EXEC" ? IsExec : 0) | (Name == "EXEC_LO" ? IsExecLo : 0) |
         (Name == "VCC" ? IsVCC : 0) | (Name == "VCC_LO" ? IsVCCLo : 0);
}

uint16_t TargetFacts::registerFacts(MCRegister Reg,
                                    const MCRegisterInfo &TRI) const {
  auto [It, Inserted] = RegisterFactsOf.try_emplace(Reg.id());
  if (!Inserted)
    return It->second;
  uint16_t F = classifyRegisterName(TRI.getName(Reg));
  if (ArchitectedSGPRs &&
      (F & RegisterFacts::KindMask) == RegisterFacts::Wave) {
    // The register or one of its 16-bit halves (the units' roots).
    StringRef Name = StringRef(TRI.getName(Reg)).split('_').first;
    if (Name == "TTMP9" || Name == "TTMP7" ||
        (Gen == Generation::GFX1250 && Name == "TTMP6"))
      F = (F & ~RegisterFacts::KindMask) | RegisterFacts::Const;
  }
  return It->second = F;
}
