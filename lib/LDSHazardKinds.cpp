//===- LDSHazardKinds.cpp - Which pairs of LDS accesses conflict ----------===//
//
// The pair rules of the hazard analysis: what two accesses of different
// waves make by their kinds (read, write, atomic operation, opaque,
// asynchronous), and whether their bytes may meet.
//
//===----------------------------------------------------------------------===//

#include "LDSHazardAnalysis.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace llvm::ldsbarriers;

StringRef llvm::ldsbarriers::getHazardKindName(HazardKind K) {
  static constexpr StringLiteral Names[] = {"RAW", "WAR", "WAW", "atomic",
                                            "opaque"};
  return Names[unsigned(K)];
}

std::optional<HazardKind>
llvm::ldsbarriers::conflictKind(const Event &Earlier, const Event &Later,
                                const AnalysisOptions &Opts) {
  if (Earlier.AK == AccessKind::Opaque || Later.AK == AccessKind::Opaque)
    return HazardKind::Opaque;
  if (Earlier.AK == AccessKind::Atomic || Later.AK == AccessKind::Atomic) {
    // The same commutative operation gives the same result in any order.
    if (Earlier.AK == Later.AK && Earlier.CommutativeOp &&
        Earlier.CommutativeOp == Later.CommutativeOp)
      return std::nullopt;
    return HazardKind::Atomic;
  }
  if (Earlier.AK == AccessKind::Read)
    return Later.AK == AccessKind::Read ? std::nullopt
                                        : std::optional(HazardKind::WAR);
  if (Later.AK == AccessKind::Read)
    return HazardKind::RAW;
  if (!(Earlier.Async || Later.Async ? Opts.AsyncWAW : Opts.WAW))
    return std::nullopt;
  return HazardKind::WAW;
}

bool llvm::ldsbarriers::accessesConflict(
    const AbstractProgram &P, const Event &Earlier, const Event &Later,
    const AnalysisOptions &Opts, HazardKind *Kind, IterationRelation Rel) {
  // The kinds first: they are cheap, the bytes (thread forms) are not.
  std::optional<HazardKind> K = conflictKind(Earlier, Later, Opts);
  if (!K || !P.wavesMayMeet(Earlier, Later, Rel))
    return false;
  if (Kind)
    *Kind = *K;
  return true;
}

std::vector<Window>
llvm::ldsbarriers::concurrentArmWindows(const AbstractProgram &P,
                                        const AnalysisOptions &Opts) {
  std::vector<Window> Out;
  std::set<std::pair<EventRef, EventRef>> Seen;
  for (const ArmAccesses &F : concurrentArmAccesses(P))
    for (unsigned I = 0; I < F.Arms.size(); ++I)
      for (unsigned J = I + 1; J < F.Arms.size(); ++J)
        for (EventRef X : F.Arms[I])
          for (EventRef Y : F.Arms[J]) {
            if (X == Y)
              continue; // One instruction in several waves: a self-race.
            EventRef A = std::min(X, Y), B = std::max(X, Y);
            HazardKind K;
            if (accessesConflict(P, P.event(A), P.event(B), Opts, &K) &&
                Seen.insert({A, B}).second) {
              Window W{A, B, K};
              W.Fork = F.Fork;
              Out.push_back(W);
            }
          }
  return Out;
}

