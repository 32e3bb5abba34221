//===- AMDGPUTargetFacts.h - AMDGPU facts the LDS barrier pass needs ------===//
//
// The seam between the pass and the AMDGPU target: what an opcode means for
// LDS synchronization, the generation, the wave size and the counter
// encodings. Two implementations answer it: AMDGPUTargetFacts.cpp for the
// plugin, through the public MC layer only (opcode names, subtarget
// features, AMDGPU::getIsaVersion), and intree/AMDGPUTargetFacts.cpp for an
// LLVM source tree (SIInstrInfo, AMDGPU:: opcodes, AMDGPUBaseInfo), which the
// patch series ships instead.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPUTARGETFACTS_H
#define AMDGPU_LDS_BARRIERS_AMDGPUTARGETFACTS_H

#include "LDSCounters.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/TargetParser/TargetParser.h"
#include <optional>
#include <string>

namespace llvm {
class MCInstrInfo;
class MCRegisterInfo;
class raw_ostream;
class MCSubtargetInfo;
class TargetRegisterClass;
class TargetRegisterInfo;

namespace ldsbarriers {

/// Target generations, as far as barrier emission is concerned.
enum class Generation {
  Unsupported,
  GFX9,    // gfx900 ... gfx950: S_WAITCNT + S_BARRIER.
  GFX10,   // gfx10xx.
  GFX11,   // gfx11xx.
  GFX12,   // gfx1200, gfx1201: split barriers, S_WAIT_* counters.
  GFX1250, // gfx1250: split barriers plus asynccnt / tensorcnt.
};

StringRef getGenerationName(Generation G);

/// What an opcode means for LDS synchronization.
enum class OpcodeRole : uint8_t {
  None,               // Touches no LDS and does not synchronize.
  DSRead,             // Reads LDS.
  DSWrite,            // Writes LDS.
  DSAtomic,           // Read-modify-write of LDS.
  DSUnknown,          // A DS opcode we cannot classify: opaque.
  LDSDMA,             // Asynchronous write of LDS completed on vmcnt.
  LDSDMAStore,        // BUFFER_STORE_LDS_DWORD: asynchronous read of LDS
                      // (wave-size dwords from M0) completed on vmcnt.
  AsyncLoadToLDS,     // gfx1250 global/cluster load to LDS (asynccnt).
  AsyncStoreFromLDS,  // gfx1250 global store from LDS (asynccnt).
  TensorLoadToLDS,    // gfx1250 tensor load to LDS (tensorcnt).
  TensorStoreFromLDS, // gfx1250 tensor store from LDS (tensorcnt).
  VMemLoad,           // A vector memory load that is not LDS DMA: counts on
                      // vmcnt in order with LDS DMA.
  LDSDirect,          // LDS_DIRECT_LOAD / LDS_PARAM_LOAD: reads, on expcnt.
  FlatMemory,         // FLAT (generic address space) access.
  Barrier,            // S_BARRIER.
  BarrierSignal,      // S_BARRIER_SIGNAL_IMM / _ISFIRST_IMM.
  BarrierWait,        // S_BARRIER_WAIT.
  UnmodeledBarrier,   // Barrier forms the pass does not model.
  HardWait,           // S_WAITCNT and the gfx10+ single-counter waits.
  SoftWait,           // Soft waits: promise nothing.
  ExecBranch,         // Branches on EXEC (and unlowered SI_IF/SI_ELSE/SI_LOOP).
  ScalarBranch,       // S_CBRANCH_SCC0/SCC1/VCCZ/VCCNZ.
};

/// The opcodes the barrier emitter creates.
enum class SyncOpcode {
  Waitcnt,          // S_WAITCNT (gfx9-gfx11).
  Barrier,          // S_BARRIER (gfx9-gfx11).
  BarrierSignalImm, // S_BARRIER_SIGNAL_IMM (gfx12+).
  BarrierWait,      // S_BARRIER_WAIT (gfx12+).
  WaitDSCnt,        // S_WAIT_DSCNT (gfx12+).
  WaitExpCnt,       // S_WAIT_EXPCNT (gfx12+).
  WaitAsyncCnt,     // S_WAIT_ASYNCCNT (gfx1250).
  WaitTensorCnt,    // S_WAIT_TENSORCNT (gfx1250).
};

/// How an opcode's results vary between the lanes and waves of a workgroup,
/// given its operands (for LDSBranchUniformity.h).
enum class ValueRole : uint8_t {
  Generic,       // A function of its register operands only.
  Move,          // Copies its source (S_MOV_*, COPY, V_MOV_B32/B64).
  ScalarLogic,   // Bitwise S_AND/OR/XOR/ANDN2/ORN2/NAND/NOR/XNOR/NOT: lane
                 // masks stay lane masks.
  ExecSave,      // *_SAVEEXEC_*: the scalar result is the old EXEC.
  ScalarSelect,  // S_CSELECT_*.
  ScalarCompare, // S_CMP_* / S_BITCMP*: sets SCC.
  ScalarLoad,    // S_LOAD_* / S_BUFFER_LOAD_*: uniform where the address is.
  ReadFirstLane, // V_READFIRSTLANE_B32.
  ReadLane,      // V_READLANE_B32.
  WriteLane,     // V_WRITELANE_B32.
  VectorOp,      // Other V_*: per lane; scalar results are lane masks.
  LaneVarying,   // Differs between lanes whatever its operands: lane ids
                 // (V_MBCNT), DPP, lane permutes and swizzles.
  PerWave,       // Differs between waves whatever its operands: hardware
                 // registers, timers, message returns, barrier state,
                 // scalar atomics, the SCC of S_BARRIER_SIGNAL_ISFIRST.
};

/// Scalar opcodes the uniformity analysis, the decided-branch check and
/// barrier stripping tell apart (outside this seam, no opcode has a name).
enum class ScalarOp : uint8_t {
  Other,
  Move,              // S_MOV_B32, S_MOV_B64.
  And,               // S_AND_B32, S_AND_B64.
  AndNot,            // S_ANDN2_* (S_AND_NOT1_*): x & ~y.
  Or,                // S_OR_B32, S_OR_B64.
  Xor,               // S_XOR_B32, S_XOR_B64.
  OrSaveExec,        // S_OR_SAVEEXEC_*.
  EqualityCompare,   // S_CMP(K)_EQ_* / _LG_*: a zero test against 0.
  BranchVCCZ,        // S_CBRANCH_VCCZ.
  BranchVCCNZ,       // S_CBRANCH_VCCNZ.
  IsFirstSignal,     // S_BARRIER_SIGNAL_ISFIRST_*: sets SCC.
  LDSDirectSoftWait, // S_WAITCNT_lds_direct (the release fence's LDS DMA wait).
};

/// What a register's name says of it, for the uniformity analysis and the
/// decided-branch check: the kind of register (a field, in the order the
/// names are tested) and flags.
namespace RegisterFacts {
enum : uint16_t {
  KindMask = 7,
  Scalar = 0,       // SGPRs, VCC, M0, SCC and the rest.
  Vector = 1,       // VGPR*, AGPR*.
  Exec = 2,         // EXEC*.
  Wave = 3,         // TTMP*, SRC_POPS*, SRC_EXECZ, SRC_VCCZ, SRC_SCC: per wave.
  Const = 4,        // MODE, SGPR_NULL*, the other SRC_*: constant.
  SGPR = 1 << 3,    // SGPR*.
  SCC = 1 << 4,     // SCC.
  VCCPart = 1 << 5, // VCC*.
  IsExec = 1 << 6,  // EXEC.
  IsExecLo = 1 << 7, // EXEC_LO.
  IsVCC = 1 << 8,    // VCC.
  IsVCCLo = 1 << 9,  // VCC_LO.
};
} // namespace RegisterFacts

/// The RegisterFacts of the register named \p Name. Shared by both
/// implementations (AMDGPUTargetFactsCommon.cpp).
uint16_t classifyRegisterName(StringRef Name);

/// Classification of one opcode.
struct OpcodeInfo {
  OpcodeRole Role = OpcodeRole::None;
  /// For DSAtomic: a key naming the operation (e.g. "ADD_U32") when it
  /// commutes with itself; empty when it does not.
  std::string CommutativeOp;
  /// DS_READ2/WRITE2 forms: their memoperand does not describe two
  /// non-adjacent slots, so their range is not trusted.
  bool TwoAddress = false;
  /// For LDSDMA: the bytes each lane writes (the memoperand says 4 for
  /// every width).
  unsigned LaneBytes = 0;
};

/// Facts about one subtarget, resolved once.
class TargetFacts {
public:
  /// Resolves the facts for a subtarget; Generation::Unsupported when the
  /// CPU is not one the pass handles. In an LLVM tree \p STI and \p MII are
  /// the function's GCNSubtarget and its SIInstrInfo.
  static TargetFacts get(const MCSubtargetInfo &STI, const MCInstrInfo &MII);

