//===- LDSLoopStages.h - Values as functions of a loop's iteration --------===//
//
// Part of the thread-index analysis: integer IR values that depend on the
// iteration of one loop, for the stage slots of multi-buffered pipelines
// (stage i+1 written into half (i + 1) & 1 while stage i is read from half
// i & 1). For n, the number of entries into the loop's header since the
// loop was entered,
//
//   v(n) = (A0 + A1 * n + P[n mod |P|]) / D          (exact division)
//
// as an integer when Exact (the IR's unsigned value is that integer: the
// arithmetic cannot wrap, by nuw/nsw flags), otherwise modulo 2^Width.
// Induction variables are A0 + A1 * n; masks, remainders and quotients of
// them by constants add periodic parts, and affine parts cancel in
// addresses that loop strength reduction rewrote (base + 1024 * n -
// 3072 * ((n + 2) / 3) is the slot 1024 * ((n + 2) mod 3)). A value with
// A1 = 0 is periodic: a stage slot.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSLOOPSTAGES_H
#define AMDGPU_LDS_BARRIERS_LDSLOOPSTAGES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace llvm {
class BasicBlock;
class BinaryOperator;
class CastInst;
class DominatorTree;
class Value;

namespace ldsbarriers {

struct StageValue {
  /// The header of the loop whose iteration n is meant; null for a value
  /// that does not depend on one (a constant).
  const BasicBlock *Loop = nullptr;
  int64_t A0 = 0, A1 = 0, D = 1;
  SmallVector<int64_t, 8> P = {0};
  bool Exact = true;
  unsigned Width = 32;

  /// Periods and magnitudes stay below these (or the value is given up).
  static constexpr size_t MaxPeriod = 64;
  static constexpr int64_t MaxMagnitude = int64_t(1) << 40;

  /// v(n) (exact: the numerator is always a multiple of D).
  int64_t at(uint64_t N) const;
  bool isPeriodic() const { return A1 == 0; }
  /// this += Sign * O, as integers; false when out of bounds or the loops
  /// differ.
  bool add(const StageValue &O, int64_t Sign);
  /// this *= K; false when out of bounds.
  bool scale(int64_t K);
  /// The smallest equivalent representation (common factors of the
  /// numerator and D divided out, the shortest period of P).
  void normalize();
  /// The values for n = 0 .. |P| - 1 of a periodic value (A1 = 0).
  SmallVector<int64_t, 8> table() const;
};

/// For a phi at a loop header: the one value it enters the loop with and
/// the one it takes on every back-edge (an edge from a block the header
/// dominates); none when there are several of either.
std::optional<std::pair<const Value *, const Value *>>
headerPhiValues(const Value *V, const DominatorTree &DT);

/// Derives StageValues from the IR of one function (memoized).
class LoopStageAnalysis {
public:
  explicit LoopStageAnalysis(const DominatorTree &DT) : DT(DT) {}
  /// \p V as a function of the iteration of one loop; nullopt when it is
  /// not such a function (or does not depend on a loop).
  std::optional<StageValue> get(const Value *V);
  /// For a pointer phi at a loop header that advances by a constant number
  /// of bytes each iteration (p = phi [base, outside], [p + s, back-edge]):
  /// the base and s.
  std::optional<std::pair<const Value *, int64_t>>
  pointerInduction(const Value *V) const;
  /// For a phi at a loop header that takes, each iteration, the value
  /// another phi of that header had (buffers used in turn: cur and next
  /// swapped): the values it has in iterations 0 .. period - 1, the
  /// entries of the phis it cycles through.
  std::optional<SmallVector<const Value *, 4>> rotation(const Value *V) const;

private:
  std::optional<StageValue> compute(const Value *V, unsigned Depth);
  std::optional<StageValue> computePhi(const Value *V, unsigned W);
  std::optional<StageValue> computeCast(const CastInst *Cast, unsigned W,
                                        unsigned Depth);
  std::optional<StageValue> computeBinary(const BinaryOperator *BO, unsigned W,
                                          unsigned Depth);
  std::optional<StageValue> operand(const Value *V, unsigned Depth);
  std::optional<StageValue> induction(const Value *V) const;

  const DominatorTree &DT;
  DenseMap<const Value *, std::optional<StageValue>> Cache;
};

} // namespace ldsbarriers
} // namespace llvm

#endif