/// For each of \p Accesses (one per set of accesses alike), whether it
/// conflicts with none of them (accessesMeetingNoneIn). The byte tests stop
/// after \p Budget pair tests.
static std::vector<uint8_t>
accessesMeetingNone(const AbstractProgram &P, ArrayRef<const Event *> Accesses,
                    const AnalysisOptions &Opts, uint64_t Budget) {
  // The accesses by kind (conflictKind looks at nothing else), so that one
  // is tested against the kinds it may conflict with only; within a kind,
  // those with a known address range in order of its start, so that one
  // is tested only against the ranges that reach its own.
  struct Ranged {
    int64_t Begin, End;
    unsigned Index;
    const Event *E;
  };
  struct Group {
    std::vector<Ranged> Ranges;
    std::vector<const Event *> Unranged;
    int64_t MaxLength = 0;
  };
  std::vector<std::optional<std::pair<int64_t, int64_t>>> RangeOf;
  RangeOf.reserve(Accesses.size());
  std::map<std::tuple<AccessKind, unsigned, bool>, Group> ByKind;
  for (const auto [Index, E] : llvm::enumerate(Accesses)) {
    RangeOf.push_back(P.addressRange(E->Loc));
    Group &G = ByKind[{E->AK, E->CommutativeOp, E->Async}];
    if (const auto &R = RangeOf.back()) {
      G.Ranges.push_back({R->first, R->second, unsigned(Index), E});
      G.MaxLength = std::max(G.MaxLength, R->second - R->first);
    } else {
      G.Unranged.push_back(E);
    }
  }
  for (auto &KindGroup : ByKind)
    llvm::sort(KindGroup.second.Ranges, [](const Ranged &X, const Ranged &Y) {
      return std::pair(X.Begin, X.Index) < std::pair(Y.Begin, Y.Index);
    });
  std::vector<uint8_t> None(Accesses.size(), 0);
  for (unsigned I = 0; I < Accesses.size(); ++I) {
    const Event &E = *Accesses[I];
    if (E.Async)
      continue;
    const auto &R = RangeOf[I];
    bool Meets = false;
    auto Test = [&](const Event &X) {
      Meets = Budget == 0 || P.mayOverlap(X.Loc, E.Loc);
      if (Budget)
        --Budget;
      return Meets;
    };
    for (const auto &KindGroup : ByKind) {
      const Group &G = KindGroup.second;
      const Event &O =
          G.Ranges.empty() ? *G.Unranged.front() : *G.Ranges.front().E;
      if (!conflictKind(O, E, Opts) && !conflictKind(E, O, Opts))
        continue;
      if (llvm::any_of(G.Unranged, [&](const Event *X) { return Test(*X); }))
        break;
      auto From = G.Ranges.begin(), To = G.Ranges.end();
      if (R) {
        // A range that reaches R starts after R's start minus the longest
        // length, and before R's end.
        From = llvm::partition_point(G.Ranges, [&](const Ranged &X) {
          return X.Begin <= R->first - G.MaxLength;
        });
        To = llvm::partition_point(
            G.Ranges, [&](const Ranged &X) { return X.Begin < R->second; });
        To = std::max(From, To); // R may be empty (no byte in both ranges).
      }
      if (std::any_of(From, To, [&](const Ranged &X) {
            return (!R || X.End > R->first) && Test(*X.E);
          }))
        break;
    }
    None[I] = !Meets;
  }
  return None;
}

/// What makes accesses alike, packed in words: the kind and counter
/// fields, object and variable, begin, size, thread form.
static std::array<uint64_t, 5> alikeKey(const Event &E) {
  std::array<uint64_t, 4> L = E.Loc.key();
  return {(uint64_t(E.CommutativeOp) << 32) | (uint64_t(E.AK) << 24) |
              (uint64_t(E.Ctr) << 16) | (uint64_t(E.OrderClass) << 8) |
              (uint64_t(E.InOrder) << 1) | uint64_t(E.Async),
          L[0], L[1], L[2], L[3]};
}

std::vector<unsigned>
llvm::ldsbarriers::numberAlikeAccesses(ArrayRef<const Event *> Accesses,
                                       std::vector<unsigned> &KeyOf) {
  return numberDistinct(
      Accesses.size(), [&](unsigned I) { return alikeKey(*Accesses[I]); },
      &KeyOf);
}

/// The builder's answer of accessesMeetingNoneIn for each access of \p P,
/// when it was made under the write-after-write policy of \p Opts; empty
/// otherwise.
static ArrayRef<uint8_t> knownSilentAccesses(const AbstractProgram &P,
                                             const AnalysisOptions &Opts) {
  if (P.SilentWAW != Opts.WAW || P.SilentAsyncWAW != Opts.AsyncWAW)
    return {};
  return P.SilentAccesses;
}

std::vector<uint8_t>
llvm::ldsbarriers::accessesMeetingNoneIn(const AbstractProgram &P,
                                         const AnalysisOptions &Opts) {
  std::vector<const Event *> Accesses;
  for (const Block &BB : P.Blocks)
    for (const Event &E : BB.Events)
      if (E.Kind == Event::Access)
        Accesses.push_back(&E);
  ArrayRef<uint8_t> Known = knownSilentAccesses(P, Opts);
  if (Known.size() == Accesses.size())
    return Known.vec();
  std::vector<unsigned> KeyOf;
  std::vector<const Event *> Distinct;
  for (unsigned First : numberAlikeAccesses(Accesses, KeyOf))
    Distinct.push_back(Accesses[First]);
  std::vector<uint8_t> DistinctNone = accessesMeetingNone(
      P, Distinct, Opts, 16 * uint64_t(Accesses.size()) + 4096);
  std::vector<uint8_t> None(Accesses.size());
  for (unsigned I = 0; I < Accesses.size(); ++I)
    None[I] = DistinctNone[KeyOf[I]];
  return None;
}

bool llvm::ldsbarriers::noAccessMeetsAnother(const AbstractProgram &P,
                                             const AnalysisOptions &Opts) {
  ArrayRef<uint8_t> Silent = knownSilentAccesses(P, Opts);
  if (Silent.empty())
    return false;
  size_t Events = 0;
  for (const Block &BB : P.Blocks)
    Events += BB.Events.size();
  return Events == Silent.size() &&
         llvm::all_of(Silent, [](uint8_t S) { return S; });
}
