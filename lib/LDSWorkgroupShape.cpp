//===- LDSWorkgroupShape.cpp - The launch bounds a kernel declares --------===//
//
// The one reader of a kernel's workgroup size: the
// "amdgpu-flat-work-group-size" attribute (HIP __launch_bounds__) and the
// !reqd_work_group_size metadata (OpenCL), as the AMDGPU backend reads them,
// and the launch the user states with -amdgpu-lds-barriers-workgroup-size
// (HIP cannot say it in the source); and which functions are kernels. The
// thread-index analysis, the one-wave check and the warnings on ignored
// declarations read the result.
//
//===----------------------------------------------------------------------===//

#include "LDSThreadAddress.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/CommandLine.h"
#include <algorithm>

using namespace llvm;
using namespace llvm::ldsbarriers;

static cl::list<std::string> StatedSizes(
    "amdgpu-lds-barriers-workgroup-size", cl::Hidden,
    cl::desc("[KERNEL=]X[xY[xZ]]: the workgroup size KERNEL (a symbol, a "
             "function name, or a name without its template arguments; "
             "without KERNEL=, every kernel) is launched with, taken as "
             "!reqd_work_group_size where the kernel has none (repeatable)"));

/// Whether the entry name \p Name (before '=') names \p F: its symbol, its
/// demangled name without parameters, or that name without template
/// arguments and scope (every instantiation and overload).
static bool namesKernel(StringRef Name, const Function &F) {
  if (Name == F.getName())
    return true;
  // The demangler's names point into the symbol: keep it alive.
  std::string Symbol = F.getName().str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Symbol.c_str()) || !D.isFunction())
    return false;
  auto Matches = [&](char *Buf) {
    bool Same = Buf && Name == StringRef(Buf);
    std::free(Buf);
    return Same;
  };
  return Matches(D.getFunctionName(nullptr, nullptr)) ||
         Matches(D.getFunctionBaseName(nullptr, nullptr));
}

/// Whether \p Dims are workgroup sizes from 1 to 1024 whose product is at
/// most 1024.
static bool isValidSize(const std::array<int64_t, 3> &Dims) {
  return llvm::all_of(Dims, [](int64_t D) { return D >= 1 && D <= 1024; }) &&
         Dims[0] * Dims[1] * Dims[2] <= 1024;
}

/// The size the last entry of -amdgpu-lds-barriers-workgroup-size that
/// names \p F states, or an explanation when that entry is malformed.
static std::optional<std::array<int64_t, 3>>
statedSize(const Function &F, std::string &Malformed) {
  for (const std::string &Entry : reverse(StatedSizes)) {
    auto [Name, Size] = StringRef(Entry).rsplit('=');
    if (Size.empty())
      std::swap(Name, Size);
    if (!Name.empty() && !namesKernel(Name, F))
      continue;
    std::array<int64_t, 3> Dims = {1, 1, 1};
    SmallVector<StringRef, 3> Parts;
    Size.split(Parts, 'x');
    bool Valid = Parts.size() <= 3;
    for (unsigned D = 0; Valid && D < Parts.size(); ++D)
      Valid = !Parts[D].getAsInteger(10, Dims[D]);
    if (Valid && isValidSize(Dims))
      return Dims;
    Malformed = "-amdgpu-lds-barriers-workgroup-size=" + Entry +
                " (not [KERNEL=]X[xY[xZ]] with sizes from 1 to 1024 and a "
                "product of at most 1024)";
    return std::nullopt;
  }
  return std::nullopt;
}

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
  auto Ignore = [&](const Twine &What) {
    Shape.Ignored += (Shape.Ignored.empty() ? "" : " and ") + What.str();
  };
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
      Ignore("\"amdgpu-flat-work-group-size\"=\"" + Value +
             "\" (the backend allows up to 1024 work-items)");
  }
  if (const MDNode *N = F.getMetadata("reqd_work_group_size")) {
    std::array<int64_t, 3> Dims = {0, 0, 0};
    bool Valid = N->getNumOperands() == 3;
    for (unsigned D = 0; Valid && D < 3; ++D) {
      auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(D));
      Valid = C && C->getValue().ule(1024);
      Dims[D] = Valid ? C->getZExtValue() : 0;
    }
    if (Valid && isValidSize(Dims)) {
      Shape.MaxDim = Dims;
      Shape.MaxFlat = std::min(Shape.MaxFlat, Dims[0] * Dims[1] * Dims[2]);
      Shape.Required = true;
    } else {
      Ignore("!reqd_work_group_size (not three sizes from 1 to 1024 with a "
             "product of at most 1024)");
    }
  } else if (isKernel(F)) {
    // The user's word for what the source cannot say; the kernel's own
    // metadata, above, comes first.
    std::string Malformed;
    if (std::optional<std::array<int64_t, 3>> Dims = statedSize(F, Malformed)) {
      int64_t Product = (*Dims)[0] * (*Dims)[1] * (*Dims)[2];
      if (Product <= Shape.MaxFlat) {
        Shape.MaxDim = *Dims;
        Shape.MaxFlat = Product;
        Shape.Required = true;
      } else {
        Ignore("-amdgpu-lds-barriers-workgroup-size (" + Twine(Product) +
               " work-items, more than the kernel's maximum of " +
               Twine(Shape.MaxFlat) + ")");
      }
    } else if (!Malformed.empty()) {
      Ignore(Malformed);
    }
  }
  for (int64_t &M : Shape.MaxDim)
    M = std::min(M, Shape.MaxFlat);
  return Shape;
}
