//===- LDSCounters.h - The counters LDS traffic completes on ----*- C++ -*-===//
//
// The hardware counters and per-counter wait thresholds, apart from the
// abstract program: the target facts encode and decode waits with them and
// need nothing else of the machine-independent model.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSCOUNTERS_H
#define AMDGPU_LDS_BARRIERS_LDSCOUNTERS_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <array>
#include <cstdint>

namespace llvm {
namespace ldsbarriers {

/// Hardware counters on which LDS traffic completes.
enum class Counter : uint8_t {
  LDS,    // lgkmcnt (gfx9-11) / dscnt (gfx12): DS instructions.
  VM,     // vmcnt / loadcnt: LDS DMA.
  Async,  // asynccnt (gfx1250).
  Tensor, // tensorcnt (gfx1250).
  Exp,    // expcnt: LDS_DIRECT_LOAD / LDS_PARAM_LOAD.
};
constexpr unsigned NumCounters = 5;
inline StringRef getCounterName(Counter C) {
  static constexpr StringLiteral Names[NumCounters] = {"lds", "vm", "async",
                                                       "tensor", "exp"};
  return Names[unsigned(C)];
}

/// A set of counters, one bit per Counter.
using CounterMask = uint8_t;
constexpr CounterMask counterBit(Counter C) {
  return CounterMask(1u << unsigned(C));
}

/// Per-counter thresholds of a wait: the counter must drop to at most the
/// value; NoWait leaves the counter alone.
struct WaitThresholds {
  static constexpr int NoWait = -1;
  std::array<int, NumCounters> Value;
  WaitThresholds() { Value.fill(NoWait); }
  /// Waits for every counter in \p M to reach zero.
  static WaitThresholds zero(CounterMask M) {
    WaitThresholds W;
    for (unsigned C = 0; C < NumCounters; ++C)
      if (M & (1u << C))
        W.Value[C] = 0;
    return W;
  }
  /// Also waits for what \p O waits for (the stricter value wins).
  WaitThresholds &operator|=(const WaitThresholds &O) {
    for (unsigned C = 0; C < NumCounters; ++C)
      if (O.Value[C] != NoWait && (Value[C] == NoWait || O.Value[C] < Value[C]))
        Value[C] = O.Value[C];
    return *this;
  }
  bool operator==(const WaitThresholds &O) const { return Value == O.Value; }
  int &operator[](Counter C) { return Value[unsigned(C)]; }
  int operator[](Counter C) const { return Value[unsigned(C)]; }
  /// \p C's field in a wait instruction whose fields hold at most \p Max
  /// (the largest value means "no wait"): the threshold, clamped to the
  /// field; the largest value when \p C is not waited for.
  unsigned encoded(Counter C,
                   const std::array<unsigned, NumCounters> &Max) const {
    int V = (*this)[C];
    unsigned M = Max[unsigned(C)];
    return V == NoWait ? M : std::min<unsigned>(V, M);
  }
  bool any() const {
    return llvm::any_of(Value, [](int V) { return V != NoWait; });
  }
};

} // namespace ldsbarriers
} // namespace llvm

#endif
