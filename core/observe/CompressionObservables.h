#pragma once

#include "observe/Observable.h"

#include <vector>

namespace granular {

/// The series of the compression experiment (Brodu et al. 2015): `top_force` (N, the grains' push on the plate,
/// positive up), `compression` (m, top_start minus the plate's height), `stroke` (0 while settling, then 1, 2,
/// ...), `contacts_per_grain` (Z: force-carrying contacts per grain, walls and plate included) and
/// `volume_fraction` (grain volume over the box below the plate).
void addCompressionObservables(std::vector<Observable>& list);

}  // namespace granular
