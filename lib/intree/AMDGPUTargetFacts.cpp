//===- AMDGPUTargetFacts.cpp - AMDGPU facts the LDS barrier pass needs ----===//
//
// The in-tree implementation of AMDGPUTargetFacts.h, which the patch series
// ships in place of the plugin's: opcode roles from SIInstrInfo's instruction
// flags and AMDGPU:: opcodes, the generation from the ISA version, the wave
// size from the subtarget and the counter encodings from AMDGPUBaseInfo.
// Nothing is looked up by name and nothing outlives the TargetFacts object.
//
// It needs the AMDGPU target's private headers, so the plugin build does not
// compile it; test/Patches/intree-opcodes.test checks that every AMDGPU::
// opcode it names exists in LLVM 22's instruction table.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUTargetFacts.h"
#include "GCNSubtarget.h"
#include "SIDefines.h"
#include "SIInstrInfo.h"
#include "Utils/AMDGPUBaseInfo.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

/// The pass hands TargetFacts::get the function's subtarget and instruction
/// info (MachineFunction::getSubtarget() and its getInstrInfo()), which on
/// amdgcn are a GCNSubtarget and its SIInstrInfo.
static const SIInstrInfo &getTII(const MCInstrInfo &MII) {
  return static_cast<const SIInstrInfo &>(MII);
}

TargetFacts TargetFacts::get(const MCSubtargetInfo &STI,
                             const MCInstrInfo &MII) {
  const auto &ST = static_cast<const GCNSubtarget &>(STI);
  TargetFacts F;
  F.MII = &MII;
  F.CPU = ST.getCPU().str();
  // The version SIInsertWaitcnts encodes its waits for.
  F.Isa = AMDGPU::getIsaVersion(ST.getCPU());
  if (F.Isa.Major == 9)
    F.Gen = Generation::GFX9;
  else if (F.Isa.Major == 10)
    F.Gen = Generation::GFX10;
  else if (F.Isa.Major == 11)
    F.Gen = Generation::GFX11;
  else if (F.Isa.Major == 12 && F.Isa.Minor == 0)
    F.Gen = Generation::GFX12;
  else if (F.Isa.Major == 12 && F.Isa.Minor == 5)
    F.Gen = Generation::GFX1250;
  F.WaveSize = ST.getWavefrontSize();
  F.ArchitectedSGPRs = ST.hasArchitectedSGPRs();
  return F;
}

std::optional<unsigned> TargetFacts::getOpcode(SyncOpcode Op) const {
  switch (Op) {
  case SyncOpcode::Waitcnt:
    return AMDGPU::S_WAITCNT;
  case SyncOpcode::Barrier:
    return AMDGPU::S_BARRIER;
  case SyncOpcode::BarrierSignalImm:
    return AMDGPU::S_BARRIER_SIGNAL_IMM;
  case SyncOpcode::BarrierWait:
    return AMDGPU::S_BARRIER_WAIT;
  case SyncOpcode::WaitDSCnt:
    return AMDGPU::S_WAIT_DSCNT;
  case SyncOpcode::WaitExpCnt:
    return AMDGPU::S_WAIT_EXPCNT;
  case SyncOpcode::WaitAsyncCnt:
    return AMDGPU::S_WAIT_ASYNCCNT;
  case SyncOpcode::WaitTensorCnt:
    return AMDGPU::S_WAIT_TENSORCNT;
  }
  return std::nullopt;
}

