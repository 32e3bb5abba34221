#!/usr/bin/env python3
"""Random MIR fuzzer for the amdgpu-lds-barriers plugin.

Generates random post-RA machine functions (straight-line code, uniform and
EXEC-divergent branches, uniform loops, with DS reads, writes and atomics on
two LDS objects, LDS DMA on gfx9, gfx1250 async loads to LDS, calls, inline
asm, FLAT accesses, accesses
without memoperands, existing barriers with hard, soft or no waits, split
barrier pairs on gfx12), runs the pass on each with -verify-machineinstrs
(its self-check turns any race it leaves, other than the ones it reports as
uncoverable, into an error), and runs it a second time to check that it
changes nothing (idempotence). Any failure is written to the output
directory as a reproducer.

usage: mir_fuzz.py [--seed S] [--count N] [--cpu gfx942,gfx1201,...]
                   [--llc PATH] [--plugin PATH] [--out DIR]
"""
import argparse
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Gen:
    def __init__(self, rng, cpu):
        self.rng = rng
        self.cpu = cpu
        self.split = cpu.startswith("gfx12")
        self.dma = cpu.startswith("gfx9")

    def access(self):
        r = self.rng
        obj = r.choice(["@a", "@b"])
        off = r.choice([0, 0, 4, 8])
        mem = f"{obj}" + (f" + {off}" if off else "")
        kind = r.randrange(12)
        if kind < 4:
            return (f"$vgpr2 = DS_READ_B32_gfx9 $vgpr0, {off}, 0, implicit $exec"
                    f" :: (load (s32) from {mem}, addrspace 3)")
        if kind < 8:
            return (f"DS_WRITE_B32_gfx9 $vgpr0, $vgpr1, {off}, 0, implicit $exec"
                    f" :: (store (s32) into {mem}, addrspace 3)")
        if kind == 8:
            op = r.choice(["DS_ADD_U32_gfx9", "DS_MAX_U32_gfx9"])
            return (f"{op} $vgpr0, $vgpr1, {off}, 0, implicit $exec"
                    f" :: (load store (s32) on {mem}, addrspace 3)")
        if kind == 9:
            return "$vgpr2 = DS_READ_B32_gfx9 $vgpr0, 0, 0, implicit $exec"
        if kind == 10 and self.dma:
            return ("GLOBAL_LOAD_LDS_DWORD_SADDR $sgpr4_sgpr5, $vgpr1, 0, 0,"
                    " implicit $m0, implicit $exec :: (load (s32), addrspace 1),"
                    f" (store (s32) into {obj}, addrspace 3)")
        if kind == 10 and self.cpu == "gfx1250":
            return ("GLOBAL_LOAD_ASYNC_TO_LDS_B32_SADDR $vgpr1, $sgpr4_sgpr5, $vgpr0, 0, 0,"
                    " implicit-def $asynccnt, implicit $exec, implicit $asynccnt"
                    f" :: (load store (s32) on {obj}, addrspace 3)")
        if kind == 11 and r.randrange(3) == 0:
            mask = "csr_amdgpu_gfx90ainsts" if self.cpu.startswith("gfx9") else "csr_amdgpu"
            return f"$sgpr30_sgpr31 = SI_CALL $sgpr4_sgpr5, @ext, {mask}"
        return r.choice([
            'INLINEASM &"s_nop 0", 1 /* sideeffect attdialect */',
            "FLAT_STORE_DWORD $vgpr2_vgpr3, $vgpr1, 0, 0, implicit $exec,"
            " implicit $flat_scr :: (store (s32))",
            "$vgpr6 = GLOBAL_LOAD_DWORD_SADDR $sgpr4_sgpr5, $vgpr1, 0, 0,"
            " implicit $exec :: (load (s32), addrspace 1)",
        ])

    def sync(self):
        r = self.rng
        if self.split:
            pre = r.choice(["", "S_WAIT_DSCNT 0\n    "])
            return pre + "S_BARRIER_SIGNAL_IMM -1\n    S_BARRIER_WAIT -1"
        wait = r.choice(["", "S_WAITCNT 49279\n    ", "S_WAITCNT_soft 49279\n    ",
                         "S_WAITCNT 3952\n    "])
        return wait + "S_BARRIER"

    def body(self, n):
        lines = []
        for _ in range(n):
            if self.rng.randrange(6) == 0:
                lines.append(self.sync())
            else:
                lines.append(self.access())
        return lines

    def function(self, name):
        r = self.rng
        shape = r.choice(["straight", "diamond", "divergent", "loop", "nested"])
        blocks = []  # (label, successors, lines, terminator)
        if shape == "straight":
            blocks.append((0, [], self.body(r.randrange(1, 9)), "S_ENDPGM 0"))
        elif shape in ("diamond", "divergent"):
            if shape == "diamond":
                br = ["S_CMP_EQ_U32 $sgpr0, 0, implicit-def $scc",
                      "S_CBRANCH_SCC1 %bb.2, implicit $scc"]
            else:
                br = ["$sgpr2_sgpr3 = S_AND_SAVEEXEC_B64 $sgpr8_sgpr9, implicit-def $exec,"
                      " implicit-def $scc, implicit $exec",
                      "S_CBRANCH_EXECZ %bb.2, implicit $exec"]
            if self.cpu != "gfx942" and shape == "divergent":
                br[0] = br[0].replace("S_AND_SAVEEXEC_B64", "S_AND_SAVEEXEC_B32") \
                    .replace("$sgpr2_sgpr3", "$sgpr2").replace("$sgpr8_sgpr9", "$sgpr8")
            blocks.append((0, [1, 2], self.body(r.randrange(0, 4)), "\n    ".join(br)))
            blocks.append((1, [2], self.body(r.randrange(0, 4)), ""))
            join = "$exec = S_OR_B64 $exec, $sgpr2_sgpr3, implicit-def $scc" \
                if shape == "divergent" and self.cpu == "gfx942" else \
                ("$exec_lo = S_OR_B32 $exec_lo, $sgpr2, implicit-def $scc"
                 if shape == "divergent" else "")
            blocks.append((2, [], ([join] if join else []) + self.body(r.randrange(0, 4)),
                           "S_ENDPGM 0"))
        else:
            latch = ["$sgpr0 = S_ADD_I32 $sgpr0, -1, implicit-def $scc",
                     "S_CMP_LG_U32 $sgpr0, 0, implicit-def $scc",
                     "S_CBRANCH_SCC1 %bb.1, implicit $scc"]
            blocks.append((0, [1], self.body(r.randrange(0, 3)), ""))
            if shape == "loop":
                blocks.append((1, [1, 2], self.body(r.randrange(1, 6)), "\n    ".join(latch)))
                blocks.append((2, [], self.body(r.randrange(0, 3)), "S_ENDPGM 0"))
            else:
                inner = ["$sgpr1 = S_ADD_I32 $sgpr1, -1, implicit-def $scc",
                         "S_CMP_LG_U32 $sgpr1, 0, implicit-def $scc",
                         "S_CBRANCH_SCC1 %bb.2, implicit $scc"]
                blocks.append((1, [2], self.body(r.randrange(0, 3)), ""))
                blocks.append((2, [2, 3], self.body(r.randrange(1, 4)), "\n    ".join(inner)))
                blocks.append((3, [1, 4], self.body(r.randrange(0, 3)), "\n    ".join(latch)))
                blocks.append((4, [], [], "S_ENDPGM 0"))
        out = [f"---\nname: {name}\ntracksRegLiveness: false\nbody: |"]
        for label, succs, lines, term in blocks:
            out.append(f"  bb.{label}:")
            if succs:
                out.append("    successors: " + ", ".join(f"%bb.{s}" for s in succs))
            if label == 0:
                out.append("    liveins: $vgpr0, $vgpr1, $vgpr2_vgpr3, $sgpr0, $sgpr1,"
                           " $sgpr4_sgpr5, $sgpr8_sgpr9, $m0")
            for l in lines:
                out.append("    " + l)
            if term:
                out.append("    " + term)
        out.append("...")
        return "\n".join(out)


