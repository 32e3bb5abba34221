//===- DebugOnlyOption.cpp - -debug-only for an llc built without it ------===//
//
// Debian's LLVM is built without assertions: its llc has no -debug-only,
// although libLLVM keeps the flag and the debug-type filter that LLVM_DEBUG
// reads, and the plugin, built with assertions, keeps its LLVM_DEBUG
// output. Loaded into llc before the plugin, this module registers
// -debug-only as an assertions build of LLVM does, so that the tests can
// read that output. Where llc has the option already, it does nothing.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include <string>
#include <vector>

using namespace llvm;

namespace {
void setDebugTypes(const std::string &Type) {
  static std::vector<std::string> Types;
  Types.push_back(Type);
  std::vector<const char *> Names;
  for (const std::string &T : Types)
    Names.push_back(T.c_str());
  DebugFlag = true;
  setCurrentDebugTypes(Names.data(), Names.size());
}

struct RegisterDebugOnly {
  RegisterDebugOnly() {
    if (cl::getRegisteredOptions().count("debug-only"))
      return;
    static cl::list<std::string> DebugOnly(
        "debug-only", cl::CommaSeparated, cl::value_desc("debug string"),
        cl::desc("Enable a specific type of debug output (comma separated "
                 "list of types)"),
        cl::callback([](const std::string &T) { setDebugTypes(T); }));
  }
} Register;
} // namespace
