#pragma once

#include "settings/Choices.h"
#include "setup/PackingFile.h"
#include "util/Vector.h"

#include <string>

namespace granular {

/// Refuses, with a ScenarioError naming `file` and the grain, file grains that a 2D scenario (`dimension` 2) cannot
/// hold (off the plane z = 0, moving or spinning out of it, beyond round-off of 1e-9), and grains that overlap each
/// other or the floor and side walls of the box of `size` (those that `walls` has) by more than 10 % of the smaller
/// radius.
void checkFileGrains(const Packing& packing, const std::string& file, int dimension, const Vec3& size, BoxWalls walls);

}  // namespace granular