/// The key of a DS atomic whose operation commutes with itself: the
/// returning and non-returning forms, with and without M0 (_gfx9), and the
/// returning form into AGPRs share it, the name of the non-returning form
/// (as the plugin's implementation names it). Null for every other opcode.
static const char *getCommutativeKey(unsigned Opc) {
#define DS_COMMUTATIVE(NoRet, Ret)                                             \
  case AMDGPU::DS_##NoRet:                                                     \
  case AMDGPU::DS_##NoRet##_gfx9:                                              \
  case AMDGPU::DS_##Ret:                                                       \
  case AMDGPU::DS_##Ret##_gfx9:                                                \
  case AMDGPU::DS_##Ret##_agpr:                                                \
    return "DS_" #NoRet;
  switch (Opc) {
    DS_COMMUTATIVE(ADD_U32, ADD_RTN_U32)
    DS_COMMUTATIVE(ADD_F32, ADD_RTN_F32)
    DS_COMMUTATIVE(MIN_I32, MIN_RTN_I32)
    DS_COMMUTATIVE(MAX_I32, MAX_RTN_I32)
    DS_COMMUTATIVE(MIN_U32, MIN_RTN_U32)
    DS_COMMUTATIVE(MAX_U32, MAX_RTN_U32)
    DS_COMMUTATIVE(MIN_F32, MIN_RTN_F32)
    DS_COMMUTATIVE(MAX_F32, MAX_RTN_F32)
    DS_COMMUTATIVE(AND_B32, AND_RTN_B32)
    DS_COMMUTATIVE(OR_B32, OR_RTN_B32)
    DS_COMMUTATIVE(XOR_B32, XOR_RTN_B32)
    DS_COMMUTATIVE(ADD_U64, ADD_RTN_U64)
    DS_COMMUTATIVE(MIN_I64, MIN_RTN_I64)
    DS_COMMUTATIVE(MAX_I64, MAX_RTN_I64)
    DS_COMMUTATIVE(MIN_U64, MIN_RTN_U64)
    DS_COMMUTATIVE(MAX_U64, MAX_RTN_U64)
    DS_COMMUTATIVE(MIN_F64, MIN_RTN_F64)
    DS_COMMUTATIVE(MAX_F64, MAX_RTN_F64)
    DS_COMMUTATIVE(AND_B64, AND_RTN_B64)
    DS_COMMUTATIVE(OR_B64, OR_RTN_B64)
    DS_COMMUTATIVE(XOR_B64, XOR_RTN_B64)
  // gfx90a+ only: no M0 form.
  case AMDGPU::DS_ADD_F64:
  case AMDGPU::DS_ADD_RTN_F64:
  case AMDGPU::DS_ADD_RTN_F64_agpr:
    return "DS_ADD_F64";
  case AMDGPU::DS_PK_ADD_F16:
  case AMDGPU::DS_PK_ADD_RTN_F16:
  case AMDGPU::DS_PK_ADD_RTN_F16_agpr:
    return "DS_PK_ADD_F16";
  case AMDGPU::DS_PK_ADD_BF16:
  case AMDGPU::DS_PK_ADD_RTN_BF16:
  case AMDGPU::DS_PK_ADD_RTN_BF16_agpr:
    return "DS_PK_ADD_BF16";
  case AMDGPU::DS_APPEND:
    return "DS_APPEND";
  case AMDGPU::DS_CONSUME:
    return "DS_CONSUME";
  default:
    return nullptr;
  }
#undef DS_COMMUTATIVE
}

/// DS opcodes: the generic DS flags say whether an opcode reads or writes
/// LDS (DSInstructions.td sets mayLoad/mayStore per form and clears both on
/// the lane permutes, ds_swizzle and ds_nop).
static OpcodeInfo classifyDS(const SIInstrInfo &TII, unsigned Opc) {
  OpcodeInfo Info;
  const MCInstrDesc &Desc = TII.get(Opc);
  if (TII.isGWS(Opc) || TII.isAlwaysGDS(Opc) ||
      (!Desc.mayLoad() && !Desc.mayStore()))
    return Info;
  // read2/write2/wrxchg2 address two slots (offset0, offset1), which one
  // memoperand does not describe.
  Info.TwoAddress =
      AMDGPU::getNamedOperandIdx(Opc, AMDGPU::OpName::offset1) != -1;
  if (Desc.mayLoad() && !Desc.mayStore()) {
    Info.Role = OpcodeRole::DSRead;
    return Info;
  }
  if (Desc.mayStore() && !Desc.mayLoad()) {
    Info.Role = OpcodeRole::DSWrite;
    return Info;
  }
  Info.Role = OpcodeRole::DSAtomic;
  if (const char *Key = getCommutativeKey(Opc))
    Info.CommutativeOp = Key;
  // The src2 forms (gfx9/gfx10) take their operand from a second LDS
  // location: an address and no data or result operand.
  if (AMDGPU::getNamedOperandIdx(Opc, AMDGPU::OpName::data0) == -1 &&
      AMDGPU::getNamedOperandIdx(Opc, AMDGPU::OpName::vdst) == -1 &&
      AMDGPU::getNamedOperandIdx(Opc, AMDGPU::OpName::addr) != -1)
    Info.TwoAddress = true;
  return Info;
}

