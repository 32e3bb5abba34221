#!/usr/bin/env python3
"""Executable race oracle for AMDGPU machine IR (independent of the pass).

This interprets final post-RA MIR -- the output of
``llc -run-pass=amdgpu-lds-barriers``, or of a full compile with
``-amdgpu-lds-barriers-in-pipeline -stop-after=si-insert-waitcnts`` -- over every
work-item of one small workgroup and reports what really happens in LDS:
cross-wave data races, barrier mismatches ("hangs") and loops that do not
finish ("step limit"). It shares no code and no access model with the pass
(no LLVM library is used): the instruction semantics are written here from
the ISA, in Python 3 with the standard library only.

Machine model
-------------
* One workgroup of ``--items`` work-items (default 96 on wave64 targets: a
  full and a partial wave; 112 on wave32 targets: three full waves and a
  partial one, so that EXEC-based and per-wave branches differ between
  waves), or ``--dims X,Y,Z``; clipped to ``amdgpu-flat-work-group-size``.
  Wave size from the target (gfx9: 64, gfx10+: 32, 64 with the
  ``+wavefrontsize64`` feature; ``--wave`` overrides).
* Per wave: SGPRs, per-lane VGPRs/AGPRs, VCC, SCC, EXEC, M0. On kernel
  entry the work-item ids are in ``$vgpr0`` (packed x | y << 10 | z << 20 on
  gfx90a/gfx94x/gfx950/gfx11+, otherwise x, y, z in v0, v1, v2), EXEC holds
  the wave's live lanes, M0 is 0. Other live-in SGPRs are kernel arguments:
  pseudo-random but the same in every wave (argument set 0: every argument
  1; set 1: 1-3; further sets: a mix of small values, 40, and 64-bit lane
  masks); other live-in VGPRs are pseudo-random per lane. Registers read
  before any definition read 0. Scalar loads return values drawn like the
  kernel arguments from their address (the same in every wave).
* Interpreted exactly: the scalar and vector integer operations that
  compiled kernels and the project's fuzzer use (moves, add/sub with
  carries, bitwise, shifts, compares (V_CMP e32 -> VCC, e64 -> sdst, inactive
  lanes 0; V_CMPX -> EXEC), selects, S_*_SAVEEXEC, readfirstlane, readlane,
  VOPD pairs (V_DUAL_*, each half as on its own), gfx12's S_ADD_U64,
  writelane, mbcnt, bfe, mad24, ...), branches, S_ENDPGM, waits, barriers,
  LDS operations, and ``INLINEASM`` whose text is only ``s_nop``. Any other
  instruction that defines registers is an uninterpreted pure function of
  its operand values: its results are a hash of its opcode and inputs, per
  lane for vector instructions (lane masks for their scalar results), so a
  value computed from workgroup-uniform inputs stays uniform; per-wave
  sources (S_GETREG, S_MEMTIME) also hash the wave id, except gfx1250's
  cluster status (S_GETREG_B32 hwreg(HW_REG_IB_STS2, 6, 4)). TTMP registers
  hold per-wave values, except that gfx12 and later launch every wave of a
  workgroup with its ids in TTMP9 (x) and TTMP7 (y | z << 16) and, on
  gfx1250, its place in its cluster in TTMP6.
  Vector loads are hashes of their per-lane address.
* Unsupported (the run stops; the function is "unsupported" when no run
  completes; counted separately): calls (unless ``--calls opaque``: the
  callee reads and writes every declared LDS byte, completes only at
  lgkmcnt(0)/dscnt(0), executes no barrier and clobbers caller-saved
  registers with per-wave values), other inline assembly, LDS operations
  and barrier or control-flow forms not listed below (named barriers,
  ``*_M0`` forms, GDS/GWS, DS_APPEND/CONSUME, LDS_DIRECT/PARAM loads,
  gfx1250 async and tensor transfers, BUFFER_STORE_LDS), FLAT atomics and
  D16 forms whose address falls in the LDS aperture, FLAT accesses with
  lanes both in and out of it, 16-bit register halves, S_SETPC /
  S_SWAPPC, instructions that write EXEC without known semantics, and
  functions that are not kernels.

LDS
---
* DS reads, writes (B8...B128, D16, READ2/WRITE2[ST64]) and atomics (with or
  without return), per active lane, at the VGPR address plus the offset
  field(s). ``--addr memop`` (the default): an access whose LDS memoperand
  names an LDS global at a constant offset happens at that location for
  every lane (the memoperand is a promise of the input; the fuzzer's
  register addresses do not match its memoperands); globals are laid out
  as the backend does (``absolute_symbol`` respected, otherwise in
  declaration order). Other accesses use their registers, except that with
  ``--relocate-unknown on`` (the default of ``--fuzz``) an access without
  LDS memoperand -- "may touch anything" -- is put on the k-th LDS global
  (plus its offset field) in argument set k, and at its register address in
  the last set. ``--addr reg``: registers only.
* LDS DMA (``GLOBAL_LOAD_LDS_*``, ``BUFFER_LOAD_*_LDS*``,
  ``SCRATCH_LOAD_LDS_*``; gfx9/gfx10): lane l writes ``width`` bytes at
  M0 + instruction offset + l * width (memop mode: from the memoperand's
  object). Asynchronous: its data lands at the latest at the wait that
  completes it (schedules "late"), or immediately ("early").
* FLAT loads and stores whose active lanes all address the LDS aperture
  (high half ``src_shared_base``) read or write LDS at the low half, out of
  order (a wait for zero completes them).
* Completion: every LDS access is *pending* until a wait covers it, counted
  in issue order. A DS operation completes at ``lgkmcnt(N)`` (gfx9-11,
  S_WAITCNT's simm16 decoded per generation: gfx9 lgkmcnt [11:8], gfx10
  [13:8], gfx11 [9:4]; also S_WAITCNT_LGKMCNT) or ``S_WAIT_DSCNT N`` /
  ``S_WAIT_LOADCNT_DSCNT`` / ``S_WAIT_STORECNT_DSCNT`` (gfx12) when at least
  N later DS operations of its wave were issued; a DMA at ``vmcnt(N)``
  (gfx9/10 [3:0]|[15:14]<<4, gfx11 [15:10]) / ``S_WAIT_LOADCNT N`` when at
  least N later vector-memory loads (GLOBAL/BUFFER/SCRATCH loads and DMA,
  not FLAT, not stores; none issued with EXEC = 0) were issued. Soft waits
  (``*_soft``, ``S_WAITCNT_lds_direct``) are ignored (``--soft-waits
  honor`` to count them): the backend may delete them. A barrier waits for
  nothing.

Barriers and happens-before
---------------------------
* ``S_BARRIER`` (gfx9-11) is a signal and a wait; gfx12's
  ``S_BARRIER_SIGNAL_IMM -1`` / ``S_BARRIER_SIGNAL_ISFIRST_IMM -1`` signal,
  ``S_BARRIER_WAIT -1`` blocks until every wave that has not ended has
  signalled as often as this wait's number: waves that have ended do not
  hold a barrier up (the ISA references: Vega and CDNA4 S_BARRIER "waits on
  only the surviving waves", RDNA3 and RDNA4 "waves that have ended do not
  prevent barriers from being satisfied"; docs/Design.rst, "Early exit").
  ``--ended-waves hang`` reads it strictly instead: a wave ending while
  another passes a barrier it did not reach, or waves ending with different
  barrier counts, is a hang. Reported as a "hang": a split wait without its
  signal, a second signal before the wait, a signal pending at S_ENDPGM, a
  deadlock (and the above when strict). Reported as a
  "divergent barrier": one barrier number reached at different barrier
  instructions in different waves (seen even when a run stops early).
* Access a of wave w happens before access b of another wave v iff a
  completed before w's signal number k and v issued b after its wait
  number k: with c(a) = w's signals when a completed (never, if no wait
  covered it) and i(b) = v's waits when b was issued, iff c(a) < i(b). Two
  accesses of different waves to one byte race when the earlier one in the
  schedule is not ordered before the later one and at least one writes;
  atomics write, except that two of the same commutative operation (add,
  sub, min, max, and, or, xor, float/packed add; same type) do not conflict.
  Kinds: RAW (the later one reads), WAR (the earlier one only read), WAW
  (both plain writes); SELF: a wave touching bytes of its own in-flight
  asynchronous write; SAME-<kind>: the same dynamic instance of one
  instruction in two waves (as many barriers signalled before it, and as
  many executions of it since the last) -- no barrier can order that, so
  callers keep it apart. Shadow memory keeps, per byte, wave and
  (kind, operation, counter), the latest access: completion is monotone in
  issue order per counter, so no race is lost.

Schedules
---------
Per kernel-argument set (``--args``): round-robin (one instruction per
wave), each wave as far as it can go in both wave orders, DMA landing late
and early, and ``--seeds`` random schedules. ``--schedules auto`` (the
default of ``--fuzz``) runs the extra schedules only when the first run was
value-dependent: a branch condition, EXEC value, LDS address or M0 computed
from data read from LDS (taint tracking); otherwise every schedule follows
the same per-wave paths and phases, on which alone the race verdict
depends. Loops are bounded by ``--step-limit`` instructions per wave.

Not covered: floating-point semantics (hashed), global memory ordering,
GDS/GWS, scratch, traps, the real timing of LDS operations (only the latest
legal completion is modelled, which is what races depend on), hardware that
waits at barriers by itself (older gfx9 parts), more than one workgroup.

Usage
-----
  mir_exec.py [--cpu gfx942] [--items 96] [--seeds K] file.mir
      per function: executed/unsupported, races (kind, the two instruction
      lines, bytes, waves, schedule), hangs; exit status 1 on a race or hang.
  mir_exec.py --fuzz N [--cpu gfx942,gfx1030,gfx1201] [--plugin P]
              [--baseline-plugin Q] [--mode mixed|uniform|divergent]
      generates N functions per target with utils/fuzz/mir_fuzz.py's Gen
      (debug locations on every function), runs the pass of each plugin on
      them (llc -run-pass=amdgpu-lds-barriers), the oracle on the results,
      and prints per plugin and target: functions executed, unsupported,
      races by kind outside the functions in which the pass reported a
      window as uncoverable ("cannot be covered" warnings; those are counted
      apart, as are SAME and WAW-async), hangs, and hangs or divergent
      barriers that the input already had (checked with calls opaque).
      Exit status 1 if the first plugin leaves a RAW/WAR/WAW/SELF race, a
      hang or a divergent barrier, or fails.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import zlib

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ---------------------------------------------------------------------------
# Hashing (deterministic pseudo-random values)
# ---------------------------------------------------------------------------


def sid(s):
    """A stable integer for a string (Python's str hash is salted)."""
    return zlib.crc32(s.encode())


def mix(*xs):
    h = hash(xs) & M64
    h = (h * 0x9E3779B97F4A7C15) & M64
    h ^= h >> 29
    h = (h * 0xBF58476D1CE4E5B9) & M64
    return (h >> 16) & M32


def s32(x):
    x &= M32
    return x - (1 << 32) if x & 0x80000000 else x


def s64(x):
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def popcount(x):
    return bin(x).count("1")


# ---------------------------------------------------------------------------
# Target facts
# ---------------------------------------------------------------------------


class Target:
    def __init__(self, cpu, wave=None):
        self.cpu = cpu
        m = re.match(r"gfx(\d+)", cpu)
        if not m:
            raise SystemExit(f"unknown cpu {cpu}")
        digits = m.group(1)
        self.major = int(digits[:2]) if len(digits) >= 4 else int(digits[0])
        self.wave = wave or (64 if self.major <= 9 else 32)
        self.split = self.major >= 12
        self.gfx1250 = cpu == "gfx1250"
        self.dma = self.major in (9, 10)
        # Work-item ids packed into $vgpr0 (x | y << 10 | z << 20) or in
        # $vgpr0, $vgpr1, $vgpr2.
        self.packed_tid = self.major >= 11 or cpu in ("gfx90a", "gfx940", "gfx941", "gfx942",
                                                       "gfx950")

    def ttmp_at_launch(self, unit, wave):
        """A TTMP register as a wave finds it at launch. gfx12 and later
        (architected SGPRs) put the workgroup ids there: TTMP9 = x, TTMP7 =
        y | z << 16 (one workgroup, here the last of a row: x = 3, y = z =
        0), and gfx1250 the workgroup's place in its cluster in TTMP6; the
        same in every wave. The others, and all of them before gfx12 (the
        trap handler's), differ between waves."""
        if self.major >= 12 and (unit in ("ttmp9", "ttmp7") or
                                 (self.gfx1250 and unit == "ttmp6")):
            return 3 if unit == "ttmp9" else 0
        return mix(sid(unit), wave) & M32

    def waitcnt(self, x):
        """(vmcnt, lgkmcnt) of an S_WAITCNT simm16."""
        if self.major >= 11:
            return (x >> 10) & 0x3F, (x >> 4) & 0x3F
        vm = (x & 0xF) | (((x >> 14) & 3) << 4)
        lgkm = (x >> 8) & (0x3F if self.major >= 10 else 0xF)
        return vm, lgkm


# ---------------------------------------------------------------------------
# MIR parsing
# ---------------------------------------------------------------------------


class Unsupported(Exception):
    pass


class StepLimit(Exception):
    pass


class Hang(Exception):
    pass


def split_top(s, sep=","):
    """Splits \\p s at \\p sep outside quotes and brackets."""
    parts, cur, depth, inq, i = [], [], 0, False, 0
    n = len(s)
    while i < n:
        c = s[i]
        if inq:
            cur.append(c)
            if c == "\\" and i + 1 < n:
                cur.append(s[i + 1])
                i += 2
                continue
            if c == '"':
                inq = False
        elif c == '"':
            inq = True
            cur.append(c)
        elif c in "([{<":
            depth += 1
            cur.append(c)
        elif c in ")]}>":
            depth -= 1
            cur.append(c)
        elif c == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    last = "".join(cur).strip()
    if last or parts:
        parts.append(last)
    return parts


def find_top(s, needle):
    """Index of \\p needle in \\p s outside quotes and brackets, or -1."""
    depth, inq, i, n, k = 0, False, 0, len(s), len(needle)
    while i < n:
        c = s[i]
        if inq:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                inq = False
        elif c == '"':
            inq = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and s.startswith(needle, i):
            return i
        i += 1
    return -1


REG_FLAGS = {"implicit", "implicit-def", "def", "killed", "dead", "undef", "internal",
             "renamable", "early-clobber", "debug-use"}
INSTR_FLAGS = {"frame-setup", "frame-destroy", "nnan", "ninf", "nsz", "arcp", "contract",
               "afn", "reassoc", "nuw", "nsw", "exact", "nofpexcept", "nomerge",
               "unpredictable", "noconvergent", "nusw", "disjoint", "nneg", "samesign",
               "inbounds"}
DROP_OPERANDS = ("debug-location", "pcsections", "mmra", "heap-alloc-marker",
                 "pre-instr-symbol", "post-instr-symbol", "cfi-type", "debug-instr-number")

_TUPLE = re.compile(r"^(sgpr|vgpr|agpr|ttmp)(\d+)((?:_(?:sgpr|vgpr|agpr|ttmp)\d+)*)$")


def reg_units(name):
    """32-bit units of a physical register name (without '$')."""
    if name.endswith(("_lo16", "_hi16")):
        raise Unsupported(f"16-bit register half ${name}")
    m = _TUPLE.match(name)
    if m:
        return tuple(name.split("_"))
    if name in ("vcc", "exec", "flat_scr", "xnack_mask", "tba", "tma"):
        return (name + "_lo", name + "_hi")
    if name == "sgpr_null64":
        return ("sgpr_null", "sgpr_null")
    return (name,)


def is_vector_unit(u):
    return u.startswith(("vgpr", "agpr"))


class Op:
    __slots__ = ("kind", "units", "val", "implicit", "isdef", "vec", "text")

    def __init__(self, kind, text, units=(), val=None, implicit=False, isdef=False):
        self.kind, self.text, self.units, self.val = kind, text, units, val
        self.implicit, self.isdef = implicit, isdef
        self.vec = bool(units) and is_vector_unit(units[0])


def parse_operand(t, defpos):
    flags = set()
    while True:
        head, _, rest = t.partition(" ")
        if head in REG_FLAGS and rest:
            flags.add(head)
            t = rest.strip()
        else:
            break
    t = re.sub(r"\(tied-def \d+\)$", "", t).strip()
    implicit = "implicit" in flags or "implicit-def" in flags
    isdef = defpos or "implicit-def" in flags or "def" in flags
    if t.startswith("$"):
        name = t[1:]
        if name == "noreg":
            return Op("other", t, implicit=implicit, isdef=isdef)
        return Op("reg", t, units=reg_units(name), implicit=implicit, isdef=isdef)
    m = re.fullmatch(r"(?:i\d+ )?(-?\d+)", t)
    if m:
        return Op("imm", t, val=int(m.group(1)))
    m = re.fullmatch(r"%bb\.(\d+)", t)
    if m:
        return Op("bb", t, val=int(m.group(1)))
    return Op("other", t)


class MemOp:
    __slots__ = ("load", "store", "size", "space", "obj", "off", "text")

    def __init__(self, text):
        self.text = text
        parts = split_top(text)
        first = parts[0] if parts else ""
        self.load = bool(re.search(r"\bload\b", first))
        self.store = bool(re.search(r"\bstore\b", first))
        m = re.search(r"\((<(\d+) x [sp](\d+)>|[sp](\d+))\)", first)
        self.size = None
        if m:
            if m.group(2):
                self.size = int(m.group(2)) * int(m.group(3)) // 8
            else:
                self.size = int(m.group(4)) // 8
        self.space = 0
        for p in parts[1:]:
            m2 = re.fullmatch(r"addrspace (\d+)", p)
            if m2:
                self.space = int(m2.group(1))
        self.obj, self.off = None, None
        m = re.search(r"\b(?:from|into|on) (@[\w.$-]+|@\"[^\"]*\")(?: ([+-]) (\d+))?\s*$", first)
        if m:
            self.obj = m.group(1)[1:].strip('"')
            self.off = int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)


