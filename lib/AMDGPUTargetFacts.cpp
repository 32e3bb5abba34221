//===- AMDGPUTargetFacts.cpp - AMDGPU facts the LDS barrier pass needs ----===//
//
// Opcode roles by name, generations by ISA version, and the counter
// encodings of the wait instructions (the AMDGPU ISA manuals; mirrored by
// AMDGPUBaseInfo upstream, which a plugin cannot call).
//
//===----------------------------------------------------------------------===//

#include "AMDGPUTargetFacts.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/CodeGen/TargetOpcodes.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

/// The opcode named \p Name in \p MII. TableGen numbers a target's opcodes
/// after the generic ones, pseudo instructions first, each group sorted by
/// name: two binary searches find a target opcode. The order is only
/// relied on for speed: a miss scans the table.
std::optional<unsigned>
llvm::ldsbarriers::lookupOpcodeByName(const MCInstrInfo &MII, StringRef Name,
                                      bool *ScannedTable) {
  if (ScannedTable)
    *ScannedTable = false;
  unsigned Lo = TargetOpcode::GENERIC_OP_END + 1, E = MII.getNumOpcodes();
  if (Lo < E) {
    auto Opcodes = llvm::seq(Lo, E);
    auto Real = llvm::partition_point(
        Opcodes, [&](unsigned I) { return MII.get(I).isPseudo(); });
    auto NameBefore = [&](unsigned I) { return MII.getName(I) < Name; };
    for (auto [B, End] :
         {std::pair(Opcodes.begin(), Real), std::pair(Real, Opcodes.end())}) {
      auto It = std::partition_point(B, End, NameBefore);
      if (It != End && MII.getName(*It) == Name)
        return *It;
    }
  }
  if (ScannedTable)
    *ScannedTable = true;
  for (unsigned I = 0; I != E; ++I)
    if (MII.getName(I) == Name)
      return I;
  return std::nullopt;
}

TargetFacts TargetFacts::get(const MCSubtargetInfo &STI,
                             const MCInstrInfo &MII) {
  TargetFacts F;
  F.MII = &MII;
  F.CPU = STI.getCPU().str();
  AMDGPU::IsaVersion V = F.Isa = AMDGPU::getIsaVersion(F.CPU);
  if (V.Major == 9)
    F.Gen = Generation::GFX9;
  else if (V.Major == 10)
    F.Gen = Generation::GFX10;
  else if (V.Major == 11)
    F.Gen = Generation::GFX11;
  else if (V.Major == 12 && V.Minor == 0)
    F.Gen = Generation::GFX12;
  else if (V.Major == 12 && V.Minor == 5)
    F.Gen = Generation::GFX1250;

  // gfx9 is wave64 only; gfx10+ default to wave32 unless asked otherwise.
  if (STI.checkFeatures("+wavefrontsize64"))
    F.WaveSize = 64;
  else if (STI.checkFeatures("+wavefrontsize32") || V.Major >= 10)
    F.WaveSize = 32;
  F.ArchitectedSGPRs = STI.checkFeatures("+architected-sgprs");
  return F;
}

std::optional<unsigned> TargetFacts::getOpcode(SyncOpcode Op) const {
  // The AMDGPU:: enumerators' names, in the order of SyncOpcode.
  static constexpr StringLiteral Names[] = {
      "S_WAITCNT",       "S_BARRIER",       "S_BARRIER_SIGNAL_IMM",
      "S_BARRIER_WAIT",  "S_WAIT_DSCNT",    "S_WAIT_EXPCNT",
      "S_WAIT_ASYNCCNT", "S_WAIT_TENSORCNT"};
  auto [It, Inserted] = SyncOpcodes.try_emplace(unsigned(Op));
  if (Inserted)
    It->second = lookupOpcodeByName(*MII, Names[unsigned(Op)]);
  return It->second;
}

/// DS atomics whose operation commutes with itself; the key drops "_RTN" so
/// that returning and non-returning forms match.
static std::string commutativeKey(StringRef G) {
  static const char *const Ops[] = {"DS_ADD_",    "DS_MIN_",   "DS_MAX_",
                                    "DS_AND_",    "DS_OR_",    "DS_XOR_",
                                    "DS_PK_ADD_", "DS_APPEND", "DS_CONSUME"};
  for (const char *Op : Ops) {
    if (!G.starts_with(Op))
      continue;
    // SRC2 forms read a second LDS location: not a plain commutative update.
    if (G.contains("_SRC2_") || G.contains("_GS_REG"))
      return "";
    auto [Before, After] = G.split("_RTN");
    return (Before + After).str();
  }
  return "";
}

