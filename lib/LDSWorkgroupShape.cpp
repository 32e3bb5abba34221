//===- LDSWorkgroupShape.cpp - The launch bounds a kernel declares --------===//
//
// The one reader of a kernel's workgroup size: the
// "amdgpu-flat-work-group-size" attribute (HIP __launch_bounds__) and the
// !reqd_work_group_size metadata (OpenCL), as the AMDGPU backend reads them.
// The thread-index analysis bounds the work-item ids by the result, and the
// passes read the one-wave case and the ignored declarations from it; and
// which functions are kernels.
//
//===----------------------------------------------------------------------===//

#include "LDSThreadAddress.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include <algorithm>

using namespace llvm;
using namespace llvm::ldsbarriers;

bool llvm::ldsbarriers::isKernel(const Function &F) {
  CallingConv::ID CC = F.getCallingConv();
  return CC == CallingConv::AMDGPU_KERNEL || CC == CallingConv::SPIR_KERNEL;
}

bool llvm::ldsbarriers::assumesOneDimensional(const Function &F,
                                              ThreadAnalysisMode Mode) {
  return Mode == ThreadAnalysisMode::Assume1D ||
         (Mode == ThreadAnalysisMode::Infer1D &&
          F.hasFnAttribute("amdgpu-no-workitem-id-y") &&
          F.hasFnAttribute("amdgpu-no-workitem-id-z"));
}

WorkgroupShape llvm::ldsbarriers::getWorkgroupShape(const Function &F) {
  WorkgroupShape Shape;
  Attribute Flat = F.getFnAttribute("amdgpu-flat-work-group-size");
  if (Flat.isStringAttribute()) {
    StringRef Value = Flat.getValueAsString();
    auto [MinS, MaxS] = Value.split(',');
    unsigned Min = 0, Max = 0;
    bool Parsed = !MinS.trim().getAsInteger(10, Min) &&
                  !MaxS.trim().getAsInteger(10, Max) && Min >= 1 && Min <= Max;
    if (Parsed && Max <= 1024)
      Shape.MaxFlat = Max;
    // A maximum above what any workgroup can have (__launch_bounds__(2048))
    // bounds nothing: the backend's 1024 is what it would say, not worth a
    // warning.
    else if (!Parsed || Min > 1024)
      Shape.Ignored = ("\"amdgpu-flat-work-group-size\"=\"" + Value +
                       "\" (the backend allows up to 1024 work-items)")
                          .str();
  }
  if (const MDNode *N = F.getMetadata("reqd_work_group_size")) {
    std::array<int64_t, 3> Dims = {0, 0, 0};
    bool Valid = N->getNumOperands() == 3;
    int64_t Product = 1;
    for (unsigned D = 0; Valid && D < 3; ++D) {
      auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(D));
      Valid = C && C->getZExtValue() >= 1 && C->getZExtValue() <= 1024;
      if (Valid) {
        Dims[D] = C->getZExtValue();
        Product *= Dims[D];
      }
    }
    if (Valid && Product <= 1024) {
      Shape.MaxDim = Dims;
      Shape.MaxFlat = std::min(Shape.MaxFlat, Product);
      Shape.Required = true;
    } else {
      if (!Shape.Ignored.empty())
        Shape.Ignored += " and ";
      Shape.Ignored += "!reqd_work_group_size (not three sizes from 1 to "
                       "1024 with a product of at most 1024)";
    }
  }
  for (int64_t &M : Shape.MaxDim)
    M = std::min(M, Shape.MaxFlat);
  return Shape;
}
