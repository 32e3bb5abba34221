//===- LDSBarrierPlacement.h - Choose where barriers go -------------------===//
//
// Placement works on the abstract program only. It first completes existing
// barriers that a pending producer reaches (adding the wait they lack is
// cheaper than a second barrier), then covers the remaining windows with the
// fewest barrier executions (lowest total block frequency), then the fewest
// new barriers: an exact minimum hitting set over single points that cut
// every path of a window (LDSHittingSet.h). The steps, and the options and
// result they share, are in LDSPlacementSteps.h.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_LDSBARRIERPLACEMENT_H
#define AMDGPU_LDS_BARRIERS_LDSBARRIERPLACEMENT_H

#include "LDSPlacementSteps.h"

namespace llvm {
namespace ldsbarriers {

/// Chooses barriers for \p P. The result is checked by re-running the
/// analysis; windows it cannot cover end up in Uncoverable.
Placement placeBarriers(const AbstractProgram &P, const AnalysisOptions &AOpts,
                        const PlacementOptions &POpts = PlacementOptions());

} // namespace ldsbarriers
} // namespace llvm

#endif