class Instr:
    __slots__ = ("line", "text", "opcode", "base", "defs", "uses", "idefs", "iuses", "others",
                 "memops", "fn", "info", "useunits", "defunits", "blk")

    def __init__(self, line, text):
        self.line, self.text = line, text
        body, memtext = text, ""
        k = find_top(text, " :: ")
        if k >= 0:
            body, memtext = text[:k], text[k + 4:]
        self.memops = []
        if memtext:
            for g in split_top(memtext):
                g = g.strip()
                if g.startswith("(") and g.endswith(")"):
                    self.memops.append(MemOp(g[1:-1]))
        k = find_top(body, " = ")
        defs_text = ""
        if k >= 0 and not body[:k].strip().startswith(("INLINEASM", "INLINEASM_BR")):
            defs_text, body = body[:k], body[k + 3:]
        toks = body.strip().split(None, 1)
        while toks and toks[0] in INSTR_FLAGS:
            toks = toks[1].split(None, 1) if len(toks) > 1 else []
        if not toks:
            raise ValueError("empty instruction: " + text)
        self.opcode = toks[0]
        self.base = normalize(self.opcode)
        rest = toks[1] if len(toks) > 1 else ""
        self.defs = [parse_operand(d.strip(), True) for d in split_top(defs_text)] if defs_text else []
        self.uses, self.idefs, self.iuses, self.others = [], [], [], []
        for t in split_top(rest) if rest else []:
            if not t or t.startswith(DROP_OPERANDS):
                continue
            o = parse_operand(t, False)
            if o.implicit:
                (self.idefs if o.isdef else self.iuses).append(o)
            elif o.kind == "reg" and o.isdef:
                self.defs.append(o)
            else:
                self.uses.append(o)
                if o.kind == "other":
                    self.others.append(o)
        self.useunits = frozenset(u for o in self.uses + self.iuses if o.kind == "reg"
                                  for u in o.units)
        self.defunits = frozenset(u for o in self.defs + self.idefs if o.kind == "reg"
                                  for u in o.units)
        self.fn = None
        self.info = None


_SUFFIX = re.compile(r"_(gfx\d+|vi|si|ci|e32|e64|sdwa|dpp|dpp8|term|fake16|t16|e64_dpp|nosdst|"
                     r"gfx9_gfx10|gfx10_gfx11|gfx11_gfx12|gfx6_gfx7|agpr|saddr_e64)$")


def normalize(op):
    while True:
        n = _SUFFIX.sub("", op)
        if n == op:
            return n
        op = n


class Block:
    __slots__ = ("num", "instrs", "index")

    def __init__(self, num):
        self.num, self.instrs, self.index = num, [], None


class Function:
    def __init__(self, name, blocks, liveins, first_line):
        self.name, self.blocks, self.liveins, self.first_line = name, blocks, liveins, first_line
        self.by_num = {b.num: i for i, b in enumerate(blocks)}
        self.kernel = True
        self.flat_max = None
        self.kernarg = None     # the kernarg segment pointer's live-in pair
        self.sizes_at = None    # its offset of the workgroup sizes
        self.wave64 = False


class Module:
    def __init__(self):
        self.functions = []
        self.globals = {}     # name -> (base, size)
        self.kernels = None   # None: no IR, every function is taken as a kernel
        self.fn_attrs = {}    # name -> attribute text


def ir_type_size(t, named, depth=0):
    """(size, align) of a simple LLVM IR type, or None."""
    t = t.strip()
    if depth > 20:
        return None
    m = re.fullmatch(r"i(\d+)", t)
    if m:
        b = max(1, (int(m.group(1)) + 7) // 8)
        s = 1 << (b - 1).bit_length()
        return s, min(s, 8)
    simple = {"half": (2, 2), "bfloat": (2, 2), "float": (4, 4), "double": (8, 8)}
    if t in simple:
        return simple[t]
    if t.startswith("ptr"):
        m = re.search(r"addrspace\((\d+)\)", t)
        sp = int(m.group(1)) if m else 0
        return (4, 4) if sp in (2, 3, 5, 6) else (8, 8)
    m = re.fullmatch(r"\[(\d+) x (.+)\]", t)
    if m:
        e = ir_type_size(m.group(2), named, depth + 1)
        return (int(m.group(1)) * e[0], e[1]) if e else None
    m = re.fullmatch(r"<(\d+) x (.+)>", t)
    if m:
        e = ir_type_size(m.group(2), named, depth + 1)
        if not e:
            return None
        s = int(m.group(1)) * e[0]
        a = 1 << (s - 1).bit_length() if s else 1
        return s, min(a, 16)
    packed = t.startswith("<{")
    if t.startswith("{") or packed:
        inner = t[2:-2] if packed else t[1:-1]
        off, al = 0, 1
        for f in split_top(inner):
            if not f:
                continue
            e = ir_type_size(f, named, depth + 1)
            if not e:
                return None
            a = 1 if packed else e[1]
            off = (off + a - 1) // a * a + e[0]
            al = max(al, a)
        return (off + al - 1) // al * al, al
    if t.startswith("%") and t in named:
        return ir_type_size(named[t], named, depth + 1)
    return None


def parse_ir(text, mod):
    named = {}
    for m in re.finditer(r"^\s*(%[\w.$\"-]+) = type (.+)$", text, re.M):
        named[m.group(1)] = m.group(2).strip()
    meta = {}
    for m in re.finditer(r"^\s*!(\d+) = !\{i(?:32|64) (-?\d+), i(?:32|64) (-?\d+)\}", text, re.M):
        meta[m.group(1)] = int(m.group(2))
    attrs = {}
    for m in re.finditer(r"^\s*attributes #(\d+) = \{(.*)\}", text, re.M):
        attrs[m.group(1)] = m.group(2)
    fixed, order = [], []
    for m in re.finditer(r"^\s*@([\w.$-]+|\"[^\"]+\") = ([^\n]*?)addrspace\(3\) global (.*)$",
                         text, re.M):
        name = m.group(1).strip('"')
        rest = m.group(3)
        # The type runs up to the initializer or the first ", align".
        ty = rest
        for stop in (" poison", " undef", " zeroinitializer", ", align", ", !", " #"):
            k = find_top(ty, stop)
            if k >= 0:
                ty = ty[:k]
        sa = ir_type_size(ty, named) or (0, 4)
        am = re.search(r", align (\d+)", rest)
        align = int(am.group(1)) if am else max(sa[1], 1)
        ab = re.search(r"!absolute_symbol !(\d+)", rest)
        if ab and ab.group(1) in meta:
            fixed.append((name, meta[ab.group(1)], sa[0]))
        else:
            order.append((name, sa[0], align))
    end = 0
    for name, base, size in fixed:
        mod.globals[name] = (base, size)
        end = max(end, base + size)
    for name, size, align in order:
        base = (end + align - 1) // align * align
        mod.globals[name] = (base, size)
        end = base + max(size, 1)
    mod.kernels = set()
    for m in re.finditer(r"^\s*define\s+([^@]*)@([\w.$-]+|\"[^\"]+\")\(([^)]*)\)(.*)$", text, re.M):
        name = m.group(2).strip('"')
        if "amdgpu_kernel" in m.group(1) or "spir_kernel" in m.group(1):
            mod.kernels.add(name)
        txt = m.group(4)
        for ref in re.findall(r"#(\d+)", txt):
            txt += " " + attrs.get(ref, "")
        mod.fn_attrs[name] = txt


def parse_module(text):
    """Parses MIR text (one or more YAML documents)."""
    mod = Module()
    lines = text.split("\n")
    docs, cur, start = [], None, 0
    for i, l in enumerate(lines):
        if l.startswith("---"):
            if cur is not None:
                docs.append((start, cur))
            cur, start = [l], i
        elif l.startswith("...") and cur is not None:
            docs.append((start, cur))
            cur = None
        elif cur is not None:
            cur.append(l)
    if cur is not None:
        docs.append((start, cur))
    for start, d in docs:
        if d[0].strip() == "--- |":
            parse_ir("\n".join(d[1:]), mod)
            continue
        fn = parse_function(start, d)
        if fn:
            mod.functions.append(fn)
    for fn in mod.functions:
        if mod.kernels is not None and fn.name not in mod.kernels:
            fn.kernel = False
        a = mod.fn_attrs.get(fn.name, "")
        m = re.search(r'"amdgpu-flat-work-group-size"="(\d+),(\d+)"', a)
        if m:
            fn.flat_max = int(m.group(2))
        fn.wave64 = "+wavefrontsize64" in a
    return mod


def parse_function(start, d):
    name, body_at = None, None
    kernarg, explicit = None, None
    for i, l in enumerate(d):
        m = re.match(r"^name:\s+'?\"?([^'\"\s]+)", l)
        if m and name is None:
            name = m.group(1)
        m = re.search(r"kernargSegmentPtr:\s*\{\s*reg:\s*'\$(\w+)'", l)
        if m:
            kernarg = m.group(1)
        m = re.match(r"^\s*explicitKernArgSize:\s*(\d+)", l)
        if m:
            explicit = int(m.group(1))
        if re.match(r"^body:\s*\|", l):
            body_at = i + 1
            break
    if name is None or body_at is None:
        return None
    blocks, liveins, cur = [], [], None
    for j in range(body_at, len(d)):
        raw = d[j]
        l = raw.strip()
        if not l or l.startswith(";") or l in ("{", "}"):
            continue
        if not raw.startswith(" ") and l:
            break
        m = re.match(r"^bb\.(\d+)(?:\.[^\s:(]+)?(?:\s*\([^)]*\))?:", l)
        if m:
            cur = Block(int(m.group(1)))
            blocks.append(cur)
            continue
        if l.startswith("successors:"):
            continue
        if l.startswith("liveins:"):
            if len(blocks) == 1:
                for t in split_top(l[len("liveins:"):]):
                    t = t.strip()
                    if t.startswith("$"):
                        liveins.append(t[1:])
            continue
        if cur is None:
            continue
        if l.endswith("{"):
            l = l[:-1].rstrip()
            if l.startswith("BUNDLE"):
                continue
        if l.startswith("BUNDLE"):
            continue
        cur.instrs.append(Instr(start + j + 1, l))
    for i, b in enumerate(blocks):
        b.index = i
    fn = Function(name, blocks, liveins, start + 1)
    if kernarg is not None and explicit is not None:
        # Code object v5: the hidden arguments follow the explicit ones at
        # an 8-byte boundary; the workgroup sizes are 16-bit at +12.
        fn.kernarg = kernarg
        fn.sizes_at = (explicit + 7) // 8 * 8 + 12
    return fn


# ---------------------------------------------------------------------------
# Execution state
# ---------------------------------------------------------------------------

RUN, BLOCK, END = 0, 1, 2
APERTURE_HI = 0x10000   # high half of the LDS aperture of flat addresses
APERTURES = ("src_shared_base", "src_private_base")
KERNARG_BASE = 0x7FFF00000000  # the kernarg segment pointer: no argument's value
GRID_COUNT = 64                # workgroups in each dimension of the grid


class Acc:
    """One LDS access of one wave (all its bytes)."""
    __slots__ = ("wave", "ins", "kind", "op", "ctr", "issue", "done", "seq", "async_", "data",
                 "phase", "count", "ooo")

    def __init__(self, wave, ins, kind, op, ctr, async_=False):
        self.wave, self.ins, self.kind, self.op, self.ctr = wave.id, ins, kind, op, ctr
        # The dynamic instance: the barriers its wave signalled before, and
        # the how-manieth execution of this instruction since the last one
        # (a wave that skipped the instruction in an earlier iteration of a
        # loop with a barrier in it is still in the same iteration).
        self.phase = wave.signals
        key = (ins, wave.signals)
        self.count = wave.icount[key] = wave.icount.get(key, 0) + 1
        self.issue = wave.waits
        self.done = None
        self.seq = 0
        self.async_ = async_
        self.data = None
        self.ooo = False        # completes only at a wait for zero


class Wave:
    def __init__(self, run, wid, nlanes):
        self.run = run
        self.id = wid
        self.W = run.W
        self.nl = nlanes
        self.sg = {}
        self.vg = {}
        self.bi, self.ii = 0, 0
        self.state = RUN
        self.signals = self.waits = self.need = 0
        self.steps = 0
        self.pend = {"lds": [], "vm": []}
        self.issued = {"lds": 0, "vm": 0}
        self.taint = set()
        self.icount = {}
        self.jump = None
        self.last_barrier = None

    # --- registers ---------------------------------------------------------

    def exec(self):
        sg = self.sg
        if self.W == 64:
            return sg.get("exec_lo", 0) | (sg.get("exec_hi", 0) << 32)
        return sg.get("exec_lo", 0)

    def set_exec(self, v):
        self.sg["exec_lo"] = v & M32
        if self.W == 64:
            self.sg["exec_hi"] = (v >> 32) & M32

    def lanes(self):
        return self.run.lanes_of(self.exec())

    def sread(self, op, bits=32):
        if op.kind == "imm":
            return op.val & (M64 if bits == 64 else M32)
        if op.kind != "reg":
            return mix(sid(op.text)) if op.kind == "other" else 0
        units = op.units
        if units[0] == "scc":
            return self.sg.get("scc", 0)
        if is_vector_unit(units[0]):
            raise Unsupported(f"vector register {op.text} as a scalar operand")
        v = 0
        for i, u in enumerate(units):
            v |= self.sunit(u) << (32 * i)
        if len(units) == 1 and bits == 64:
            # A 64-bit read of an aperture register is the aperture's base
            # address, whose high half a 32-bit read gives.
            v = (v << 32) if units[0] in APERTURES else (v & M32)
        return v

    def sunit(self, u):
        if u == "sgpr_null":
            return 0
        if u.startswith("src_"):
            if u == "src_shared_base":
                return APERTURE_HI
            if u == "src_private_base":
                return APERTURE_HI + 1
            return 0
        if u.startswith("ttmp") and u not in self.sg:
            return self.run.target.ttmp_at_launch(u, self.id)
        return self.sg.get(u, 0)

    def swrite(self, op, v):
        for i, u in enumerate(op.units):
            if u == "sgpr_null" or u.startswith("src_"):
                continue
            self.sg[u] = (v >> (32 * i)) & M32

    def vread(self, op, bits=32):
        """Per-lane values (a list), or an int for a uniform operand."""
        if op.kind != "reg" or not op.vec:
            return self.sread(op, bits)
        W = self.W
        vg = self.vg
        if len(op.units) == 1:
            v = vg.get(op.units[0])
            if v is None:
                return 0
            return v
        parts = [vg.get(u) or [0] * W for u in op.units]
        if len(parts) == 2:
            lo, hi = parts
            return [lo[i] | (hi[i] << 32) for i in range(W)]
        out = [0] * W
        for k, p in enumerate(parts):
            for i in range(W):
                out[i] |= p[i] << (32 * k)
        return out

    def vwrite(self, op, vals, lanes=None, bits=None):
        """Writes per-lane \\p vals (list or int) to the active lanes."""
        if lanes is None:
            lanes = self.lanes()
        W = self.W
        units = op.units
        if not is_vector_unit(units[0]):
            raise Unsupported(f"vector result into {op.text}")
        for k, u in enumerate(units):
            cur = self.vg.get(u)
            if cur is None:
                cur = [0] * W
                self.vg[u] = cur
            sh = 32 * k
            if isinstance(vals, int):
                x = (vals >> sh) & M32
                for i in lanes:
                    cur[i] = x
            else:
                for i in lanes:
                    cur[i] = (vals[i] >> sh) & M32

    def mask_write(self, op, mask):
        """Writes a lane mask to a scalar destination."""
        if self.W == 32 and len(op.units) == 2 and op.units[0] in ("vcc_lo", "exec_lo"):
            self.sg[op.units[0]] = mask & M32
            return
        self.swrite(op, mask)


def as_list(v, W):
    return v if isinstance(v, list) else [v] * W


# ---------------------------------------------------------------------------
# Instruction semantics
# ---------------------------------------------------------------------------

def _shl(a, b, bits=32):
    return (a << (b & (bits - 1))) & (M64 if bits == 64 else M32)


VOP1 = {
    "V_MOV_B32": lambda a: a,
    "V_NOT_B32": lambda a: ~a & M32,
    "V_BFREV_B32": lambda a: int(f"{a & M32:032b}"[::-1], 2),
    "V_FFBL_B32": lambda a: ((a & -a).bit_length() - 1) & M32 if a else M32,
    "V_FFBH_U32": lambda a: (32 - (a & M32).bit_length()) if a else M32,
    "V_CVT_U32_U16": lambda a: a & 0xFFFF,
}
VOP2 = {
    "V_ADD_U32": lambda a, b: (a + b) & M32,
    "V_ADD_NC_U32": lambda a, b: (a + b) & M32,
    "V_SUB_U32": lambda a, b: (a - b) & M32,
    "V_SUB_NC_U32": lambda a, b: (a - b) & M32,
    "V_SUBREV_U32": lambda a, b: (b - a) & M32,
    "V_SUBREV_NC_U32": lambda a, b: (b - a) & M32,
    "V_AND_B32": lambda a, b: a & b,
    "V_OR_B32": lambda a, b: a | b,
    "V_XOR_B32": lambda a, b: a ^ b,
    "V_XNOR_B32": lambda a, b: ~(a ^ b) & M32,
    "V_LSHLREV_B32": lambda a, b: (b << (a & 31)) & M32,
    "V_LSHRREV_B32": lambda a, b: (b & M32) >> (a & 31),
    "V_ASHRREV_I32": lambda a, b: (s32(b) >> (a & 31)) & M32,
    "V_LSHL_B32": lambda a, b: (a << (b & 31)) & M32,
    "V_LSHR_B32": lambda a, b: (a & M32) >> (b & 31),
    "V_ASHR_I32": lambda a, b: (s32(a) >> (b & 31)) & M32,
    "V_MIN_U32": lambda a, b: min(a & M32, b & M32),
    "V_MAX_U32": lambda a, b: max(a & M32, b & M32),
    "V_MIN_I32": lambda a, b: min(s32(a), s32(b)) & M32,
    "V_MAX_I32": lambda a, b: max(s32(a), s32(b)) & M32,
    "V_MUL_LO_U32": lambda a, b: (a * b) & M32,
    "V_MUL_HI_U32": lambda a, b: ((a & M32) * (b & M32)) >> 32,
    "V_MUL_U32_U24": lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) & M32,
    "V_MUL_HI_U32_U24": lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32,
    "V_MUL_I32_I24": lambda a, b: (_sx(a, 24) * _sx(b, 24)) & M32,
    "V_BFM_B32": lambda a, b: (((1 << (a & 31)) - 1) << (b & 31)) & M32,
    "V_BCNT_U32_B32": lambda a, b: (popcount(a & M32) + b) & M32,
}
VOP3 = {
    "V_LSHL_ADD_U32": lambda a, b, c: ((a << (b & 31)) + c) & M32,
    "V_ADD_LSHL_U32": lambda a, b, c: ((a + b) << (c & 31)) & M32,
    "V_LSHL_OR_B32": lambda a, b, c: ((a << (b & 31)) | c) & M32,
    "V_AND_OR_B32": lambda a, b, c: (a & b) | c,
    "V_OR3_B32": lambda a, b, c: a | b | c,
    "V_XOR3_B32": lambda a, b, c: a ^ b ^ c,
    "V_ADD3_U32": lambda a, b, c: (a + b + c) & M32,
    "V_XAD_U32": lambda a, b, c: ((a ^ b) + c) & M32,
    "V_MAD_U32_U24": lambda a, b, c: ((a & 0xFFFFFF) * (b & 0xFFFFFF) + c) & M32,
    "V_MAD_I32_I24": lambda a, b, c: (_sx(a, 24) * _sx(b, 24) + s32(c)) & M32,
    "V_BFE_U32": lambda a, b, c: ((a & M32) >> (b & 31)) & ((1 << (c & 31)) - 1),
    "V_BFE_I32": lambda a, b, c: (_sx((a & M32) >> (b & 31), c & 31) if c & 31 else 0) & M32,
    "V_BFI_B32": lambda a, b, c: ((a & b) | (~a & c)) & M32,
    "V_ALIGNBIT_B32": lambda a, b, c: ((((a & M32) << 32) | (b & M32)) >> (c & 31)) & M32,
    "V_ALIGNBYTE_B32": lambda a, b, c: ((((a & M32) << 32) | (b & M32)) >> (8 * (c & 3))) & M32,
    "V_MIN3_U32": lambda a, b, c: min(a & M32, b & M32, c & M32),
    "V_MAX3_U32": lambda a, b, c: max(a & M32, b & M32, c & M32),
    "V_MIN3_I32": lambda a, b, c: min(s32(a), s32(b), s32(c)) & M32,
    "V_MAX3_I32": lambda a, b, c: max(s32(a), s32(b), s32(c)) & M32,
    "V_MED3_U32": lambda a, b, c: sorted((a & M32, b & M32, c & M32))[1],
    "V_MED3_I32": lambda a, b, c: sorted((s32(a), s32(b), s32(c)))[1] & M32,
    "V_MAD_U32_U16": lambda a, b, c: ((a & 0xFFFF) * (b & 0xFFFF) + c) & M32,
}


