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

Besides those shapes it builds random structured control flow (ifs and
loops nested up to three deep) whose branches test values of known
uniformity: SCC branches on kernel SGPR arguments and loop counters, VCC
branches on vector compares of uniform values (`S_AND exec, V_CMP` and
`S_CBRANCH_VCCNZ`/`VCCZ`), if/elses as the structurizer lays them out (a
Flow block, and VCC branches on EXEC & ~0 and EXEC & ~-1 that always go one
way; --shape if_else chains them), among them a uniform lane mask hoisted into a
loop preheader (`S_CSELECT -1, 0`) and turned into a VCC branch in the loop
through `V_CNDMASK`/`V_CMP`; and per-wave or per-lane branches:
`S_AND_SAVEEXEC` + `S_CBRANCH_EXECZ`, VCC branches on compares of the
work-item id `$vgpr0`, `S_CMP_EQ exec, -1`, `V_READFIRSTLANE` of lane data.
Wave32 targets get the wave32 spelling ($vcc_lo, $exec_lo, 32-bit masks).

--shape sync_dependence makes values that are constants on every path but
differ between waves where paths meet (sync dependence), and branches on
them around LDS accesses:
  exec_if       `v = 0`; an EXEC if (`S_AND_SAVEEXEC` on t < 8, t > 63,
                (t & 127) < 8, ...; `S_CBRANCH_EXECZ`) that sets `v = 1`
                (V_MOV or V_ADD under a partial EXEC, or S_MOV / S_ADD);
  exec_if_else  the same as an if/else laid out by the structurizer:
                `S_AND_SAVEEXEC` + `S_XOR`, then arm, Flow block
                (`S_ANDN2_SAVEEXEC`, or `S_OR_SAVEEXEC` + `S_AND` + `S_XOR
                exec`), else arm, `S_OR exec` at the join;
  wave_if       a per-wave SCC branch (`V_READFIRSTLANE` of lane data,
                `S_CMP_EQ exec, -1`) that sets `v`, some with an else arm;
  exec_loop     a loop left per lane (`S_OR` break mask, `S_ANDN2 exec`,
                `S_CBRANCH_EXECNZ`) that records its counter in `v`;
  wave_loop     a loop left per wave (`S_CMP` with a readfirstlane bound);
and, where the value is in fact workgroup-uniform: uni_if (set in a branch
on a kernel argument or a uniform VCC branch), untouched (set before an
EXEC or per-wave branch that does not write it) and uni_loop (recorded in
a counted loop). After the join `v` feeds `V_READFIRSTLANE` + `S_CMP` +
`S_CBRANCH_SCC*`, a ballot (`V_CMP_NE_U32 0, v` into VCC or an SGPR mask,
`S_AND` with EXEC, `S_CBRANCH_VCCZ`/`VCCNZ`) or another `V_CMP` + VCC
branch, which guards an LDS access that conflicts with one before the
first branch, in its arm or at its join: a barrier placed between them
inside the guarded block hangs the waves that skip it. Some merges are in
a counted loop; half have no other LDS access in their arms and guarded
block (fewer windows no barrier can cover). The two arms of a per-wave
if/else may both access LDS: different waves run them at the same time,
with no path between them, and the pass must report each conflicting pair
of them as a window no barrier can cover (the checker as a race). Outside
uniform mode a quarter of the merged values are published through LDS
before the test: every lane writes the value to @c and reads it back at a
uniform address, so that the test is uniform once a barrier separates the
write from the reads, and the pass must not rely on it where none can.