bool TargetFacts::readsWorkgroupUniformHwReg(unsigned Opcode,
                                             int64_t Imm) const {
  // hwreg(HW_REG_IB_STS2, 6, 4): id 28, offset 6, size - 1 = 3 in the
  // gfx12 simm16 layout (id [5:0], offset [10:6], size - 1 [15:11]).
  constexpr int64_t ClusterStatus = 28 | 6 << 6 | 3 << 11;
  if (Gen != Generation::GFX1250 || Imm != ClusterStatus)
    return false;
  StringRef G = getGenericOpcodeName(MII->getName(Opcode));
  return G == "S_GETREG_B32" || G == "S_GETREG_B32_const";
}

ScalarOp TargetFacts::scalarOp(unsigned Opcode) const {
  auto [It, Inserted] = ScalarOps.try_emplace(Opcode, ScalarOp::Other);
  if (!Inserted)
    return It->second;
  StringRef G = getGenericOpcodeName(MII->getName(Opcode));
  if (G.starts_with("S_CMP") && (G.contains("_EQ_") || G.contains("_LG_")))
    return It->second = ScalarOp::EqualityCompare;
  return It->second =
             StringSwitch<ScalarOp>(G)
                 .Cases({"S_MOV_B32", "S_MOV_B64"}, ScalarOp::Move)
                 .Cases({"S_ANDN2_B32", "S_ANDN2_B64"}, ScalarOp::AndNot)
                 .Cases({"S_AND_B32", "S_AND_B64"}, ScalarOp::And)
                 .Cases({"S_OR_B32", "S_OR_B64"}, ScalarOp::Or)
                 .Cases({"S_XOR_B32", "S_XOR_B64"}, ScalarOp::Xor)
                 .StartsWith("S_OR_SAVEEXEC", ScalarOp::OrSaveExec)
                 .Case("S_CBRANCH_VCCZ", ScalarOp::BranchVCCZ)
                 .Case("S_CBRANCH_VCCNZ", ScalarOp::BranchVCCNZ)
                 .StartsWith("S_BARRIER_SIGNAL_ISFIRST",
                             ScalarOp::IsFirstSignal)
                 .Case("S_WAITCNT_lds_direct", ScalarOp::LDSDirectSoftWait)
                 .Default(ScalarOp::Other);
}

bool TargetFacts::isScalarRegClass(const TargetRegisterClass &RC,
                                   const TargetRegisterInfo &TRI) const {
  return StringRef(TRI.getRegClassName(&RC)).starts_with("SReg");
}