/// The bytes each lane of an LDS DMA load writes: the LDS memoperand says 4
/// for every width, the opcode tells. Widths not listed are taken as 16, the
/// widest, which only makes the written range larger.
static unsigned getLDSDMALaneBytes(unsigned Opc) {
#define MUBUF_LDS_MODES(P)                                                     \
  case AMDGPU::BUFFER_LOAD_##P##_ADDR64:                                       \
  case AMDGPU::BUFFER_LOAD_##P##_BOTHEN:                                       \
  case AMDGPU::BUFFER_LOAD_##P##_BOTHEN_exact:                                 \
  case AMDGPU::BUFFER_LOAD_##P##_IDXEN:                                        \
  case AMDGPU::BUFFER_LOAD_##P##_IDXEN_exact:                                  \
  case AMDGPU::BUFFER_LOAD_##P##_OFFEN:                                        \
  case AMDGPU::BUFFER_LOAD_##P##_OFFEN_exact:                                  \
  case AMDGPU::BUFFER_LOAD_##P##_OFFSET:                                       \
  case AMDGPU::BUFFER_LOAD_##P##_OFFSET_exact:
#define MUBUF_LDS(W) MUBUF_LDS_MODES(W##_LDS) MUBUF_LDS_MODES(W##_LDS_VBUFFER)
#define GLOBAL_LDS(W)                                                          \
  case AMDGPU::GLOBAL_LOAD_LDS_##W:                                            \
  case AMDGPU::GLOBAL_LOAD_LDS_##W##_SADDR:
#define SCRATCH_LDS(W)                                                         \
  case AMDGPU::SCRATCH_LOAD_LDS_##W:                                           \
  case AMDGPU::SCRATCH_LOAD_LDS_##W##_SADDR:                                   \
  case AMDGPU::SCRATCH_LOAD_LDS_##W##_ST:                                      \
  case AMDGPU::SCRATCH_LOAD_LDS_##W##_SVS:
  switch (Opc) {
    MUBUF_LDS(UBYTE)
    MUBUF_LDS(SBYTE)
    GLOBAL_LDS(UBYTE)
    GLOBAL_LDS(SBYTE)
    SCRATCH_LDS(UBYTE)
    SCRATCH_LDS(SBYTE)
    return 1;
    MUBUF_LDS(USHORT)
    MUBUF_LDS(SSHORT)
    GLOBAL_LDS(USHORT)
    GLOBAL_LDS(SSHORT)
    SCRATCH_LDS(USHORT)
    SCRATCH_LDS(SSHORT)
    return 2;
    MUBUF_LDS(DWORD)
    MUBUF_LDS(FORMAT_X)
    GLOBAL_LDS(DWORD)
    SCRATCH_LDS(DWORD)
    return 4;
    MUBUF_LDS(DWORDX3)
    GLOBAL_LDS(DWORDX3)
    return 12;
  default:
    return 16;
  }
#undef SCRATCH_LDS
#undef GLOBAL_LDS
#undef MUBUF_LDS
#undef MUBUF_LDS_MODES
}

static OpcodeRole classifyWaitOrBranch(unsigned Opc) {
  switch (Opc) {
  case AMDGPU::S_WAITCNT:
  case AMDGPU::S_WAITCNT_LGKMCNT:
  case AMDGPU::S_WAITCNT_VMCNT:
  case AMDGPU::S_WAITCNT_EXPCNT:
  case AMDGPU::S_WAIT_DSCNT:
  case AMDGPU::S_WAIT_LOADCNT:
  case AMDGPU::S_WAIT_LOADCNT_DSCNT:
  case AMDGPU::S_WAIT_STORECNT_DSCNT:
  case AMDGPU::S_WAIT_ASYNCCNT:
  case AMDGPU::S_WAIT_TENSORCNT:
  case AMDGPU::S_WAIT_EXPCNT:
    return OpcodeRole::HardWait;
  case AMDGPU::S_CBRANCH_EXECZ:
  case AMDGPU::S_CBRANCH_EXECNZ:
  case AMDGPU::SI_IF:
  case AMDGPU::SI_ELSE:
  case AMDGPU::SI_LOOP:
    return OpcodeRole::ExecBranch;
  case AMDGPU::S_CBRANCH_SCC0:
  case AMDGPU::S_CBRANCH_SCC1:
  case AMDGPU::S_CBRANCH_VCCZ:
  case AMDGPU::S_CBRANCH_VCCNZ:
    return OpcodeRole::ScalarBranch;
  default:
    return OpcodeRole::None;
  }
}

