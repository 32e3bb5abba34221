//===- AMDGPULDSBarriersPasses.h - Legacy pass entry points ---------------===//
//
// What the AMDGPU target's AMDGPU.h declares of the two passes in an in-tree
// build: for the legacy pass manager, the placer's factory, both passes'
// registration with the pass registry and their IDs. The plugin has no
// AMDGPU.h; the in-tree series adds these declarations to it and includes it
// in place of this header (utils/make-llvm-patches.py).
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERSPASSES_H
#define AMDGPU_LDS_BARRIERS_AMDGPULDSBARRIERSPASSES_H

namespace llvm {
class FunctionPass;
class PassRegistry;

FunctionPass *createAMDGPULDSBarriersLegacyPass();
void initializeAMDGPULDSBarriersLegacyPass(PassRegistry &);
extern char &AMDGPULDSBarriersID;
void initializeAMDGPULDSBarrierVerifierPass(PassRegistry &);
extern char &AMDGPULDSBarrierVerifierID;

} // namespace llvm

#endif