/// How the results of the opcode named \p G (generic name) vary across the
/// lanes and waves of a workgroup.
static ValueRole classifyValueRole(StringRef Name, StringRef G) {
  if (G == "COPY" || G == "S_MOV_B32" || G == "S_MOV_B64" ||
      G == "V_MOV_B32_e32" || G == "V_MOV_B32_e64" || G == "V_MOV_B64_e32" ||
      G == "V_MOV_B64_e64" || G == "V_MOV_B64_PSEUDO" ||
      G.starts_with("V_ACCVGPR_WRITE_B32") ||
      G.starts_with("V_ACCVGPR_READ_B32") || G.starts_with("V_ACCVGPR_MOV_B32"))
    return ValueRole::Move;
  if (G.contains("SAVEEXEC"))
    return ValueRole::ExecSave;
  if (G == "V_READFIRSTLANE_B32")
    return ValueRole::ReadFirstLane;
  if (G == "V_READLANE_B32")
    return ValueRole::ReadLane;
  if (G == "V_WRITELANE_B32")
    return ValueRole::WriteLane;
  // Lane ids and lane-mixing operations.
  if (G.starts_with("V_MBCNT_") || G.starts_with("V_PERMLANE") ||
      G.starts_with("DS_PERMUTE_") || G.starts_with("DS_BPERMUTE_") ||
      G.starts_with("DS_SWIZZLE_") || Name.contains("_dpp") ||
      Name.contains("_DPP") || G.starts_with("V_SWAP_B32") ||
      G.starts_with("V_SWAPREL"))
    return ValueRole::LaneVarying;
  // Per-wave state: hardware registers (wave id, ...), timers, message
  // returns, barrier state, scalar atomics, the isfirst SCC.
  if ((G.starts_with("S_GET") && !G.starts_with("S_GETPC")) ||
      G.starts_with("S_MEMTIME") || G.starts_with("S_MEMREALTIME") ||
      G.starts_with("S_SENDMSG_RTN") || G.starts_with("S_ATOMIC_") ||
      G.starts_with("S_BUFFER_ATOMIC_") ||
      G == "S_BARRIER_SIGNAL_ISFIRST_IMM" ||
      G == "S_BARRIER_SIGNAL_ISFIRST_M0" || G.starts_with("S_TTRACEDATA"))
    return ValueRole::PerWave;
  if (G.starts_with("S_LOAD_") || G.starts_with("S_BUFFER_LOAD_"))
    return ValueRole::ScalarLoad;
  // Scratch is the wave's own memory: the same address holds another value
  // in each wave.
  if (G.starts_with("S_SCRATCH_LOAD_"))
    return ValueRole::PerWave;
  if (G.starts_with("S_CSELECT_"))
    return ValueRole::ScalarSelect;
  if (G.starts_with("S_CMP") || G.starts_with("S_BITCMP"))
    return ValueRole::ScalarCompare;
  static const char *const Logic[] = {
      "S_AND_", "S_OR_",   "S_XOR_", "S_ANDN2_",    "S_ORN2_",   "S_NAND_",
      "S_NOR_", "S_XNOR_", "S_NOT_", "S_AND_NOT1_", "S_OR_NOT1_"};
  for (const char *P : Logic)
    if (G.starts_with(P) && (G.ends_with("_B32") || G.ends_with("_B64")))
      return ValueRole::ScalarLogic;
  if (G.starts_with("V_"))
    return ValueRole::VectorOp;
  return ValueRole::Generic;
}

ValueRole TargetFacts::valueRole(unsigned Opcode) const {
  auto [It, Inserted] = ValueRoles.try_emplace(Opcode);
  if (Inserted) {
    StringRef Name = MII->getName(Opcode);
    It->second = classifyValueRole(Name, getGenericOpcodeName(Name));
  }
  return It->second;
}

static OpcodeInfo withRole(OpcodeRole Role) {
  OpcodeInfo Info;
  Info.Role = Role;
  return Info;
}

/// Barriers, waits and branches: the instructions that order the waves or
/// steer them.
static std::optional<OpcodeRole> classifySyncRole(StringRef G) {
  return StringSwitch<std::optional<OpcodeRole>>(G)
      .Case("S_BARRIER", OpcodeRole::Barrier)
      .Cases({"S_BARRIER_SIGNAL_IMM", "S_BARRIER_SIGNAL_ISFIRST_IMM"},
             OpcodeRole::BarrierSignal)
      .Case("S_BARRIER_WAIT", OpcodeRole::BarrierWait)
      .StartsWith("S_BARRIER_", OpcodeRole::UnmodeledBarrier)
      .StartsWith("S_WAKEUP_BARRIER", OpcodeRole::UnmodeledBarrier)
      .EndsWith("_soft", OpcodeRole::SoftWait)
      .Case("S_WAITCNT_lds_direct", OpcodeRole::SoftWait)
      .Cases({"S_WAITCNT", "S_WAITCNT_LGKMCNT", "S_WAITCNT_VMCNT",
              "S_WAITCNT_EXPCNT", "S_WAIT_DSCNT", "S_WAIT_LOADCNT",
              "S_WAIT_LOADCNT_DSCNT", "S_WAIT_STORECNT_DSCNT",
              "S_WAIT_ASYNCCNT", "S_WAIT_TENSORCNT", "S_WAIT_EXPCNT"},
             OpcodeRole::HardWait)
      .Cases({"S_CBRANCH_EXECZ", "S_CBRANCH_EXECNZ", "SI_IF", "SI_ELSE",
              "SI_LOOP"},
             OpcodeRole::ExecBranch)
      .Cases({"S_CBRANCH_SCC0", "S_CBRANCH_SCC1", "S_CBRANCH_VCCZ",
              "S_CBRANCH_VCCNZ"},
             OpcodeRole::ScalarBranch)
      .Default(std::nullopt);
}