def _sx(x, bits):
    if bits <= 0:
        return 0
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


CMP = {
    "F": lambda a, b: False, "T": lambda a, b: True,
    "LT": lambda a, b: a < b, "EQ": lambda a, b: a == b, "LE": lambda a, b: a <= b,
    "GT": lambda a, b: a > b, "NE": lambda a, b: a != b, "LG": lambda a, b: a != b,
    "GE": lambda a, b: a >= b,
}
_VCMP = re.compile(r"^V_CMP(X?)_([A-Z]+)_([IU])(16|32|64)$")
_SCMP = re.compile(r"^S_CMP(K?)_([A-Z]+)_([IU])(32|64)$")


def conv(x, signed, bits):
    x &= (1 << bits) - 1
    if signed and x >> (bits - 1):
        x -= 1 << bits
    return x


def v_operands(ins, n):
    """The first \\p n explicit source operands (registers and immediates)."""
    srcs = [o for o in ins.uses if o.kind in ("reg", "imm")]
    if len(srcs) < n:
        raise Unsupported(f"{ins.opcode}: expected {n} operands")
    return srcs[:n]


def h_vop(fn, n):
    def h(w, ins):
        srcs = v_operands(ins, n)
        vals = [w.vread(o) for o in srcs]
        lanes = w.lanes()
        W = w.W
        if all(isinstance(v, int) for v in vals):
            w.vwrite(ins.defs[0], fn(*[v & M32 for v in vals]), lanes)
            return
        lists = [as_list(v, W) for v in vals]
        out = [0] * W
        if n == 1:
            a = lists[0]
            for i in lanes:
                out[i] = fn(a[i] & M32)
        elif n == 2:
            a, b = lists
            for i in lanes:
                out[i] = fn(a[i] & M32, b[i] & M32)
        else:
            a, b, c = lists
            for i in lanes:
                out[i] = fn(a[i] & M32, b[i] & M32, c[i] & M32)
        w.vwrite(ins.defs[0], out, lanes)
    return h


def mask_dests(ins, W):
    """Scalar destinations of a VALU lane-mask result: explicit SGPR defs and
    implicit defs of VCC / EXEC."""
    out = [o for o in ins.defs if o.kind == "reg" and not o.vec]
    for o in ins.idefs:
        if o.kind == "reg" and o.units[0] in ("vcc_lo", "exec_lo", "vcc", "exec"):
            out.append(o)
    return out


def h_vcmp(m):
    x, op, sg, bits = m.group(1), m.group(2), m.group(3) == "I", int(m.group(4))
    f = CMP.get(op)

    def h(w, ins):
        if f is None:
            raise Unsupported(f"compare {ins.opcode}")
        srcs = v_operands(ins, 2)
        a = w.vread(srcs[0], 64 if bits == 64 else 32)
        b = w.vread(srcs[1], 64 if bits == 64 else 32)
        mask = 0
        W = w.W
        lanes = w.lanes()
        if isinstance(a, int) and isinstance(b, int):
            if f(conv(a, sg, bits), conv(b, sg, bits)):
                for i in lanes:
                    mask |= 1 << i
        else:
            a, b = as_list(a, W), as_list(b, W)
            for i in lanes:
                if f(conv(a[i], sg, bits), conv(b[i], sg, bits)):
                    mask |= 1 << i
        for d in mask_dests(ins, W):
            w.mask_write(d, mask)
        if x:
            w.set_exec(mask)
    return h


def h_cndmask(w, ins):
    srcs = [o for o in ins.uses if o.kind in ("reg", "imm")]
    W = w.W
    if ins.opcode.endswith("_e32") or len(srcs) == 2:
        s0, s1 = srcs[0], srcs[1]
        m0 = s1m = 0
        sel = w.sread(Op("reg", "$vcc", reg_units("vcc"))) if W == 64 else w.sg.get("vcc_lo", 0)
    else:
        if len(srcs) < 5:
            raise Unsupported("V_CNDMASK_B32_e64 operands")
        m0, s0, s1m, s1, selop = srcs[:5]
        m0, s1m = m0.val or 0, s1m.val or 0
        sel = w.sread(selop, 64)
    a = as_list(w.vread(s0), W)
    b = as_list(w.vread(s1), W)
    out = [0] * W
    lanes = w.lanes()

    def mods(x, m):
        if m & 2:
            x &= 0x7FFFFFFF
        if m & 1:
            x ^= 0x80000000
        return x
    for i in lanes:
        out[i] = mods(b[i], s1m) if (sel >> i) & 1 else mods(a[i], m0)
    w.vwrite(ins.defs[0], out, lanes)


def h_carry(kind):
    """V_ADD_CO_U32 / V_SUB_CO_U32 / V_SUBREV_CO_U32 / V_ADDC / V_SUBB / ...:
    a 32-bit result and a carry (borrow) lane mask."""
    def h(w, ins):
        e64 = ins.opcode.endswith("_e64")
        has_cin = kind in ("addc", "subb", "subbrev")
        srcs = v_operands(ins, 3 if (has_cin and e64) else 2)
        W = w.W
        a = as_list(w.vread(srcs[0]), W)
        b = as_list(w.vread(srcs[1]), W)
        if has_cin:
            if e64:
                cin = w.sread(srcs[2], 64)
            else:
                cin = w.exec_vcc()
        else:
            cin = 0
        lanes = w.lanes()
        out = [0] * W
        mask = 0
        for i in lanes:
            c = (cin >> i) & 1
            x, y = a[i] & M32, b[i] & M32
            if kind in ("add", "addc"):
                r = x + y + c
                co = r >> 32
            elif kind in ("sub", "subb"):
                r = x - y - c
                co = 1 if r < 0 else 0
            else:
                r = y - x - c
                co = 1 if r < 0 else 0
            out[i] = r & M32
            mask |= co << i
        vdefs = [o for o in ins.defs if o.vec]
        w.vwrite(vdefs[0], out, lanes)
        sdefs = [o for o in ins.defs if not o.vec] + \
            [o for o in ins.idefs if o.kind == "reg" and o.units[0] in ("vcc_lo",)]
        for d in sdefs:
            w.mask_write(d, mask)
    return h


def _exec_vcc(self):
    if self.W == 64:
        return self.sg.get("vcc_lo", 0) | (self.sg.get("vcc_hi", 0) << 32)
    return self.sg.get("vcc_lo", 0)


Wave.exec_vcc = _exec_vcc


def h_readfirstlane(w, ins):
    src = v_operands(ins, 1)[0]
    v = w.vread(src)
    e = w.exec()
    lane = (e & -e).bit_length() - 1 if e else 0
    w.swrite(ins.defs[0], (v[lane] if isinstance(v, list) else v) & M32)


def h_readlane(w, ins):
    src, sel = v_operands(ins, 2)
    v = w.vread(src)
    lane = w.sread(sel) & (w.W - 1)
    w.swrite(ins.defs[0], (v[lane] if isinstance(v, list) else v) & M32)


def h_writelane(w, ins):
    srcs = v_operands(ins, 3)
    val = w.sread(srcs[0])
    lane = w.sread(srcs[1]) & (w.W - 1)
    old = w.vread(srcs[2])
    W = w.W
    out = list(as_list(old, W))
    out[lane] = val
    w.vwrite(ins.defs[0], out, range(W))


def h_mbcnt(hi):
    def h(w, ins):
        srcs = v_operands(ins, 2)
        m = w.sread(srcs[0]) & M32
        acc = w.vread(srcs[1])
        W = w.W
        acc = as_list(acc, W)
        lanes = w.lanes()
        out = [0] * W
        for i in lanes:
            k = max(0, min(i - 32, 32)) if hi else min(i, 32)
            out[i] = (popcount(m & ((1 << k) - 1)) + acc[i]) & M32
        w.vwrite(ins.defs[0], out, lanes)
    return h


def h_vmov64(w, ins):
    src = v_operands(ins, 1)[0]
    w.vwrite(ins.defs[0], w.vread(src, 64), w.lanes())


def h_vlshl64(kind):
    def h(w, ins):
        srcs = v_operands(ins, 3 if kind == "lshl_add" else 2)
        W = w.W
        lanes = w.lanes()
        if kind == "lshlrev":
            s = as_list(w.vread(srcs[0]), W)
            x = as_list(w.vread(srcs[1], 64), W)
            out = [0] * W
            for i in lanes:
                out[i] = (x[i] << (s[i] & 63)) & M64
        elif kind == "lshrrev":
            s = as_list(w.vread(srcs[0]), W)
            x = as_list(w.vread(srcs[1], 64), W)
            out = [0] * W
            for i in lanes:
                out[i] = (x[i] & M64) >> (s[i] & 63)
        else:
            x = as_list(w.vread(srcs[0], 64), W)
            s = as_list(w.vread(srcs[1]), W)
            c = as_list(w.vread(srcs[2], 64), W)
            out = [0] * W
            for i in lanes:
                out[i] = ((x[i] << (s[i] & 7)) + c[i]) & M64
        w.vwrite(ins.defs[0], out, lanes)
    return h