static OpcodeInfo classifyLDSRole(const SIInstrInfo &TII, unsigned Opc) {
  OpcodeInfo Info;
  switch (Opc) {
  case AMDGPU::S_BARRIER:
    Info.Role = OpcodeRole::Barrier;
    return Info;
  case AMDGPU::S_BARRIER_SIGNAL_IMM:
  case AMDGPU::S_BARRIER_SIGNAL_ISFIRST_IMM:
    Info.Role = OpcodeRole::BarrierSignal;
    return Info;
  case AMDGPU::S_BARRIER_WAIT:
    Info.Role = OpcodeRole::BarrierWait;
    return Info;
  // Named barriers, M0 forms and wakeups: not modeled.
  case AMDGPU::S_BARRIER_SIGNAL_M0:
  case AMDGPU::S_BARRIER_SIGNAL_ISFIRST_M0:
  case AMDGPU::S_BARRIER_INIT_IMM:
  case AMDGPU::S_BARRIER_INIT_M0:
  case AMDGPU::S_BARRIER_JOIN_IMM:
  case AMDGPU::S_BARRIER_JOIN_M0:
  case AMDGPU::S_BARRIER_LEAVE:
  case AMDGPU::S_WAKEUP_BARRIER_IMM:
  case AMDGPU::S_WAKEUP_BARRIER_M0:
    Info.Role = OpcodeRole::UnmodeledBarrier;
    return Info;
  // Soft waits promise nothing; S_WAITCNT_lds_direct is SIMemoryLegalizer's
  // marker for the LDS DMA part of a release fence.
  case AMDGPU::S_WAITCNT_lds_direct:
    Info.Role = OpcodeRole::SoftWait;
    return Info;
  // gfx1250 asynchronous LDS transfers, counted on asynccnt / tensorcnt.
  case AMDGPU::GLOBAL_LOAD_ASYNC_TO_LDS_B8:
  case AMDGPU::GLOBAL_LOAD_ASYNC_TO_LDS_B8_SADDR:
  case AMDGPU::GLOBAL_LOAD_ASYNC_TO_LDS_B32:
  case AMDGPU::GLOBAL_LOAD_ASYNC_TO_LDS_B32_SADDR:
  case AMDGPU::GLOBAL_LOAD_ASYNC_TO_LDS_B64:
  case AMDGPU::GLOBAL_LOAD_ASYNC_TO_LDS_B64_SADDR:
  case AMDGPU::GLOBAL_LOAD_ASYNC_TO_LDS_B128:
  case AMDGPU::GLOBAL_LOAD_ASYNC_TO_LDS_B128_SADDR:
  case AMDGPU::CLUSTER_LOAD_ASYNC_TO_LDS_B8:
  case AMDGPU::CLUSTER_LOAD_ASYNC_TO_LDS_B8_SADDR:
  case AMDGPU::CLUSTER_LOAD_ASYNC_TO_LDS_B32:
  case AMDGPU::CLUSTER_LOAD_ASYNC_TO_LDS_B32_SADDR:
  case AMDGPU::CLUSTER_LOAD_ASYNC_TO_LDS_B64:
  case AMDGPU::CLUSTER_LOAD_ASYNC_TO_LDS_B64_SADDR:
  case AMDGPU::CLUSTER_LOAD_ASYNC_TO_LDS_B128:
  case AMDGPU::CLUSTER_LOAD_ASYNC_TO_LDS_B128_SADDR:
    Info.Role = OpcodeRole::AsyncLoadToLDS;
    return Info;
  case AMDGPU::GLOBAL_STORE_ASYNC_FROM_LDS_B8:
  case AMDGPU::GLOBAL_STORE_ASYNC_FROM_LDS_B8_SADDR:
  case AMDGPU::GLOBAL_STORE_ASYNC_FROM_LDS_B32:
  case AMDGPU::GLOBAL_STORE_ASYNC_FROM_LDS_B32_SADDR:
  case AMDGPU::GLOBAL_STORE_ASYNC_FROM_LDS_B64:
  case AMDGPU::GLOBAL_STORE_ASYNC_FROM_LDS_B64_SADDR:
  case AMDGPU::GLOBAL_STORE_ASYNC_FROM_LDS_B128:
  case AMDGPU::GLOBAL_STORE_ASYNC_FROM_LDS_B128_SADDR:
    Info.Role = OpcodeRole::AsyncStoreFromLDS;
    return Info;
  case AMDGPU::TENSOR_LOAD_TO_LDS:
  case AMDGPU::TENSOR_LOAD_TO_LDS_D2:
    Info.Role = OpcodeRole::TensorLoadToLDS;
    return Info;
  case AMDGPU::TENSOR_STORE_FROM_LDS:
  case AMDGPU::TENSOR_STORE_FROM_LDS_D2:
    Info.Role = OpcodeRole::TensorStoreFromLDS;
    return Info;
  // Reads wave-size dwords of LDS from M0 and stores them (vmcnt).
  case AMDGPU::BUFFER_STORE_LDS_DWORD:
    Info.Role = OpcodeRole::LDSDMAStore;
    Info.LaneBytes = 4;
    return Info;
  default:
    break;
  }
  if (SIInstrInfo::getNonSoftWaitcntOpcode(Opc) != Opc) {
    Info.Role = OpcodeRole::SoftWait;
    return Info;
  }
  if (OpcodeRole Role = classifyWaitOrBranch(Opc); Role != OpcodeRole::None) {
    Info.Role = Role;
    return Info;
  }
  // LDS_DIRECT_LOAD / LDS_PARAM_LOAD (gfx11), DS_DIRECT_LOAD / DS_PARAM_LOAD
  // (gfx12): read LDS, counted on expcnt.
  if (TII.isLDSDIR(Opc)) {
    Info.Role = OpcodeRole::LDSDirect;
    return Info;
  }
  if (TII.isDS(Opc))
    return classifyDS(TII, Opc);
  const MCInstrDesc &Desc = TII.get(Opc);
  // LDS DMA: the VALU-flagged MUBUF and FLAT loads (SIInstrInfo::isLDSDMA),
  // completed on vmcnt.
  if ((Desc.TSFlags & SIInstrFlags::VALU) &&
      (TII.isMUBUF(Opc) || TII.isFLAT(Opc))) {
    Info.Role = OpcodeRole::LDSDMA;
    Info.LaneBytes = getLDSDMALaneBytes(Opc);
    return Info;
  }
  // Plain buffer/global/scratch loads return in order with LDS DMA on
  // vmcnt. FLAT (may complete early through LDS) and image operations (may
  // complete out of order) are not counted.
  if ((TII.isMUBUF(Opc) || TII.isFLATGlobal(Opc) || TII.isFLATScratch(Opc)) &&
      Desc.mayLoad() && !Desc.mayStore()) {
    Info.Role = OpcodeRole::VMemLoad;
    return Info;
  }
  if (TII.isFLAT(Opc) && !TII.isFLATGlobal(Opc) && !TII.isFLATScratch(Opc)) {
    Info.Role = OpcodeRole::FlatMemory;
    return Info;
  }
  return Info;
}

