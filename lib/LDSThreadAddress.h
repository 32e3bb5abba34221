//===- LDSThreadAddress.h - LDS addresses as functions of the work-item ---===//
//
// Thread-index analysis: an LDS access's byte address as an affine function
// of the work-item id, and the proof that two accesses by different
// work-items cannot share a byte. A pair proven so is no cross-wave hazard:
// what remains is one work-item (one wave) touching its own bytes, which a
// wave's in-order DS operations keep ordered.
//
// ThreadAddress and workItemsMayOverlap are plain data and arithmetic (unit
// tested against enumeration of every pair of work-items);
// ThreadAddressBuilder derives a ThreadAddress from the IR value of a
// memoperand.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSTHREADADDRESS_H
#define AMDGPU_LDS_BARRIERS_LDSTHREADADDRESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace llvm {
class BasicBlock;
class DominatorTree;
class LoopInfo;
class Loop;
class Function;
class GEPOperator;
class GlobalVariable;
class PHINode;
class Value;

namespace ldsbarriers {
class LoopStageAnalysis;

/// Values whose magnitude stays below this are free of 32-bit wrap-around
/// in every sum the thread-address tests form.
constexpr int64_t SmallMagnitude = int64_t(1) << 28;
/// More LDS than any workgroup of any target has.
constexpr int64_t MaxLDSBytes = int64_t(1) << 20;
/// \p V modulo 2^32 as a signed 32-bit value (LDS addresses are 32-bit).
inline int64_t wrap32(int64_t V) { return int64_t(int32_t(uint32_t(V))); }

/// Numbers items 0..Count-1 by their keys (\p Key(I): an array of words)
/// in order of first appearance; returns each number's first item and, if
/// \p NumberOf is given, sets (*NumberOf)[I] to item I's number.
template <typename KeyFn>
std::vector<unsigned> numberDistinct(unsigned Count, KeyFn Key,
                                     std::vector<unsigned> *NumberOf) {
  std::map<decltype(Key(0)), unsigned> Numbers;
  std::vector<unsigned> First;
  if (NumberOf)
    NumberOf->resize(Count);
  for (unsigned I = 0; I < Count; ++I) {
    auto [It, New] = Numbers.try_emplace(Key(I), First.size());
    if (New)
      First.push_back(I);
    if (NumberOf)
      (*NumberOf)[I] = It->second;
  }
  return First;
}

/// Symbols 1, 2 and 3 (AddressTerms::Uniform) are the workgroup's sizes in
/// x, y and z (blockDim): every work-item's id in dimension d is below
/// symbol d + 1, which lies in [1, WorkgroupShape::MaxDim[d]].
inline int launchSizeDim(unsigned Symbol) {
  return Symbol >= 1 && Symbol <= 3 ? int(Symbol) - 1 : -1;
}

/// The low \p Width bits of \p V, zero-extended.
inline uint64_t lowBits(uint64_t V, unsigned Width) {
  return Width >= 64 ? V : V & ((uint64_t(1) << Width) - 1);
}

enum class ThreadAnalysisMode {
  Off,
  On,
  Assume1D, // On, and workgroups have y and z sizes 1.
  Infer1D,  // Assume1D for a kernel that reads no y or z work-item id (the
            // AMDGPU attributor's amdgpu-no-workitem-id-y and -z), else On.
};

/// What launches a kernel may have: each work-item id dimension d is below
/// MaxDim[d], and the product of the three sizes is at most MaxFlat.
struct WorkgroupShape {
  std::array<int64_t, 3> MaxDim = {1024, 1024, 1024};
  int64_t MaxFlat = 1024;
  /// The bounds come from reqd_work_group_size.
  bool Required = false;
  /// Launch attributes that were ignored because LLVM ignores them too
  /// (for a diagnostic), empty when there were none.
  std::string Ignored;
};

/// The launches \p F may have, from its launch attributes, read as the
/// AMDGPU backend reads them: "amdgpu-flat-work-group-size"="min,max" only
/// when 1 <= min <= max <= 1024 (AMDGPUSubtarget::getFlatWorkGroupSizes
/// falls back to 1,1024 otherwise); !reqd_work_group_size only with three
/// sizes in [1, 1024] whose product is at most 1024.
WorkgroupShape getWorkgroupShape(const Function &F);

/// Whether \p F reads the y work-item id, and reads the ids and launch sizes
/// only in the flat id x + y * blockDim.x and the flat size blockDim.x *
/// blockDim.y: it then behaves exactly as the one-dimensional launch of the
/// flat size, whose waves hold the same work-items.
bool readsIdsOnlyAsFlatId(const Function &F);

/// Whether \p F is a kernel (an entry point every wave of the workgroup
/// starts, as opposed to a function called from one).
bool isKernel(const Function &F);
/// Whether the thread-index analysis takes \p F's workgroups as
/// one-dimensional under \p Mode.
bool assumesOneDimensional(const Function &F, ThreadAnalysisMode Mode);

/// An integer function of the work-item id alone, kept as the IR computes
/// it (masks, shifts, xor, division by constants, at the IR's bit widths)
/// so that it can be evaluated exactly for every work-item: the parts of an
/// address an affine form cannot describe, e.g. 4 * (t & 31) + (t >> 5).
struct TidExpr {
  enum Kind : uint8_t {
    Id,    // Imm = the dimension.
    Const, // Imm = the value.
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
    UDiv,
    URem,
    ZExt,  // Of L, from Imm bits.
    SExt,  // Of L, from Imm bits.
    Trunc, // Of L.
    Param, // Imm = the index of a value given to the evaluation
           // (IterationForm: a power of two of one iteration).
  };
  /// Node flags: the IR's nuw and nsw (a result that wraps is poison).
  enum : uint8_t { NUW = 1, NSW = 2 };
  struct Node {
    Kind K;
    uint8_t Width; // The result's bits (at most 64).
    int32_t L = -1, R = -1;
    int64_t Imm = 0;
    uint8_t Flags = 0;
    bool operator==(const Node &O) const {
      return K == O.K && Width == O.Width && L == O.L && R == O.R &&
             Imm == O.Imm && Flags == O.Flags;
    }
  };
  /// Operands come before their users; the last node is the value.
  SmallVector<Node, 8> Nodes;

