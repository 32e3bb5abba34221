#!/usr/bin/env python3
"""Generates the llvm-patches/ series from the sources in lib/ and the lit
tests in test/, so that lib/ stays the one source of truth.

A stack of four patches, each of which applies, builds and carries its own
tests on top of the ones before it:

  0001 the access model: the target facts, the LDS accesses of a machine
       function, branch uniformity, the thread-index and loop-stage
       analyses and the hazard analysis, as new files in
       llvm/lib/Target/AMDGPU/ with their CMake sources; nothing uses them
       yet;
  0002 the verifier pass (amdgpu-lds-barrier-verify): its files, CMake
       sources, AMDGPU.h declarations and legacy registration, and the
       tests that run only it;
  0003 the placement pass (amdgpu-lds-barriers): its files, CMake sources,
       AMDGPU.h declarations, legacy registration and
       AMDGPUPassRegistry.def entry, and the tests that run it with
       -run-pass;
  0004 the placer in both codegen pipelines (GCNPassConfig and
       AMDGPUCodeGenPassBuilder), right after the memory legalizer, behind
       -amdgpu-lds-barriers-in-pipeline (default off), an option static in
       AMDGPUTargetMachine.cpp, and the tests that compile IR with it.

Files are shaped as upstream AMDGPU files are: every file gets the LLVM
license header and an LLVM_LIB_TARGET_AMDGPU_* include guard, the files
without the AMDGPU prefix are renamed (RENAMED_STEMS), and the pass files
include AMDGPU.h where the plugin's include its stand-in,
AMDGPULDSBarriersPasses.h. The plugin's registration
(AMDGPULDSBarriersPlugin.cpp) and that stand-in stay out, and
lib/intree/AMDGPUTargetFacts.cpp (SIInstrInfo, AMDGPU:: opcodes,
AMDGPUBaseInfo) replaces the plugin's AMDGPUTargetFacts.cpp. The
generator checks that no file includes a header of a later patch and
that no test uses an option of a later patch. The tests are the
project's MIR and IR tests that need only llc, as
llvm/test/CodeGen/AMDGPU/lds-barriers/*, with the same RUN lines (the
placer's self-check included); those whose checks
utils/update_mir_checks.py generates carry upstream's NOTE line where
update_mir_test_checks.py would write the same checks, none otherwise.

usage: utils/make-llvm-patches.py                    rewrite llvm-patches/
       utils/make-llvm-patches.py --check            exit 1 if llvm-patches/ is stale
       utils/make-llvm-patches.py --emit-sources DIR write the series' files, and a
                                                     stub AMDGPU.h with its declarations,
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
# The revision the context lines of the registration hunks were taken from
# (see README.md).
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

# The patch of the stack each lib/ file goes into, by stem: the verifier
# and the placer; the access model (0001) holds the rest.
MODEL, VERIFIER, PLACER = 1, 2, 3
GROUPS = {
    "LDSBarrierVerifier": VERIFIER, "AMDGPULDSBarrierVerifier": VERIFIER,
    "LDSHittingSet": PLACER, "LDSPlacementSteps": PLACER,
    "LDSBarrierPlacement": PLACER, "LDSSplitBarriers": PLACER,
    "LDSBarrierEmitter": PLACER, "AMDGPULDSBarriersEmission": PLACER,
    "AMDGPULDSBarriersDiagnostics": PLACER, "AMDGPULDSBarriers": PLACER,
}
# The tests go with the last patch whose pass or option they use.
PIPELINE = 4


def group_of(lib_name):
    return GROUPS.get(os.path.splitext(lib_name)[0], MODEL)


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
    """(name in the series, text, patch) of every source file of the series,
    sorted by name. A file may include the headers of its own patch and of
    the ones before it only."""
    lib = os.path.join(ROOT, "lib")
    intree = os.path.join(lib, INTREE)
    names = sorted(n for n in os.listdir(lib)
                   if n.endswith((".h", ".cpp")) and n not in PLUGIN_ONLY)
    files = []
    for n in names:
        src = os.path.join(intree, n)
        if not os.path.exists(src):
            src = os.path.join(lib, n)
        raw = open(src).read()
        for inc in re.findall(r'^#include "(\w+\.h)"', raw, re.M):
            if inc in names and group_of(inc) > group_of(n):
                raise GeneratorError("%s (patch %d) includes %s of patch %d"
                                     % (n, group_of(n), inc, group_of(inc)))
        ext = os.path.splitext(n)[1]
        out = series_name(n)
        text = license_header(out, raw)
        if ext == ".h":
            text = guard(text, out)
        text = rewrite_includes(text, out)
        files.append((out, text, group_of(n)))
    return sorted(files)


def options_of(group):
    """The -amdgpu-lds-barriers* options the lib/ files of patches up to
    \p group define."""
    lib = os.path.join(ROOT, "lib")
    opts = set()
    for n in os.listdir(lib):
        if n.endswith(".cpp") and n not in PLUGIN_ONLY and group_of(n) <= group:
            opts |= set(re.findall(r'cl::(?:opt|list)<[^(]*?>\s*\w+\(\s*"([\w-]+)"',
                                   open(os.path.join(lib, n)).read()))
    return opts


TOTAL = 4


def header(number, subject, body):
    return ("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
            "From: amdgpu-lds-barriers <amdgpu-lds-barriers@invalid>\n"
            "Subject: [PATCH %d/%d] %s\n\n%s\n---\n" % (number, TOTAL, subject, body))


def new_file(path, text):
    lines = text.splitlines()
    out = ["diff --git a/%s b/%s\n" % (path, path), "new file mode 100644\n",
           "--- /dev/null\n", "+++ b/%s\n" % path,
           "@@ -0,0 +1,%d @@\n" % len(lines)]
    out += ["+" + l + "\n" for l in lines]
    return "".join(out)


def new_files(files, group):
    return "".join(new_file("%s/%s" % (AMDGPU, n), t)
                   for n, t, g in files if g == group)


def new_tests(tests, group):
    return "".join(new_file("%s/%s" % (TESTDIR, n), t)
                   for n, t, g in tests if g == group)


def cmake_sources(files, group):
    """The hunk adding the .cpp files of \p group to the target's sources,
    after the memory legalizer or the last file of the patch before."""
    def cpp(g):
        return [n for n, _, gg in files if gg == g and n.endswith(".cpp")]
    before = "  SIMemoryLegalizer.cpp"
    for g in range(MODEL, group):
        if cpp(g):
            before = "  " + cpp(g)[-1]
    return hunk(AMDGPU + "/CMakeLists.txt", 180, [before],
                ["  " + n for n in cpp(group)], ["  SIModeRegister.cpp"])


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


def declarations(verifier):
    """The AMDGPU.h declarations of the verifier or of the placer."""
    return [d for d in amdgpu_h_declarations()
            if ("Verifier" in d) == verifier]


def initializations(verifier):
    return ["  %s(*PR);" % f for f in registration_functions()
            if ("Verifier" in f) == verifier]


TM = AMDGPU + "/AMDGPUTargetMachine.cpp"


def patch_model(files, tests):
    body = ("The analyses the LDS barrier placement pass and its verifier share:\n"
            "the target facts (opcode roles and counter encodings, from SIInstrInfo,\n"
            "AMDGPU:: opcodes and AMDGPUBaseInfo), the LDS accesses of a machine\n"
            "function and their events, which scalar branches all waves take\n"
            "alike, the thread-index analysis (which bytes each work-item's access\n"
            "touches), loop stages and the hazard analysis. Nothing uses them yet;\n"
            "the next two patches add the passes. Generated from lib/ by\n"
            "utils/make-llvm-patches.py.")
    return header(1, "[AMDGPU] Add the LDS access model for barrier placement",
                  body) + new_files(files, MODEL) + \
        cmake_sources(files, MODEL) + "--\n"


def patch_verifier(files, tests):
    body = ("amdgpu-lds-barrier-verify checks the LDS synchronization of a machine\n"
            "function as it is, with code of its own: every conflicting pair of\n"
            "accesses of different waves separated by a barrier at which the first\n"
            "is complete, split barriers alternating, no barrier that some waves\n"
            "may skip. It reports what it finds and changes nothing; run with\n"
            "-run-pass. Context lines from %s." % BASE)
    return header(2, "[AMDGPU] Add an LDS synchronization verifier pass", body) + \
        new_files(files, VERIFIER) + cmake_sources(files, VERIFIER) + \
        hunk(AMDGPU + "/AMDGPU.h", 50,
             ["FunctionPass *createSIMemoryLegalizerPass();"],
             declarations(verifier=True),
             ["FunctionPass *createSIInsertWaitcntsPass();"]) + \
        hunk(TM, 560, ["  PassRegistry *PR = PassRegistry::getPassRegistry();"],
             initializations(verifier=True),
             ["  initializeR600ClauseMergePassPass(*PR);"]) + \
        new_tests(tests, VERIFIER) + "--\n"


def patch_placer(files, tests):
    body = ("amdgpu-lds-barriers places the workgroup barriers and counter waits\n"
            "that the LDS accesses of different waves need: S_BARRIER on gfx9-11,\n"
            "split S_BARRIER_SIGNAL/S_BARRIER_WAIT on gfx12, vmcnt, asynccnt and\n"
            "tensorcnt waits for asynchronous transfers, at the cheapest points\n"
            "that cover every hazard window and that every wave executes; it\n"
            "reports the windows no such point covers. Both pass managers; run\n"
            "with -run-pass or -passes. Context lines from %s." % BASE)
    verifier_decl = declarations(verifier=True)[0]
    verifier_init = initializations(verifier=True)[0]
    return header(3, "[AMDGPU] Add the LDS barrier placement pass", body) + \
        new_files(files, PLACER) + cmake_sources(files, PLACER) + \
        hunk(AMDGPU + "/AMDGPU.h", 50,
             ["FunctionPass *createSIMemoryLegalizerPass();"],
             declarations(verifier=False), [verifier_decl]) + \
        hunk(AMDGPU + "/AMDGPUPassRegistry.def", 148,
             ['MACHINE_FUNCTION_PASS("si-memory-legalizer", SIMemoryLegalizerPass())'],
             ['MACHINE_FUNCTION_PASS("amdgpu-lds-barriers", AMDGPULDSBarriersPass())'],
             ['MACHINE_FUNCTION_PASS("si-mode-register", SIModeRegisterPass())']) + \
        hunk(TM, 17, ['#include "AMDGPUTargetMachine.h"', '#include "AMDGPU.h"'],
             ['#include "AMDGPULDSBarriers.h"'],
             ['#include "AMDGPUAliasAnalysis.h"',
              '#include "AMDGPUArgumentUsageInfo.h"']) + \
        hunk(TM, 560, ["  PassRegistry *PR = PassRegistry::getPassRegistry();"],
             initializations(verifier=False), [verifier_init]) + \
        new_tests(tests, PLACER) + "--\n"


def patch_pipeline(files, tests):
    body = ("-amdgpu-lds-barriers-in-pipeline (default off) runs the placer right\n"
            "after si-memory-legalizer in GCNPassConfig::addPreEmitPass and\n"
            "AMDGPUCodeGenPassBuilder::addPreEmitPass, before si-insert-waitcnts,\n"
            "which then sees its waits. Context lines from %s." % BASE)
    return header(4, "[AMDGPU] Run LDS barrier placement in the codegen "
                  "pipelines behind an option", body) + \
        hunk(TM, 431,
             ['                                           cl::desc("Adjust wave priority"),',
              '                                           cl::init(false), cl::Hidden);'],
             ENABLE_OPTION,
             ['', 'static cl::opt<bool> EnableScalarIRPasses(']) + \
        hunk(TM, 1790, ["  addPass(createSIMemoryLegalizerPass());"],
             ["  if (EnableLDSBarriers)",
              "    addPass(%s());" % placer_factory()],
             ["  addPass(createSIInsertWaitcntsPass());"]) + \
        hunk(TM, 2450, ["  addMachineFunctionPass(SIMemoryLegalizerPass(), PMW);"],
             ["  if (EnableLDSBarriers)",
              "    addMachineFunctionPass(AMDGPULDSBarriersPass(), PMW);"],
             ["  addMachineFunctionPass(SIInsertWaitcntsPass(), PMW);"]) + \
        new_tests(tests, PIPELINE) + "--\n"


def stub_amdgpu_h():
    """What 0002 and 0003 add to AMDGPU.h, as a header the plugin build compiles the
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