def module(gen, count, attrs):
    fns = [f"f{i}" for i in range(count)]
    head = ["--- |",
            "  @a = internal addrspace(3) global [64 x i32] poison, align 4",
            "  @b = internal addrspace(3) global [64 x i32] poison, align 4",
            "  declare void @ext()"]
    for f in fns:
        head.append(f"  define amdgpu_kernel void @{f}() {attrs} {{ ret void }}")
    head.append("...")
    return "\n".join(head) + "\n" + "\n".join(gen.function(f) for f in fns) + "\n"


def run(cmd, inp):
    return subprocess.run(cmd, input=inp, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200, help="functions per CPU")
    ap.add_argument("--cpu", default="gfx942,gfx1030,gfx1201,gfx1250")
    ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build/lib/AMDGPULDSBarriers.so"))
    ap.add_argument("--out", default="fuzz-failures")
    ap.add_argument("--per-module", type=int, default=20)
    a = ap.parse_args()
    failures = 0
    total = 0
    for cpu in a.cpu.split(","):
        rng = random.Random(f"{a.seed}-{cpu}")
        gen = Gen(rng, cpu)
        for m in range(0, a.count, a.per_module):
            n = min(a.per_module, a.count - m)
            text = module(gen, n, "")
            base = [a.llc, f"-load={a.plugin}", "-mtriple=amdgcn-amd-amdhsa",
                    f"-mcpu={cpu}", "-x", "mir", "-", "-o", "-"]
            first = run(base + ["-run-pass=amdgpu-lds-barriers", "-verify-machineinstrs"], text)
            problem = None
            if first.returncode != 0 or "internal error" in first.stderr:
                problem = "first run failed:\n" + first.stderr[-3000:]
            else:
                second = run(base + ["-run-pass=amdgpu-lds-barriers", "-verify-machineinstrs"],
                             first.stdout)
                if second.returncode != 0:
                    problem = "second run failed:\n" + second.stderr[-3000:]
                elif second.stdout != first.stdout:
                    problem = "not idempotent: the second run changed the output"
            total += n
            if problem:
                failures += 1
                os.makedirs(a.out, exist_ok=True)
                path = os.path.join(a.out, f"{cpu}-seed{a.seed}-{m}.mir")
                with open(path, "w") as f:
                    f.write(text)
                print(f"FAIL {cpu} module {m}: {problem.splitlines()[0]} -> {path}")
                print(problem)
    print(f"{total} functions, {failures} failing modules")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
