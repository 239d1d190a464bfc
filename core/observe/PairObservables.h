#pragma once

#include "observe/Observable.h"

#include <vector>

namespace granular {

/// The series of the DEM note's (MSCM 2024) verification (setup pair): `height` and `velocity` of the upper grain
/// (grain 1, along y) and the `overlap` and `normal_force` of its contact with the fixed grain.
void addPairObservables(std::vector<Observable>& list);

}  // namespace granular