/// The roles of the opcodes that make lane ids, mix lanes or read
/// per-wave state, if \p Opc is one.
static std::optional<ValueRole> varyingValueRole(unsigned Opc) {
  switch (Opc) {
  // Lane ids and lane-mixing operations.
  case AMDGPU::V_MBCNT_LO_U32_B32_e32:
  case AMDGPU::V_MBCNT_LO_U32_B32_e64:
  case AMDGPU::V_MBCNT_HI_U32_B32_e32:
  case AMDGPU::V_MBCNT_HI_U32_B32_e64:
  case AMDGPU::V_MBCNT_LO_U32_B32_sdwa:
  case AMDGPU::V_MBCNT_HI_U32_B32_sdwa:
  case AMDGPU::V_PERMLANE16_B32_e64:
  case AMDGPU::V_PERMLANEX16_B32_e64:
  case AMDGPU::V_PERMLANE16_VAR_B32_e64:
  case AMDGPU::V_PERMLANEX16_VAR_B32_e64:
  case AMDGPU::V_PERMLANE64_B32:
  case AMDGPU::V_PERMLANE16_SWAP_B32_e32:
  case AMDGPU::V_PERMLANE16_SWAP_B32_e64:
  case AMDGPU::V_PERMLANE32_SWAP_B32_e32:
  case AMDGPU::V_PERMLANE32_SWAP_B32_e64:
  case AMDGPU::V_PERMLANE_BCAST_B32_e64:
  case AMDGPU::V_PERMLANE_DOWN_B32_e64:
  case AMDGPU::V_PERMLANE_UP_B32_e64:
  case AMDGPU::V_PERMLANE_XOR_B32_e64:
  case AMDGPU::V_PERMLANE_IDX_GEN_B32_e64:
  case AMDGPU::DS_PERMUTE_B32:
  case AMDGPU::DS_PERMUTE_B32_agpr:
  case AMDGPU::DS_BPERMUTE_B32:
  case AMDGPU::DS_BPERMUTE_B32_agpr:
  case AMDGPU::DS_BPERMUTE_FI_B32:
  case AMDGPU::DS_SWIZZLE_B32:
  case AMDGPU::V_MOV_B64_DPP_PSEUDO:
  case AMDGPU::V_SWAP_B32:
  case AMDGPU::V_SWAPREL_B32:
    return ValueRole::LaneVarying;
  // Per-wave state: hardware registers (wave id, ...), timers, message
  // returns, barrier state, the isfirst SCC.
  case AMDGPU::S_GETREG_B32:
  case AMDGPU::S_GETREG_B32_const:
  case AMDGPU::S_GET_BARRIER_STATE_IMM:
  case AMDGPU::S_GET_BARRIER_STATE_M0:
  case AMDGPU::S_GET_SHADER_CYCLES_U64:
  case AMDGPU::S_GET_WAVEID_IN_WORKGROUP:
  case AMDGPU::S_MEMTIME:
  case AMDGPU::S_MEMREALTIME:
  case AMDGPU::S_SENDMSG_RTN_B32:
  case AMDGPU::S_SENDMSG_RTN_B64:
  case AMDGPU::S_BARRIER_SIGNAL_ISFIRST_IMM:
  case AMDGPU::S_BARRIER_SIGNAL_ISFIRST_M0:
  case AMDGPU::S_TTRACEDATA:
  case AMDGPU::S_TTRACEDATA_IMM:
  // Scratch is the wave's own memory: the same address holds another value
  // in each wave.
  case AMDGPU::S_SCRATCH_LOAD_DWORD_IMM:
  case AMDGPU::S_SCRATCH_LOAD_DWORD_SGPR:
  case AMDGPU::S_SCRATCH_LOAD_DWORD_SGPR_IMM:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX2_IMM:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX2_SGPR:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX2_SGPR_IMM:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX4_IMM:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX4_SGPR:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX4_SGPR_IMM:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX2_IMM_ec:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX2_SGPR_ec:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX2_SGPR_IMM_ec:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX4_IMM_ec:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX4_SGPR_ec:
  case AMDGPU::S_SCRATCH_LOAD_DWORDX4_SGPR_IMM_ec:
    return ValueRole::PerWave;
  default:
    return std::nullopt;
  }
}