  Generation getGeneration() const { return Gen; }
  StringRef getCPU() const { return CPU; }
  unsigned getWaveSize() const { return WaveSize; }
  /// Whether the generation uses split barriers (signal / wait).
  bool hasSplitBarriers() const {
    return Gen == Generation::GFX12 || Gen == Generation::GFX1250;
  }

  /// The opcode the emitter uses for \p Op, if the target has it.
  std::optional<unsigned> getOpcode(SyncOpcode Op) const;

  /// What \p Opcode means for LDS synchronization.
  OpcodeInfo classify(unsigned Opcode) const;

  /// How the results of \p Opcode vary across the workgroup.
  ValueRole valueRole(unsigned Opcode) const;
  /// Whether S_GETREG \p Opcode with immediate \p Imm reads a field that is
  /// the same in every wave of a workgroup: gfx1250's cluster status
  /// (HW_REG_IB_STS2 bits [9:6]), which the workgroup id lowering reads.
  bool readsWorkgroupUniformHwReg(unsigned Opcode, int64_t Imm) const;
  /// Which of the scalar opcodes the pass tells apart \p Opcode is.
  ScalarOp scalarOp(unsigned Opcode) const;
  /// Whether register class \p RC holds scalar registers only (an operand
  /// of that class of a vector instruction is a lane mask).
  bool isScalarRegClass(const TargetRegisterClass &RC,
                        const TargetRegisterInfo &TRI) const;
  /// The RegisterFacts of \p Reg of \p TRI. The TTMP registers that hold
  /// the workgroup ids are Const: the same in every wave of a workgroup.
  uint16_t registerFacts(MCRegister Reg, const MCRegisterInfo &TRI) const;
  /// Encodes the S_WAITCNT immediate (gfx9-gfx11) for \p W: the counters
  /// it names at their values, the others at "no wait".
  unsigned encodeWaitcnt(const WaitThresholds &W) const;