  /// The value for the work-item with ids \p T, as the IR computes it (its
  /// low Width bits, zero-extended).
  uint64_t eval(const std::array<int64_t, 3> &T) const;
  /// eval for each of \p Ids, with the values \p Params of the Param nodes;
  /// sets (*Poison)[I] where a node with flags wraps for Ids[I] (the IR's
  /// value is poison there).
  void evalAll(ArrayRef<std::array<uint16_t, 3>> Ids,
               std::vector<uint64_t> &Out, ArrayRef<uint64_t> Params = {},
               std::vector<bool> *Poison = nullptr) const;
  /// Bounds [first, second] on the value for every work-item whose id in
  /// each dimension d lies in [Lo[d], Hi[d]] (not empty, not negative):
  /// interval arithmetic, node by node, that gives up (the whole range of
  /// the node's width) where a bound could wrap.
  std::pair<uint64_t, uint64_t> range(const std::array<int64_t, 3> &Lo,
                                      const std::array<int64_t, 3> &Hi) const;
  /// Bit D set when the expression reads the id of dimension D.
  unsigned usedDims() const;
  bool operator==(const TidExpr &O) const { return Nodes == O.Nodes; }
  std::string str() const;
};

/// Whether \p X and \p Y are both null or point to equal values.
template <typename T>
bool samePointee(const std::shared_ptr<const T> &X,
                 const std::shared_ptr<const T> &Y) {
  return X == Y || (X && Y && *X == *Y);
}

/// The terms of an address for the work-item with id t, modulo 2^32:
///   Const + sum_d Coef[d] * t[d] + Fn(t) + v + sum_s UniformCoef_s * u_s
/// with Fn an exactly evaluated function of the id (optional), v an unknown
/// per-work-item value in [VarLo, VarHi] that is a multiple of 2^VarAlign,
/// and u_s values every work-item of the workgroup shares.
struct AddressTerms {
  int64_t Const = 0;
  std::array<int64_t, 3> Coef = {0, 0, 0};
  std::shared_ptr<const TidExpr> Fn;
  int64_t VarLo = 0, VarHi = 0;
  unsigned VarAlign = 0;
  /// (symbol, coefficient), sorted by symbol, no zero coefficients.
  SmallVector<std::pair<unsigned, int64_t>, 2> Uniform;
  /// A block-stride loop's part, StrideCoef * n * u for the launch size u
  /// in dimension StrideDim (launchSizeDim) and n >= 0 the work-item's own
  /// iteration; 0: none. The builder makes it only where the sum is an
  /// exact integer (see blockStride), so the work-items' strides never
  /// fold onto each other.
  int64_t StrideCoef = 0;
  uint8_t StrideDim = 0;
  /// The terms hold only in launches of two work-items or more (a path of
  /// one-work-item launches was left out): they tell work-items apart but
  /// give no bytes of the access.
  bool PairsOnly = false;