RUN_LINE_RE = re.compile(r"^\s*(#|;|//)?\s*RUN:")
TEMP_RE = re.compile(r"%t[\w.-]*")
TEMP_WRITE_RE = re.compile(r"(?:>|-o)\s*(%t[\w.-]*)")
PLACER_RUN_RE = re.compile(
    r"(-run-pass|-passes)=([\w-]+,)*amdgpu-lds-barriers(\s|,|$)", re.M)
OPTION_RE = re.compile(r"-(amdgpu-lds-barriers[\w-]*)")


def test_group(name, text):
    """The patch a test goes with: the last one whose pass or option it uses
    (the pipeline option's, the placer's, or the verifier's only)."""
    if "-amdgpu-lds-barriers-in-pipeline" in text:
        return PIPELINE
    if PLACER_RUN_RE.search(text):
        return PLACER
    if "-run-pass=amdgpu-lds-barrier-verify" in text:
        return VERIFIER
    raise GeneratorError("%s: runs neither pass" % name)


def in_tree_tests():
    tests = []
    for sub in ("MIR", "IR"):
        d = os.path.join(ROOT, "test", sub)
        for n in sorted(os.listdir(d)):
            if not n.endswith((".mir", ".ll")):
                continue
            path = os.path.join(d, n)
            text = open(path).read()
            # Without its RUN lines that need the project (the executable
            # oracle, HIP, the plugin's own options), if any other is left.
            lines = text.split("\n")
            dropped = [l for l in lines if RUN_LINE_RE.match(l) and
                       any(s in l for s in OUT_OF_TREE)]
            kept = [l for l in lines if l not in dropped]
            runs = [l for l in kept if RUN_LINE_RE.match(l)]
            # Nothing left to run, or a kept line reads what a dropped one
            # writes: the test stays out.
            written = {t for l in dropped for t in TEMP_WRITE_RE.findall(l)}
            if not any("%llc" in l for l in runs) or any(
                    t in TEMP_RE.findall(l) for l in runs for t in written):
                continue
            text = in_tree_note(path, "\n".join(kept))
            group = test_group(n, text)
            # The same RUN lines as the project's, with the placer's
            # self-check where the placer exists.
            llc = "llc -amdgpu-lds-barriers-self-check" if group >= PLACER \
                else "llc"
            text = text.replace("%llc", llc)
            known = options_of(group) | {"amdgpu-lds-barriers",
                                         "amdgpu-lds-barriers-in-pipeline"}
            unknown = set(OPTION_RE.findall(text)) - known
            if unknown:
                raise GeneratorError("%s (patch %d) uses options of a later patch: %s"
                                     % (n, group, ", ".join(sorted(unknown))))
            tests.append(("lds-barriers-" + n, text, group))
    return tests


def series():
    files = series_sources()
    tests = in_tree_tests()
    return {
        "0001-AMDGPU-Add-the-LDS-access-model-for-barrier-placement.patch":
            patch_model(files, tests),
        "0002-AMDGPU-Add-an-LDS-synchronization-verifier-pass.patch":
            patch_verifier(files, tests),
        "0003-AMDGPU-Add-the-LDS-barrier-placement-pass.patch":
            patch_placer(files, tests),
        "0004-AMDGPU-Run-LDS-barrier-placement-in-the-codegen-pipelines.patch":
            patch_pipeline(files, tests),
    }


def emit_sources(outdir):
    """Writes 0001's files and the stub AMDGPU.h to outdir; rewrites only the
    files whose text changed, so that a build does not recompile them."""
    wanted = {n: t for n, t, _ in series_sources()}
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
            print(";".join(n for n, _, _ in series_sources()))
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
