//===- AMDGPUTargetFactsCommon.cpp - Target facts of both builds ----------===//
//
// The parts of AMDGPUTargetFacts.h that do not depend on how the facts are
// resolved, shared by the plugin's and the in-tree implementation.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUTargetFacts.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

StringRef llvm::ldsbarriers::getGenerationName(Generation G) {
  switch (G) {
  case Generation::Unsupported:
    return "unsupported";
  case Generation::GFX9:
    return "gfx9";
  case Generation::GFX10:
    return "gfx10";
  case Generation::GFX11:
    return "gfx11";
  case Generation::GFX12:
    return "gfx12";
  case Generation::GFX1250:
    return "gfx1250";
  }
  return "?";
}

StringRef llvm::ldsbarriers::getGenericOpcodeName(StringRef Name) {
  // Real-encoding and register-class variants share their pseudo's meaning.
  static const char *const Suffixes[] = {
      "_gfx6_gfx7", "_gfx7",    "_vi_gfx9", "_vi_agpr", "_vi",
      "_gfx90a",    "_gfx940",  "_gfx9",    "_gfx10",   "_gfx11",
      "_gfx12",     "_gfx1250", "_agpr",    "_t16",     "_fake16"};
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const char *S : Suffixes)
      if (Name.consume_back(S))
        Changed = true;
  }
  return Name;
}
