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

--mode chooses which of them appear:
  mixed      everything (the default);
  uniform    no lane-dependent branch at all: SCC branches on kernel
             arguments and counters and uniform VCC branches only;
  divergent  every function has at least one divergent branch; no
             existing barrier inside divergent control flow.

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

OLD_SHAPES = ("straight", "diamond", "divergent", "loop", "nested")
NEW_SHAPES = ("hoisted", "vcc_uniform", "div_loop", "vcc_lane", "exec_cmp", "random",
              "if_else")
SHAPES = {
    "mixed": OLD_SHAPES + NEW_SHAPES,
    "uniform": ("straight", "diamond", "loop", "nested", "hoisted", "vcc_uniform",
                "random", "random", "if_else"),
    "divergent": ("divergent", "div_loop", "div_loop", "vcc_lane", "exec_cmp", "random",
                  "random", "random"),
}
UNIFORM_SHAPES = ("straight", "diamond", "loop", "nested", "hoisted", "vcc_uniform",
                  "if_else")
DIVERGENT_SHAPES = ("divergent", "div_loop", "vcc_lane", "exec_cmp")

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
        elif shape in ("vcc_lane", "exec_cmp"):
            if r.randrange(3) == 0 and shape == "vcc_lane":
                cur = self.loop(cur, 0, False, kind="vcc_lane")
            else:
                cur = self.if_(cur, 0, False, kind=shape)
        else:
            cur = self.region(cur, 0, False)
        cur.lines += self.body(r.randrange(0, 3))
        cur.term.append("S_ENDPGM 0")
        if self.mode == "divergent" and not any(
                k in self.kinds for k in DIVERGENT_IF + tuple("loop_" + k for k in DIVERGENT_LOOP)):
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
    """llc 22 prints the VCC operand of wave32 VCC branches as $vcc_lo, which
    its MIR parser rejects (llvm/llvm-project#82030): spell it $vcc."""
    if cpu.startswith("gfx9"):
        return text
    return re.sub(r"(S_CBRANCH_VCC[A-Z]* [^\n]*?implicit )\$vcc_lo\b", r"\1$vcc", text)


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