  bool hasVar() const { return VarLo || VarHi; }
  /// Whether the terms equal \p O's but for the constant.
  bool sameButConstant(const AddressTerms &O) const {
    return Coef == O.Coef && samePointee(Fn, O.Fn) && VarLo == O.VarLo &&
           VarHi == O.VarHi && VarAlign == O.VarAlign && Uniform == O.Uniform &&
           StrideCoef == O.StrideCoef && StrideDim == O.StrideDim &&
           PairsOnly == O.PairsOnly;
  }
  bool operator==(const AddressTerms &O) const {
    return Const == O.Const && sameButConstant(O);
  }
};

/// An access in one iteration of a loop that steps values by powers of two
/// (a tree reduction's `s *= 2`, a scan's `offset`): its byte offset into
/// its LDS object and the conditions on the work-items that run it, as
/// functions of the id and of the loop's header phis that are 0 or (negated)
/// powers of two (Param i), evaluated for each of their values. A work-item
/// whose offset is poison or outside the object cannot run the access.
struct IterationForm {
  std::shared_ptr<const TidExpr> Offset;
  /// The work-item runs the access only where this is 0 (null: always).
  std::shared_ptr<const TidExpr> Zero;
  /// The loop's and the object's symbols, the Params' widths, and masks of
  /// the Params known not to be 0 and of those that may be -2^k too.
  unsigned Loop = 0, Object = 0;
  SmallVector<uint8_t, 2> ParamWidths;
  unsigned NonZero = 0, Negative = 0;
  uint64_t ObjectBytes = 0;
  bool operator==(const IterationForm &O) const;
};

/// An access's bytes [Addr, Addr + Size) for the work-item with id t, where
/// Addr is the sum of its terms (AddressTerms) and of its stage slot, if it
/// has one. Only work-items with IdLo[d] <= t[d] <= IdHi[d] execute the
/// access (conditions on the id that dominate it).
struct ThreadAddress : AddressTerms {
  std::array<int64_t, 3> IdLo = {0, 0, 0};
  std::array<int64_t, 3> IdHi = {INT32_MAX, INT32_MAX, INT32_MAX};
  /// Bounds on the launch sizes from conditions on them where the access
  /// runs (`if (blockDim.x <= 32)`; the loop vectorizer's `blockDim.x ==
  /// 1`). They hold in the whole workgroup: for every work-item that meets
  /// this one too (launchUnder).
  std::array<int64_t, 3> SizeHi = {INT32_MAX, INT32_MAX, INT32_MAX};
  uint64_t Size = 0;
  /// A stage slot: Stage[n mod Stage.size()] (wrapped to 32 bits) in the
  /// n-th iteration of loop StageLoop (a builder's id; 0 and empty: none),
  /// the same for every work-item (e.g. 1024 * ((i + 1) & 1)).
  unsigned StageLoop = 0;
  SmallVector<int64_t, 4> Stage;
  /// A guard on the work-items that run the access, t[BoundDim] <= u +
  /// BoundOff, with u the value of symbol BoundSym (0: none) in [BoundLo,
  /// BoundHi]: `if (t < s)` with s a value the workgroup shares. When u is
  /// a value of one iteration of loop StageLoop (a tree step's stride),
  /// IterationTerms is set: the bound holds, and the address has those
  /// terms (the loop's values as symbols), for accesses of one iteration.
  unsigned BoundSym = 0;
  uint8_t BoundDim = 0;
  int64_t BoundOff = 0, BoundLo = 0, BoundHi = 0;
  std::shared_ptr<const AddressTerms> IterationTerms;
  /// The access in one iteration of loop StageLoop, where its values are
  /// powers of two (null: none).
  std::shared_ptr<const IterationForm> Iteration;
  /// Only the work-items for which Filter (a function of the id) has the
  /// value FilterValue run the access: `if (lane == 0)`. Null: all.
  std::shared_ptr<const TidExpr> Filter;
  uint64_t FilterValue = 0;
  /// The module-LDS variable accessed (Location::Variable), 0 when not
  /// known: per memoperand, for an instruction that accesses two variables
  /// at once (a DS_WRITE2 of two arrays).
  unsigned Variable = 0;
  /// The unknown term's range comes from the object alone
  /// (boundVarByObject): it may be a value that different work-items
  /// share, such as a loop counter.
  bool VarFromObject = false;

