//===- pass_entry.cpp - Where a legacy MachineFunction pass's code starts -===//
//
// Prints the address, relative to its shared object, of the
// runOnMachineFunction of a registered legacy MachineFunction pass, as
// callgrind names a function without a symbol ("0x%016x"): Debian's
// libLLVM keeps no symbols of the AMDGPU passes, and growth.sh --count
// needs SIInsertWaitcnts's entry to count it beside the pass.
//
// usage: pass_entry PASS-NAME [TRIPLE]   e.g. pass_entry si-insert-waitcnts
// build: clang++-22 -std=c++17 $(llvm-config-22 --cxxflags) pass_entry.cpp
//          $(llvm-config-22 --ldflags) -lLLVM -ldl
//
//===----------------------------------------------------------------------===//

#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/InitializePasses.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <memory>

using namespace llvm;

namespace {
/// A pass of our own, only to name the virtual function's slot.
struct Slot : MachineFunctionPass {
  static char ID;
  Slot() : MachineFunctionPass(ID) {}
  bool runOnMachineFunction(MachineFunction &) override { return false; }
  /// The byte offset of runOnMachineFunction in the vtable: under the
  /// Itanium ABI a pointer to a virtual member function holds 1 + that
  /// offset.
  static size_t offset() {
    bool (Slot::*F)(MachineFunction &) = &Slot::runOnMachineFunction;
    uintptr_t Words[2];
    static_assert(sizeof(F) == sizeof(Words), "not the Itanium ABI");
    std::memcpy(Words, &F, sizeof(Words));
    return Words[0] - 1;
  }
};
char Slot::ID = 0;
} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    std::fprintf(stderr, "usage: pass_entry PASS-NAME [TRIPLE]\n");
    return 2;
  }
  InitializeAllTargets();
  InitializeAllTargetMCs();
  // The target registers its passes when its first TargetMachine is made.
  Triple T(Argc > 2 ? Argv[2] : "amdgcn-amd-amdhsa");
  std::string Error;
  const Target *Tgt = TargetRegistry::lookupTarget(T, Error);
  if (!Tgt) {
    std::fprintf(stderr, "pass_entry: %s\n", Error.c_str());
    return 1;
  }
  std::unique_ptr<TargetMachine> TM(
      Tgt->createTargetMachine(T, "", "", TargetOptions(), std::nullopt));
  const PassInfo *PI =
      PassRegistry::getPassRegistry()->getPassInfo(StringRef(Argv[1]));
  if (!PI || !PI->getNormalCtor()) {
    std::fprintf(stderr, "pass_entry: no pass '%s'\n", Argv[1]);
    return 1;
  }
  std::unique_ptr<Pass> P(PI->createPass());
  if (P->getPassKind() != PT_Function) {
    std::fprintf(stderr, "pass_entry: '%s' is not a function pass\n", Argv[1]);
    return 1;
  }
  void *const *VTable = *reinterpret_cast<void *const *const *>(P.get());
  void *Entry = VTable[Slot::offset() / sizeof(void *)];
  Dl_info Info;
  if (!dladdr(Entry, &Info) || !Info.dli_fbase) {
    std::fprintf(stderr, "pass_entry: no shared object holds the code\n");
    return 1;
  }
  std::printf("0x%016zx\n",
              size_t(uintptr_t(Entry) - uintptr_t(Info.dli_fbase)));
  return 0;
}