  /// Largest encodable wait value per counter.
  std::array<unsigned, NumCounters> getCounterMax() const;

  /// Decodes a hard wait's immediate into per-counter thresholds.
  WaitThresholds decodeWait(unsigned Opcode, int64_t Imm) const;

private:
  const MCInstrInfo *MII = nullptr;
  /// What this object has found of each opcode (the plugin reads opcode
  /// names, which is worth remembering).
  mutable DenseMap<unsigned, OpcodeInfo> Classified;
  mutable DenseMap<unsigned, ValueRole> ValueRoles;
  mutable DenseMap<unsigned, ScalarOp> ScalarOps;
  mutable DenseMap<unsigned, std::optional<unsigned>> SyncOpcodes;
  mutable DenseMap<unsigned, uint16_t> RegisterFactsOf;
  AMDGPU::IsaVersion Isa = {0, 0, 0};
  Generation Gen = Generation::Unsupported;
  std::string CPU;
  unsigned WaveSize = 64;
  /// The workgroup ids are in TTMP registers (SITargetLowering::
  /// getPreloadedValue with architected SGPRs: TTMP9 = x, TTMP7 = y | z <<
  /// 16; gfx1250 adds the workgroup's place in its cluster in TTMP6).
  bool ArchitectedSGPRs = false;
};

/// Strips the encoding-family suffixes (`_gfx9`, `_vi`, `_agpr`, ...) of MIR
/// opcode names, leaving the generic pseudo name. Shared by both
/// implementations (AMDGPUTargetFactsCommon.cpp).
StringRef getGenericOpcodeName(StringRef Name);

/// The opcode of \p MII named \p Name. Defined by the plugin's
/// implementation only, which resolves opcodes by name; \p ScannedTable, if
/// given, tells whether the lookup had to read the whole name table.
std::optional<unsigned> lookupOpcodeByName(const MCInstrInfo &MII,
                                           StringRef Name,
                                           bool *ScannedTable = nullptr);
} // namespace ldsbarriers
} // namespace llvm

#endif