  /// Whether the form tells only who runs the access, nothing of its
  /// address (ThreadAddressBuilder::anyAddressAt).
  bool knowsNoAddress() const {
    return VarLo == INT32_MIN && VarHi == INT32_MAX && !Iteration;
  }
  bool operator==(const ThreadAddress &O) const;
  std::string str() const;
  /// Gives fields that do not change the address (the alignment of no
  /// unknown term, the loop of no stage slot, id bounds beyond every id) one
  /// value, so that operator== tells apart what str() spells differently
  /// (or different variables).
  void canonicalize();
  /// The dimensions (a mask) in which the access tells work-items apart
  /// in launches of \p Shape: its address depends on the id there (a
  /// coefficient or the function of the id), or only some ids run it.
  unsigned distinguishedDims(const WorkgroupShape &Shape) const;
  /// A hash that equal addresses (operator==) share.
  size_t hash() const;
};

/// The id tuples (over the dimensions in Dims) an access can run with, and
/// the tid part of its address for each.
struct ThreadIdSpace {
  SmallVector<unsigned, 3> Dims;
  /// In 16 bits to keep 2-D enumerations small; a larger dimension makes
  /// the enumeration TooBig.
  std::vector<std::array<uint16_t, 3>> Ids;
  std::vector<int64_t> Terms;
  bool TooBig = false;
  /// Indices of Terms sorted by (term, index), computed once.
  const std::vector<unsigned> &sortedOrder() const;

private:
  mutable std::vector<unsigned> Order;
};

/// Enumerations of ThreadIdSpaces kept across pair tests: an address form
/// meets many others, and evaluating it for every work-item once is
/// enough. Entries are keyed by the address's location in memory and by
/// the launch bounds the enumeration reads, and the addresses must outlive
/// the cache unchanged.
class ThreadIdCache {
public:
  ThreadIdCache() = default;
  /// A copy starts empty: its owner's addresses live elsewhere.
  ThreadIdCache(const ThreadIdCache &) {}
  ThreadIdCache &operator=(const ThreadIdCache &) {
    clear();
    return *this;
  }
  const ThreadIdSpace &get(const ThreadAddress &A,
                           const SmallVector<unsigned, 3> &Dims,
                           const WorkgroupShape &Shape);
  void clear() { Spaces.clear(); }

private:
  /// (address, dimensions mask, MaxFlat, MaxDim of the dimensions in the
  /// mask).
  using Key = std::tuple<const ThreadAddress *, unsigned, int64_t, int64_t,
                         int64_t, int64_t>;
  std::map<Key, ThreadIdSpace> Spaces;
};

/// How the iterations of a stage loop relate between an access A and a
/// later access B: none known, B runs Distance iterations after A (both in
/// that loop), or B runs in the loop's first iteration (A before the loop).
struct IterationRelation {
  enum Kind : uint8_t { Unknown, Distance, FirstIteration };
  Kind K = Unknown;
  uint8_t Dist = 0;
  /// The stage loop (ThreadAddress::StageLoop) the relation is about.
  unsigned Loop = 0;
  static IterationRelation distance(unsigned Loop, uint8_t D) {
    return {Distance, D, Loop};
  }
  static IterationRelation first(unsigned Loop) {
    return {FirstIteration, 0, Loop};
  }
  /// A small integer that names the relation, 0 for Unknown.
  unsigned code() const {
    return K == Unknown ? 0 : (Loop << 4) | (Dist << 2) | K;
  }
};

/// \p Shape narrowed by \p A's bounds on the launch sizes (SizeHi).
WorkgroupShape launchUnder(const ThreadAddress &A, WorkgroupShape Shape);

/// Whether two different work-items of one workgroup executing A and B may
/// touch a common byte; false only when proven impossible. \p Cache must
/// only ever be used with this \p Shape. \p Rel relates the iterations of
/// A's and B's stage slots (B after A); without it any two may meet.
bool workItemsMayOverlap(const ThreadAddress &A, const ThreadAddress &B,
                         const WorkgroupShape &Shape,
                         ThreadIdCache *Cache = nullptr,
                         IterationRelation Rel = {});

/// The LDS addresses [first, end) covering every byte \p A may touch in any
/// launch \p Shape allows, for any unknown terms and iteration; none when
/// not known as absolute addresses (symbolic terms, values far from 0).
std::optional<std::pair<int64_t, int64_t>>
addressBytes(const ThreadAddress &A, const WorkgroupShape &Shape);

/// The range of Const + sum_d Coef[d] * t[d] over t[d] < Shape.MaxDim[d].
std::pair<int64_t, int64_t> idTermsRange(const AddressTerms &T,
                                         const WorkgroupShape &Shape);

/// Bounds the per-work-item term of \p T (a multiple of 2^VarAlign) by the
/// object [\p Begin, \p End) that \p T's access of \p Size bytes lies in,
/// since leaving it is undefined. Unknown (\p T unchanged) for terms this
/// cannot bound (symbols, a function of the id, a block stride); Outside
/// when no work-item can run the access inside the object (an unrolled
/// loop body's copy that would step past it).
enum class ObjectBound { Unknown, Bounded, Outside };
ObjectBound boundVarByObject(AddressTerms &T, uint64_t Size, int64_t Begin,
                             int64_t End, const WorkgroupShape &Shape);

/// For an access \p A that every work-item runs, inside the object
/// [\p Begin, \p End): per dimension, the largest workgroup size that keeps
/// work-items (0, .., t[d], .., 0) inside, since leaving it is undefined.
/// INT32_MAX where nothing follows (terms other than constant and id, id
/// conditions, or outside even for work-item 0).
std::array<int64_t, 3> launchSizesInside(const ThreadAddress &A, int64_t Begin,
                                         int64_t End,
                                         const WorkgroupShape &Shape);

/// Whether the guards of \p A and \p B (ThreadAddress::BoundSym, and the
/// launch sizes, launchSizeDim) prove that no two work-items executing them
/// touch a common byte: the tree step `if (t < s) a[t] += a[t + s]` writes
/// below s and reads from s on; a halo `a[t + blockDim.x]` lies above every
/// `a[t]`. \p SameIteration: the two run in one iteration of their
/// StageLoop.
bool guardsKeepApart(const ThreadAddress &A, const ThreadAddress &B,
                     const WorkgroupShape &Shape, bool SameIteration);

/// Whether the block-stride parts of \p A and \p B (StrideCoef) prove that
/// no two work-items touch a common byte: `s[i]` in `for (i = t; i < n; i +=
/// blockDim.x)` is t modulo the launch size in every iteration, so two
/// work-items with different ids never meet, in whatever iterations.
bool stridesKeepApart(const ThreadAddress &A, const ThreadAddress &B,
                      const WorkgroupShape &Shape);

/// Whether \p A is the same for every work-item of each wave of every
/// launch \p Shape allows (one-dimensional only): the base address of a
/// transfer that takes it from the first active lane.
bool isWaveUniform(const ThreadAddress &A, const WorkgroupShape &Shape,
                   unsigned WaveSize);

/// For a wave-uniform \p A (isWaveUniform) whose Size bytes one wave
/// writes at once: whether two waves may write a common byte.
bool wavesMayOverlap(const ThreadAddress &A, const WorkgroupShape &Shape,
                     unsigned WaveSize);

/// The one wave (by flat id) that runs every work-item \p A's id conditions
/// admit in launches of \p Shape, if there is one: y and z ids kept at 0
/// and the x id within one run of WaveSize ids (a warp-synchronous tail
/// under `if (t < 32)`).
std::optional<int64_t> onlyWave(const ThreadAddress &A,
                                const WorkgroupShape &Shape, unsigned WaveSize);

/// Derives ThreadAddresses from the IR of one function.
class ThreadAddressBuilder {
public:
  /// \p Launch: the launches \p F's attributes allow (getWorkgroupShape).
  /// With \p Assume1D, every launch has y and z sizes 1 (HIP has no way to
  /// say so: reqd_work_group_size is OpenCL only).
  ThreadAddressBuilder(const Function &F, WorkgroupShape Launch,
                       bool Assume1D = false);
  ~ThreadAddressBuilder();