/// DS_ instructions: which touch LDS memory, and how.
static OpcodeInfo classifyDSRole(StringRef G) {
  // Lane permutes, GWS, GDS-only and ordered-count use no LDS memory.
  if (G.starts_with("DS_GWS_") || G == "DS_ORDERED_COUNT" ||
      G.starts_with("DS_PERMUTE_") || G.starts_with("DS_BPERMUTE_") ||
      G.starts_with("DS_SWIZZLE_") || G == "DS_NOP" || G.contains("_GS_REG_"))
    return {};
  if (G == "DS_DIRECT_LOAD" || G == "DS_PARAM_LOAD")
    return withRole(OpcodeRole::LDSDirect);
  if (G.starts_with("DS_READ") || G.starts_with("DS_LOAD_"))
    return {OpcodeRole::DSRead, "", /*TwoAddress=*/G.starts_with("DS_READ2")};
  if (G.starts_with("DS_WRITE") && !G.contains("_SRC2_"))
    return {OpcodeRole::DSWrite, "", /*TwoAddress=*/G.starts_with("DS_WRITE2")};
  static const char *const AtomicPrefixes[] = {
      "DS_ADD_",        "DS_SUB_",     "DS_RSUB_",     "DS_INC_",
      "DS_DEC_",        "DS_MIN_",     "DS_MAX_",      "DS_AND_",
      "DS_OR_",         "DS_XOR_",     "DS_MSKOR_",    "DS_WRXCHG",
      "DS_CMPST",       "DS_CONDXCHG", "DS_COND_SUB_", "DS_PK_ADD_",
      "DS_WRAP_",       "DS_APPEND",   "DS_CONSUME",   "DS_BVH_STACK_",
      "DS_WRITE_SRC2_", "DS_ATOMIC_"};
  for (const char *P : AtomicPrefixes)
    if (G.starts_with(P))
      return {OpcodeRole::DSAtomic, commutativeKey(G),
              /*TwoAddress=*/G.contains("_SRC2_") ||
                  G.starts_with("DS_WRXCHG2")};
  return withRole(OpcodeRole::DSUnknown);
}

/// The other memory instructions: those that move data between LDS and
/// memory, and those that share a counter with them.
static OpcodeInfo classifyMemoryRole(StringRef G) {
  if (G == "LDS_DIRECT_LOAD" || G == "LDS_PARAM_LOAD")
    return withRole(OpcodeRole::LDSDirect);
  if (G.starts_with("BUFFER_STORE_LDS_"))
    return {OpcodeRole::LDSDMAStore, "", /*TwoAddress=*/false, /*LaneBytes=*/4};
  if ((G.starts_with("BUFFER_LOAD_") && G.contains("_LDS_")) ||
      G.starts_with("GLOBAL_LOAD_LDS_") || G.starts_with("SCRATCH_LOAD_LDS_")) {
    unsigned LaneBytes = G.contains("DWORDX4")   ? 16
                         : G.contains("DWORDX3") ? 12
                         : G.contains("DWORDX2") ? 8
                         : G.contains("DWORD")   ? 4
                         // A format load to LDS writes one dword per lane.
                         : G.contains("FORMAT_X") ? 4
                         : G.contains("SHORT")    ? 2
                                                  : 1;
    return {OpcodeRole::LDSDMA, "", /*TwoAddress=*/false, LaneBytes};
  }
  if (G.starts_with("GLOBAL_LOAD_ASYNC_TO_LDS_") ||
      G.starts_with("CLUSTER_LOAD_ASYNC_TO_LDS_"))
    return withRole(OpcodeRole::AsyncLoadToLDS);
  if (G.starts_with("GLOBAL_STORE_ASYNC_FROM_LDS_"))
    return withRole(OpcodeRole::AsyncStoreFromLDS);
  if (G.starts_with("TENSOR_LOAD_TO_LDS"))
    return withRole(OpcodeRole::TensorLoadToLDS);
  if (G.starts_with("TENSOR_STORE_FROM_LDS"))
    return withRole(OpcodeRole::TensorStoreFromLDS);
  // Plain buffer/global/scratch loads return in order with LDS DMA on
  // vmcnt. FLAT (may complete early through LDS) and image operations (may
  // complete out of order) are not counted.
  if (G.starts_with("BUFFER_LOAD_") || G.starts_with("GLOBAL_LOAD_") ||
      G.starts_with("SCRATCH_LOAD_"))
    return withRole(OpcodeRole::VMemLoad);
  if (G.starts_with("FLAT_"))
    return withRole(OpcodeRole::FlatMemory);
  return {};
}