/// The role of \p Opc by its instruction flags.
static ValueRole valueRoleByFlags(const SIInstrInfo &TII, unsigned Opc) {
  const MCInstrDesc &Desc = TII.get(Opc);
  // Scalar memory: atomics return per-wave values, loads are as uniform as
  // their address.
  if (TII.isSMRD(Opc)) {
    if (Desc.mayStore())
      return ValueRole::PerWave;
    if (Desc.mayLoad())
      return ValueRole::ScalarLoad;
  }
  // S_CMP_* and S_BITCMP*: the SOPC opcodes that set SCC.
  if (TII.isSOPC(Opc) && Desc.hasImplicitDefOfPhysReg(AMDGPU::SCC))
    return ValueRole::ScalarCompare;
  if (TII.isDPP(Opc))
    return ValueRole::LaneVarying;
  // Vector ALU, not LDS DMA (which carries the VALU flag too).
  if ((Desc.TSFlags & SIInstrFlags::VALU) && !TII.isMUBUF(Opc) &&
      !TII.isFLAT(Opc))
    return ValueRole::VectorOp;
  return ValueRole::Generic;
}

/// How the results of \p Opc vary across the lanes and waves of a workgroup.
static ValueRole classifyValueRole(const SIInstrInfo &TII, unsigned Opc) {
  if (std::optional<ValueRole> R = varyingValueRole(Opc))
    return *R;
  switch (Opc) {
  case AMDGPU::COPY:
  case AMDGPU::S_MOV_B32:
  case AMDGPU::S_MOV_B64:
  case AMDGPU::V_MOV_B32_e32:
  case AMDGPU::V_MOV_B32_e64:
  case AMDGPU::V_MOV_B64_e32:
  case AMDGPU::V_MOV_B64_e64:
  case AMDGPU::V_MOV_B64_PSEUDO:
  case AMDGPU::V_ACCVGPR_WRITE_B32_e64:
  case AMDGPU::V_ACCVGPR_READ_B32_e64:
  case AMDGPU::V_ACCVGPR_MOV_B32:
    return ValueRole::Move;
  case AMDGPU::S_AND_SAVEEXEC_B32:
  case AMDGPU::S_AND_SAVEEXEC_B64:
  case AMDGPU::S_AND_SAVEEXEC_B32_term:
  case AMDGPU::S_AND_SAVEEXEC_B64_term:
  case AMDGPU::S_OR_SAVEEXEC_B32:
  case AMDGPU::S_OR_SAVEEXEC_B64:
  case AMDGPU::S_XOR_SAVEEXEC_B32:
  case AMDGPU::S_XOR_SAVEEXEC_B64:
  case AMDGPU::S_ANDN1_SAVEEXEC_B32:
  case AMDGPU::S_ANDN1_SAVEEXEC_B64:
  case AMDGPU::S_ANDN2_SAVEEXEC_B32:
  case AMDGPU::S_ANDN2_SAVEEXEC_B64:
  case AMDGPU::S_ORN1_SAVEEXEC_B32:
  case AMDGPU::S_ORN1_SAVEEXEC_B64:
  case AMDGPU::S_ORN2_SAVEEXEC_B32:
  case AMDGPU::S_ORN2_SAVEEXEC_B64:
  case AMDGPU::S_NAND_SAVEEXEC_B32:
  case AMDGPU::S_NAND_SAVEEXEC_B64:
  case AMDGPU::S_NOR_SAVEEXEC_B32:
  case AMDGPU::S_NOR_SAVEEXEC_B64:
  case AMDGPU::S_XNOR_SAVEEXEC_B32:
  case AMDGPU::S_XNOR_SAVEEXEC_B64:
    return ValueRole::ExecSave;
  case AMDGPU::V_READFIRSTLANE_B32:
    return ValueRole::ReadFirstLane;
  case AMDGPU::V_READLANE_B32:
    return ValueRole::ReadLane;
  case AMDGPU::V_WRITELANE_B32:
    return ValueRole::WriteLane;
  case AMDGPU::S_CSELECT_B32:
  case AMDGPU::S_CSELECT_B64:
    return ValueRole::ScalarSelect;
  case AMDGPU::S_CMPK_EQ_I32:
  case AMDGPU::S_CMPK_EQ_U32:
  case AMDGPU::S_CMPK_LG_I32:
  case AMDGPU::S_CMPK_LG_U32:
  case AMDGPU::S_CMPK_GT_I32:
  case AMDGPU::S_CMPK_GT_U32:
  case AMDGPU::S_CMPK_GE_I32:
  case AMDGPU::S_CMPK_GE_U32:
  case AMDGPU::S_CMPK_LT_I32:
  case AMDGPU::S_CMPK_LT_U32:
  case AMDGPU::S_CMPK_LE_I32:
  case AMDGPU::S_CMPK_LE_U32:
    return ValueRole::ScalarCompare;
  // Bitwise: lane masks stay lane masks (the opcodes of
  // SIInstrInfo::setsSCCIfResultIsNonZero that are bitwise).
  case AMDGPU::S_AND_B32:
  case AMDGPU::S_AND_B64:
  case AMDGPU::S_OR_B32:
  case AMDGPU::S_OR_B64:
  case AMDGPU::S_XOR_B32:
  case AMDGPU::S_XOR_B64:
  case AMDGPU::S_ANDN2_B32:
  case AMDGPU::S_ANDN2_B64:
  case AMDGPU::S_ORN2_B32:
  case AMDGPU::S_ORN2_B64:
  case AMDGPU::S_NAND_B32:
  case AMDGPU::S_NAND_B64:
  case AMDGPU::S_NOR_B32:
  case AMDGPU::S_NOR_B64:
  case AMDGPU::S_XNOR_B32:
  case AMDGPU::S_XNOR_B64:
  case AMDGPU::S_NOT_B32:
  case AMDGPU::S_NOT_B64:
    return ValueRole::ScalarLogic;
  default:
    return valueRoleByFlags(TII, Opc);
  }
}