  /// The address of a Size-byte access at pointer \p Ptr plus \p Offset
  /// bytes, executed in IR block \p At (for the id conditions; may be null);
  /// nullopt when the address is not such a function.
  std::optional<ThreadAddress> build(const Value *Ptr, int64_t Offset,
                                     uint64_t Size, const BasicBlock *At);
  /// An access of unknown address in IR block \p At, by the work-items
  /// that the conditions dominating \p At admit (`if (t == 0)`): any
  /// address, so that only who runs it (onlyWave) tells it apart. nullopt
  /// when the conditions admit every work-item.
  std::optional<ThreadAddress> anyAddressAt(const BasicBlock *At);

  const WorkgroupShape &shape() const { return Shape; }
  /// shape(), narrowed by the accesses built so far that every work-item
  /// of the kernel runs: each stays inside its LDS object (see
  /// noteLaunchBound).
  WorkgroupShape inferredShape() const;

  /// Why the shape is what it is (attributes found), for remarks.
  std::string describeShape() const;

  /// The header of the loop of a StageLoop this builder assigned.
  const BasicBlock *stageHeader(unsigned StageLoop) const {
    return StageHeaders.lookup(StageLoop);
  }
  /// Whether \p BB heads an IR loop (a predecessor it dominates).
  bool isLoopHeader(const BasicBlock *BB) const;

private:
  struct Linear;
  std::optional<Linear> linearize(const Value *V, unsigned Depth);
  std::optional<Linear> linearizeUncached(const Value *V, unsigned Depth);
  std::optional<Linear> linearizeGEP(const GEPOperator *GEP, unsigned Depth);
  std::optional<Linear> linearizeArith(unsigned Opcode, const Value *A,
                                       const Value *B, unsigned Depth);
  std::optional<Linear> linearizeRotation(const Value *V,
                                          ArrayRef<const Value *> Values,
                                          unsigned Depth);
  std::optional<Linear> linearizeLeaf(const Value *V);
  std::optional<Linear> linearizeMul24(const Value *V, unsigned Depth);
  std::optional<Linear> blockStride(const Value *V, unsigned Depth);
  /// Whether \p L's block-stride part is exact for an access of \p Size
  /// bytes at \p Ptr in \p At.
  bool strideIsExact(const Linear &L, const Value *Ptr, uint64_t Size,
                     const BasicBlock *At);
  /// The one LDS variable \p Ptr is based on, with its size in \p Bytes
  /// (for dynamic LDS, a bound on it); null when there is none.
  const GlobalVariable *ldsObject(const Value *Ptr, uint64_t &Bytes);
  /// That variable's bytes [first, second) when its address is known.
  std::optional<std::pair<int64_t, int64_t>> ldsObjectBytes(const Value *Ptr);
  bool isInvariantUniform(const Value *V, unsigned Depth);
  /// Whether every work-item that reaches \p Phi's block enters it by the
  /// same edge, with the same value.
  bool isUniformMerge(const PHINode *Phi);
  DenseMap<const PHINode *, bool> UniformMerges;
  /// Per loop: its header phis that are powers of two, and what is known
  /// of them (the Params of its IterationForms).
  DenseMap<const Loop *,
           std::pair<SmallVector<const Value *, 2>, IterationForm>>
      LoopPowers;
  /// Whether \p V is the same for every work-item in each iteration of
  /// one loop, which it sets in \p L (null: isInvariantUniform).
  bool isIterationUniform(const Value *V, const Loop *&L,
                          SmallPtrSetImpl<const Value *> &Assumed,
                          unsigned Depth);
  /// Adds to \p TA, an access at \p Ptr + \p Offset in \p At, the guard
  /// of At's bounds (IdBounds::Guard), where it can be used.
  void applyGuard(ThreadAddress &TA, const Value *Ptr, int64_t Offset,
                  const BasicBlock *At);
  /// V as a function of the work-item id alone, evaluated exactly; null
  /// when it depends on anything else or not on the id. With \p Params,
  /// of those values too (TidExpr::Param), with the IR's no-wrap flags.
  std::shared_ptr<const TidExpr> tidExpr(const Value *V,
                                         ArrayRef<const Value *> Params = {});
  /// The IterationForm of an access at \p Ptr + \p Offset in \p At, if
  /// its loop has powers of two that its offset or conditions use.
  std::shared_ptr<const IterationForm>
  iterationForm(const Value *Ptr, int64_t Offset, const BasicBlock *At);
  unsigned symbol(const void *Key);
  /// The value of \p V when the launch fixes it: a required launch size
  /// and arithmetic on such sizes; in a 1-D launch, the y and z ids (0),
  /// their launch sizes (1), and a product with a 0.
  std::optional<int64_t> launchConstant(const Value *V,
                                        unsigned Depth = 0) const;
  /// \p V's value when it is a constant or launchConstant.
  std::optional<int64_t> constantFactor(const Value *V) const;