// Names are read once per opcode and function.
OpcodeInfo TargetFacts::classify(unsigned Opcode) const {
  auto [It, Inserted] = Classified.try_emplace(Opcode);
  if (!Inserted)
    return It->second;
  StringRef G = getGenericOpcodeName(MII->getName(Opcode));
  if (std::optional<OpcodeRole> Role = classifySyncRole(G))
    return It->second = withRole(*Role);
  return It->second =
             G.starts_with("DS_") ? classifyDSRole(G) : classifyMemoryRole(G);
}

unsigned TargetFacts::encodeWaitcnt(const WaitThresholds &W) const {
  // Field layouts of the S_WAITCNT immediate. gfx9/gfx10: vmcnt [3:0] and
  // [15:14], expcnt [6:4], lgkmcnt [11:8] (gfx9) or [13:8] (gfx10).
  // gfx11: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10].
  std::array<unsigned, NumCounters> Max = getCounterMax();
  unsigned VM = W.encoded(Counter::VM, Max), Exp = W.encoded(Counter::Exp, Max),
           LGKM = W.encoded(Counter::LDS, Max);
  if (Gen == Generation::GFX11)
    return (VM << 10) | (LGKM << 4) | Exp;
  return (VM & 0xF) | ((VM >> 4) << 14) | (Exp << 4) | (LGKM << 8);
}

std::array<unsigned, NumCounters> TargetFacts::getCounterMax() const {
  // LDS, VM, Async, Tensor, Exp. gfx9 lgkmcnt has 4 bits; gfx10+ 6 bits.
  // asynccnt and tensorcnt (gfx1250) are taken as 6 bits, like loadcnt;
  // the assembler does not range-check them. Should the hardware field be
  // narrower, the value is truncated to a smaller count, a stricter wait.
  return {Gen == Generation::GFX9 ? 15u : 63u, 63u, 63u, 63u, 7u};
}

WaitThresholds TargetFacts::decodeWait(unsigned Opcode, int64_t Imm) const {
  WaitThresholds W;
  StringRef G = getGenericOpcodeName(MII->getName(Opcode));
  G.consume_back("_soft"); // A soft wait encodes its counters alike.
  auto Set = [&W](Counter C, int64_t V, int64_t Max) {
    if (V < Max)
      W[C] = int(V);
  };
  if (G == "S_WAITCNT") {
    if (Gen == Generation::GFX11) {
      Set(Counter::Exp, Imm & 0x7, 7);
      Set(Counter::LDS, (Imm >> 4) & 0x3F, 63);
      Set(Counter::VM, (Imm >> 10) & 0x3F, 63);
    } else {
      Set(Counter::VM, (Imm & 0xF) | (((Imm >> 14) & 0x3) << 4), 63);
      Set(Counter::Exp, (Imm >> 4) & 0x7, 7);
      if (Gen == Generation::GFX10)
        Set(Counter::LDS, (Imm >> 8) & 0x3F, 63);
      else
        Set(Counter::LDS, (Imm >> 8) & 0xF, 15);
    }
  } else if (G == "S_WAITCNT_LGKMCNT" || G == "S_WAIT_DSCNT") {
    Set(Counter::LDS, Imm, 63);
  } else if (G == "S_WAITCNT_VMCNT" || G == "S_WAIT_LOADCNT") {
    Set(Counter::VM, Imm, 63);
  } else if (G == "S_WAITCNT_EXPCNT" || G == "S_WAIT_EXPCNT") {
    Set(Counter::Exp, Imm, 7);
  } else if (G == "S_WAIT_LOADCNT_DSCNT") {
    Set(Counter::VM, (Imm >> 8) & 0x3F, 63);
    Set(Counter::LDS, Imm & 0x3F, 63);
  } else if (G == "S_WAIT_STORECNT_DSCNT") {
    Set(Counter::LDS, Imm & 0x3F, 63);
  } else if (G == "S_WAIT_ASYNCCNT") {
    Set(Counter::Async, Imm, 63);
  } else if (G == "S_WAIT_TENSORCNT") {
    Set(Counter::Tensor, Imm, 63);
  }
  return W;
}