def h_mad64(signed):
    def h(w, ins):
        srcs = v_operands(ins, 3)
        W = w.W
        a = as_list(w.vread(srcs[0]), W)
        b = as_list(w.vread(srcs[1]), W)
        c = as_list(w.vread(srcs[2], 64), W)
        lanes = w.lanes()
        out = [0] * W
        mask = 0
        for i in lanes:
            if signed:
                r = s32(a[i]) * s32(b[i]) + s64(c[i])
            else:
                r = (a[i] & M32) * (b[i] & M32) + (c[i] & M64)
            out[i] = r & M64
            if r >> 64 or r < 0 and not signed:
                mask |= 1 << i
        vd = [o for o in ins.defs if o.vec]
        w.vwrite(vd[0], out, lanes)
        for d in ins.defs:
            if not d.vec:
                w.mask_write(d, mask)
    return h


# --- SALU ------------------------------------------------------------------

def _salu(bits, fn, scc):
    """fn(a, b) -> result; scc: None (unchanged), 'nz' (result != 0), or a
    function (a, b, result_unmasked) -> 0/1."""
    mask = M64 if bits == 64 else M32

    def h(w, ins):
        srcs = [o for o in ins.uses if o.kind in ("reg", "imm")]
        vals = [w.sread(o, bits) for o in srcs]
        r = fn(*vals)
        rm = r & mask
        if ins.defs:
            w.swrite(ins.defs[0], rm)
        if scc == "nz":
            w.sg["scc"] = 1 if rm else 0
        elif scc is not None:
            w.sg["scc"] = scc(*vals, r) & 1
    return h


def _signed_add_ovf(a, b, r):
    sa, sb, sr = s32(a), s32(b), s32(r)
    return 1 if (sa >= 0) == (sb >= 0) and (sr >= 0) != (sa >= 0) else 0


def _signed_sub_ovf(a, b, r):
    sa, sb, sr = s32(a), s32(b), s32(r)
    return 1 if (sa >= 0) != (sb >= 0) and (sr >= 0) != (sa >= 0) else 0


SALU = {}
for _b in (32, 64):
    _m = M64 if _b == 64 else M32
    _n = f"B{_b}"
    SALU[f"S_MOV_{_n}"] = _salu(_b, lambda a: a, None)
    SALU[f"S_AND_{_n}"] = _salu(_b, lambda a, b: a & b, "nz")
    SALU[f"S_OR_{_n}"] = _salu(_b, lambda a, b: a | b, "nz")
    SALU[f"S_XOR_{_n}"] = _salu(_b, lambda a, b: a ^ b, "nz")
    SALU[f"S_ANDN2_{_n}"] = _salu(_b, lambda a, b: a & ~b, "nz")
    SALU[f"S_AND_NOT1_{_n}"] = _salu(_b, lambda a, b: a & ~b, "nz")
    SALU[f"S_ORN2_{_n}"] = _salu(_b, lambda a, b: a | ~b, "nz")
    SALU[f"S_OR_NOT1_{_n}"] = _salu(_b, lambda a, b: a | ~b, "nz")
    SALU[f"S_NAND_{_n}"] = _salu(_b, lambda a, b: ~(a & b), "nz")
    SALU[f"S_NOR_{_n}"] = _salu(_b, lambda a, b: ~(a | b), "nz")
    SALU[f"S_XNOR_{_n}"] = _salu(_b, lambda a, b: ~(a ^ b), "nz")
    SALU[f"S_NOT_{_n}"] = _salu(_b, lambda a: ~a, "nz")
    SALU[f"S_BCNT1_I32_{_n}"] = _salu(_b, lambda a: popcount(a), "nz")
    SALU[f"S_BCNT0_I32_{_n}"] = _salu(_b, lambda a, _bb=_b: _bb - popcount(a), "nz")
    SALU[f"S_FF1_I32_{_n}"] = _salu(_b, lambda a: ((a & -a).bit_length() - 1) & M32 if a else M32,
                                    None)
    SALU[f"S_CTZ_I32_{_n}"] = SALU[f"S_FF1_I32_{_n}"]
    SALU[f"S_BREV_{_n}"] = _salu(_b, lambda a, _bb=_b: int(f"{a:0{_bb}b}"[::-1], 2), None)
    SALU[f"S_LSHL_{_n}"] = _salu(_b, lambda a, b, _bb=_b: a << (b & (_bb - 1)), "nz")
    SALU[f"S_LSHR_{_n}"] = _salu(_b, lambda a, b, _bb=_b: a >> (b & (_bb - 1)), "nz")
SALU["S_ASHR_I32"] = _salu(32, lambda a, b: s32(a) >> (b & 31), "nz")
SALU["S_ASHR_I64"] = _salu(64, lambda a, b: s64(a) >> (b & 63), "nz")
SALU["S_MOVK_I32"] = _salu(32, lambda a: _sx(a, 16), None)
SALU["S_ADD_U32"] = _salu(32, lambda a, b: a + b, lambda a, b, r: r >> 32)
# gfx12's 64-bit scalar arithmetic (s_add_nc_u64 and kin) leaves SCC alone.
SALU["S_ADD_U64"] = _salu(64, lambda a, b: a + b, None)
SALU["S_SUB_U64"] = _salu(64, lambda a, b: a - b, None)
SALU["S_MUL_U64"] = _salu(64, lambda a, b: a * b, None)
SALU["S_ADD_I32"] = _salu(32, lambda a, b: a + b, _signed_add_ovf)
SALU["S_SUB_U32"] = _salu(32, lambda a, b: a - b, lambda a, b, r: 1 if r < 0 else 0)
SALU["S_SUB_I32"] = _salu(32, lambda a, b: a - b, _signed_sub_ovf)
SALU["S_MUL_I32"] = _salu(32, lambda a, b: s32(a) * s32(b), None)
SALU["S_MUL_HI_U32"] = _salu(32, lambda a, b: (a * b) >> 32, None)
SALU["S_MUL_HI_I32"] = _salu(32, lambda a, b: (s32(a) * s32(b)) >> 32, None)
SALU["S_MIN_U32"] = _salu(32, min, lambda a, b, r: 1 if a < b else 0)
SALU["S_MAX_U32"] = _salu(32, max, lambda a, b, r: 1 if a > b else 0)
SALU["S_MIN_I32"] = _salu(32, lambda a, b: min(s32(a), s32(b)),
                          lambda a, b, r: 1 if s32(a) < s32(b) else 0)
SALU["S_MAX_I32"] = _salu(32, lambda a, b: max(s32(a), s32(b)),
                          lambda a, b, r: 1 if s32(a) > s32(b) else 0)
SALU["S_ABS_I32"] = _salu(32, lambda a: abs(s32(a)), "nz")
SALU["S_SEXT_I32_I8"] = _salu(32, lambda a: _sx(a, 8), None)
SALU["S_SEXT_I32_I16"] = _salu(32, lambda a: _sx(a, 16), None)
SALU["S_BFM_B32"] = _salu(32, lambda a, b: ((1 << (a & 31)) - 1) << (b & 31), None)
SALU["S_BFE_U32"] = _salu(32, lambda a, b: (a >> (b & 31)) & ((1 << ((b >> 16) & 0x7F)) - 1)
                          if (b >> 16) & 0x7F < 32 else a >> (b & 31), "nz")
SALU["S_BFE_I32"] = _salu(32, lambda a, b: _sx(a >> (b & 31), min((b >> 16) & 0x7F, 32)), "nz")
SALU["S_BFE_U64"] = _salu(64, lambda a, b: (a >> (b & 63)) & ((1 << ((b >> 16) & 0x7F)) - 1),
                          "nz")
for _k in (1, 2, 3, 4):
    SALU[f"S_LSHL{_k}_ADD_U32"] = _salu(32, lambda a, b, _kk=_k: (a << _kk) + b,
                                        lambda a, b, r: 1 if r >> 32 else 0)
SALU["S_PACK_LL_B32_B16"] = _salu(32, lambda a, b: (a & 0xFFFF) | ((b & 0xFFFF) << 16), None)
SALU["S_PACK_LH_B32_B16"] = _salu(32, lambda a, b: (a & 0xFFFF) | (b & 0xFFFF0000), None)
SALU["S_PACK_HH_B32_B16"] = _salu(32, lambda a, b: (a >> 16) | (b & 0xFFFF0000), None)


def h_addc(sub):
    def h(w, ins):
        a, b = [w.sread(o) for o in v_operands(ins, 2)]
        c = w.sg.get("scc", 0)
        r = a - b - c if sub else a + b + c
        w.swrite(ins.defs[0], r & M32)
        w.sg["scc"] = (1 if r < 0 else 0) if sub else r >> 32
    return h


SALU["S_ADDC_U32"] = h_addc(False)
SALU["S_SUBB_U32"] = h_addc(True)


def h_addk(w, ins):
    d = ins.defs[0]
    imm = [o for o in ins.uses if o.kind == "imm"][0].val
    a = w.sread(d)
    r = (a + _sx(imm, 16)) & M32
    w.swrite(d, r)
    if ins.base == "S_ADDK_I32":
        w.sg["scc"] = _signed_add_ovf(a, _sx(imm, 16) & M32, r)


def h_mulk(w, ins):
    d = ins.defs[0]
    imm = [o for o in ins.uses if o.kind == "imm"][0].val
    w.swrite(d, (s32(w.sread(d)) * _sx(imm, 16)) & M32)


def h_scmp(m):
    k, op, sg, bits = m.group(1), m.group(2), m.group(3) == "I", int(m.group(4))
    f = CMP.get(op)

    def h(w, ins):
        if f is None:
            raise Unsupported(f"compare {ins.opcode}")
        srcs = [o for o in ins.uses if o.kind in ("reg", "imm")]
        a = w.sread(srcs[0], bits)
        b = w.sread(srcs[1], bits)
        if k:
            b = _sx(b, 16) & M32 if sg else b & 0xFFFF
        w.sg["scc"] = 1 if f(conv(a, sg, bits), conv(b, sg, bits)) else 0
    return h


def h_bitcmp(bits, want):
    def h(w, ins):
        a, b = [w.sread(o, bits) for o in v_operands(ins, 2)]
        w.sg["scc"] = 1 if ((a >> (b & (bits - 1))) & 1) == want else 0
    return h


def h_cselect(bits):
    def h(w, ins):
        a, b = [w.sread(o, bits) for o in v_operands(ins, 2)]
        w.swrite(ins.defs[0], a if w.sg.get("scc", 0) else b)
    return h


def h_cmov(bits):
    def h(w, ins):
        a = w.sread(v_operands(ins, 1)[0], bits)
        if w.sg.get("scc", 0):
            w.swrite(ins.defs[0], a)
    return h


SAVEEXEC = {
    "AND": lambda s, e: s & e, "OR": lambda s, e: s | e, "XOR": lambda s, e: s ^ e,
    "ANDN2": lambda s, e: s & ~e, "AND_NOT1": lambda s, e: s & ~e,
    "ORN2": lambda s, e: s | ~e, "OR_NOT1": lambda s, e: s | ~e,
    "ANDN1": lambda s, e: ~s & e, "AND_NOT0": lambda s, e: ~s & e,
    "ORN1": lambda s, e: ~s | e, "OR_NOT0": lambda s, e: ~s | e,
    "NAND": lambda s, e: ~(s & e), "NOR": lambda s, e: ~(s | e), "XNOR": lambda s, e: ~(s ^ e),
}


def h_saveexec(op, bits, wrexec=False):
    f = SAVEEXEC[op]
    mask = M64 if bits == 64 else M32

    def h(w, ins):
        s = w.sread(v_operands(ins, 1)[0], bits)
        e = w.exec()
        n = f(s, e) & mask
        w.set_exec(n)
        if ins.defs:
            w.swrite(ins.defs[0], n if wrexec else e)
        w.sg["scc"] = 1 if n else 0
    return h


# --- Branches ----------------------------------------------------------------

def target_of(w, ins):
    for o in ins.uses:
        if o.kind == "bb":
            idx = w.run.fn.by_num.get(o.val)
            if idx is None:
                raise Unsupported(f"branch to missing %bb.{o.val}")
            return idx
    raise Unsupported("branch without target")


def h_branch(cond):
    def h(w, ins):
        run = w.run
        if cond is None:
            take = True
        else:
            if w.taint and ins.useunits & w.taint:
                run.valdep = True
            take = cond(w)
        if take:
            w.jump = target_of(w, ins)
    return h


BRANCHES = {
    "S_BRANCH": None,
    "S_CBRANCH_SCC0": lambda w: w.sg.get("scc", 0) == 0,
    "S_CBRANCH_SCC1": lambda w: w.sg.get("scc", 0) != 0,
    "S_CBRANCH_VCCZ": lambda w: w.exec_vcc() == 0,
    "S_CBRANCH_VCCNZ": lambda w: w.exec_vcc() != 0,
    "S_CBRANCH_EXECZ": lambda w: w.exec() == 0,
    "S_CBRANCH_EXECNZ": lambda w: w.exec() != 0,
}


def h_endpgm(w, ins):
    w.run.end_wave(w, ins)


def h_nop(w, ins):
    pass


# --- Waits and barriers ----------------------------------------------------

def h_waitcnt(w, ins):
    imm = [o for o in ins.uses if o.kind == "imm"]
    if not imm:
        raise Unsupported("S_WAITCNT without immediate")
    vm, lgkm = w.run.target.waitcnt(imm[0].val & 0xFFFF)
    w.run.wait(w, "vm", vm)
    w.run.wait(w, "lds", lgkm)


def h_wait_single(ctrs, split=False):
    """S_WAITCNT_<X>CNT (gfx10/11, sdst + imm), S_WAIT_<X>CNT (gfx12) and the
    combined gfx12 forms (loadcnt/storecnt in [13:8], dscnt in [5:0])."""
    def h(w, ins):
        imm = [o for o in ins.uses if o.kind == "imm"]
        regs = [o for o in ins.uses if o.kind == "reg"]
        if regs and regs[0].units[0] != "sgpr_null":
            raise Unsupported(f"{ins.opcode} with a register count")
        if not imm:
            raise Unsupported(f"{ins.opcode} without immediate")
        v = imm[0].val & 0xFFFF
        if split:
            hi, lo = (v >> 8) & 0x3F, v & 0x3F
            if ctrs[0]:
                w.run.wait(w, ctrs[0], hi)
            w.run.wait(w, "lds", lo)
        else:
            for c in ctrs:
                w.run.wait(w, c, v)
    return h


def barrier_id(ins):
    imm = [o for o in ins.uses if o.kind == "imm"]
    return imm[0].val if imm else None


def h_sbarrier(w, ins):
    if w.run.target.split:
        raise Unsupported("S_BARRIER on a split-barrier target")
    w.run.signal(w, ins)
    w.run.block(w, ins)


def h_signal(isfirst):
    def h(w, ins):
        if not w.run.target.split:
            raise Unsupported(f"{ins.opcode} on a target without split barriers")
        if barrier_id(ins) != -1:
            raise Unsupported(f"{ins.opcode} with barrier id {barrier_id(ins)}")
        first = all(x.signals <= w.signals for x in w.run.waves if x is not w)
        w.run.signal(w, ins)
        if isfirst:
            w.sg["scc"] = 1 if first else 0
    return h


def h_bwait(w, ins):
    if not w.run.target.split:
        raise Unsupported(f"{ins.opcode} on a target without split barriers")
    if barrier_id(ins) != -1:
        raise Unsupported(f"{ins.opcode} with barrier id {barrier_id(ins)}")
    w.run.block(w, ins)


# --- LDS ---------------------------------------------------------------------

WIDTH = {"B8": 1, "U8": 1, "I8": 1, "B16": 2, "U16": 2, "I16": 2, "F16": 2, "BF16": 2,
         "B32": 4, "U32": 4, "I32": 4, "F32": 4, "B64": 8, "U64": 8, "I64": 8, "F64": 8,
         "B96": 12, "B128": 16}
COMMUTATIVE = {"ADD", "SUB", "MIN", "MAX", "AND", "OR", "XOR", "ADD_F", "MIN_F", "MAX_F",
               "PK_ADD", "PK_ADD_F16", "PK_ADD_BF16"}
NOT_LDS_DS = ("DS_SWIZZLE", "DS_PERMUTE", "DS_BPERMUTE", "DS_NOP", "DS_GWS_", "DS_ORDERED_COUNT")