--shape early_exit puts a random region under a divergent branch at the
start of the function, with nothing after it: the waves that skip it end
with nothing pending, so barriers may go inside (the pass's and, but in
divergent mode, the input's), and the checker must agree.

--mode chooses which of them appear:
  mixed      everything (the default);
  uniform    no lane-dependent branch at all: SCC branches on kernel
             arguments and counters and uniform VCC branches only (the
             sync-dependence shapes: the uniform ones, an EXEC or per-wave
             branch that a value crosses untouched holding no LDS access);
  divergent  every function has at least one divergent branch; no
             existing barrier inside divergent control flow (the
             sync-dependence shapes: the divergent ones).

Each module's output also goes through the independent checker
(-run-pass=amdgpu-lds-barrier-verify). Functions carry debug locations
(line = function index + 1; in mixed mode half of them) so that warnings
can be attributed to functions. Checks, besides the first two:
  uniform    no "cannot be covered" warning from the pass and no report
             from the checker;
  divergent  the checker reports no divergent or unbalanced barrier and
             nothing but races, and every function in which it reports a
             race got a "cannot be covered" warning from the pass.
A summary line ("<mode>-mode warnings: W, verifier reports: R; ...")
precedes the final "N functions, M failing modules" line. Functions of a
failing module are also tried one by one; the failing ones are saved as
single-function reproducers next to the module.

usage: mir_fuzz.py [--mode mixed|uniform|divergent] [--seed S] [--count N]
                   [--cpu gfx942,gfx1201,...] [--per-module K] [--jobs J]
                   [--llc PATH] [--plugin PATH] [--out DIR] [--shape NAME]
"""
import argparse
import multiprocessing
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Branch conditions of the structured shapes. Uniform ones are the same in
# every wave of a workgroup; the others are per-wave or per-lane.
UNIFORM_IF = ("scc", "vcc_uni", "vcc_hoisted")
DIVERGENT_IF = ("exec", "vcc_lane", "exec_cmp", "readfirstlane")
UNIFORM_LOOP = ("scc", "vcc_uni")
DIVERGENT_LOOP = ("vcc_lane",)

# Values merged where the paths of a branch meet (sync_dep): divergent after
# an EXEC if or if/else, a per-wave SCC branch, a loop whose exit is per-lane
# (EXEC) or per-wave; uniform after a uniform branch or loop, or when the
# branch does not redefine them.
SYNC_DIVERGENT = ("exec_if", "exec_if_else", "wave_if", "exec_loop", "wave_loop")
SYNC_UNIFORM = ("uni_if", "untouched", "uni_loop")

OLD_SHAPES = ("straight", "diamond", "divergent", "loop", "nested")
NEW_SHAPES = ("hoisted", "vcc_uniform", "div_loop", "vcc_lane", "exec_cmp", "random",
              "if_else", "sync_dependence", "early_exit")
SHAPES = {
    "mixed": OLD_SHAPES + NEW_SHAPES,
    "uniform": ("straight", "diamond", "loop", "nested", "hoisted", "vcc_uniform",
                "random", "random", "if_else", "sync_dependence"),
    "divergent": ("divergent", "div_loop", "div_loop", "vcc_lane", "exec_cmp", "random",
                  "random", "random", "sync_dependence", "sync_dependence", "early_exit"),
}
UNIFORM_SHAPES = ("straight", "diamond", "loop", "nested", "hoisted", "vcc_uniform",
                  "if_else", "sync_dependence")
DIVERGENT_SHAPES = ("divergent", "div_loop", "vcc_lane", "exec_cmp", "sync_dependence",
                    "early_exit")

LIVEINS = ("$vgpr0, $vgpr1, $vgpr2_vgpr3, $sgpr0, $sgpr1, $sgpr4_sgpr5, $sgpr8_sgpr9,"
           " $m0")
DEBUG_FILE = "fuzz.c"


class Block:
    """A machine basic block of a structured shape; numbered at the end."""

    def __init__(self):
        self.lines = []
        self.term = []   # strings, or (prefix, Block, suffix) branches
        self.succs = []
        self.num = None


class Gen:
    def __init__(self, rng, cpu, mode="mixed", shape=None):
        self.rng = rng
        self.cpu = cpu
        self.mode = mode
        self.shape = shape
        self.split = cpu.startswith("gfx12")
        self.dma = cpu.startswith("gfx9")
        self.wave64 = cpu.startswith("gfx9")
        self.exec = "$exec" if self.wave64 else "$exec_lo"
        self.vcc = "$vcc" if self.wave64 else "$vcc_lo"
        self.bits = "B64" if self.wave64 else "B32"

    # --- Straight-line code -------------------------------------------------

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

    def body(self, n, sync=True):
        lines = []
        for _ in range(n):
            if sync and self.rng.randrange(6) == 0:
                lines.append(self.sync())
            else:
                lines.append(self.access())
        return lines

    def syncs_in(self, div):
        """Whether existing barriers may go into code under a branch of
        divergence \\p div: not in divergent mode, whose checker must
        report no divergent barrier."""
        return not div or self.mode != "divergent"

    # --- Lane masks ------------------------------------------------------------

    def mask(self, n):
        """A lane mask in SGPRs from $sgpr<n> (even)."""
        return f"$sgpr{n}_sgpr{n + 1}" if self.wave64 else f"$sgpr{n}"

    def and_exec(self, m):
        r = self.rng
        ops = [self.exec, m] if r.randrange(2) else [m, self.exec]
        return f"{self.vcc} = S_AND_{self.bits} {ops[0]}, {ops[1]}, implicit-def $scc"

    # --- Structured shapes -------------------------------------------------

    def new_block(self, layout=True):
        b = Block()
        if layout:
            self.blocks.append(b)
        return b

    def pick(self, weighted):
        total = sum(w for _, w in weighted)
        x = self.rng.uniform(0, total)
        for k, w in weighted:
            x -= w
            if x <= 0:
                return k
        return weighted[-1][0]

    def if_kind(self):
        uni = [("scc", 2), ("vcc_uni", 2), ("vcc_hoisted", 3 if self.hoisted else 1)]
        div = [("exec", 3), ("vcc_lane", 3), ("exec_cmp", 1), ("readfirstlane", 1)]
        if self.mode == "uniform":
            return self.pick(uni)
        if self.mode == "divergent" and self.rng.randrange(5) < 3:
            return self.pick(div)
        if self.mode == "mixed" and self.rng.randrange(5) < 2:
            return self.pick(div)
        return self.pick(uni)

    def loop_kind(self):
        if self.mode != "uniform" and self.rng.randrange(4) == 0:
            return "vcc_lane"
        return self.pick([("scc", 3), ("vcc_uni", 2)])

    def cond_branch(self, cur, kind, target, taken_if_true, depth):
        """Appends to block \\p cur the test of \\p kind and a branch to
        \\p target when the condition is true (\\p taken_if_true) or false;
        the fallthrough is the next block in the layout. Returns the line
        that restores EXEC at the join, if any."""
        r = self.rng
        self.kinds.add(kind)
        if kind in ("scc", "exec_cmp", "readfirstlane"):
            if kind == "scc":
                op = r.choice(["S_CMP_EQ_U32", "S_CMP_LG_U32", "S_CMP_LT_U32", "S_CMP_GT_U32"])
                rhs = r.choice(["0", "1", self.u1])
                cur.lines.append(f"{op} {self.u0}, {rhs}, implicit-def $scc")
            elif kind == "exec_cmp":
                op = "S_CMP_EQ_U64" if self.wave64 else "S_CMP_EQ_U32"
                cur.lines.append(f"{op} {self.exec}, -1, implicit-def $scc")
            else:
                cur.lines.append("$sgpr46 = V_READFIRSTLANE_B32 $vgpr0, implicit $exec")
                cur.lines.append("S_CMP_LT_U32 $sgpr46, 32, implicit-def $scc")
            cc = "1" if taken_if_true else "0"
            cur.term.append((f"S_CBRANCH_SCC{cc} %bb.", target, ", implicit $scc"))
            return None
        if kind == "exec":
            assert not taken_if_true
            save = self.mask(50 + 2 * depth)
            if r.randrange(2):
                cond = self.mask(8)
            else:
                cond = self.mask(44)
                cur.lines.append(f"{cond} = V_CMP_GT_U32_e64 $vgpr0, {r.choice([7, 31, 63])},"
                                 " implicit $exec")
            cur.lines.append(f"{save} = S_AND_SAVEEXEC_{self.bits} {cond}, implicit-def $exec,"
                             " implicit-def $scc, implicit $exec")
            cur.term.append(("S_CBRANCH_EXECZ %bb.", target, ", implicit $exec"))
            return f"{self.exec} = S_OR_{self.bits} {self.exec}, {save}, implicit-def $scc"
        # VCC branches: a lane mask ANDed with EXEC into VCC.
        m = r.choice([self.mask(44), self.vcc])
        cmp = r.choice(["EQ", "NE", "LT", "GT"])
        if kind == "vcc_uni":
            cur.lines.append(f"$vgpr11 = V_MOV_B32_e32 {r.choice([self.u0, '5', '0'])},"
                             " implicit $exec")
            lhs = r.choice([self.u1, self.u0, "7"])
            cur.lines.append(f"{m} = V_CMP_{cmp}_U32_e64 {lhs}, $vgpr11, implicit $exec")
        elif kind == "vcc_hoisted":
            if self.hoisted:
                sel = self.hoisted[-1]
            else:
                sel = self.mask(46)
                cur.lines.append(f"S_CMP_EQ_U32 {self.u0}, 1, implicit-def $scc")
                cur.lines.append(f"{sel} = S_CSELECT_{self.bits} -1, 0, implicit $scc")
            cur.lines.append(f"$vgpr10 = V_CNDMASK_B32_e64 0, 0, 0, 1, {sel}, implicit $exec")
            cur.lines.append(f"{m} = V_CMP_{r.choice(['EQ', 'NE'])}_U32_e64 $vgpr10,"
                             f" {r.choice([0, 1])}, implicit $exec")
        elif kind == "vcc_lane":
            rhs = r.choice(["7", "32", self.u0])
            cur.lines.append(f"{m} = V_CMP_{cmp}_U32_e64 $vgpr0, {rhs}, implicit $exec")
        else:
            raise ValueError(kind)
        cur.lines.append(self.and_exec(m))
        cur.term.append((f"S_CBRANCH_VCC{'NZ' if taken_if_true else 'Z'} %bb.", target,
                         ", implicit $vcc"))
        return None

    def if_(self, cur, depth, div, kind=None, then=None):
        """if (cond) { then }: returns the join block."""
        r = self.rng
        kind = kind or self.if_kind()
        inner_div = div or kind in DIVERGENT_IF
        t = self.new_block()
        join = self.new_block(layout=False)
        if kind != "exec" and r.randrange(3) == 0:
            # S_CBRANCH_<cc> %bb.then; S_BRANCH %bb.join
            restore = self.cond_branch(cur, kind, t, True, depth)
            cur.term.append(("S_BRANCH %bb.", join, ""))
        else:
            restore = self.cond_branch(cur, kind, join, False, depth)
        cur.succs = [t, join]
        if then:
            tail = then(t, depth + 1, inner_div)
        else:
            t.lines += self.body(r.randrange(1, 4), self.syncs_in(inner_div))
            tail = t
            if depth < 2 and r.randrange(5) < 2:
                tail = self.region(t, depth + 1, inner_div)
        tail.succs = [join]
        self.blocks.append(join)
        if restore:
            join.lines.append(restore)
        return join

    def flow_mask(self, blk, zero, sreg):
        """Appends to \p blk what the structurizer's Flow blocks compute:
        VCC = EXEC & ~0 (\p zero false: all active lanes) or EXEC & ~-1
        (\p zero true: no lane), in one of the spellings it takes. Some
        keep the constant in another block (\p sreg set there), which
        the pass must not fold."""
        r = self.rng
        k = r.randrange(5)
        if k == 4 and sreg:
            blk.lines.append(f"{self.vcc} = S_ANDN2_{self.bits} {self.exec}, {sreg},"
                             " implicit-def $scc")
            return
        m = self.mask(60)
        if k == 0:
            blk.lines.append(f"{self.vcc} = S_ANDN2_{self.bits} {self.exec},"
                             f" {-1 if zero else 0}, implicit-def $scc")
            return
        if k in (1, 4):
            blk.lines.append(f"{m} = S_MOV_{self.bits} {-1 if zero else 0}")
            blk.lines.append(f"{self.vcc} = S_ANDN2_{self.bits} {self.exec}, {m},"
                             " implicit-def $scc")
            return
        blk.lines.append(f"{m} = S_MOV_{self.bits} {0 if zero else -1}")
        ops = [self.exec, m] if k == 2 else [m, self.exec]
        blk.lines.append(f"{self.vcc} = S_AND_{self.bits} {ops[0]}, {ops[1]},"
                         " implicit-def $scc")

    def if_else(self, cur, depth, div):
        """if (uniform cond) { then } else { other }, as the structurizer
        lays it out: the else arm first, then a Flow block, then the then
        arm, rejoined by VCC branches on masks of EXEC and constants:

          cur:  S_CBRANCH_SCC1 %flow            (fallthrough: else)
          else: VCC = EXEC & ~0; S_CBRANCH_VCCZ %then; S_BRANCH %join
          flow: VCC = EXEC & ~-1; S_CBRANCH_VCCNZ %join (fallthrough: then)
          then: ...                             (fallthrough: join)

        The else arm never goes to the then arm (EXEC is not zero) and the
        Flow block never skips it: each arm's accesses meet only the code
        before and after the if/else."""
        r = self.rng
        self.kinds.add("if_else")
        els = self.new_block()
        join = self.new_block(layout=False)
        sreg = None
        if self.mode == "uniform" and r.randrange(4) == 0:
            # The Flow constant set before the branch, in another block (in
            # a pair calls keep; only uniform mode has no EXEC saves there).
            sreg = self.mask(54)
            cur.lines.append(f"{sreg} = S_MOV_{self.bits} 0")
        op = r.choice(["S_CMP_EQ_U32", "S_CMP_LG_U32", "S_CMP_LT_U32"])
        cur.lines.append(f"{op} {self.u0}, {r.choice(['0', '1', self.u1])}, implicit-def $scc")
        els.lines += self.body(r.randrange(1, 4), self.syncs_in(div))
        tail = els
        if depth < 2 and r.randrange(4) == 0:
            tail = self.region(els, depth + 1, div)
        # In layout order: the else arm's blocks, Flow, the then arm's.
        flow, then = self.new_block(), self.new_block()
        cur.term.append(("S_CBRANCH_SCC1 %bb.", flow, ", implicit $scc"))
        cur.succs = [els, flow]
        self.flow_mask(tail, False, sreg)
        tail.term.append(("S_CBRANCH_VCCZ %bb.", then, ", implicit $vcc"))
        tail.term.append(("S_BRANCH %bb.", join, ""))
        tail.succs = [then, join]
        self.flow_mask(flow, True, None)
        flow.term.append(("S_CBRANCH_VCCNZ %bb.", join, ", implicit $vcc"))
        flow.succs = [then, join]
        then.lines += self.body(r.randrange(1, 4), self.syncs_in(div))
        tail = then
        if depth < 2 and r.randrange(4) == 0:
            tail = self.region(then, depth + 1, div)
        tail.succs = [join]
        self.blocks.append(join)
        return join

    def loop(self, cur, depth, div, kind=None, hoist=None, body=None):
        """A loop whose latch counts $sgpr<80+depth> down: returns the exit
        block. With \\p hoist, the preheader computes a uniform lane mask
        (S_CSELECT -1, 0) that VCC branches in the loop test."""
        r = self.rng
        kind = kind or self.loop_kind()
        inner_div = div or kind in DIVERGENT_LOOP
        counter = f"$sgpr{80 + depth}"
        cur.lines.append(f"{counter} = S_MOV_B32 {self.u1}")
        if hoist is None:
            hoist = self.mode != "divergent" and r.randrange(5) < 3
        if hoist:
            m = self.mask(64 + 2 * depth)
            cur.lines.append(f"S_CMP_EQ_U32 {self.u0}, {r.choice([0, 1])}, implicit-def $scc")
            cur.lines.append(f"{m} = S_CSELECT_{self.bits} -1, 0, implicit $scc")
            self.hoisted.append(m)
        head = self.new_block()
        cur.succs = [head]
        head.lines += self.body(r.randrange(1, 4), self.syncs_in(inner_div))
        if body:
            tail = body(head, depth + 1, inner_div)
        elif depth < 2 and r.randrange(2):
            tail = self.region(head, depth + 1, inner_div)
        else:
            tail = head
        if hoist:
            self.hoisted.pop()
        exit_ = self.new_block(layout=False)
        tail.lines.append(f"{counter} = S_ADD_I32 {counter}, -1, implicit-def $scc")
        self.kinds.add("loop_" + kind)
        if kind == "scc":
            tail.lines.append(f"S_CMP_LG_U32 {counter}, 0, implicit-def $scc")
            tail.term.append(("S_CBRANCH_SCC1 %bb.", head, ", implicit $scc"))
        else:
            m = r.choice([self.mask(44), self.vcc])
            if kind == "vcc_uni":
                tail.lines.append("$vgpr11 = V_MOV_B32_e32 0, implicit $exec")
                tail.lines.append(f"{m} = V_CMP_NE_U32_e64 {counter}, $vgpr11, implicit $exec")
            else:
                tail.lines.append(f"{m} = V_CMP_LT_U32_e64 $vgpr0, {counter}, implicit $exec")
            tail.lines.append(self.and_exec(m))
            tail.term.append(("S_CBRANCH_VCCNZ %bb.", head, ", implicit $vcc"))
        tail.succs = [head, exit_]
        self.blocks.append(exit_)
        return exit_

    # --- Sync dependence ------------------------------------------------------
    #
    # A register defined on some paths of a branch and tested after the
    # branch's join: after an EXEC branch or a per-wave one, or at the exit of
    # a loop whose exit is per-lane or per-wave, the value differs between
    # waves even when every definition is a constant (a wave with no lane in
    # the if keeps the old value; a VALU write under a partial EXEC leaves the
    # other lanes' old values). The test (readfirstlane + S_CMP, a ballot
    # V_CMP_NE 0 & EXEC, or a V_CMP + VCC branch) guards LDS accesses that
    # conflict with accesses before or inside the branch: a barrier that
    # covers them inside the guarded block hangs the waves that skip it.
    # Registers (callee-saved, so that calls keep them) by depth d (0, 1):
    # value $vgpr40+d / $sgpr70+d, lane bound $vgpr44+d, readfirstlane
    # $sgpr72+d, counter $sgpr76+d, per-wave bound $sgpr78+d, masks from
    # $sgpr84+8d (saved EXEC, Flow save, loop break mask, ballot).

    def lds(self, write, obj, off):
        mem = obj + (f" + {off}" if off else "")
        if write:
            return (f"DS_WRITE_B32_gfx9 $vgpr0, $vgpr1, {off}, 0, implicit $exec"
                    f" :: (store (s32) into {mem}, addrspace 3)")
        return (f"$vgpr2 = DS_READ_B32_gfx9 $vgpr0, {off}, 0, implicit $exec"
                f" :: (load (s32) from {mem}, addrspace 3)")

    def conflict(self):
        """Two accesses to one LDS location, at least one a write."""
        r = self.rng
        obj, off = r.choice(["@a", "@b"]), r.choice([0, 0, 4])
        w1, w2 = r.choice([(True, False), (True, False), (False, True), (True, True)])
        return self.lds(w1, obj, off), self.lds(w2, obj, off)

    def lane_cond(self, blk, d):
        """Appends a per-lane condition that some waves of a workgroup hold
        in no lane (t < 8, t > 63, (t & 127) < 8, ...) or, from a kernel
        argument, the same lanes in every wave: returns its mask register."""
        r = self.rng
        k = r.randrange(6)
        m = self.mask(90 + 8 * d)
        t = "$vgpr0"
        if k == 0:
            blk.lines.append(f"{m} = V_CMP_GT_U32_e64 {t}, {r.choice([7, 31, 63])},"
                             " implicit $exec")
        elif k == 1:
            blk.lines.append(f"{m} = V_CMP_LT_U32_e64 {t}, {r.choice([1, 8, 40, 64])},"
                             " implicit $exec")
        elif k in (2, 3):
            # The e32 compare into VCC, on t & 127 or t >> 5.
            v = f"$vgpr{44 + d}"
            if k == 2:
                blk.lines.append(f"{v} = V_AND_B32_e32 127, {t}, implicit $exec")
                blk.lines.append(f"V_CMP_GT_U32_e32 {r.choice([8, 33])}, {v},"
                                 " implicit-def $vcc, implicit $exec")
            else:
                blk.lines.append(f"{v} = V_LSHRREV_B32_e32 5, {t}, implicit $exec")
                blk.lines.append(f"V_CMP_EQ_U32_e32 {r.choice([0, 1, 2])}, {v},"
                                 " implicit-def $vcc, implicit $exec")
            m = self.vcc
        elif k == 4:
            blk.lines.append(f"{m} = V_CMP_EQ_U32_e64 0, {t}, implicit $exec")
        else:
            m = self.mask(8)
        return m

    def wave_cond(self, blk, d):
        """Appends a per-wave SCC condition (readfirstlane of lane data,
        EXEC == -1): returns the taken sense ("0" or "1") at random."""
        r = self.rng
        k = r.randrange(4)
        s = f"$sgpr{72 + d}"
        if k < 2:
            blk.lines.append(f"{s} = V_READFIRSTLANE_B32 $vgpr0, implicit $exec")
            blk.lines.append(f"S_CMP_LT_U32 {s}, {r.choice([32, 64])}, implicit-def $scc")
        elif k == 2:
            v = f"$vgpr{44 + d}"
            blk.lines.append(f"{v} = V_LSHRREV_B32_e32 5, $vgpr0, implicit $exec")
            blk.lines.append(f"{s} = V_READFIRSTLANE_B32 {v}, implicit $exec")
            blk.lines.append(f"S_CMP_EQ_U32 {s}, {r.choice([0, 1])}, implicit-def $scc")
        else:
            op = "S_CMP_EQ_U64" if self.wave64 else "S_CMP_EQ_U32"
            blk.lines.append(f"{op} {self.exec}, -1, implicit-def $scc")
        return r.choice("01")

    def define(self, val, k, move=False):
        """A write of \\p k (constant or SGPR) to value register \\p val:
        a move, or (not \\p move) sometimes an add of \\p k."""
        r = self.rng
        add = not move and r.randrange(4) == 0 and not str(k).startswith("$")
        if val.startswith("$sgpr"):
            if add:
                return f"{val} = S_ADD_I32 {val}, {k}, implicit-def $scc"
            return f"{val} = S_MOV_B32 {k}"
        if add:
            return f"{val} = V_ADD_U32_e32 {k}, {val}, implicit $exec"
        return f"{val} = V_MOV_B32_e32 {k}, implicit $exec"

    def use_test(self, cur, val, d, target, taken_if_true):
        """Appends to \\p cur a test of value register \\p val and a branch to
        \\p target when it holds (\\p taken_if_true) or not."""
        r = self.rng
        k = r.randrange(3)
        if val.startswith("$sgpr") and k == 0:
            cur.lines.append(f"S_CMP_{r.choice(['EQ', 'LG'])}_U32 {val}, {r.choice([0, 1, 2])},"
                             " implicit-def $scc")
            k = -1
        elif k == 0:
            s = f"$sgpr{72 + d}"
            cur.lines.append(f"{s} = V_READFIRSTLANE_B32 {val}, implicit $exec")
            cur.lines.append(f"S_CMP_{r.choice(['EQ', 'LG'])}_U32 {s}, {r.choice([0, 1, 2])},"
                             " implicit-def $scc")
            k = -1
        if k < 0:
            cc = "1" if taken_if_true else "0"
            cur.term.append((f"S_CBRANCH_SCC{cc} %bb.", target, ", implicit $scc"))
            return
        cmp, rhs = ("NE", 0) if k == 1 else (r.choice(["EQ", "NE", "LT", "GT"]),
                                            r.choice([0, 1, 2, 3]))
        anded = True
        if r.randrange(3) == 0 and val.startswith("$vgpr"):
            # The e32 compare writes VCC with the inactive lanes clear: the
            # AND with EXEC may be left out.
            cur.lines.append(f"V_CMP_{cmp}_U32_e32 {rhs}, {val}, implicit-def $vcc,"
                             " implicit $exec")
            m = self.vcc
            anded = r.randrange(2) == 0
        else:
            m = r.choice([self.mask(90 + 8 * d), self.vcc])
            cur.lines.append(f"{m} = V_CMP_{cmp}_U32_e64 {rhs}, {val}, implicit $exec")
        if anded:
            cur.lines.append(self.and_exec(m))
        cur.term.append((f"S_CBRANCH_VCC{'NZ' if taken_if_true else 'Z'} %bb.", target,
                         ", implicit $vcc"))

    def arm(self, blk, depth, div, lds=True):
        """Code in an arm of a branch of divergence \\p div: LDS traffic,
        or (\\p lds false) only writes of registers nothing tests."""
        r = self.rng
        if not lds:
            blk.lines.append(f"$vgpr12 = V_MOV_B32_e32 {r.choice([0, 1])}, implicit $exec")
            return blk
        blk.lines += self.body(r.randrange(0, 3), self.syncs_in(div))
        if depth < 2 and r.randrange(5) == 0:
            blk = self.region(blk, depth + 1, div)
        return blk

    def sync_dep(self, cur, depth, div, kind=None):
        """A value merged at the join of a branch (or the exit of a loop) of
        \\p kind, then tested by a branch around LDS accesses that conflict
        with accesses before or inside the first branch: returns the join
        of the second branch."""
        r = self.rng
        if kind is None:
            if self.mode == "uniform":
                kind = r.choice(SYNC_UNIFORM)
            elif self.mode == "divergent" or r.randrange(3):
                kind = r.choice(SYNC_DIVERGENT)
            else:
                kind = r.choice(SYNC_UNIFORM)
        self.kinds.add("sync_" + kind)
        d = min(depth, 1)
        val = f"$sgpr{70 + d}" if r.randrange(3) == 0 else f"$vgpr{40 + d}"
        first, second = self.conflict()
        # Where the first access goes: before the branch, in its arm, or
        # after the join (where only the test's branch separates the two).
        where = r.choice(["before", "before", "arm", "join"])
        if kind == "untouched":
            where = r.choice(["before", "join"])
        gdiv = div or kind in SYNC_DIVERGENT
        arm_div = div or kind not in ("uni_if", "uni_loop")
        # In uniform mode the divergent branch a value crosses untouched
        # holds no LDS access and no barrier. Half the merges have no LDS
        # access in their arms and guarded block but the two above, so
        # that fewer windows are left uncoverable (the oracle counts races
        # only in functions without such warnings).
        lds = self.mode != "uniform"
        busy = r.randrange(2) == 0
        cur.lines += self.body(r.randrange(0, 2), self.syncs_in(div))
        if where == "before":
            cur.lines.append(first)
        # The value before the branch: always for the uniform kinds (an
        # earlier merge may have left a divergent one in the register).
        if kind in SYNC_UNIFORM or r.randrange(4):
            cur.lines.append(self.define(val, 0, move=True))
        placed = [where != "arm"]

        def fill(b, dp, dv, k):
            if k is not None:
                b.lines.append(self.define(val, k))
            if not placed[0]:
                b.lines.append(first)
                placed[0] = True
            return self.arm(b, dp, dv, busy and (lds or kind != "untouched"))

        if kind in ("exec_if", "exec_if_else") or (kind == "untouched" and r.randrange(2)):
            m = self.lane_cond(cur, d)
            save = self.mask(84 + 8 * d)
            cur.lines.append(f"{save} = S_AND_SAVEEXEC_{self.bits} {m}, implicit-def $exec,"
                             " implicit-def $scc, implicit $exec")
            then = self.new_block()
            join = self.new_block(layout=False)
            restore = save
            if kind == "exec_if_else":
                # then; Flow (EXEC: the else lanes); else; join.
                cur.lines.append(f"{save} = S_XOR_{self.bits} {self.exec}, {save},"
                                 " implicit-def $scc")
                tail = fill(then, depth + 1, True, 1)
                flow = self.new_block()
                cur.term.append(("S_CBRANCH_EXECZ %bb.", flow, ", implicit $exec"))
                cur.succs = [then, flow]
                tail.succs = [flow]
                if r.randrange(2):
                    flow.lines.append(f"{save} = S_ANDN2_SAVEEXEC_{self.bits} {save},"
                                      " implicit-def $exec, implicit-def $scc, implicit $exec")
                else:
                    restore = self.mask(86 + 8 * d)
                    flow.lines.append(f"{restore} = S_OR_SAVEEXEC_{self.bits} {save},"
                                      " implicit-def $exec, implicit-def $scc, implicit $exec")
                    flow.lines.append(f"{restore} = S_AND_{self.bits} {self.exec}, {restore},"
                                      " implicit-def $scc")
                    flow.lines.append(f"{self.exec} = S_XOR_{self.bits} {self.exec}, {restore},"
                                      " implicit-def $scc")
                els = self.new_block()
                flow.term.append(("S_CBRANCH_EXECZ %bb.", join, ", implicit $exec"))
                flow.succs = [els, join]
                tail = fill(els, depth + 1, True, r.choice([2, 2, None]))
            else:
                cur.term.append(("S_CBRANCH_EXECZ %bb.", join, ", implicit $exec"))
                cur.succs = [then, join]
                tail = fill(then, depth + 1, True, None if kind == "untouched" else 1)
            tail.succs = [join]
            self.blocks.append(join)
            join.lines.append(f"{self.exec} = S_OR_{self.bits} {self.exec}, {restore},"
                              " implicit-def $scc")
        elif kind in ("wave_if", "uni_if", "untouched"):
            if kind == "uni_if":
                cc = None
                cond = r.choice(["scc", "vcc_uni"])
            else:
                cc = self.wave_cond(cur, d)
            then = self.new_block()
            join = self.new_block(layout=False)
            els = None
            if kind != "untouched" and r.randrange(3) == 0:
                # if/else: then; S_BRANCH join; else; join.
                els = self.new_block(layout=False)
            target = els or join
            if cc is None:
                self.cond_branch(cur, cond, target, False, depth)
            else:
                cur.term.append((f"S_CBRANCH_SCC{cc} %bb.", target, ", implicit $scc"))
            cur.succs = [then, target]
            tail = fill(then, depth + 1, arm_div, None if kind == "untouched" else 1)
            if els:
                tail.term.append(("S_BRANCH %bb.", join, ""))
                tail.succs = [join]
                self.blocks.append(els)
                # Different waves run the two arms of a per-wave if/else
                # at the same time, with no path between them: conflicting
                # accesses in the two arms race whatever the pass does, and
                # it must say so.
                tail = fill(els, depth + 1, arm_div, r.choice([2, None]))
            tail.succs = [join]
            self.blocks.append(join)
        elif kind == "uni_loop":
            def body(b, dp, dv):
                tail = fill(b, dp, dv, None)
                tail.lines.append(self.define(val, f"$sgpr{80 + depth}"))
                return tail
            join = self.loop(cur, depth, div, kind=r.choice(UNIFORM_LOOP), hoist=False,
                             body=body)
        else:
            # A loop whose exit is per-lane (EXEC & ~break mask) or per-wave
            # (readfirstlane of a per-lane bound), counting $sgpr76+d up.
            counter, bound = f"$sgpr{76 + d}", f"$vgpr{44 + d}"
            cur.lines.append(f"{counter} = S_MOV_B32 0")
            op = r.choice([("V_LSHRREV_B32_e32", r.choice([3, 4, 5])),
                           ("V_AND_B32_e32", r.choice([3, 7]))])
            cur.lines.append(f"{bound} = {op[0]} {op[1]}, $vgpr0, implicit $exec")
            brk = self.mask(88 + 8 * d)
            if kind == "exec_loop":
                cur.lines.append(f"{brk} = S_MOV_{self.bits} 0")
            else:
                sb = f"$sgpr{78 + d}"
                cur.lines.append(f"{sb} = V_READFIRSTLANE_B32 {bound}, implicit $exec")
            head = self.new_block()
            cur.succs = [head]
            tail = fill(head, depth + 1, True, None)
            tail.lines.append(f"{counter} = S_ADD_I32 {counter}, 1, implicit-def $scc")
            rec = r.choice([counter, counter, 1])
            tail.lines.append(self.define(val, rec))
            join = self.new_block(layout=False)
            if kind == "exec_loop":
                m = self.mask(90 + 8 * d)
                tail.lines.append(f"{m} = V_CMP_GE_U32_e64 {counter}, {bound}, implicit $exec")
                tail.lines.append(f"{brk} = S_OR_{self.bits} {m}, {brk}, implicit-def $scc")
                tail.lines.append(f"{self.exec} = S_ANDN2_{self.bits} {self.exec}, {brk},"
                                  " implicit-def $scc")
                tail.term.append(("S_CBRANCH_EXECNZ %bb.", head, ", implicit $exec"))
            else:
                tail.lines.append(f"S_CMP_LT_U32 {counter}, {sb}, implicit-def $scc")
                tail.term.append(("S_CBRANCH_SCC1 %bb.", head, ", implicit $scc"))
            tail.succs = [head, join]
            self.blocks.append(join)
            if kind == "exec_loop":
                join.lines.append(f"{self.exec} = S_OR_{self.bits} {self.exec}, {brk},"
                                  " implicit-def $scc")
        cur = join
        if where == "join":
            cur.lines.append(first)
        cur.lines += self.body(r.randrange(0, 2), self.syncs_in(div))
        if self.mode != "uniform" and r.randrange(4) == 0:
            # Published through LDS: every lane writes the value to @c and
            # reads it back at a uniform address, which makes it the same in
            # every wave once a barrier separates the write from the reads
            # (one location holds one value), and a race otherwise.
            self.kinds.add("published")
            data = f"$vgpr{48 + d}"
            cur.lines.append(f"$vgpr46 = V_MOV_B32_e32 0, implicit $exec")
            if val != data:
                cur.lines.append(f"{data} = V_MOV_B32_e32 {val}, implicit $exec")
            cur.lines.append(f"DS_WRITE_B32_gfx9 $vgpr46, {data}, 0, 0, implicit $exec"
                             " :: (store (s32) into @c, addrspace 3)")
            cur.lines += self.body(r.randrange(0, 2), self.syncs_in(div))
            cur.lines.append(f"{data} = DS_READ_B32_gfx9 $vgpr46, 0, 0, implicit $exec"
                             " :: (load (s32) from @c, addrspace 3)")
            val = data
        # The test of the merged value, around LDS accesses (and an else arm).
        g = self.new_block()
        skip = self.new_block(layout=False)
        other = None
        if r.randrange(4) == 0:
            other = self.new_block(layout=False)
        if other is None and r.randrange(3) == 0:
            self.use_test(cur, val, d, g, True)
            cur.term.append(("S_BRANCH %bb.", skip, ""))
        else:
            self.use_test(cur, val, d, other or skip, False)
        cur.succs = [g, other or skip]
        if busy:
            g.lines += self.body(r.randrange(0, 2), self.syncs_in(gdiv))
        g.lines.append(second)
        tail = g
        if busy and depth < 2 and r.randrange(4) == 0:
            tail = self.region(g, depth + 1, gdiv)
        if busy:
            tail.lines += self.body(r.randrange(0, 2), self.syncs_in(gdiv))
        if other:
            tail.term.append(("S_BRANCH %bb.", skip, ""))
            tail.succs = [skip]
            self.blocks.append(other)
            # (No LDS access in the other arm of a divergent test: see
            # the per-wave if/else above.)
            if gdiv:
                other.lines.append("$vgpr12 = V_MOV_B32_e32 2, implicit $exec")
            else:
                other.lines += self.body(r.randrange(1, 3))
            tail = other
        tail.succs = [skip]
        self.blocks.append(skip)
        return skip

    def region(self, cur, depth, div):
        """Random code, ifs and loops: returns the block the region ends in."""
        r = self.rng
        for _ in range(r.randrange(1, 4)):
            c = r.randrange(10) if depth < 3 else 0
            if c < 4:
                cur.lines += self.body(r.randrange(0, 4), self.syncs_in(div))
            elif c < 6:
                cur = self.if_(cur, depth, div)
            elif c < 7:
                cur = self.if_else(cur, depth, div)
            else:
                cur = self.loop(cur, depth, div)
        return cur

    def structured(self, shape):
        """Returns the blocks of a structured shape, or None when a random
        one in divergent mode came out without a divergent branch."""
        r = self.rng
        self.blocks = []
        self.hoisted = []
        self.kinds = set()
        # Kernel arguments copied to callee-saved SGPRs (calls keep them),
        # or, in mixed mode, used where they arrive (calls clobber them).
        entry = self.new_block()
        if self.mode == "mixed" and r.randrange(2):
            self.u0, self.u1 = "$sgpr0", "$sgpr1"
        else:
            self.u0, self.u1 = "$sgpr48", "$sgpr49"
            entry.lines += ["$sgpr48 = S_MOV_B32 $sgpr0", "$sgpr49 = S_MOV_B32 $sgpr1"]
        if shape != "early_exit":
            entry.lines += self.body(r.randrange(0, 3))
        cur = entry

        def code(b, depth, div):
            b.lines += self.body(r.randrange(1, 4), self.syncs_in(div))
            return b

        if shape == "hoisted":
            # A uniform mask hoisted into the preheader, a VCC branch on it
            # in the loop, LDS traffic in its then-block.
            def loop_body(b, depth, div):
                b = self.if_(b, depth, div, kind="vcc_hoisted", then=code)
                b.lines += self.body(r.randrange(0, 3), self.syncs_in(div))
                return b
            cur = self.loop(cur, 0, False, kind=r.choice(UNIFORM_LOOP), hoist=True,
                            body=loop_body)
        elif shape == "vcc_uniform":
            cur = self.if_(cur, 0, False, kind="vcc_uni", then=code)
            if r.randrange(2):
                cur = self.loop(cur, 0, False, kind="vcc_uni", hoist=False)
        elif shape == "div_loop":
            # A divergent if around a uniform loop with LDS traffic.
            kind = "exec" if self.mode != "mixed" or r.randrange(3) else r.choice(DIVERGENT_IF)
            if self.mode == "divergent" and r.randrange(3) == 0:
                kind = r.choice(DIVERGENT_IF)

            def then(b, depth, div):
                b.lines += self.body(r.randrange(0, 3), self.syncs_in(div))
                b = self.loop(b, depth, div, kind=r.choice(UNIFORM_LOOP))
                b.lines += self.body(r.randrange(0, 2), self.syncs_in(div))
                return b
            cur = self.if_(cur, 0, False, kind=kind, then=then)
        elif shape == "if_else":
            # A chain of if/elses: an arm's accesses meet the code around it,
            # not the other arm's, nor the next if/else's but through it.
            for _ in range(r.randrange(1, 4)):
                cur = self.if_else(cur, 0, False)
                cur.lines += self.body(r.randrange(0, 2))
        elif shape == "sync_dependence":
            # One or two merges tested by a later branch, some in a uniform
            # loop (whose next iteration meets the previous one's accesses).
            for _ in range(r.randrange(1, 3)):
                if r.randrange(4) == 0:
                    cur = self.loop(cur, 0, False, kind=r.choice(UNIFORM_LOOP), hoist=False,
                                    body=self.sync_dep)
                else:
                    cur = self.sync_dep(cur, 0, False)
                cur.lines += self.body(r.randrange(0, 2))
        elif shape in ("vcc_lane", "exec_cmp"):
            if r.randrange(3) == 0 and shape == "vcc_lane":
                cur = self.loop(cur, 0, False, kind="vcc_lane")
            else:
                cur = self.if_(cur, 0, False, kind=shape)
        elif shape == "early_exit":
            # if (t < k) { ... } and the end: the waves that skip the region
            # end with nothing pending, so it is not divergent (its own
            # branches may be): barriers, the input's too, may go there. In
            # divergent mode the input has none there: a uniform loop branch
            # may be judged per-wave (inline asm clobbers its counter).
            cur = self.if_(cur, 0, False, kind=r.choice(DIVERGENT_IF),
                           then=lambda b, depth, div: self.region(
                               b, depth, self.mode == "divergent"))
        else:
            cur = self.region(cur, 0, False)
        if shape != "early_exit":
            cur.lines += self.body(r.randrange(0, 3))
        cur.term.append("S_ENDPGM 0")
        if self.mode == "divergent" and not any(
                k in self.kinds for k in DIVERGENT_IF + tuple("loop_" + k for k in DIVERGENT_LOOP)
                + tuple("sync_" + k for k in SYNC_DIVERGENT)):
            return None
        for i, b in enumerate(self.blocks):
            b.num = i
        out = []
        for b in self.blocks:
            term = []
            for t in b.term:
                term.append(t if isinstance(t, str) else f"{t[0]}{t[1].num}{t[2]}")
            out.append((b.num, [s.num for s in b.succs], b.lines, "\n    ".join(term)))
        return out

    # --- The original shapes ---------------------------------------------

    def classic(self, shape):
        r = self.rng
        # Uniform mode: kernel arguments in callee-saved SGPRs, so that
        # calls in the loops do not make the branches per-wave.
        u0, u1 = ("$sgpr48", "$sgpr49") if self.mode == "uniform" else ("$sgpr0", "$sgpr1")
        pro = ["$sgpr48 = S_MOV_B32 $sgpr0", "$sgpr49 = S_MOV_B32 $sgpr1"] \
            if self.mode == "uniform" else []
        blocks = []  # (label, successors, lines, terminator)
        if shape == "straight":
            blocks.append((0, [], self.body(r.randrange(1, 9)), "S_ENDPGM 0"))
        elif shape in ("diamond", "divergent"):
            if shape == "diamond":
                br = [f"S_CMP_EQ_U32 {u0}, 0, implicit-def $scc",
                      "S_CBRANCH_SCC1 %bb.2, implicit $scc"]
            else:
                br = ["$sgpr2_sgpr3 = S_AND_SAVEEXEC_B64 $sgpr8_sgpr9, implicit-def $exec,"
                      " implicit-def $scc, implicit $exec",
                      "S_CBRANCH_EXECZ %bb.2, implicit $exec"]
            if not self.wave64 and shape == "divergent":
                br[0] = br[0].replace("S_AND_SAVEEXEC_B64", "S_AND_SAVEEXEC_B32") \
                    .replace("$sgpr2_sgpr3", "$sgpr2").replace("$sgpr8_sgpr9", "$sgpr8")
            blocks.append((0, [1, 2], pro + self.body(r.randrange(0, 4)), "\n    ".join(br)))
            blocks.append((1, [2], self.body(r.randrange(0, 4),
                                             self.syncs_in(shape == "divergent")), ""))
            join = "$exec = S_OR_B64 $exec, $sgpr2_sgpr3, implicit-def $scc" \
                if shape == "divergent" and self.wave64 else \
                ("$exec_lo = S_OR_B32 $exec_lo, $sgpr2, implicit-def $scc"
                 if shape == "divergent" else "")
            blocks.append((2, [], ([join] if join else []) + self.body(r.randrange(0, 4)),
                           "S_ENDPGM 0"))
        else:
            latch = [f"{u0} = S_ADD_I32 {u0}, -1, implicit-def $scc",
                     f"S_CMP_LG_U32 {u0}, 0, implicit-def $scc",
                     "S_CBRANCH_SCC1 %bb.1, implicit $scc"]
            blocks.append((0, [1], pro + self.body(r.randrange(0, 3)), ""))
            if shape == "loop":
                blocks.append((1, [1, 2], self.body(r.randrange(1, 6)), "\n    ".join(latch)))
                blocks.append((2, [], self.body(r.randrange(0, 3)), "S_ENDPGM 0"))
            else:
                inner = [f"{u1} = S_ADD_I32 {u1}, -1, implicit-def $scc",
                         f"S_CMP_LG_U32 {u1}, 0, implicit-def $scc",
                         "S_CBRANCH_SCC1 %bb.2, implicit $scc"]
                blocks.append((1, [2], self.body(r.randrange(0, 3)), ""))
                blocks.append((2, [2, 3], self.body(r.randrange(1, 4)), "\n    ".join(inner)))
                blocks.append((3, [1, 4], self.body(r.randrange(0, 3)), "\n    ".join(latch)))
                blocks.append((4, [], [], "S_ENDPGM 0"))
        return blocks

    def function(self, name, dl=None):
        """The MIR of one function; \\p dl: the metadata id of the debug
        location its instructions carry."""
        r = self.rng
        while True:
            shape = self.shape or r.choice(SHAPES[self.mode])
            blocks = self.classic(shape) if shape in OLD_SHAPES else self.structured(shape)
            if blocks:
                break
        out = [f"---\nname: {name}\ntracksRegLiveness: false\nbody: |"]
        for label, succs, lines, term in blocks:
            out.append(f"  bb.{label}:")
            if succs:
                out.append("    successors: " + ", ".join(f"%bb.{s}" for s in succs))
            if label == 0:
                out.append("    liveins: " + LIVEINS)
            instrs = [i for l in lines for i in l.split("\n    ")]
            if term:
                instrs += term.split("\n    ")
            for i in instrs:
                out.append("    " + (with_debug_location(i, dl) if dl is not None else i))
        out.append("...")
        return "\n".join(out)


def with_debug_location(instr, dl):
    """\\p instr with `debug-location !dl` before its memory operands."""
    head, sep, mem = instr.partition(" :: ")
    defs, eq, rest = head.rpartition(" = ")
    has_operands = " " in rest.strip()
    head += (", " if has_operands else " ") + f"debug-location !{dl}"
    return head + sep + mem


class Function:
    def __init__(self, name, index, dbg, text):
        self.name, self.index, self.dbg, self.text = name, index, dbg, text


def generate(gen, first_index, count, debug):
    """\\p count functions; \\p debug: "all", "half" or "none"."""
    fns = []
    for i in range(first_index, first_index + count):
        dbg = debug == "all" or (debug == "half" and gen.rng.randrange(2) == 0)
        name = f"f{i}"
        fns.append(Function(name, i, dbg, gen.function(name, 11 + 2 * i if dbg else None)))
    return fns


def module(fns, attrs=""):
    head = ["--- |",
            "  @a = internal addrspace(3) global [64 x i32] poison, align 4",
            "  @b = internal addrspace(3) global [64 x i32] poison, align 4",
            "  @c = internal addrspace(3) global i32 poison, align 4",
            "  declare void @ext()"]
    for f in fns:
        dbg = f" !dbg !{10 + 2 * f.index}" if f.dbg else ""
        head.append(f"  define amdgpu_kernel void @{f.name}() {attrs}{dbg} {{ ret void }}")
    if any(f.dbg for f in fns):
        head += ["  !llvm.dbg.cu = !{!0}",
                 "  !llvm.module.flags = !{!2}",
                 "  !0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1,"
                 " emissionKind: LineTablesOnly)",
                 f"  !1 = !DIFile(filename: \"{DEBUG_FILE}\", directory: \"/\")",
                 "  !2 = !{i32 2, !\"Debug Info Version\", i32 3}",
                 "  !3 = !DISubroutineType(types: !{})"]
        for f in fns:
            if f.dbg:
                sp, line = 10 + 2 * f.index, f.index + 1
                head.append(f"  !{sp} = distinct !DISubprogram(name: \"{f.name}\", scope: !1,"
                            f" file: !1, line: {line}, type: !3, spFlags: DISPFlagDefinition,"
                            " unit: !0)")
                head.append(f"  !{sp + 1} = !DILocation(line: {line}, column: 1, scope: !{sp})")
    head.append("...")
    return "\n".join(head) + "\n" + "\n".join(f.text for f in fns) + "\n"


def run(cmd, inp):
    return subprocess.run(cmd, input=inp, capture_output=True, text=True)


def reparsable(text, cpu):
    """llc 22 prints the VCC operand of wave32 VCC branches and e32 compares
    as $vcc_lo, which its MIR parser rejects (llvm/llvm-project#82030):
    spell it $vcc."""
    if cpu.startswith("gfx9"):
        return text
    text = re.sub(r"(S_CBRANCH_VCC[A-Z]* [^\n]*?implicit )\$vcc_lo\b", r"\1$vcc", text)
    return re.sub(r"(V_CMP_[A-Z0-9_]*_e32 [^\n]*?implicit-def )\$vcc_lo\b", r"\1$vcc", text)


DIAG = re.compile(r"^(warning|error): (?:" + re.escape(DEBUG_FILE) + r":(\d+):\d+|[^:]*:\d+:\d+): ")


def diagnostics(stderr):
    """(severity, function index or None, message) of each diagnostic."""
    out = []
    for line in stderr.splitlines():
        m = DIAG.match(line)
        if m:
            out.append((m.group(1), int(m.group(2)) - 1 if m.group(2) else None, line))
        elif line.startswith(("warning: ", "error: ")):
            out.append((line.split(":")[0], None, line))
    return out


def verifier_kind(msg):
    if " race on " in msg:
        return "race"
    if ("barrier in control flow" in msg or "signal" in msg or "barrier wait" in msg
            or "pending" in msg):
        return "barrier"
    return "other"  # in-flight asynchronous transfers, "not verified", ...


def check(job):
    """Runs the pass, the second run and the checker on one module."""
    cpu, text, mode, llc, plugin = job
    res = {"problem": None, "uncov": 0, "uncov_fns": set(), "uncov_unknown": 0,
           "pass_other": 0, "ver": 0, "race": 0, "race_fns": set(), "race_unknown": 0,
           "barrier": 0, "ver_other": 0}
    base = [llc, f"-load={plugin}", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}",
            "-x", "mir", "-", "-o", "-"]
    first = run(base + ["-run-pass=amdgpu-lds-barriers", "-verify-machineinstrs"], text)
    if first.returncode != 0 or "internal error" in first.stderr:
        res["problem"] = "first run failed:\n" + first.stderr[-3000:]
        return res
    for sev, fn, msg in diagnostics(first.stderr):
        if "cannot be covered" in msg:
            res["uncov"] += 1
            if fn is None:
                res["uncov_unknown"] += 1
            else:
                res["uncov_fns"].add(fn)
        else:
            res["pass_other"] += 1
    out = reparsable(first.stdout, cpu)
    second = run(base + ["-run-pass=amdgpu-lds-barriers", "-verify-machineinstrs"], out)
    if second.returncode != 0:
        res["problem"] = "second run failed:\n" + second.stderr[-3000:]
        return res
    if second.stdout != first.stdout:
        res["problem"] = "not idempotent: the second run changed the output"
        return res
    ver = run(base[:-2] + ["-o", "/dev/null", "-run-pass=amdgpu-lds-barrier-verify"], out)
    if ver.returncode != 0:
        res["problem"] = "checker run failed:\n" + ver.stderr[-3000:]
        return res
    reports = []
    for sev, fn, msg in diagnostics(ver.stderr):
        res["ver"] += 1
        kind = verifier_kind(msg)
        reports.append(msg)
        if kind == "race":
            res["race"] += 1
            if fn is None:
                res["race_unknown"] += 1
            else:
                res["race_fns"].add(fn)
        elif kind == "barrier":
            res["barrier"] += 1
        else:
            res["ver_other"] += 1
    if mode == "uniform":
        if res["uncov"] or res["ver"]:
            msgs = [m for _, _, m in diagnostics(first.stderr) if "cannot be covered" in m]
            res["problem"] = (f"uniform mode: {res['uncov']} 'cannot be covered' warnings,"
                              f" {res['ver']} checker reports:\n"
                              + "\n".join((msgs + reports)[:20]))
    elif mode == "divergent":
        unwarned = sorted(res["race_fns"] - res["uncov_fns"])
        why = []
        if res["barrier"] or res["ver_other"]:
            why.append(f"{res['barrier']} divergent/unbalanced barrier and"
                       f" {res['ver_other']} other checker reports")
        if unwarned:
            why.append("checker races in functions without a 'cannot be covered' warning: "
                       + ", ".join(f"f{i}" for i in unwarned))
        if res["race_unknown"] and (len(res["race_fns"]) + res["race_unknown"]
                                    > len(res["uncov_fns"]) + res["uncov_unknown"]):
            why.append("more functions with checker races than with warnings")
        if why:
            bad = [m for m in reports if verifier_kind(m) != "race"] + \
                [m for m in reports if any(f"{DEBUG_FILE}:{i + 1}:" in m for i in unwarned)]
            res["problem"] = "divergent mode: " + "; ".join(why) + ":\n" + "\n".join(bad[:20])
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200, help="functions per CPU")
    ap.add_argument("--cpu", default="gfx942,gfx1030,gfx1201,gfx1250")
    ap.add_argument("--mode", choices=["mixed", "uniform", "divergent"], default="mixed")
    ap.add_argument("--shape", choices=sorted(set(OLD_SHAPES + NEW_SHAPES)),
                    help="generate this shape only")
    ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build/lib/AMDGPULDSBarriers.so"))
    ap.add_argument("--out", default="fuzz-failures")
    ap.add_argument("--per-module", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--save-inputs", metavar="DIR",
                    help="write each generated module to DIR (CPU-first-index.mir) and exit"
                         " without running anything")
    ap.add_argument("--no-split", action="store_true",
                    help="do not try the functions of a failing module one by one")
    a = ap.parse_args()
    if a.shape and a.mode == "uniform" and a.shape not in UNIFORM_SHAPES + ("random",):
        ap.error(f"shape {a.shape} has divergent branches")
    if a.shape and a.mode == "divergent" and a.shape not in DIVERGENT_SHAPES + ("random",):
        ap.error(f"shape {a.shape} has no divergent branch")
    debug = "half" if a.mode == "mixed" else "all"
    # A plugin that does not load (missing, being rebuilt) would make every
    # module "fail": stop instead.
    probe = run([a.llc, f"-load={a.plugin}", "-mtriple=amdgcn-amd-amdhsa",
                 "-mcpu=gfx942", "-x", "mir", "-", "-o", "/dev/null",
                 "-run-pass=amdgpu-lds-barriers,amdgpu-lds-barrier-verify"],
                module([]))
    if probe.returncode != 0 or "ignored" in probe.stderr:
        print("cannot run the pass:\n" + probe.stderr, file=sys.stderr)
        return 2

    # Modules are generated here, in order, so that the result does not
    # depend on the number of workers.
    jobs = []
    for cpu in a.cpu.split(","):
        seed = f"{a.seed}-{cpu}" if a.mode == "mixed" else f"{a.seed}-{cpu}-{a.mode}"
        gen = Gen(random.Random(seed), cpu, a.mode, a.shape)
        for m in range(0, a.count, a.per_module):
            fns = generate(gen, m, min(a.per_module, a.count - m), debug)
            jobs.append((cpu, m, fns))

    if a.save_inputs:
        os.makedirs(a.save_inputs, exist_ok=True)
        for cpu, m, fns in jobs:
            with open(os.path.join(a.save_inputs, f"{cpu}-{a.mode}-{m}.mir"), "w") as f:
                f.write(module(fns))
        return 0

    def job_args(cpu, fns):
        return (cpu, module(fns), a.mode, a.llc, a.plugin)

    args = (job_args(cpu, fns) for cpu, m, fns in jobs)
    if a.jobs > 1:
        pool = multiprocessing.Pool(a.jobs)
        results = pool.imap(check, args)
    else:
        pool = None
        results = map(check, args)

    failures = total = 0
    tot = {"uncov": 0, "uncov_fns": 0, "pass_other": 0, "ver": 0, "race": 0, "race_fns": 0,
           "barrier": 0, "ver_other": 0}
    for (cpu, m, fns), res in zip(jobs, results):
        total += len(fns)
        for k in tot:
            v = res[k]
            tot[k] += len(v) if isinstance(v, set) else v
        tot["uncov_fns"] += res["uncov_unknown"]
        tot["race_fns"] += res["race_unknown"]
        problem = res["problem"]
        if not problem:
            continue
        failures += 1
        os.makedirs(a.out, exist_ok=True)
        stem = f"{cpu}-{a.mode}-seed{a.seed}-{m}"
        path = os.path.join(a.out, stem + ".mir")
        with open(path, "w") as f:
            f.write(module(fns))
        print(f"FAIL {cpu} module {m}: {problem.splitlines()[0]} -> {path}")
        print(problem)
        if a.no_split or len(fns) == 1:
            continue
        for fn in fns:
            one = check(job_args(cpu, [fn]))
            if one["problem"]:
                p = os.path.join(a.out, f"{stem}-{fn.name}.mir")
                with open(p, "w") as f:
                    f.write(module([fn]))
                with open(p[:-4] + ".txt", "w") as f:
                    f.write(one["problem"] + "\n")
                print(f"  alone, {fn.name} fails: {one['problem'].splitlines()[0]} -> {p}")
    if pool:
        pool.close()
        pool.join()
    print(f"{a.mode}-mode warnings: {tot['uncov']}, verifier reports: {tot['ver']};"
          f" functions with warnings: {tot['uncov_fns']},"
          f" with verifier races: {tot['race_fns']} ({tot['race']} races),"
          f" divergent/unbalanced barrier reports: {tot['barrier']},"
          f" other verifier reports: {tot['ver_other']},"
          f" other pass warnings: {tot['pass_other']}")
    print(f"{total} functions, {failures} failing modules")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