  /// Narrows InferredMaxDim by \p TA, an access at \p Ptr in \p At, when
  /// every work-item runs it.
  void noteLaunchBound(const ThreadAddress &TA, const Value *Ptr,
                       const BasicBlock *At);

  const Function &F;
  WorkgroupShape Shape;
  bool Assume1D = false;
  /// Assume1D holds because the function reads its ids only in the flat id.
  bool FlatIds = false;
  std::unique_ptr<DominatorTree> DT;
  std::unique_ptr<LoopInfo> Loops;
  /// The IR post-dominator tree, made on first use.
  struct PostDominators;
  std::unique_ptr<PostDominators> PDT;
  /// Launch sizes the accesses allow (noteLaunchBound).
  std::array<int64_t, 3> InferredMaxDim = {INT32_MAX, INT32_MAX, INT32_MAX};
  /// Loop-iteration values; null while building a form without them.
  std::unique_ptr<LoopStageAnalysis> Stages;
  DenseMap<unsigned, const BasicBlock *> StageHeaders;
  DenseMap<const void *, unsigned> Symbols;
  /// The values linearized so far, by value, depth and the modes the result
  /// depends on (see linearize).
  DenseMap<std::tuple<const Value *, unsigned, unsigned>, std::optional<Linear>>
      Linearized;
  /// While building the terms of one iteration of this loop (applyGuard):
  /// its values the workgroup shares are symbols.
  const Loop *IterLoop = nullptr;
  /// Whether blockStride may describe loop values (off when an access's
  /// stride turned out not to be exact).
  bool Strides = true;
  /// Whether a value of unknown range is a per-work-item term anyway
  /// (Linear::Unbounded), for an address that its object bounds.
  bool UnboundedLeaves = false;
  /// Id bounds from the conditions that dominate a block, by the block's
  /// number (see boundsAt): constant bounds, and the innermost
  /// guard t[GuardDim] <= Guard + GuardOff by a value Guard every
  /// work-item shares (in each iteration of a loop, or always).
  struct IdBounds {
    std::array<int64_t, 3> Lo = {0, 0, 0};
    std::array<int64_t, 3> Hi = {INT32_MAX, INT32_MAX, INT32_MAX};
    /// Bounds on the launch sizes (ThreadAddress::SizeHi).
    std::array<int64_t, 3> SizeHi = {INT32_MAX, INT32_MAX, INT32_MAX};
    const Value *Guard = nullptr;
    /// The loop of whose iterations Guard is a value (null: always one).
    const Loop *GuardLoop = nullptr;
    unsigned GuardDim = 0;
    int64_t GuardOff = 0;
    /// The conditions `f(t) == K` on functions of the id, as one.
    std::shared_ptr<const TidExpr> Filter;
    uint64_t FilterValue = 0;
    /// Sets the bounds of the work-items that run \p TA to these.
    void restrict(ThreadAddress &TA) const {
      TA.IdLo = Lo;
      TA.IdHi = Hi;
      TA.SizeHi = SizeHi;
      TA.Filter = Filter;
      TA.FilterValue = FilterValue;
    }
  };
  std::vector<std::optional<IdBounds>> BlockBounds;
  std::optional<IdBounds> &blockBounds(const BasicBlock *BB);
  /// The bounds that the conditions dominating \p At give (null where
  /// there are no dominators).
  const IdBounds *boundsAt(const BasicBlock *At);
};

} // namespace ldsbarriers
} // namespace llvm

#endif
