//===- StrategyQuality.cpp - Barrier quality of the placement strategies --===//
//
// Runs every placement strategy (optimal, naive, latest, intervals) on the
// same seeded random abstract programs of each CFG class (a third of them
// with a divergent first branch), materializes each result and verifies it,
// and prints, per class and strategy, the static barrier count, the
// frequency-weighted dynamic count and the number of programs whose result
// fails verification (beyond the input's own problems and the hazards no
// barrier can cover); the exhaustive optimum in dynamic count where the
// search is small enough (the optimal strategy's totals on the same
// programs beside it); and how often the optimal strategy is worse in
// dynamic count than another whose result verifies, apart and (in
// parentheses) in programs with asynchronous transfers.
//
// usage: LDSStrategyQuality [programs per class (default 200)]
//
//===----------------------------------------------------------------------===//

#include "BruteForce.h"
#include "LDSBarrierPlacement.h"
#include "PlacementStrategies.h"
#include "RandomPrograms.h"
#include "StrategyJudge.h"
#include <cstdio>
#include <cstdlib>

using namespace llvm::ldsbarriers;
using namespace llvm::ldsbarriers::test;

namespace {

constexpr PlacementStrategy Strategies[] = {PlacementStrategy::Naive,
                                            PlacementStrategy::Latest,
                                            PlacementStrategy::Intervals};
// The comparison strategies, then the pass's placement.
constexpr unsigned NumStrategies = std::size(Strategies) + 1;

struct Totals {
  unsigned Static = 0, Failed = 0;
  double Dynamic = 0;
};

bool hasAsync(const AbstractProgram &P) {
  for (const Block &BB : P.Blocks)
    for (const Event &E : BB.Events)
      if (E.Kind == Event::Access && E.Async)
        return true;
  return false;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned Programs = Argc > 1 ? std::atoi(Argv[1]) : 200;
  std::printf("%-20s %5s", "CFG class", "progs");
  for (unsigned K = 0; K < NumStrategies; ++K)
    std::printf(" | %-9s %5s %7s %4s",
                K < std::size(Strategies)
                    ? getPlacementStrategyName(Strategies[K]).data()
                    : "optimal",
                "stat", "dyn", "fail");
  std::printf(" | %5s %7s %5s | %s\n", "exh", "exh-dyn", "n-exh",
              "optimal worse than a verified other (async); optimal on exh");
  for (Shape Sh : AllShapes) {
    std::mt19937 Rng(4000 + unsigned(Sh));
    Totals T[NumStrategies];
    unsigned Exhaustive = 0, ExhStatic = 0, OursOnExh = 0, Worse = 0,
             WorseAsync = 0;
    double ExhDynamic = 0, OursDynOnExh = 0;
    for (unsigned Iter = 0; Iter < Programs; ++Iter) {
      AbstractProgram P = make(Sh, Rng);
      if (Iter % 3 == 2 && P.Blocks[P.Entry].Succs.size() == 2)
        P.Blocks[P.Entry].DivergentBranch = true;
      markDivergentBlocks(P);
      Placement R[NumStrategies];
      for (unsigned K = 0; K < NumStrategies; ++K)
        R[K] = K < std::size(Strategies)
                   ? placeWithStrategy(Strategies[K], P, AnalysisOptions(),
                                       PlacementOptions())
                   : placeBarriers(P, AnalysisOptions());
      const Placement &Ours = R[NumStrategies - 1];
      bool Verified[NumStrategies];
      unsigned InputStructural =
          structuralViolations(verifySynchronization(P, VerifierOptions()));
      for (unsigned K = 0; K < NumStrategies; ++K) {
        Verified[K] = placementVerifies(P, R[K], Ours.Uncoverable.size(),
                                        InputStructural);
        T[K].Static += R[K].Barriers.size();
        T[K].Dynamic += R[K].Cost;
        T[K].Failed += !Verified[K];
      }
      for (unsigned K = 0; K + 1 < NumStrategies; ++K)
        if (Verified[K] && R[K].Cost + 1e-9 < Ours.Cost)
          ++(hasAsync(P) ? WorseAsync : Worse);
      // The exhaustive search places new barriers only: programs whose
      // existing barriers needed a wait, or with more candidate points than
      // it can afford, are left out.
      if (Ours.CompletedBarriers.empty() && Ours.Uncoverable.empty() &&
          candidatePoints(P).size() <= 16 && Ours.Barriers.size() <= 4) {
        unsigned Best;
        ExhDynamic += minimumDynamicCost(P, Ours.Barriers.size() + 2, Best);
        ++Exhaustive;
        ExhStatic += Best;
        OursOnExh += Ours.Barriers.size();
        OursDynOnExh += Ours.Cost;
      }
    }
    std::printf("%-20s %5u", shapeName(Sh), Programs);
    for (unsigned K = 0; K < NumStrategies; ++K)
      std::printf(" | %-9s %5u %7.1f %4u", "", T[K].Static, T[K].Dynamic,
                  T[K].Failed);
    std::printf(" | %5u %7.1f %5u | %u (%u); %u, %.1f\n", ExhStatic, ExhDynamic,
                Exhaustive, Worse, WorseAsync, OursOnExh, OursDynOnExh);
  }
  return 0;
}
