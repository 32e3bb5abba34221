//===- LDSHazardKinds.cpp - Which pairs of LDS accesses conflict ----------===//
//
// The pair rules of the hazard analysis: what two accesses of different
// waves make by their kinds (read, write, atomic operation, opaque,
// asynchronous), and whether their bytes may meet.
//
//===----------------------------------------------------------------------===//

#include "LDSHazardAnalysis.h"
#include <map>
#include <tuple>

using namespace llvm;
using namespace llvm::ldsbarriers;

StringRef llvm::ldsbarriers::getHazardKindName(HazardKind K) {
  switch (K) {
  case HazardKind::RAW:
    return "RAW";
  case HazardKind::WAR:
    return "WAR";
  case HazardKind::WAW:
    return "WAW";
  case HazardKind::Atomic:
    return "atomic";
  case HazardKind::Opaque:
    return "opaque";
  }
  return "?";
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
  if (!K || !P.mayOverlap(Earlier.Loc, Later.Loc, Rel))
    return false;
  if (Kind)
    *Kind = *K;
  return true;
}

std::vector<uint8_t> llvm::ldsbarriers::accessesMeetingNone(
    const AbstractProgram &P, ArrayRef<const Event *> Accesses,
    const AnalysisOptions &Opts, uint64_t Budget) {
  // The accesses by kind (conflictKind looks at nothing else), so that one
  // is tested against the kinds it may conflict with only.
  std::map<std::tuple<AccessKind, unsigned, bool>, std::vector<const Event *>>
      ByKind;
  for (const Event *E : Accesses)
    ByKind[{E->AK, E->CommutativeOp, E->Async}].push_back(E);
  std::vector<uint8_t> None(Accesses.size(), 0);
  for (unsigned I = 0; I < Accesses.size(); ++I) {
    const Event &E = *Accesses[I];
    if (E.Async)
      continue;
    bool Meets = false;
    for (const auto &[Kind, Others] : ByKind) {
      const Event &O = *Others.front();
      if (!conflictKind(O, E, Opts) && !conflictKind(E, O, Opts))
        continue;
      for (const Event *X : Others) {
        Meets = Budget == 0 || P.mayOverlap(X->Loc, E.Loc);
        if (Meets)
          break;
        --Budget;
      }
      if (Meets)
        break;
    }
    None[I] = !Meets;
  }
  return None;
}