OpcodeInfo TargetFacts::classify(unsigned Opcode) const {
  return classifyLDSRole(getTII(*MII), Opcode);
}

ValueRole TargetFacts::valueRole(unsigned Opcode) const {
  return classifyValueRole(getTII(*MII), Opcode);
}

ScalarOp TargetFacts::scalarOp(unsigned Opcode) const {
  switch (Opcode) {
  case AMDGPU::S_MOV_B32:
  case AMDGPU::S_MOV_B64:
    return ScalarOp::Move;
  case AMDGPU::S_AND_B32:
  case AMDGPU::S_AND_B64:
    return ScalarOp::And;
  case AMDGPU::S_ANDN2_B32:
  case AMDGPU::S_ANDN2_B64:
    return ScalarOp::AndNot;
  case AMDGPU::S_OR_B32:
  case AMDGPU::S_OR_B64:
    return ScalarOp::Or;
  case AMDGPU::S_XOR_B32:
  case AMDGPU::S_XOR_B64:
    return ScalarOp::Xor;
  case AMDGPU::S_OR_SAVEEXEC_B32:
  case AMDGPU::S_OR_SAVEEXEC_B64:
    return ScalarOp::OrSaveExec;
  case AMDGPU::S_CMP_EQ_I32:
  case AMDGPU::S_CMP_LG_I32:
  case AMDGPU::S_CMP_EQ_U32:
  case AMDGPU::S_CMP_LG_U32:
  case AMDGPU::S_CMP_EQ_U64:
  case AMDGPU::S_CMP_LG_U64:
  case AMDGPU::S_CMPK_EQ_I32:
  case AMDGPU::S_CMPK_LG_I32:
  case AMDGPU::S_CMPK_EQ_U32:
  case AMDGPU::S_CMPK_LG_U32:
  case AMDGPU::S_CMP_EQ_F32:
  case AMDGPU::S_CMP_LG_F32:
  case AMDGPU::S_CMP_EQ_F16:
  case AMDGPU::S_CMP_LG_F16:
    return ScalarOp::EqualityCompare;
  case AMDGPU::S_CBRANCH_VCCZ:
    return ScalarOp::BranchVCCZ;
  case AMDGPU::S_CBRANCH_VCCNZ:
    return ScalarOp::BranchVCCNZ;
  case AMDGPU::S_BARRIER_SIGNAL_ISFIRST_IMM:
  case AMDGPU::S_BARRIER_SIGNAL_ISFIRST_M0:
    return ScalarOp::IsFirstSignal;
  case AMDGPU::S_WAITCNT_lds_direct:
    return ScalarOp::LDSDirectSoftWait;
  default:
    return ScalarOp::Other;
  }
}

