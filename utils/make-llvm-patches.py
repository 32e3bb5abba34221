#!/usr/bin/env python3
"""Generates the llvm-patches/ series from the sources in lib/ and the lit
tests in test/, so that lib/ stays the one source of truth.

  0001 adds the pass as new files in llvm/lib/Target/AMDGPU/, shaped as
       upstream AMDGPU files are: every file gets the LLVM license header and
       an LLVM_LIB_TARGET_AMDGPU_* include guard, the files without the AMDGPU
       prefix are renamed (SERIES_NAMES), and the pass files include AMDGPU.h
       where the plugin's include its stand-in, AMDGPULDSBarriersPasses.h.
       The plugin's registration (AMDGPULDSBarriersPlugin.cpp) and that
       stand-in stay out, and lib/intree/AMDGPUTargetFacts.cpp (SIInstrInfo,
       AMDGPU:: opcodes, AMDGPUBaseInfo) replaces the plugin's
       AMDGPUTargetFacts.cpp;
  0002 registers the passes: CMake sources, AMDGPU.h declarations (those of
       AMDGPULDSBarriersPasses.h), the legacy pass registry,
       AMDGPUPassRegistry.def, and the placer after the memory legalizer in
       both codegen pipelines (GCNPassConfig and AMDGPUCodeGenPassBuilder)
       behind -amdgpu-lds-barriers-in-pipeline (default off), an option static in
       AMDGPUTargetMachine.cpp;
  0003 adds the lit tests that need only llc, as
       llvm/test/CodeGen/AMDGPU/lds-barriers/*; those whose checks
       utils/update_mir_checks.py generates carry upstream's NOTE line where
       update_mir_test_checks.py would write the same checks, none otherwise.

usage: utils/make-llvm-patches.py                    rewrite llvm-patches/
       utils/make-llvm-patches.py --check            exit 1 if llvm-patches/ is stale
       utils/make-llvm-patches.py --emit-sources DIR write 0001's files, and a stub
                                                     AMDGPU.h with 0002's declarations,
                                                     to DIR (the plugin build compiles
                                                     them)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import update_mir_checks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "llvm-patches")
AMDGPU = "llvm/lib/Target/AMDGPU"
TESTDIR = "llvm/test/CodeGen/AMDGPU/lds-barriers"
# The revision the context lines of 0002 were taken from (see README.md).
BASE = "llvm-project release/22.x"

# What the target's AMDGPU.h declares of the passes in-tree; the plugin's
# stand-in for it.
PASSES_HEADER = "AMDGPULDSBarriersPasses.h"
PLUGIN_ONLY = {"AMDGPULDSBarriersPlugin.cpp", "CMakeLists.txt", PASSES_HEADER}
# lib/intree/ files replace the plugin's file of the same name.
INTREE = "intree"
# Substitutions of test/lit.cfg.py that an in-tree test cannot have.
OUT_OF_TREE = ["%python", "%clang_hip", "%hip_compile", "%examples",
               "%plugin", "%path_to_llc", "%S/../../utils",
               "-amdgpu-lds-barriers-checker-in-pipeline"]

# Names in the series of the lib/ files without the AMDGPU prefix (and the
# one whose prefixed name is taken by the verifier pass).
RENAMED_STEMS = {"LDSBarrierVerifier": "AMDGPULDSSyncVerifier"}

LICENSE = [
    "//",
    "// Part of the LLVM Project, under the Apache License v2.0 with LLVM Exceptions.",
    "// See https://llvm.org/LICENSE.txt for license information.",
    "// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception",
    "//",
    "//===----------------------------------------------------------------------===//",
]
RULE = "//===----------------------------------------------------------------------===//"


class GeneratorError(Exception):
    pass


def series_stem(stem):
    if stem in RENAMED_STEMS:
        return RENAMED_STEMS[stem]
    return stem if stem.startswith("AMDGPU") else "AMDGPU" + stem


def series_name(name):
    stem, ext = os.path.splitext(name)
    return series_stem(stem) + ext


def replace_once(text, old, new, what):
    """Replaces the one occurrence of old; a lib/ change that moved it must
    fail the generator, not silently ship an untransformed file."""
    n = text.count(old)
    if n != 1:
        raise GeneratorError("%s: expected one %r, found %d" % (what, old, n))
    return text.replace(old, new)


def sub_once(pattern, repl, text, what, flags=0):
    new, n = re.subn(pattern, repl, text, flags=flags)
    if n != 1:
        raise GeneratorError("%s: expected one match of %r, found %d"
                             % (what, pattern, n))
    return new


def title_line(name, desc):
    """The first line of an LLVM file: name, description, C++ mode marker,
    80 columns."""
    markers = ("*- C++ -*-===//", "-===//") if name.endswith(".h") else ("-===//",)
    for marker in markers:
        head = "//===- %s - %s " % (name, desc)
        fill = 80 - len(head) - len(marker)
        if fill >= 1:
            return head + "-" * fill + marker
    head = "//===- %s " % name
    return head + "-" * max(1, 80 - len(head) - 5) + "===//"


def license_header(name, text):
    """Replaces lib/'s header comment (title line, description, rule) with
    upstream's: title, license, rule, the description as the \\file
    comment, rule."""
    lines = text.split("\n")
    m = re.match(r"//===-+ (\S+) - (.*?)[ -]*(?:\*- C\+\+ -\*-)?=*(?://)?$",
                 lines[0])
    if not m:
        raise GeneratorError("%s: no '//===- name - description ---===//' first line"
                             % name)
    title = [title_line(name, m.group(2))] + LICENSE
    if len(lines) < 2 or lines[1] != "//":
        # A title line alone: the license is the whole header.
        return "\n".join(title + lines[1:])
    try:
        end = lines.index(RULE, 1)
    except ValueError:
        raise GeneratorError("%s: header comment has no closing rule" % name)
    body = [l for l in lines[1:end]]
    while body and body[0] == "//":
        body.pop(0)
    while body and body[-1] == "//":
        body.pop()
    doc = ["/// \\file"] + ["///" + l[2:] for l in body]
    return "\n".join(title + ["//"] + doc + ["//", RULE] + lines[end + 1:])


def guard(text, name):
    stem = os.path.splitext(name)[0]
    new = "LLVM_LIB_TARGET_AMDGPU_%s_H" % stem.upper()
    m = re.search(r"^#ifndef (AMDGPU_LDS_BARRIERS_\w+_H)\n#define \1\n", text, re.M)
    if not m:
        raise GeneratorError("%s: no AMDGPU_LDS_BARRIERS_* include guard" % name)
    old = m.group(1)
    text = text.replace("#ifndef %s\n#define %s\n" % (old, old),
                        "#ifndef %s\n#define %s\n" % (new, new))
    if not text.rstrip("\n").endswith("#endif"):
        raise GeneratorError("%s: does not end with the guard's #endif" % name)
    return text.rstrip("\n")[:-len("#endif")] + "#endif // %s\n" % new


def rewrite_includes(text, name):
    """Renamed local headers, and each run of #include lines sorted as
    clang-format does (the file's own header first)."""
    ours = {n for n in os.listdir(os.path.join(ROOT, "lib")) if n.endswith(".h")}

    def local(m):
        # The target's own headers (SIInstrInfo.h, ...) keep their names.
        n = m.group(1)
        if n == PASSES_HEADER:
            return '#include "AMDGPU.h"'
        return '#include "%s"' % (series_name(n) if n in ours else n)
    text = re.sub(r'^#include "([A-Za-z]\w*\.h)"', local, text, flags=re.M)
    own = '#include "%s.h"' % os.path.splitext(name)[0]
    out, run = [], []

    def flush():
        first = [l for l in run if l == own and name.endswith(".cpp")]
        rest = sorted(l for l in run if l not in first)
        out.extend(first + rest)
        run.clear()
    for line in text.split("\n"):
        if line.startswith("#include "):
            run.append(line)
            continue
        flush()
        out.append(line)
    flush()
    return "\n".join(out)


# The declarations AMDGPULDSBarriersPasses.h may hold: a factory, a
# registration function, a pass ID.
DECLARATION_RE = re.compile(r"^(FunctionPass \*(create\w+Pass)\(\);"
                            r"|void (initialize\w+Pass)\(PassRegistry &\);"
                            r"|extern char &\w+ID;)$", re.M)


def amdgpu_h_declarations():
    """The declarations of AMDGPULDSBarriersPasses.h, in its order: what 0002
    adds to AMDGPU.h."""
    text = open(os.path.join(ROOT, "lib", PASSES_HEADER)).read()
    decls = [m.group(0) for m in DECLARATION_RE.finditer(text)]
    body = re.sub(r"//.*|#.*|namespace llvm \{|\} // namespace llvm"
                  r"|class (FunctionPass|PassRegistry);", "", text)
    if [l for l in body.split("\n") if l.strip()] != decls:
        raise GeneratorError("%s: declares something AMDGPU.h cannot take"
                             % PASSES_HEADER)
    return decls


def registration_functions():
    return [m.group(3) for m in DECLARATION_RE.finditer(
        "\n".join(amdgpu_h_declarations())) if m.group(3)]


def placer_factory():
    factories = [m.group(2) for m in DECLARATION_RE.finditer(
        "\n".join(amdgpu_h_declarations())) if m.group(2)]
    if len(factories) != 1:
        raise GeneratorError("%s: expected one factory, found %d"
                             % (PASSES_HEADER, len(factories)))
    return factories[0]


def series_sources():
    """(name in the series, text) of every file of 0001, sorted by name."""
    lib = os.path.join(ROOT, "lib")
    intree = os.path.join(lib, INTREE)
    names = sorted(n for n in os.listdir(lib)
                   if n.endswith((".h", ".cpp")) and n not in PLUGIN_ONLY)
    files = []
    for n in names:
        src = os.path.join(intree, n)
        if not os.path.exists(src):
            src = os.path.join(lib, n)
        ext = os.path.splitext(n)[1]
        out = series_name(n)
        text = license_header(out, open(src).read())
        if ext == ".h":
            text = guard(text, out)
        text = rewrite_includes(text, out)
        files.append((out, text))
    return sorted(files)


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


def patch_sources(files):
    body = ("The LDS barrier placement pass, its verifier and the thread-index\n"
            "analysis. The target facts (opcode roles, counter encodings) come\n"
            "from SIInstrInfo, AMDGPU:: opcodes and AMDGPUBaseInfo; the rest is\n"
            "written against the CodeGen API. Generated from lib/ by\n"
            "utils/make-llvm-patches.py.")
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
    lines += ["+" + l + "\n" if l else "+\n" for l in added]
    lines += [" " + l + "\n" for l in context_after]
    return "".join(lines)


# The option that puts the placer into both GCN pipelines; static in
# AMDGPUTargetMachine.cpp, like the target's other pipeline options.
ENABLE_OPTION = [
    "",
    "// Place the workgroup barriers and waits that LDS accesses of different",
    "// waves need, right after the memory legalizer (AMDGPULDSBarriers.cpp).",
    "static cl::opt<bool> EnableLDSBarriers(",
    "    \"amdgpu-lds-barriers-in-pipeline\",",
    "    cl::desc(\"Run the AMDGPU LDS barrier placement pass in the codegen \"",
    "             \"pipeline, after si-memory-legalizer\"),",
    "    cl::init(false));",
]


def patch_registration(files):
    cpp = [n for n, _ in files if n.endswith(".cpp")]
    body = ("Registers amdgpu-lds-barriers and amdgpu-lds-barrier-verify with the\n"
            "legacy pass registry in LLVMInitializeAMDGPUTarget and\n"
            "amdgpu-lds-barriers in AMDGPUPassRegistry.def; -amdgpu-lds-barriers-in-pipeline\n"
            "(default off) runs the placer right after si-memory-legalizer in\n"
            "GCNPassConfig::addPreEmitPass and AMDGPUCodeGenPassBuilder::addPreEmitPass.\n"
            "Context lines from %s." % BASE)
    tm = AMDGPU + "/AMDGPUTargetMachine.cpp"
    parts = [
        hunk(AMDGPU + "/CMakeLists.txt", 180,
             ["  SIMemoryLegalizer.cpp"], ["  " + n for n in cpp],
             ["  SIModeRegister.cpp"]),
        hunk(AMDGPU + "/AMDGPU.h", 50,
             ["FunctionPass *createSIMemoryLegalizerPass();"],
             amdgpu_h_declarations(),
             ["FunctionPass *createSIInsertWaitcntsPass();"]),
        hunk(AMDGPU + "/AMDGPUPassRegistry.def", 148,
             ['MACHINE_FUNCTION_PASS("si-memory-legalizer", SIMemoryLegalizerPass())'],
             ['MACHINE_FUNCTION_PASS("amdgpu-lds-barriers", AMDGPULDSBarriersPass())'],
             ['MACHINE_FUNCTION_PASS("si-mode-register", SIModeRegisterPass())']),
        hunk(tm, 17,
             ['#include "AMDGPUTargetMachine.h"', '#include "AMDGPU.h"'],
             ['#include "AMDGPULDSBarriers.h"'],
             ['#include "AMDGPUAliasAnalysis.h"']),
        hunk(tm, 430,
             ['static cl::opt<bool> EnableSetWavePriority("amdgpu-set-wave-priority",',
              '                                           cl::desc("Adjust wave priority"),',
              '                                           cl::init(false), cl::Hidden);'],
             ENABLE_OPTION,
             ['', 'static cl::opt<bool> EnableScalarIRPasses(']),
        hunk(tm, 560,
             ["  PassRegistry *PR = PassRegistry::getPassRegistry();"],
             ["  %s(*PR);" % f for f in registration_functions()],
             ["  initializeR600ClauseMergePassPass(*PR);"]),
        hunk(tm, 1790,
             ["  addPass(createSIMemoryLegalizerPass());"],
             ["  if (EnableLDSBarriers)",
              "    addPass(%s());" % placer_factory()],
             ["  addPass(createSIInsertWaitcntsPass());"]),
        hunk(tm, 2450,
             ["  addMachineFunctionPass(SIMemoryLegalizerPass(), PMW);"],
             ["  if (EnableLDSBarriers)",
              "    addMachineFunctionPass(AMDGPULDSBarriersPass(), PMW);"],
             ["  addMachineFunctionPass(SIInsertWaitcntsPass(), PMW);"]),
    ]
    return header(2, 3, "[AMDGPU] Register the LDS barrier passes", body) + \
        "".join(parts) + "--\n"


def stub_amdgpu_h():
    """What 0002 adds to AMDGPU.h, as a header the plugin build compiles the
    series' sources against."""
    return "\n".join([
        "// Generated by utils/make-llvm-patches.py --emit-sources: the",
        "// declarations the series adds to llvm/lib/Target/AMDGPU/AMDGPU.h.",
        "#ifndef LLVM_LIB_TARGET_AMDGPU_AMDGPU_H",
        "#define LLVM_LIB_TARGET_AMDGPU_AMDGPU_H",
        "namespace llvm {",
        "class FunctionPass;",
        "class PassRegistry;",
    ] + amdgpu_h_declarations() + ["} // namespace llvm", "#endif", ""])


# The first line of a test whose checks LLVM's update_mir_test_checks.py
# writes.
UPSTREAM_NOTE = ("# NOTE: Assertions have been autogenerated by "
                 "utils/update_mir_test_checks.py")


def in_tree_note(path, text):
    """A test whose checks utils/update_mir_checks.py generates says so
    in-tree in upstream's words when update_mir_test_checks.py, which writes
    the same form, would take the same RUN lines and so write the same
    checks; otherwise it says nothing (its checks are kept by hand there)."""
    lines = text.split("\n")
    if lines[0] != update_mir_checks.NOTE:
        return text
    same = update_mir_checks.runs_like_upstream(path, lines)
    return "\n".join(([UPSTREAM_NOTE] if same else []) + lines[1:])


def in_tree_tests():
    tests = []
    for sub in ("MIR", "IR"):
        d = os.path.join(ROOT, "test", sub)
        for n in sorted(os.listdir(d)):
            if not n.endswith((".mir", ".ll")):
                continue
            path = os.path.join(d, n)
            text = open(path).read()
            if any(s in text for s in OUT_OF_TREE):
                continue
            text = in_tree_note(path, text)
            # The same RUN lines as the project's, self-check included.
            tests.append(("lds-barriers-" + n,
                          text.replace("%llc", "llc -amdgpu-lds-barriers-self-check")))
    return tests


def patch_tests():
    tests = in_tree_tests()
    body = ("The MIR and IR lit tests of the pass that need only llc (%d files).\n"
            "Generated from test/ by utils/make-llvm-patches.py." % len(tests))
    return header(3, 3, "[AMDGPU] Add LDS barrier placement tests", body) + \
        "".join(new_file("%s/%s" % (TESTDIR, n), t) for n, t in tests) + "--\n"


def series():
    files = series_sources()
    return {
        "0001-AMDGPU-Add-the-LDS-barrier-placement-pass.patch": patch_sources(files),
        "0002-AMDGPU-Register-the-LDS-barrier-passes.patch": patch_registration(files),
        "0003-AMDGPU-Add-LDS-barrier-placement-tests.patch": patch_tests(),
    }


def emit_sources(outdir):
    """Writes 0001's files and the stub AMDGPU.h to outdir; rewrites only the
    files whose text changed, so that a build does not recompile them."""
    wanted = dict(series_sources())
    wanted["stub/AMDGPU.h"] = stub_amdgpu_h()
    for name, text in sorted(wanted.items()):
        path = os.path.join(outdir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.exists(path) and open(path).read() == text:
            continue
        with open(path, "w") as f:
            f.write(text)


def main():
    args = sys.argv[1:]
    try:
        if args[:1] == ["--emit-sources"] and len(args) == 2:
            emit_sources(args[1])
            return 0
        if args[:1] == ["--list-sources"]:
            print(";".join(n for n, _ in series_sources()))
            return 0
        check = "--check" in args
        wanted = series()
    except GeneratorError as e:
        print("make-llvm-patches: %s" % e, file=sys.stderr)
        return 1
    stale = []
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