class DSInfo:
    __slots__ = ("kind", "width", "elems", "scale", "op", "rtn", "d16", "signed", "ndata",
                 "name", "type", "addr", "data", "offs")


def ds_info(base):
    """Decodes a DS opcode, or None when it is not a plain LDS access."""
    m = re.fullmatch(r"DS_(READ|WRITE)(2ST64|2)?_(B8|B16|B32|B64|B96|B128|U8|I8|U16|I16)"
                     r"(_D16_HI|_D16)?", base)
    if m:
        i = DSInfo()
        i.kind = "R" if m.group(1) == "READ" else "W"
        i.width = WIDTH[m.group(3)]
        i.elems = 2 if m.group(2) else 1
        i.scale = (i.width * (64 if m.group(2) == "2ST64" else 1)) if m.group(2) else 1
        i.op, i.rtn = None, i.kind == "R"
        i.d16 = m.group(4)
        i.signed = m.group(3).startswith("I")
        i.ndata = i.elems if i.kind == "W" else 0
        i.name, i.type = m.group(1), m.group(3)
        return i
    m = re.fullmatch(r"DS_(WRXCHG2ST64|WRXCHG2|[A-Z0-9_]+?)(_RTN)?_(B32|U32|I32|F32|B64|U64|I64|"
                     r"F64|F16|BF16)", base)
    if m:
        op = m.group(1)
        known = {"ADD", "SUB", "RSUB", "INC", "DEC", "MIN", "MAX", "AND", "OR", "XOR", "MSKOR",
                 "WRXCHG", "WRXCHG2", "WRXCHG2ST64", "CMPST", "CMPSTORE", "CMPXCHG", "ADD_F",
                 "MIN_F", "MAX_F", "PK_ADD", "PK_ADD_F16", "PK_ADD_BF16", "CONDXCHG32", "WRAP",
                 "SUB_CLAMP", "COND_SUB"}
        if op not in known:
            return None
        i = DSInfo()
        i.kind = "A"
        t = m.group(3)
        i.width = 4 if op.startswith("PK_ADD") else WIDTH[t]
        i.elems = 2 if op.startswith("WRXCHG2") else 1
        i.scale = (i.width * (64 if op == "WRXCHG2ST64" else 1)) if i.elems == 2 else 1
        i.rtn = bool(m.group(2))
        if op in ("MIN", "MAX") and t.startswith("F"):
            op = op + "_F"
        i.op = (op, t) if op in COMMUTATIVE else None
        i.d16 = None
        i.signed = t.startswith("I")
        i.ndata = 2 if op in ("MSKOR", "CMPST", "CMPSTORE", "CMPXCHG", "WRXCHG2",
                              "WRXCHG2ST64", "WRAP") else 1
        i.name, i.type = m.group(1), t
        return i
    return None


def atomic_apply(op, t, old, d0, d1, width):
    bits = width * 8
    mk = (1 << bits) - 1
    sg = t.startswith("I")
    if op == "ADD":
        return (old + d0) & mk
    if op in ("SUB", "SUB_CLAMP"):
        return max(old - d0, 0) if op == "SUB_CLAMP" else (old - d0) & mk
    if op == "RSUB":
        return (d0 - old) & mk
    if op == "INC":
        return 0 if old >= d0 else old + 1
    if op == "DEC":
        return d0 if (old == 0 or old > d0) else old - 1
    if op in ("MIN", "MAX"):
        a, b = conv(old, sg, bits), conv(d0, sg, bits)
        return (min(a, b) if op == "MIN" else max(a, b)) & mk
    if op == "AND":
        return old & d0
    if op == "OR":
        return old | d0
    if op == "XOR":
        return old ^ d0
    if op == "MSKOR":
        return (old & ~d0 | d1) & mk
    if op in ("WRXCHG",):
        return d0 & mk
    if op == "CMPST":       # gfx9: data0 compare, data1 new
        return d1 & mk if old == d0 else old
    if op in ("CMPSTORE", "CMPXCHG"):   # gfx11+: data0 new, data1 compare
        return d0 & mk if old == d1 else old
    if op == "COND_SUB":
        return old - d0 if old >= d0 else old
    return mix(sid(op), old, d0, d1) & mk


def find_ds_operands(ins, info):
    """(address operand, data operands, offsets) of a DS instruction."""
    srcs = [o for o in ins.uses if o.kind in ("reg", "imm")]
    regs = []
    k = 0
    while k < len(srcs) and srcs[k].kind == "reg":
        regs.append(srcs[k])
        k += 1
    imms = [o.val for o in srcs[k:] if o.kind == "imm"]
    if not regs:
        raise Unsupported(f"{ins.opcode}: no address register")
    addr = regs[0]
    data = regs[1:1 + info.ndata]
    noff = 2 if info.elems == 2 else 1
    if len(imms) < noff:
        raise Unsupported(f"{ins.opcode}: offsets")
    offs = imms[:noff]
    if len(imms) > noff and imms[noff]:
        raise Unsupported(f"{ins.opcode} on GDS")
    return addr, data, offs