bool TargetFacts::isScalarRegClass(const TargetRegisterClass &RC,
                                   const TargetRegisterInfo &TRI) const {
  return static_cast<const SIRegisterInfo &>(TRI).isSGPRClass(&RC);
}

bool TargetFacts::readsWorkgroupUniformHwReg(unsigned Opcode,
                                             int64_t Imm) const {
  if (Gen != Generation::GFX1250 ||
      (Opcode != AMDGPU::S_GETREG_B32 && Opcode != AMDGPU::S_GETREG_B32_const))
    return false;
  auto [Id, Offset, Width] = AMDGPU::Hwreg::HwregEncoding::decode(Imm);
  return Id == AMDGPU::Hwreg::ID_IB_STS2 && Offset == 6 && Width == 4;
}

std::array<unsigned, NumCounters> TargetFacts::getCounterMax() const {
  bool SplitCounters = Gen == Generation::GFX12 || Gen == Generation::GFX1250;
  unsigned LDS = SplitCounters ? AMDGPU::getDscntBitMask(Isa)
                               : AMDGPU::getLgkmcntBitMask(Isa);
  unsigned VM = SplitCounters ? AMDGPU::getLoadcntBitMask(Isa)
                              : AMDGPU::getVmcntBitMask(Isa);
  // LDS, VM, Async, Tensor, Exp. AMDGPUBaseInfo has no asynccnt/tensorcnt
  // widths: taken as 6 bits, like loadcnt. Should the hardware field be
  // narrower, the value is truncated to a smaller count, a stricter wait.
  return {LDS, VM, 63u, 63u, AMDGPU::getExpcntBitMask(Isa)};
}

unsigned TargetFacts::encodeWaitcnt(const WaitThresholds &W) const {
  std::array<unsigned, NumCounters> Max = getCounterMax();
  // The S_WAITCNT immediate, as SIInsertWaitcnts encodes it (gfx9-gfx11).
  return AMDGPU::encodeWaitcnt(Isa, W.encoded(Counter::VM, Max),
                               W.encoded(Counter::Exp, Max),
                               W.encoded(Counter::LDS, Max));
}

WaitThresholds TargetFacts::decodeWait(unsigned Opcode, int64_t Imm) const {
  WaitThresholds W;
  auto Set = [&W](Counter C, int64_t V, int64_t Max) {
    if (V < Max)
      W[C] = int(V);
  };
  std::array<unsigned, NumCounters> Max = getCounterMax();
  // A soft wait encodes its counters like the wait it stands for.
  switch (SIInstrInfo::getNonSoftWaitcntOpcode(Opcode)) {
  case AMDGPU::S_WAITCNT:
    Set(Counter::VM, AMDGPU::decodeVmcnt(Isa, Imm), Max[unsigned(Counter::VM)]);
    Set(Counter::Exp, AMDGPU::decodeExpcnt(Isa, Imm),
        Max[unsigned(Counter::Exp)]);
    Set(Counter::LDS, AMDGPU::decodeLgkmcnt(Isa, Imm),
        Max[unsigned(Counter::LDS)]);
    break;
  case AMDGPU::S_WAITCNT_LGKMCNT:
  case AMDGPU::S_WAIT_DSCNT:
    Set(Counter::LDS, Imm, 63);
    break;
  case AMDGPU::S_WAITCNT_VMCNT:
  case AMDGPU::S_WAIT_LOADCNT:
    Set(Counter::VM, Imm, 63);
    break;
  case AMDGPU::S_WAITCNT_EXPCNT:
  case AMDGPU::S_WAIT_EXPCNT:
    Set(Counter::Exp, Imm, 7);
    break;
  case AMDGPU::S_WAIT_LOADCNT_DSCNT: {
    AMDGPU::Waitcnt Decoded = AMDGPU::decodeLoadcntDscnt(Isa, Imm);
    Set(Counter::VM, Decoded.LoadCnt, Max[unsigned(Counter::VM)]);
    Set(Counter::LDS, Decoded.DsCnt, Max[unsigned(Counter::LDS)]);
    break;
  }
  case AMDGPU::S_WAIT_STORECNT_DSCNT:
    Set(Counter::LDS, AMDGPU::decodeStorecntDscnt(Isa, Imm).DsCnt,
        Max[unsigned(Counter::LDS)]);
    break;
  case AMDGPU::S_WAIT_ASYNCCNT:
    Set(Counter::Async, Imm, 63);
    break;
  case AMDGPU::S_WAIT_TENSORCNT:
    Set(Counter::Tensor, Imm, 63);
    break;
  default:
    break;
  }
  return W;
}
