#!/usr/bin/env python3
"""Generates the llvm-patches/ series from the sources in lib/ and the lit
tests in test/, so that lib/ stays the one source of truth.

  0001 adds lib/*.{h,cpp} (all but the plugin registration) as new files in
       llvm/lib/Target/AMDGPU/;
  0002 registers the passes: CMake sources, AMDGPU.h declarations, the legacy
       pass registry, AMDGPUPassRegistry.def for the new pass manager, and
       the placer after the memory legalizer in the legacy GCN pipeline
       behind -amdgpu-lds-barriers (default off);
  0003 adds the lit tests that need only llc, as
       llvm/test/CodeGen/AMDGPU/lds-barriers/*.

usage: utils/make-llvm-patches.py          rewrite llvm-patches/
       utils/make-llvm-patches.py --check  exit 1 if llvm-patches/ is stale
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "llvm-patches")
AMDGPU = "llvm/lib/Target/AMDGPU"
TESTDIR = "llvm/test/CodeGen/AMDGPU/lds-barriers"
# The revision the context lines of 0002 were taken from (see README.md).
BASE = "llvm-project release/22.x"

PLUGIN_ONLY = {"AMDGPULDSBarriersPlugin.cpp", "CMakeLists.txt"}
# Substitutions of test/lit.cfg.py that an in-tree test cannot have.
OUT_OF_TREE = ["%python", "%clang_hip", "%hip_compile", "%examples",
               "%plugin", "%path_to_llc", "%S/../../utils",
               "-amdgpu-lds-barriers-checker-in-pipeline"]


def header(number, total, subject, body):
    return ("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
            "From: amdgpu-lds-barriers <amdgpu-lds-barriers@invalid>\n"
            "Subject: [PATCH %d/%d] %s\n\n%s\n---\n" % (number, total, subject, body))


def new_file(path, text):
    lines = text.splitlines()
    out = ["diff --git a/%s b/%s\n" % (path, path), "new file mode 100644\n",
           "--- /dev/null\n", "+++ b/%s\n" % path,
           "@@ -0,0 +1,%d @@\n" % len(lines)]
    out += ["+" + l + "\n" for l in lines]
    return "".join(out)


def sources():
    lib = os.path.join(ROOT, "lib")
    names = sorted(n for n in os.listdir(lib)
                   if n.endswith((".h", ".cpp")) and n not in PLUGIN_ONLY)
    return names, [(n, open(os.path.join(lib, n)).read()) for n in names]


def patch_sources():
    names, files = sources()
    body = ("The LDS barrier placement pass, its verifier and the thread-index\n"
            "analysis, written against LLVM's public CodeGen/MC API only.\n"
            "Generated from lib/ by utils/make-llvm-patches.py.")
    return header(1, 3, "[AMDGPU] Add the LDS barrier placement pass", body) + \
        "".join(new_file("%s/%s" % (AMDGPU, n), t) for n, t in files) + "--\n"


def hunk(path, old_start, context_before, added, context_after):
    """A one-hunk diff; git apply finds the context if the line moved."""
    n_old = len(context_before) + len(context_after)
    lines = ["diff --git a/%s b/%s\n" % (path, path), "--- a/%s\n" % path,
             "+++ b/%s\n" % path,
             "@@ -%d,%d +%d,%d @@\n" % (old_start, n_old, old_start,
                                        n_old + len(added))]
    lines += [" " + l + "\n" for l in context_before]
    lines += ["+" + l + "\n" for l in added]
    lines += [" " + l + "\n" for l in context_after]
    return "".join(lines)


def patch_registration():
    names, _ = sources()
    cpp = [n for n in names if n.endswith(".cpp")]
    body = ("Registers amdgpu-lds-barriers and amdgpu-lds-barrier-verify with the\n"
            "legacy pass registry and amdgpu-lds-barriers in AMDGPUPassRegistry.def;\n"
            "-amdgpu-lds-barriers (default off) runs the placer right after\n"
            "si-memory-legalizer in GCNPassConfig::addPreEmitPass.\n"
            "Context lines from %s." % BASE)
    parts = [
        hunk(AMDGPU + "/CMakeLists.txt", 180,
             ["  SIMemoryLegalizer.cpp"], ["  " + n for n in cpp],
             ["  SIModeRegister.cpp"]),
        hunk(AMDGPU + "/AMDGPU.h", 50,
             ["FunctionPass *createSIMemoryLegalizerPass();"],
             ["FunctionPass *createAMDGPULDSBarriersPass();",
              "void initializeAMDGPULDSBarriersPass(PassRegistry &);",
              "void initializeAMDGPULDSBarrierVerifierPass(PassRegistry &);",
              "bool isAMDGPULDSBarriersEnabled();"],
             ["FunctionPass *createSIInsertWaitcntsPass();"]),
        hunk(AMDGPU + "/AMDGPUPassRegistry.def", 148,
             ['MACHINE_FUNCTION_PASS("si-memory-legalizer", SIMemoryLegalizerPass())'],
             ['MACHINE_FUNCTION_PASS("amdgpu-lds-barriers", AMDGPULDSBarriersPass())'],
             ['MACHINE_FUNCTION_PASS("si-mode-register", SIModeRegisterPass())']),
        hunk(AMDGPU + "/AMDGPUTargetMachine.cpp", 17,
             ['#include "AMDGPUTargetMachine.h"', '#include "AMDGPU.h"'],
             ['#include "AMDGPULDSBarriers.h"'],
             ['#include "AMDGPUAliasAnalysis.h"']),
        hunk(AMDGPU + "/AMDGPUTargetMachine.cpp", 676,
             ["  PassRegistry *PR = PassRegistry::getPassRegistry();"],
             ["  initializeAMDGPULDSBarriersPass(*PR);",
              "  initializeAMDGPULDSBarrierVerifierPass(*PR);"],
             ["  initializeR600ClauseMergePassPass(*PR);"]),
        hunk(AMDGPU + "/AMDGPUTargetMachine.cpp", 2023,
             ["  addPass(createSIMemoryLegalizerPass());"],
             ["  if (isAMDGPULDSBarriersEnabled())",
              "    addPass(createAMDGPULDSBarriersPass());"],
             ["  addPass(createSIInsertWaitcntsPass());"]),
    ]
    return header(2, 3, "[AMDGPU] Register the LDS barrier passes", body) + \
        "".join(parts) + "--\n"


def in_tree_tests():
    tests = []
    for sub in ("MIR", "IR"):
        d = os.path.join(ROOT, "test", sub)
        for n in sorted(os.listdir(d)):
            if not n.endswith((".mir", ".ll")):
                continue
            text = open(os.path.join(d, n)).read()
            if any(s in text for s in OUT_OF_TREE):
                continue
            tests.append(("lds-barriers-" + n, text.replace("%llc", "llc")))
    return tests


def patch_tests():
    tests = in_tree_tests()
    body = ("The MIR and IR lit tests of the pass that need only llc (%d files).\n"
            "Generated from test/ by utils/make-llvm-patches.py." % len(tests))
    return header(3, 3, "[AMDGPU] Add LDS barrier placement tests", body) + \
        "".join(new_file("%s/%s" % (TESTDIR, n), t) for n, t in tests) + "--\n"


def series():
    return {
        "0001-AMDGPU-Add-the-LDS-barrier-placement-pass.patch": patch_sources(),
        "0002-AMDGPU-Register-the-LDS-barrier-passes.patch": patch_registration(),
        "0003-AMDGPU-Add-LDS-barrier-placement-tests.patch": patch_tests(),
    }


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    wanted = series()
    wanted["series"] = "".join(n + "\n" for n in sorted(wanted))
    for name, text in sorted(wanted.items()):
        path = os.path.join(OUT, name)
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            stale.append(name)
        else:
            with open(path, "w") as f:
                f.write(text)
            print("wrote llvm-patches/" + name)
    present = {n for n in os.listdir(OUT) if n.endswith(".patch")}
    extra = sorted(present - set(wanted))
    if check and (stale or extra):
        for n in stale:
            print("stale: llvm-patches/%s (run utils/make-llvm-patches.py)" % n)
        for n in extra:
            print("not generated: llvm-patches/%s" % n)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
