#pragma once

#include "observe/Observable.h"

#include <vector>

namespace granular {

struct Settings;

/// The series columns of a periodic world at constant pressure (Shaebani et al. 2009, Fig. 4, eq. 20, 22):
/// dilation_rate, pressure, cell_length, volume_fraction and the stress tensor's components.
void addPeriodicObservables(std::vector<Observable>& list, const Settings& settings);

}  // namespace granular