class Run:
    """One execution of one function by one workgroup under one schedule."""

    def __init__(self, fn, cfg, argset, policy, dma_late, rseed):
        self.fn, self.cfg, self.target = fn, cfg, cfg.target
        self.W = cfg.W
        self.policy, self.dma_late, self.rseed = policy, dma_late, rseed
        self.argset = argset
        self.mem = {}
        self.shadow = {}
        self.races = {}
        self.hang = None
        self.gen_lines = {}     # barrier number -> {wave: line of its wait}
        self.pairing = []
        self.valdep = False
        self.status = "ok"
        self.reason = None
        self._lanes = {}
        self.seed = cfg.seed * 1000003 + argset
        n = cfg.items
        self.waves = []
        for wid in range((n + self.W - 1) // self.W):
            nl = min(self.W, n - wid * self.W)
            self.waves.append(Wave(self, wid, nl))
        self.init_waves()

    def lanes_of(self, mask):
        r = self._lanes.get(mask)
        if r is None:
            r = tuple(i for i in range(self.W) if (mask >> i) & 1)
            self._lanes[mask] = r
        return r

    def size_bytes(self, srcs, key):
        """For an S_LOAD at the kernarg segment pointer (as it was on entry)
        plus constants that cover the grid's workgroup counts or the
        workgroup sizes: {byte offset in the load: dword} for its dwords
        inside them and the 16-bit field after them (the partial
        workgroup's size, 0: full workgroups)."""
        fn = self.fn
        if fn.kernarg is None or len(srcs) < 2 or srcs[1].kind != "imm":
            return None
        rel = key[0] - KERNARG_BASE + srcs[1].val
        if not 0 <= rel < 1 << 16:
            return None
        X, Y, Z = self.cfg.dims
        field = {fn.sizes_at + 2 * d: v for d, v in enumerate((X, Y, Z, 0))}
        # The grid's workgroup counts before them (32-bit): more than any
        # workgroup id the arguments give.
        for d in range(3):
            at = fn.sizes_at - 12 + 4 * d
            field[at], field[at + 2] = GRID_COUNT, 0
        out = {}
        for k in range(0, 16, 4):
            at = rel + k
            if at in field and at + 2 in field:
                out[k] = field[at] | (field[at + 2] << 16)
        return out

    def argvalue(self, unit, pair):
        """A workgroup-uniform kernel argument value for live-in \\p unit."""
        rng = random.Random(mix(self.seed, sid(unit)))
        if self.argset == 0:
            return 1            # loops run once
        if self.argset == 1:
            return rng.choice([1, 2, 3])
        if pair:
            return rng.choice([1, 2, 3, rng.getrandbits(64), 0xFFFFFFFF00000000,
                               0x0000FFFF0000FFFF, 0xFFFFFFFF])
        return rng.choice([0, 1, 2, 3, 4, 7, 40, 2, 3])

    def init_waves(self):
        fn = self.fn
        for w in self.waves:
            w.set_exec((1 << w.nl) - 1)
            w.sg["m0"] = 0
            w.sg["scc"] = 0
            base = w.id * self.W
            X, Y, Z = self.cfg.dims
            ids = []
            for i in range(self.W):
                t = base + i
                ids.append((t % X, (t // X) % Y, t // (X * Y)))
            if self.target.packed_tid:
                w.vg["vgpr0"] = [(x & 0x3FF) | ((y & 0x3FF) << 10) | ((z & 0x3FF) << 20)
                                 for x, y, z in ids]
            else:
                w.vg["vgpr0"] = [x for x, y, z in ids]
                w.vg["vgpr1"] = [y for x, y, z in ids]
                w.vg["vgpr2"] = [z for x, y, z in ids]
        for name in fn.liveins:
            try:
                units = reg_units(name)
            except Unsupported:
                continue
            if units[0] in ("exec_lo", "m0", "scc") or units == ("vgpr0",):
                continue
            if is_vector_unit(units[0]):
                for w in self.waves:
                    for u in units:
                        if u == "vgpr0" or (u in ("vgpr1", "vgpr2") and u in w.vg):
                            continue
                        w.vg[u] = [mix(self.seed, sid(u), w.id * self.W + i)
                                   for i in range(self.W)]
                continue
            v = self.argvalue(name, len(units) == 2)
            if name == fn.kernarg:
                v = KERNARG_BASE
            for w in self.waves:
                for i, u in enumerate(units):
                    w.sg[u] = (v >> (32 * i)) & M32

    # --- memory ---------------------------------------------------------------

    def check(self, w, acc, addrs):
        """Records \\p acc on the bytes \\p addrs and reports races."""
        shadow = self.shadow
        v = w.id
        key = (v, acc.kind, acc.op, acc.ctr)
        akind = acc.kind
        for x in addrs:
            ent = shadow.get(x)
            if ent is None:
                shadow[x] = {key: acc}
                continue
            for k, e in ent.items():
                if k[0] == v:
                    if e.async_ and e.done is None and e.kind != "R" and not (
                            acc.async_ and acc.ctr == e.ctr):
                        self.report("SELF", e, acc, x)
                    continue
                ek = e.kind
                if ek == "R" and akind == "R":
                    continue
                if ek == "A" and akind == "A" and e.op is not None and e.op == acc.op:
                    continue
                if e.done is None or e.done >= acc.issue:
                    if akind == "R":
                        kind = "RAW"
                    elif ek == "R":
                        kind = "WAR"
                    elif akind == "A":
                        kind = "RAW"
                    elif ek == "A":
                        kind = "WAR"
                    else:
                        kind = "WAW"
                    if e.ins is acc.ins and e.phase == acc.phase and e.count == acc.count:
                        # The same instance of one instruction in two waves:
                        # no barrier can order it.
                        kind = "SAME-" + kind
                    self.report(kind, e, acc, x)
            ent[key] = acc

    def report(self, kind, e, acc, x):
        k = (kind, e.ins.line, acc.ins.line)
        r = self.races.get(k)
        if r is None:
            self.races[k] = r = {"kind": kind, "first": e.ins, "second": acc.ins,
                                 "waves": (e.wave, acc.wave), "lo": x, "hi": x + 1,
                                 "async": e.async_ or acc.async_,
                                 "pending": e.done is None, "pairs": {(e.wave, acc.wave)}}
        elif r["waves"] == (e.wave, acc.wave):
            r["lo"] = min(r["lo"], x)
            r["hi"] = max(r["hi"], x + 1)
        else:
            r["pairs"].add((e.wave, acc.wave))

    def mem_read(self, addr, n):
        v = 0
        mem = self.mem
        for k in range(n):
            v |= mem.get(addr + k, 0) << (8 * k)
        return v

    def mem_write(self, addr, n, v):
        mem = self.mem
        for k in range(n):
            mem[addr + k] = (v >> (8 * k)) & 0xFF

    def in_lds(self, a, n):
        return 0 <= a and a + n <= self.cfg.lds_size

    def memop_vaddr(self, ins, off0):
        """Memop mode: the uniform address that puts the access at its LDS
        memoperand's location, or None."""
        if self.cfg.addr != "memop":
            return None
        for mo in ins.memops:
            if mo.space == 3:
                if mo.obj is None or mo.obj not in self.cfg.globals:
                    return None
                return (self.cfg.globals[mo.obj][0] + mo.off - off0) & M32
        if not self.cfg.relocate or any(mo.space in (0, 3) for mo in ins.memops) or \
                not self.cfg.globals:
            return None
        # No LDS memoperand: the access may touch anything. Argument set k
        # puts it at the start of the k-th LDS global (plus its offset
        # field), the last one leaves the register address.
        objs = sorted(self.cfg.globals.values())
        k = self.argset % (len(objs) + 1)
        return objs[k][0] if k < len(objs) else None

    def ds(self, w, ins):
        info = ins.info
        addr_op, data_ops, offs = info.addr, info.data, info.offs
        lanes = w.lanes()
        if w.taint and addr_op.units[0] in w.taint:
            self.valdep = True
        if not lanes:
            return
        width = info.width
        eoffs = [o * info.scale for o in offs] if info.elems == 2 else [offs[0]]
        fixed = self.memop_vaddr(ins, eoffs[0])
        W = self.W
        if fixed is not None:
            va = [fixed] * W
        else:
            va = as_list(w.vread(addr_op), W)
        acc = Acc(w, ins, info.kind, info.op, "lds")
        addrs = set()
        for i in lanes:
            for eo in eoffs:
                a = (va[i] + eo) & M32
                if self.in_lds(a, width):
                    addrs.update(range(a, a + width))
        self.check(w, acc, sorted(addrs))
        # Values.
        datas = [as_list(w.vread(d, 64 if width >= 8 else 32), W) for d in data_ops]
        dst = ins.defs[0] if ins.defs else None
        out = [0] * W if dst is not None else None
        bits = width * 8
        mk = (1 << bits) - 1
        for i in lanes:
            res = 0
            for k, eo in enumerate(eoffs):
                a = (va[i] + eo) & M32
                ok = self.in_lds(a, width)
                old = self.mem_read(a, width) if ok else 0
                if info.kind == "R":
                    val = old
                elif info.kind == "W":
                    d = datas[k][i] if k < len(datas) else 0
                    if info.d16 == "_D16_HI":
                        d >>= 16
                    if ok:
                        self.mem_write(a, width, d & mk)
                    val = 0
                else:
                    d0 = datas[0][i] if datas else 0
                    d1 = datas[1][i] if len(datas) > 1 else 0
                    if info.elems == 2:
                        d0 = datas[k][i] if k < len(datas) else 0
                        new = d0 & mk
                    else:
                        new = atomic_apply(info.name, info.type, old, d0 & mk, d1 & mk, width)
                    if ok:
                        self.mem_write(a, width, new)
                    val = old
                if info.kind == "R" and info.signed and width < 4:
                    val = _sx(val, bits) & M32
                res |= val << (bits * k)
            if out is not None:
                out[i] = res
        if dst is not None and (info.kind == "R" or info.rtn):
            if info.d16:
                old = as_list(w.vread(dst), W)
                for i in lanes:
                    lo = out[i] & 0xFFFF
                    out[i] = ((old[i] & 0xFFFF) | (lo << 16)) if info.d16 == "_D16_HI" \
                        else ((old[i] & 0xFFFF0000) | lo)
            w.vwrite(dst, out, lanes)
            for u in dst.units:
                w.taint.add(u)
        w.issued["lds"] += 1
        acc.seq = w.issued["lds"]
        w.pend["lds"].append(acc)

    def dma(self, w, ins):
        """LDS DMA: lane l writes width bytes at M0 + offset + l * width."""
        if not self.target.dma:
            raise Unsupported(f"LDS DMA {ins.opcode} on {self.target.cpu}")
        b = ins.base
        m = re.search(r"LDS_(DWORDX4|DWORDX3|DWORD|UBYTE|SBYTE|USHORT|SSHORT|B32|U8|I8|U16|I16"
                      r"|B128|B96)", b)
        width = {"DWORD": 4, "B32": 4, "DWORDX3": 12, "B96": 12, "DWORDX4": 16, "B128": 16,
                 "UBYTE": 1, "SBYTE": 1, "U8": 1, "I8": 1, "USHORT": 2, "SSHORT": 2,
                 "U16": 2, "I16": 2}[m.group(1)] if m else 4
        srcs = [o for o in ins.uses if o.kind in ("reg", "imm")]
        if b.startswith("BUFFER"):
            k = 3 if re.search(r"_(OFFEN|IDXEN|BOTHEN|ADDR64)", b) else 2
            ioff = srcs[k].val if k < len(srcs) and srcs[k].kind == "imm" else 0
        else:
            imms = [o for o in srcs if o.kind == "imm"]
            ioff = imms[0].val if imms else 0
        lanes = w.lanes()
        if w.taint and "m0" in w.taint:
            self.valdep = True
        if not lanes:
            return      # not counted either: fewer later operations, fewer completions
        w.issued["vm"] += 1
        acc = Acc(w, ins, "W", None, "vm", async_=True)
        acc.seq = w.issued["vm"]
        fixed = None
        if self.cfg.addr == "memop":
            for mo in ins.memops:
                if mo.space == 3 and mo.obj in self.cfg.globals:
                    fixed = self.cfg.globals[mo.obj][0] + (mo.off or 0)
        base = fixed if fixed is not None else ((w.sg.get("m0", 0) & 0x3FFFF) + ioff)
        # The global data: a hash of the scalar address operands and each
        # lane's vector address.
        sbase = mix(sid(ins.base), tuple(w.sread(o, 64) for o in srcs
                                         if not (o.kind == "reg" and o.vec)))
        vregs = [o for o in srcs if o.kind == "reg" and o.vec]
        vv = as_list(w.vread(vregs[0], 64 if len(vregs[0].units) == 2 else 32), self.W) \
            if vregs else [0] * self.W
        addrs, data = [], []
        for i in lanes:
            a = base + i * width
            if not self.in_lds(a, width):
                continue
            for k in range(width):
                if k % 4 == 0:
                    val = mix(self.seed, sbase, vv[i], k)
                addrs.append(a + k)
                data.append((a + k, (val >> (8 * (k % 4))) & 0xFF))
        self.check(w, acc, addrs)
        if self.dma_late:
            acc.data = data
        else:
            for a, v in data:
                self.mem[a] = v
        w.pend["vm"].append(acc)

    def flat_lds(self, w, ins, load, width, a, srcs):
        """A FLAT load or store of \p width bytes per lane at the LDS
        offsets in the low halves of \p a."""
        imms = [o for o in ins.uses if o.kind == "imm"]
        off = imms[0].val if imms else 0
        lanes = w.lanes()
        acc = Acc(w, ins, "R" if load else "W", None, "lds")
        acc.ooo = True
        va = {i: (a[i] + off) & M32 for i in lanes}
        addrs = set()
        for i in lanes:
            if self.in_lds(va[i], width):
                addrs.update(range(va[i], va[i] + width))
        self.check(w, acc, sorted(addrs))
        bits = min(width, 8) * 8
        if load:
            dst = ins.defs[0]
            out = [0] * self.W
            for i in lanes:
                if self.in_lds(va[i], width):
                    out[i] = self.mem_read(va[i], min(width, 8))
                    if ins.base.endswith(("SBYTE", "SSHORT")):
                        out[i] = _sx(out[i], bits) & M32
            w.vwrite(dst, out, lanes)
            for u in dst.units:
                w.taint.add(u)
        else:
            data = as_list(w.vread(srcs[1], 64 if width >= 8 else 32), self.W)
            for i in lanes:
                if self.in_lds(va[i], width):
                    self.mem_write(va[i], min(width, 8), data[i] & ((1 << bits) - 1))
        w.pend["lds"].append(acc)

    def call(self, w, ins):
        """--calls opaque: the callee reads and writes every byte of the
        declared LDS globals, completing out of order (only lgkmcnt(0) /
        dscnt(0) completes it); it executes no barrier; it clobbers the
        caller-saved registers with per-wave values."""
        if self.cfg.calls != "opaque":
            raise Unsupported(f"{ins.opcode}: call")
        objs = list(self.cfg.globals.values())
        end = max([b + sz for b, sz in objs] + [0]) or 256
        acc = Acc(w, ins, "A", None, "lds")
        acc.ooo = True
        self.check(w, acc, range(0, min(end, self.cfg.lds_size)))
        w.pend["lds"].append(acc)
        for d in ins.defs:
            w.swrite(d, mix(self.seed, w.id, w.steps, 1))
        for u in list(w.sg):
            m = re.fullmatch(r"sgpr(\d+)", u)
            if (m and int(m.group(1)) < 30) or u in ("vcc_lo", "vcc_hi", "m0"):
                w.sg[u] = mix(self.seed, w.id, w.steps, sid(u))
        w.sg["scc"] = mix(self.seed, w.id, w.steps) & 1
        for u in list(w.vg):
            m = re.fullmatch(r"vgpr(\d+)", u)
            if m and not (int(m.group(1)) >= 40 and (int(m.group(1)) - 40) % 16 < 8):
                w.vg[u] = [mix(self.seed, w.id, w.steps, sid(u), i) for i in range(self.W)]
        for u in ins.defunits:
            w.taint.add(u)

    def wait(self, w, ctr, n):
        p = w.pend[ctr]
        if not p:
            return
        tot = w.issued[ctr]
        keep = []
        for acc in p:
            if (n == 0 if acc.ooo else tot - acc.seq >= n):
                acc.done = w.signals
                if acc.data:
                    for a, v in acc.data:
                        self.mem[a] = v
                    acc.data = None
            else:
                keep.append(acc)
        w.pend[ctr] = keep

    # --- barriers -------------------------------------------------------------

    def signal(self, w, ins):
        if w.signals > w.waits:
            raise Hang(f"wave {w.id} signals a barrier again before waiting"
                       f" (line {ins.line})")
        w.signals += 1
        w.last_barrier = ins.line
        self.release()

    def block(self, w, ins):
        w.need = w.waits + 1
        self.gen_lines.setdefault(w.need, {})[w.id] = ins.line
        if w.signals < w.need:
            raise Hang(f"wave {w.id} waits at line {ins.line} without having signalled")
        w.state = BLOCK
        w.last_barrier = ins.line
        self.release()

    def release(self):
        waves = self.waves
        changed = True
        while changed:
            changed = False
            live = [x for x in waves if x.state != END]
            for w in waves:
                if w.state == BLOCK and all(x.signals >= w.need for x in live):
                    ended = [x for x in waves if x.state == END and x.signals < w.need]
                    if ended and self.cfg.ended_waves == "hang":
                        raise Hang(f"waves {sorted(x.id for x in ended)} ended after"
                                   f" {ended[0].signals} barrier(s) while wave {w.id} passes"
                                   f" barrier {w.need} (line {w.last_barrier})")
                    w.state = RUN
                    w.waits = w.need
                    changed = True

    def end_wave(self, w, ins):
        if w.signals != w.waits:
            raise Hang(f"wave {w.id} ends (line {ins.line}) with a signalled barrier not"
                       " waited for")
        w.state = END
        w.end_line = ins.line
        for ctr in ("vm",):
            for acc in w.pend[ctr]:
                if acc.data:
                    for a, v in acc.data:
                        self.mem[a] = v
                    acc.data = None
        self.release()

    # --- scheduling -------------------------------------------------------------

    def step(self, w):
        blocks = self.fn.blocks
        b = blocks[w.bi]
        if w.ii >= len(b.instrs):
            # fall through
            if w.bi + 1 >= len(blocks):
                raise Unsupported("control falls off the end of the function")
            w.bi += 1
            w.ii = 0
            return
        ins = b.instrs[w.ii]
        w.steps += 1
        if w.steps > self.cfg.step_limit:
            raise StepLimit(f"wave {w.id} exceeded {self.cfg.step_limit} steps")
        w.jump = None
        if w.taint:
            if ins.useunits & w.taint:
                for u in ins.defunits:
                    w.taint.add(u)
                if ins.defunits & {"exec_lo", "exec_hi", "m0"}:
                    self.valdep = True
            else:
                w.taint.difference_update(ins.defunits)
        ins.fn(w, ins)
        if w.jump is not None:
            w.bi, w.ii = w.jump, 0
        else:
            w.ii += 1

    def go(self):
        waves = self.waves
        rng = random.Random(self.rseed)
        order = list(waves)
        if self.policy == "rev":
            order.reverse()
        try:
            while True:
                runnable = [w for w in order if w.state == RUN]
                if not runnable:
                    if all(w.state == END for w in waves):
                        break
                    blocked = [w for w in waves if w.state == BLOCK]
                    raise Hang("deadlock: waves " + ", ".join(
                        f"{w.id} (line {w.last_barrier})" for w in blocked) +
                        " wait at barriers no other wave will reach")
                if self.policy in ("fwd", "rev"):
                    w = runnable[0]
                    while w.state == RUN:
                        self.step(w)
                elif self.policy == "rr":
                    for w in runnable:
                        if w.state == RUN:
                            self.step(w)
                else:
                    w = rng.choice(runnable)
                    for _ in range(rng.choice((1, 1, 2, 3, 8, 30))):
                        if w.state != RUN:
                            break
                        self.step(w)
            self.check_pairing()
            counts = sorted({w.signals for w in waves})
            if len(counts) > 1 and self.cfg.ended_waves == "hang":
                raise Hang("waves executed different numbers of barriers: " + ", ".join(
                    f"wave {w.id}: {w.signals}" for w in waves))
        except Unsupported as e:
            self.status, self.reason = "unsupported", str(e)
            self.check_pairing()
        except StepLimit as e:
            self.status, self.reason = "step limit", str(e)
            self.check_pairing()
        except Hang as e:
            self.status = "hang"
            self.hang = str(e)
            self.check_pairing()
        return self

    def check_pairing(self):
        """Barriers numbered alike in every wave but executed at different
        instructions: some wave skipped a barrier that others executed (the
        counts may still match, e.g. when a run stops early)."""
        if self.pairing:
            return
        for k in sorted(self.gen_lines):
            lines = self.gen_lines[k]
            if len(set(lines.values())) > 1:
                by = {}
                for wid, line in sorted(lines.items()):
                    by.setdefault(line, []).append(wid)
                self.pairing.append(f"barrier {k} is line " + ", line ".join(
                    f"{line} in wave(s) {ws}" for line, ws in sorted(by.items())))
                break


# ---------------------------------------------------------------------------
# Binding instructions to handlers
# ---------------------------------------------------------------------------

CONTROL_WORDS = ("BARRIER", "SETPC", "SWAPPC", "CBRANCH", "TRAP", "RFE", "SETHALT", "ICACHE",
                 "WAKEUP", "SENDMSGHALT", "SLEEP_VAR", "CALL", "GWS", "SI_IF", "SI_ELSE",
                 "SI_LOOP", "SI_END_CF", "SI_KILL", "SI_RETURN", "ENDPGM", "GETPC", "SET_GPR_IDX",
                 "MOVREL", "WQM", "WWM", "STRICT")
NOPS = {"S_NOP", "S_SETPRIO", "S_SLEEP", "WAVE_BARRIER", "SCHED_BARRIER", "SCHED_GROUP_BARRIER",
        "S_DELAY_ALU", "S_CLAUSE", "S_INST_PREFETCH", "S_WAITCNT_DEPCTR", "S_WAIT_ALU",
        "S_WAITCNT_EXPCNT", "S_WAITCNT_VSCNT", "S_WAIT_KMCNT", "S_WAIT_STORECNT",
        "S_WAIT_EXPCNT", "S_WAIT_SAMPLECNT", "S_WAIT_BVHCNT", "S_WAIT_EVENT", "S_TTRACEDATA",
        "S_SENDMSG", "S_DCACHE_INV", "S_DCACHE_WB", "BUFFER_WBINVL1", "BUFFER_WBINVL1_VOL",
        "BUFFER_INV", "BUFFER_GL0_INV", "BUFFER_GL1_INV", "BUFFER_WBL2", "GLOBAL_INV",
        "GLOBAL_WB", "GLOBAL_WBINV", "KILL", "IMPLICIT_DEF", "CFI_INSTRUCTION", "DBG_VALUE",
        "DBG_LABEL", "DBG_VALUE_LIST", "DBG_INSTR_REF", "DBG_PHI", "EH_LABEL", "ANNOTATION_LABEL",
        "S_CODE_END", "S_SETREG_IMM32_B32", "S_SETREG_B32", "S_DENORM_MODE", "S_ROUND_MODE",
        "SI_MASKED_UNREACHABLE", "SI_ILLEGAL_COPY", "LIFETIME_START",
        "LIFETIME_END", "PSEUDO_PROBE", "FAKE_USE", "S_SET_INST_PREFETCH_DISTANCE",
        "S_WAIT_DSCNT_soft", "S_WAIT_LOADCNT_soft"}


def is_soft(opcode):
    return opcode.endswith("_soft") or opcode == "S_WAITCNT_lds_direct"


def counts_vm(base):
    """A vector memory load counted in order with LDS DMA on vmcnt/loadcnt."""
    return base.startswith(("GLOBAL_LOAD", "BUFFER_LOAD", "SCRATCH_LOAD", "TBUFFER_LOAD")) and \
        "LDS" not in base and "ASYNC" not in base


def is_lds_dma(base):
    return (base.startswith(("GLOBAL_LOAD_LDS", "SCRATCH_LOAD_LDS")) or
            (base.startswith("BUFFER_LOAD") and "_LDS" in base))


def generic(w, ins):
    """An instruction without specific semantics: its results are a pure
    function (a hash) of the opcode and the operand values, per lane for a
    vector instruction (a lane mask for its scalar results)."""
    W = w.W
    code = sid(ins.base)
    srcs = [o for o in ins.uses if o.kind in ("reg", "imm")] + \
        [o for o in ins.iuses if o.kind == "reg" and o.units[0] not in ("exec_lo", "mode")]
    vecsrc = [o for o in srcs if o.kind == "reg" and o.vec]
    scal = tuple(w.sread(o, 64 if len(o.units) == 2 else 32) for o in srcs
                 if not (o.kind == "reg" and o.vec))
    # gfx1250's cluster status, hwreg(HW_REG_IB_STS2, 6, 4), is the
    # dispatch's; other hardware registers are per wave. TTMPs hold their
    # launch values (Target.ttmp_at_launch).
    cluster_status = (w.run.target.gfx1250 and ins.base.startswith("S_GETREG") and
                      any(o.kind == "imm" and o.val == (28 | 6 << 6 | 3 << 11)
                          for o in ins.uses))
    if ins.base.startswith(("S_GETREG", "S_MEMTIME", "S_MEMREALTIME", "S_SENDMSG_RTN",
                            "S_GET_BARRIER_STATE", "S_GET_LOCK_STATE")) and \
            not cluster_status:
        scal = scal + (w.id, w.steps)     # per-wave state
    lanes = w.lanes()
    valu = ins.base.startswith("V_")
    vvals = [as_list(w.vread(o, 64 if len(o.units) == 2 else 32), W) for o in vecsrc]
    defs = [o for o in ins.defs + ins.idefs if o.kind == "reg"]
    for n, d in enumerate(defs):
        u0 = d.units[0]
        if u0 in ("exec_lo", "exec_hi"):
            raise Unsupported(f"{ins.opcode} writes EXEC")
        if d.vec:
            out = [0] * W
            if vvals:
                for i in lanes:
                    t = tuple(v[i] for v in vvals)
                    out[i] = mix(code, n, scal, t) | (mix(code, n, 1, scal, t) << 32)
            else:
                x = mix(code, n, scal) | (mix(code, n, 2, scal) << 32)
                for i in lanes:
                    out[i] = x
            w.vwrite(d, out, lanes)
        elif u0 == "scc":
            w.sg["scc"] = mix(code, n, scal, tuple(tuple(v) for v in vvals)) & 1
        elif valu and vvals:
            mask = 0
            for i in lanes:
                if mix(code, n, scal, tuple(v[i] for v in vvals)) & 1:
                    mask |= 1 << i
            w.mask_write(d, mask)
        else:
            val = 0
            for k in range(len(d.units)):
                val |= mix(code, n, k, scal) << (32 * k)
            w.swrite(d, val)


FLAT_WIDTH = {"UBYTE": 1, "SBYTE": 1, "USHORT": 2, "SSHORT": 2, "BYTE": 1, "SHORT": 2,
              "DWORD": 4, "DWORDX2": 8, "DWORDX3": 12, "DWORDX4": 16}


def h_flat(w, ins):
    """FLAT access: global unless an active lane's address is in the LDS
    aperture. Loads and stores whose active lanes all address LDS access
    it there, completing out of order (only a wait for zero completes them)."""
    srcs = [o for o in ins.uses if o.kind == "reg"]
    if srcs and srcs[0].vec and len(srcs[0].units) == 2:
        a = as_list(w.vread(srcs[0], 64), w.W)
        lanes = w.lanes()
        hits = [i for i in lanes if (a[i] >> 32) & M32 == APERTURE_HI]
        if hits:
            m = re.fullmatch(r"FLAT_(LOAD|STORE)_(\w+?)(_SADDR)?", ins.base)
            if not m or m.group(2) not in FLAT_WIDTH or len(hits) != len(lanes) \
                    or m.group(3):
                raise Unsupported(f"{ins.opcode} into the LDS aperture")
            w.run.flat_lds(w, ins, m.group(1) == "LOAD", FLAT_WIDTH[m.group(2)],
                           a, srcs)
            return
    generic(w, ins)


def h_sload(w, ins):
    """S_LOAD / S_BUFFER_LOAD: every dword is a pure function of its address
    (the same in every wave), drawn like the kernel arguments (argument set
    0: all 1; set 1: 1-3; more: mixed) so that loops on loaded arguments end;
    but the workgroup sizes among the hidden kernel arguments (code object
    v5), loaded at a constant offset from the kernarg segment pointer, are
    the launch's."""
    srcs = [o for o in ins.uses if o.kind in ("reg", "imm")]
    key = tuple(w.sread(o, 64 if len(o.units) == 2 else 32) for o in srcs)
    run = w.run
    sizes = run.size_bytes(srcs, key)
    for d in ins.defs:
        val = 0
        for k in range(len(d.units)):
            dword = run.argvalue(f"load{key}+{k}", False) & M32
            if sizes is not None and 4 * k in sizes:
                dword = sizes[4 * k]
            val |= dword << (32 * k)
        w.swrite(d, val)


def h_vmem_load(w, ins):
    generic(w, ins)
    if w.exec():
        w.issued["vm"] += 1


def h_inlineasm(w, ins):
    m = re.search(r'&"((?:[^"\\]|\\.)*)"', ins.text)
    asm = m.group(1) if m else None
    if asm is not None:
        stmts = [s.strip() for s in re.split(r"\\0A|\\n|;|\n", asm)]
        if all(not s or re.fullmatch(r"s_nop\s+(0x[0-9a-fA-F]+|\d+)", s) for s in stmts):
            return
    raise Unsupported("inline assembly")


def h_unsupported(why):
    def h(w, ins):
        raise Unsupported(why.format(op=ins.opcode))
    return h


# Source operands of the VALU operations a VOPD instruction pairs (gfx11+);
# others (FMAC and its literal forms, whose sources are tied or literal)
# leave the pair uninterpreted.
VOPD_SOURCES = {"V_ADD_F32": 2, "V_SUB_F32": 2, "V_SUBREV_F32": 2,
                "V_MUL_F32": 2, "V_MAX_F32": 2, "V_MIN_F32": 2,
                "V_MUL_LEGACY_F32": 2, "V_DOT2C_F32_F16": 2,
                "V_CNDMASK_B32": 2}


def vopd_half(ins, name, defs, uses):
    half = object.__new__(Instr)
    for f in Instr.__slots__:
        setattr(half, f, getattr(ins, f, None))
    half.opcode = "V_" + name
    half.base = normalize(half.opcode)
    half.defs, half.uses = defs, uses
    half.useunits = frozenset(u for o in uses + ins.iuses if o.kind == "reg"
                              for u in o.units)
    half.defunits = frozenset(u for o in defs for u in o.units)
    return half


def h_vopd(ins, cfg):
    """V_DUAL_<X>_X_<Y>: two VALU operations issued together, each
    interpreted as on its own; the pair is uninterpreted when their
    operands cannot be told apart or Y reads what X writes."""
    m = re.fullmatch(r"V_DUAL_(\w+?)(?:_e32)?_X_(\w+)", ins.base)
    srcs = [o for o in ins.uses if o.kind in ("reg", "imm")]
    if not m or len(ins.defs) != 2:
        return generic

    def count(name):
        b = normalize("V_" + name)
        for n, table in ((1, VOP1), (2, VOP2), (3, VOP3)):
            if b in table:
                return n
        return VOPD_SOURCES.get(b)
    nx, ny = count(m.group(1)), count(m.group(2))
    if nx is None or ny is None or nx + ny != len(srcs):
        return generic
    x = vopd_half(ins, m.group(1), ins.defs[:1], srcs[:nx])
    y = vopd_half(ins, m.group(2), ins.defs[1:], srcs[nx:])
    if x.defunits & y.useunits:
        return generic
    hx, hy = bind(x, cfg), bind(y, cfg)

    def h(w, i):
        hx(w, x)
        hy(w, y)
    return h


def bind(ins, cfg):
    """Chooses the handler of \\p ins."""
    b, op = ins.base, ins.opcode
    if b.startswith("V_DUAL_"):
        return h_vopd(ins, cfg)
    tgt = cfg.target
    if is_soft(op):
        if cfg.soft_waits != "honor":
            return h_nop
        b = "S_WAITCNT" if op == "S_WAITCNT_lds_direct" else normalize(op[:-len("_soft")])
    elif op in NOPS or b in NOPS:
        return h_nop
    if b == "INLINEASM" or b == "INLINEASM_BR":
        return h_inlineasm
    if b == "S_ENDPGM":
        return h_endpgm
    if b in BRANCHES:
        return h_branch(BRANCHES[b])
    if b == "S_WAITCNT":
        return h_waitcnt
    if b in ("S_WAITCNT_VMCNT", "S_WAIT_LOADCNT"):
        return h_wait_single(("vm",))
    if b in ("S_WAITCNT_LGKMCNT", "S_WAIT_DSCNT"):
        return h_wait_single(("lds",))
    if b == "S_WAIT_LOADCNT_DSCNT":
        return h_wait_single(("vm",), split=True)
    if b == "S_WAIT_STORECNT_DSCNT":
        return h_wait_single((None,), split=True)
    if b == "S_BARRIER":
        return h_sbarrier
    if b == "S_BARRIER_SIGNAL_IMM":
        return h_signal(False)
    if b == "S_BARRIER_SIGNAL_ISFIRST_IMM":
        return h_signal(True)
    if b == "S_BARRIER_WAIT":
        return h_bwait
    if b.startswith("DS_"):
        if b.startswith(NOT_LDS_DS):
            if b.startswith(("DS_GWS_", "DS_ORDERED_COUNT")):
                return h_unsupported("{op} (GDS/GWS)")
            return generic
        info = ds_info(b)
        if info is None:
            return h_unsupported("unknown LDS operation {op}")
        info.addr, info.data, info.offs = find_ds_operands(ins, info)
        ins.info = info
        return lambda w, i: w.run.ds(w, i)
    if is_lds_dma(b):
        return lambda w, i: w.run.dma(w, i)
    if "LDS" in b and not b.startswith(("V_", "S_")) or "ASYNC" in b or "TENSOR" in b \
            or b.startswith(("LDS_DIRECT", "LDS_PARAM", "DS_")):
        return h_unsupported("unsupported LDS operation {op}")
    if b in SALU:
        return SALU[b]
    m = _SCMP.match(b)
    if m:
        return h_scmp(m)
    m = re.fullmatch(r"S_BITCMP([01])_B(32|64)", b)
    if m:
        return h_bitcmp(int(m.group(2)), int(m.group(1)))
    m = re.fullmatch(r"S_CSELECT_B(32|64)", b)
    if m:
        return h_cselect(int(m.group(1)))
    m = re.fullmatch(r"S_CMOV_B(32|64)", b)
    if m:
        return h_cmov(int(m.group(1)))
    if b in ("S_ADDK_I32", "S_ADDK_U32"):
        return h_addk
    if b == "S_MULK_I32":
        return h_mulk
    m = re.fullmatch(r"S_([A-Z_0-9]+?)_SAVEEXEC_B(32|64)", b)
    if m and m.group(1) in SAVEEXEC:
        return h_saveexec(m.group(1), int(m.group(2)))
    m = re.fullmatch(r"S_(ANDN[12])_WREXEC_B(32|64)", b)
    if m:
        return h_saveexec(m.group(1), int(m.group(2)), wrexec=True)
    if b == "COPY":
        return h_copy
    if b in VOP1:
        return h_vop(VOP1[b], 1)
    if b in VOP2:
        return h_vop(VOP2[b], 2)
    if b in VOP3:
        return h_vop(VOP3[b], 3)
    m = _VCMP.match(b)
    if m:
        return h_vcmp(m)
    if b == "V_CNDMASK_B32":
        return h_cndmask
    carry = {"V_ADD_CO_U32": "add", "V_ADD_I32": "add", "V_SUB_CO_U32": "sub",
             "V_SUB_I32": "sub", "V_SUBREV_CO_U32": "subrev", "V_SUBREV_I32": "subrev",
             "V_ADDC_U32": "addc", "V_ADD_CO_CI_U32": "addc", "V_SUBB_U32": "subb",
             "V_SUB_CO_CI_U32": "subb", "V_SUBBREV_U32": "subbrev",
             "V_SUBREV_CO_CI_U32": "subbrev"}
    if b in carry:
        return h_carry(carry[b])
    if b == "V_READFIRSTLANE_B32":
        return h_readfirstlane
    if b == "V_READLANE_B32":
        return h_readlane
    if b == "V_WRITELANE_B32":
        return h_writelane
    if b == "V_MBCNT_LO_U32_B32":
        return h_mbcnt(False)
    if b == "V_MBCNT_HI_U32_B32":
        return h_mbcnt(True)
    if b in ("V_MOV_B64", "V_MOV_B64_PSEUDO"):
        return h_vmov64
    if b == "V_LSHLREV_B64":
        return h_vlshl64("lshlrev")
    if b == "V_LSHRREV_B64":
        return h_vlshl64("lshrrev")
    if b == "V_LSHL_ADD_U64":
        return h_vlshl64("lshl_add")
    if b == "V_MAD_U64_U32":
        return h_mad64(False)
    if b == "V_MAD_I64_I32":
        return h_mad64(True)
    if b.startswith("FLAT_"):
        return h_flat
    if b.startswith(("S_LOAD_", "S_BUFFER_LOAD_")) and not ins.idefs:
        return h_sload
    if counts_vm(b):
        return h_vmem_load
    if b == "SI_CALL":
        return lambda w, i: w.run.call(w, i)
    if b.startswith("V_CMPX") or b.startswith("S_") and any(x in b for x in CONTROL_WORDS) or \
            any(x in b for x in ("SI_CALL", "SETPC", "SWAPPC", "SI_IF", "SI_ELSE", "SI_LOOP",
                                 "SI_END_CF", "SI_RETURN", "SI_KILL", "SI_TCRETURN",
                                 "ENTER_STRICT", "EXIT_STRICT", "WQM", "WWM")):
        return h_unsupported("{op}: call, control flow or synchronization not modelled")
    if any(mo.space == 3 for mo in ins.memops):
        return h_unsupported("{op} with an LDS memoperand")
    return generic


def h_copy(w, ins):
    d = ins.defs[0]
    s = [o for o in ins.uses if o.kind in ("reg", "imm")][0]
    if d.vec:
        w.vwrite(d, w.vread(s, 64 if len(d.units) == 2 else 32), w.lanes())
    else:
        if s.kind == "reg" and s.vec:
            raise Unsupported("COPY from a VGPR to an SGPR")
        w.swrite(d, w.sread(s, 64 if len(d.units) == 2 else 32))


# ---------------------------------------------------------------------------
# Running functions
# ---------------------------------------------------------------------------


class Config:
    def __init__(self, target, items, addr, globals_, seed=1, lds_size=65536, step_limit=20000,
                 soft_waits="ignore", W=None, relocate=False, calls="unsupported",
                 ended_waves="drop"):
        self.target, self.items, self.addr, self.globals = target, items, addr, globals_
        self.ended_waves = ended_waves
        self.seed, self.lds_size, self.step_limit = seed, lds_size, step_limit
        self.soft_waits = soft_waits
        self.relocate = relocate
        self.calls = calls
        self.W = W or target.wave
        self.dims = (items, 1, 1)


class FnResult:
    def __init__(self, name):
        self.name = name
        self.runs = 0
        self.completed = 0
        self.unsupported = []
        self.steplimit = []
        self.hangs = {}       # message -> (argset, schedule)
        self.hang_args = set()
        self.pairing = {}     # message -> schedule
        self.pairing_args = set()
        self.races = {}       # key -> race dict (+ schedule)
        self.note = None
        self.valdep = False

    @property
    def status(self):
        if self.note:
            return "unsupported"
        if self.completed or self.hangs:
            return "executed"
        if self.steplimit and not self.unsupported:
            return "step limit"
        return "unsupported"


SCHEDULES = [("rr", True), ("fwd", True), ("rev", True), ("rr", False), ("fwd", False)]


def run_function(fn, module_globals, target, opts, argsets=None):
    res = FnResult(fn.name)
    if not fn.kernel:
        res.note = "not a kernel"
        return res
    W = opts.wave or (64 if fn.wave64 else target.wave)
    dims = None
    if getattr(opts, "dims", None):
        dims = tuple(int(x) for x in (opts.dims.split(",") + ["1", "1"])[:3])
        items = dims[0] * dims[1] * dims[2]
    else:
        items = opts.items or (96 if W == 64 else 112)
    if fn.flat_max and items > fn.flat_max:
        if dims:
            res.note = f"--dims give {items} work-items, the function allows {fn.flat_max}"
            return res
        items = fn.flat_max
    cfg = Config(target, items, opts.addr, module_globals, seed=opts.seed,
                 step_limit=opts.step_limit, soft_waits=opts.soft_waits, W=W,
                 relocate=opts.relocate_unknown == "on",
                 calls=getattr(opts, "calls", "unsupported"),
                 ended_waves=getattr(opts, "ended_waves", "drop"))
    if dims:
        cfg.dims = dims
    try:
        for b in fn.blocks:
            for ins in b.instrs:
                ins.fn = bind(ins, cfg)
    except Unsupported as e:
        res.note = str(e)
        return res
    nargs = opts.args if argsets is None else None
    arglist = range(nargs) if argsets is None else argsets
    for a in arglist:
        scheds = list(SCHEDULES) + [("random", k % 2 == 0) for k in range(opts.seeds)]
        for si, (pol, late) in enumerate(scheds):
            rseed = mix(opts.seed, a, si)
            r = Run(fn, cfg, a, pol, late, rseed).go()
            res.runs += 1
            name = f"args{a}/{pol}{'' if pol != 'random' else si}/{'late' if late else 'early'}"
            if r.status == "ok":
                res.completed += 1
            elif r.status == "unsupported":
                res.unsupported.append((name, r.reason))
            elif r.status == "step limit":
                res.steplimit.append((name, r.reason))
            if r.hang:
                res.hangs.setdefault(r.hang, name)
                res.hang_args.add(a)
            for msg in r.pairing:
                res.pairing.setdefault(msg, name)
                res.pairing_args.add(a)
            for k, v in r.races.items():
                if k not in res.races:
                    v = dict(v)
                    v["schedule"] = name
                    res.races[k] = v
            res.valdep |= r.valdep
            if r.status == "unsupported" or (r.status == "step limit" and not r.valdep):
                break   # every schedule would stop at the same point
            if si == 0 and opts.schedules == "auto" and not r.valdep:
                break
    return res


def describe_race(r):
    a, b = r["first"], r["second"]
    note = " (still pending)" if r["pending"] else ""
    return (f"{r['kind']}{' async' if r['async'] else ''}: line {a.line} wave {r['waves'][0]}"
            f" `{a.text}`{note}\n      -> line {b.line} wave {r['waves'][1]} `{b.text}`\n"
            f"      bytes [{r['lo']:#x}, {r['hi']:#x}), schedule {r['schedule']}"
            + (f" (and {len(r['pairs']) - 1} other wave pairs)" if len(r["pairs"]) > 1 else ""))


def strip_debug(text):
    return re.sub(r",? ?debug-location !\w+(\([^)]*\))?", "", text)


def file_main(a):
    text = open(a.file).read()
    mod = parse_module(text)
    target = Target(a.cpu, None)
    bad = False
    fns = [f for f in mod.functions if not a.function or f.name == a.function]
    for fn in fns:
        res = run_function(fn, mod.globals, target, a)
        print(f"{fn.name}: {res.status} ({res.completed}/{res.runs} runs complete"
              f"{', value-dependent' if res.valdep else ''}), races: {len(res.races)},"
              f" hangs: {len(res.hangs)}")
        if res.note:
            print(f"  unsupported: {res.note}")
        for name, why in res.unsupported[:1]:
            print(f"  unsupported: {why} ({name})")
        for name, why in res.steplimit[:1]:
            print(f"  step limit: {why} ({name})")
        for msg, name in list(res.hangs.items())[:3]:
            print(f"  hang: {msg} ({name})")
            bad = True
        if len(res.hangs) > 3:
            print(f"  ... {len(res.hangs) - 3} more hang reports")
        for msg, name in list(res.pairing.items())[:1]:
            print(f"  divergent barrier: {msg} ({name})")
        for k in sorted(res.races, key=lambda k: (k[1], k[2], k[0])):
            r = dict(res.races[k])
            for key in ("first", "second"):
                r[key] = type("I", (), {"line": r[key].line, "text": strip_debug(r[key].text)})
            print("  race " + describe_race(r))
            bad = True
    return 1 if bad else 0


# ---------------------------------------------------------------------------
# Fuzz driver
# ---------------------------------------------------------------------------

WARN = re.compile(r"^warning: (?:fuzz\.c:(\d+):\d+|[^:]*:\d+:\d+): amdgpu-lds-barriers: .*"
                  r"between (\S+)(?: \([^)]*\))? and (\S+)(?: \([^)]*\))? cannot be covered")


def split_module(text):
    """(IR header document, {function name: its document})."""
    docs = re.split(r"(?m)^(?=---)", text)
    header, fns = "", {}
    for d in docs:
        if d.startswith("--- |"):
            header = d
        m = re.search(r"(?m)^name:\s+'?\"?([^'\"\s]+)", d)
        if m and d.startswith("---") and not d.startswith("--- |"):
            fns[m.group(1)] = d
    return header, fns


def oracle_task(job):
    cpu, name, header, doc, indoc, opts = job
    target = Target(cpu)
    mod = parse_module(header + doc)
    fn = [f for f in mod.functions if f.name == name][0]
    res = run_function(fn, mod.globals, target, opts)
    out = {"name": name, "status": res.status, "runs": res.runs, "completed": res.completed,
           "valdep": res.valdep, "hangs": dict(res.hangs), "hang_args": set(res.hang_args),
           "unsupported": (res.note or (res.unsupported[0][1] if res.unsupported else None)),
           "steplimit": bool(res.steplimit), "races": [], "input_hang_args": set(),
           "pairing": dict(res.pairing), "input_bad": False}
    for r in res.races.values():
        out["races"].append({"kind": r["kind"], "async": r["async"],
                             "first": (r["first"].line, strip_debug(r["first"].text),
                                       r["first"].opcode),
                             "second": (r["second"].line, strip_debug(r["second"].text),
                                        r["second"].opcode),
                             "waves": r["waves"], "bytes": (r["lo"], r["hi"]),
                             "schedule": r["schedule"], "pending": r["pending"]})
    if (res.hangs or res.pairing or res.races) and indoc is not None:
        # Does the input already hang or pair different barriers?
        imod = parse_module(header + indoc)
        ifn = [f for f in imod.functions if f.name == name][0]
        iopts = argparse.Namespace(**vars(opts))
        iopts.calls = "opaque"
        # A barrier some waves skip is the input's own defect even when the
        # skipping waves end before the others need them (read strictly).
        iopts.ended_waves = "hang"
        ires = run_function(ifn, imod.globals, target, iopts)
        out["input_hang_args"] = set(ires.hang_args)
        out["input_bad"] = bool(ires.hangs or ires.pairing)
    return out


def run_pass(llc, plugin, cpu, text, pipeline):
    passes = "amdgpu-lds-barriers" + (",si-insert-waitcnts" if pipeline == "waitcnts" else "")
    p = subprocess.run([llc, f"-load={plugin}", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}",
                        "-x", "mir", "-", "-o", "-", f"-run-pass={passes}"],
                       input=text, capture_output=True, text=True)
    return p


def fuzz_main(a):
    sys.path.insert(0, os.path.join(ROOT, "utils", "fuzz"))
    import mir_fuzz
    import multiprocessing
    plugins = [("current", a.plugin)]
    if a.baseline_plugin:
        plugins.append(("baseline", a.baseline_plugin))
    cpus = a.cpu.split(",")
    summary = {}
    details = []
    pool = multiprocessing.Pool(a.jobs) if a.jobs > 1 else None
    for cpu in cpus:
        gen = mir_fuzz.Gen(random.Random(f"{a.fuzz_seed}-{cpu}-{a.mode}-oracle"), cpu, a.mode,
                           a.shape)
        modules = []
        for m0 in range(0, a.fuzz, a.per_module):
            fns = mir_fuzz.generate(gen, m0, min(a.per_module, a.fuzz - m0), "all")
            modules.append((fns, mir_fuzz.module(fns)))
        for label, plugin in plugins:
            st = summary.setdefault((label, cpu), new_stats())
            jobs, meta = [], []
            units = []
            for fns, text in modules:
                p = run_pass(a.llc, plugin, cpu, text, a.pipeline)
                if p.returncode == 0:
                    units.append((fns, text, p))
                    continue
                # Try the functions one by one.
                for f in fns:
                    t1 = mir_fuzz.module([f])
                    p1 = run_pass(a.llc, plugin, cpu, t1, a.pipeline)
                    if p1.returncode == 0:
                        units.append(([f], t1, p1))
                        continue
                    st["pass_failures"] += 1
                    st["functions"] += 1
                    err = [l for l in p1.stderr.splitlines() if l.startswith("error")][:1]
                    details.append(f"[{label} {cpu}] {f.name}: pass failed: {err}")
            for fns, text, p in units:
                ihead, idocs = split_module(text)
                warned = {}
                unknown_warn = 0
                for line in p.stderr.splitlines():
                    m = WARN.match(line)
                    if m:
                        if m.group(1):
                            warned.setdefault(int(m.group(1)) - 1, set()).add(
                                (normalize(m.group(2)), normalize(m.group(3))))
                        else:
                            unknown_warn += 1
                st["unattributed_warnings"] += unknown_warn
                head, docs = split_module(p.stdout)
                for f in fns:
                    if f.name not in docs:
                        st["missing"] += 1
                        continue
                    jobs.append((cpu, f.name, head, docs[f.name], idocs.get(f.name), a))
                    meta.append((f, warned.get(f.index)))
            results = pool.map(oracle_task, jobs, chunksize=4) if pool else map(oracle_task, jobs)
            for (f, warn), r in zip(meta, results):
                tally(st, f, warn, r, details, label, cpu, a)
    if pool:
        pool.close()
        pool.join()
    bad = print_summary(summary, plugins, cpus, a)
    if details and a.verbose:
        print("\ndetails:")
        for d in details[:a.verbose]:
            print(d)
    return 1 if bad else 0


def new_stats():
    return {"functions": 0, "executed": 0, "unsupported": 0, "steplimit_only": 0,
            "steplimit_runs": 0, "pass_failures": 0, "missing": 0, "warned_fns": 0,
            "unattributed_warnings": 0, "valdep": 0,
            "race_fns": 0, "races": {}, "warned_race_fns": 0, "warned_races": {},
            "warned_unmatched": 0, "hang_fns": 0, "input_hang_fns": 0, "unsup_reasons": {},
            "pairing_fns": 0, "input_bad_race_fns": 0}


def race_class(r):
    """RAW, WAR, WAW (DS writes), WAW-async (an asynchronous write on either
    side), SELF (own in-flight transfer), or SAME (one instruction instance
    in two waves: no barrier can order it)."""
    k = r["kind"]
    if k.startswith("SAME-"):
        return "SAME"
    if k == "WAW" and r["async"]:
        return "WAW-async"
    return k


def tally(st, f, warn, r, details, label, cpu, a):
    st["functions"] += 1
    if warn:
        st["warned_fns"] += 1
    if r["status"] == "executed":
        st["executed"] += 1
    elif r["status"] == "step limit":
        st["steplimit_only"] += 1
    else:
        st["unsupported"] += 1
        why = re.sub(r"\d+", "N", r["unsupported"] or "?")
        st["unsup_reasons"][why] = st["unsup_reasons"].get(why, 0) + 1
    if r["steplimit"]:
        st["steplimit_runs"] += 1
    if r["valdep"]:
        st["valdep"] += 1
    bad_input = r["input_bad"]
    if r["hangs"] or r["pairing"]:
        if bad_input:
            st["input_hang_fns"] += 1
        else:
            if r["hangs"]:
                st["hang_fns"] += 1
            else:
                st["pairing_fns"] += 1
            for m, s in list(r["hangs"].items()) + list(r["pairing"].items()):
                details.append(f"[{label} {cpu}] {f.name}: HANG {m} ({s})")
    if r["races"] and bad_input:
        st["input_bad_race_fns"] += 1
    elif r["races"]:
        if warn:
            st["warned_race_fns"] += 1
            unmatched = False
            for x in r["races"]:
                c = race_class(x)
                st["warned_races"][c] = st["warned_races"].get(c, 0) + 1
                pair = (normalize(x["first"][2]), normalize(x["second"][2]))
                if c not in ("SAME", "WAW-async") and pair not in warn and pair[::-1] not in warn:
                    unmatched = True
                    details.append(f"[{label} {cpu}] {f.name} (warned, no matching warning):"
                                   f" {c} line {x['first'][0]} wave {x['waves'][0]}"
                                   f" `{x['first'][1]}` -> line {x['second'][0]} wave"
                                   f" {x['waves'][1]} `{x['second'][1]}` {x['schedule']}")
            if unmatched:
                st["warned_unmatched"] += 1
        else:
            st["race_fns"] += 1
            for x in r["races"]:
                c = race_class(x)
                st["races"][c] = st["races"].get(c, 0) + 1
                if c not in ("WAW-async", "SAME") or a.verbose > 100:
                    details.append(
                        f"[{label} {cpu}] {f.name}: {c} line {x['first'][0]} wave"
                        f" {x['waves'][0]} `{x['first'][1]}` -> line {x['second'][0]} wave"
                        f" {x['waves'][1]} `{x['second'][1]}` bytes [{x['bytes'][0]:#x},"
                        f" {x['bytes'][1]:#x}) {x['schedule']}")


def fmt_kinds(d):
    keys = ["RAW", "WAR", "WAW", "SELF", "WAW-async", "SAME"]
    return ", ".join(f"{k} {d.get(k, 0)}" for k in keys)


def print_summary(summary, plugins, cpus, a):
    bad = False
    for label, plugin in plugins:
        print(f"== plugin {label}: {plugin}")
        tot = new_stats()
        for cpu in cpus:
            st = summary[(label, cpu)]
            print_stats(cpu, st)
            for k, v in st.items():
                if isinstance(v, dict):
                    for kk, vv in v.items():
                        tot[k][kk] = tot[k].get(kk, 0) + vv
                else:
                    tot[k] += v
        if len(cpus) > 1:
            print_stats("total", tot)
        real = sum(v for k, v in tot["races"].items() if k not in ("WAW-async", "SAME"))
        if label == "current" and (real or tot["hang_fns"] or tot["pairing_fns"] or
                                   tot["pass_failures"]):
            bad = True
    return bad


def print_stats(cpu, st):
    print(f"{cpu}: functions {st['functions']}, executed {st['executed']},"
          f" unsupported {st['unsupported']}, step limit only {st['steplimit_only']}"
          f" (functions with a step-limited run: {st['steplimit_runs']}),"
          f" pass failures {st['pass_failures']}, value-dependent {st['valdep']}")
    print(f"  races outside reported windows: {sum(st['races'].values())} in"
          f" {st['race_fns']} functions ({fmt_kinds(st['races'])})")
    print(f"  hangs: {st['hang_fns']} functions, divergent barrier pairing without hang:"
          f" {st['pairing_fns']} (input already hangs or pairs: {st['input_hang_fns']},"
          f" races in such functions not counted: {st['input_bad_race_fns']})")
    print(f"  functions with 'cannot be covered' warnings: {st['warned_fns']}, with races:"
          f" {st['warned_race_fns']} ({fmt_kinds(st['warned_races'])}); with a race whose"
          f" opcodes match no warning: {st['warned_unmatched']}")
    if st["unsup_reasons"]:
        top = sorted(st["unsup_reasons"].items(), key=lambda kv: -kv[1])[:4]
        print("  unsupported because: " + "; ".join(f"{k} ({v})" for k, v in top))


def main(argv=None):
    ap = argparse.ArgumentParser(description="Executable LDS race oracle for AMDGPU MIR.")
    ap.add_argument("file", nargs="?")
    ap.add_argument("--cpu", default=None)
    ap.add_argument("--items", type=int, default=None,
                    help="work-items of the workgroup (default 96 wave64, 112 wave32)")
    ap.add_argument("--dims", default=None,
                    help="workgroup shape X,Y,Z (instead of --items, which is X)")
    ap.add_argument("--wave", type=int, choices=[32, 64], default=None)
    ap.add_argument("--seeds", type=int, default=2, help="random schedules per argument set")
    ap.add_argument("--args", type=int, default=3,
                    help="kernel-argument sets (0: every argument 1; 1: 1-3; more: mixed"
                         " values and lane masks)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--schedules", choices=["all", "auto"], default=None)
    ap.add_argument("--addr", choices=["memop", "reg"], default="memop")
    ap.add_argument("--soft-waits", choices=["ignore", "honor"], default="ignore")
    ap.add_argument("--ended-waves", choices=["drop", "hang"], default="drop",
                    help="drop: a barrier waits for the waves that have not ended (the ISA);"
                         " hang: a wave ending while others pass a barrier it did not"
                         " reach is a hang")
    ap.add_argument("--calls", choices=["unsupported", "opaque"], default="unsupported",
                    help="opaque: a call reads and writes all declared LDS (complete at"
                         " lgkmcnt(0)/dscnt(0) only), runs no barrier, clobbers caller-saved"
                         " registers")
    ap.add_argument("--relocate-unknown", choices=["on", "off"], default=None,
                    help="memop mode: put DS accesses without LDS memoperand on each LDS"
                         " global in turn (one per argument set); default on with --fuzz")
    ap.add_argument("--step-limit", type=int, default=20000)
    ap.add_argument("--function", default=None)
    ap.add_argument("--fuzz", type=int, default=0, help="driver: functions per target")
    ap.add_argument("--mode", default="mixed", help="driver: fuzzer mode")
    ap.add_argument("--shape", default=None, help="driver: one fuzzer shape only")
    ap.add_argument("--fuzz-seed", type=int, default=1)
    ap.add_argument("--per-module", type=int, default=25)
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build/lib/AMDGPULDSBarriers.so"))
    ap.add_argument("--baseline-plugin", default=None)
    ap.add_argument("--llc", default="llc-22")
    ap.add_argument("--pipeline", choices=["pass", "waitcnts"], default="pass",
                    help="driver: run si-insert-waitcnts after the pass too")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--verbose", "-v", type=int, nargs="?", const=50, default=0)
    a = ap.parse_args(argv)
    if a.fuzz:
        a.cpu = a.cpu or "gfx942,gfx1030,gfx1201"
        a.schedules = a.schedules or "auto"
        a.relocate_unknown = a.relocate_unknown or "on"
        return fuzz_main(a)
    if not a.file:
        ap.error("a MIR file, or --fuzz N")
    a.cpu = a.cpu or "gfx942"
    a.schedules = a.schedules or "all"
    a.relocate_unknown = a.relocate_unknown or "off"
    return file_main(a)


if __name__ == "__main__":
    sys.exit(main())
