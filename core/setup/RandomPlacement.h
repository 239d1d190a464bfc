#pragma once

#include "model/Particles.h"
#include "model/PeriodicCell.h"

#include <cstddef>
#include <vector>

namespace granular {

class Random;

/// Random sequential addition in a periodic cell: each grain in turn at a uniformly random position
/// that overlaps none of the grains placed before (minimum image), at rest. Returns the number of grains
/// placed; fewer than radii.size() when one found no free place in `attemptsPerGrain` tries.
std::size_t placeRandomly(Particles& particles, const PeriodicCell& cell, const std::vector<double>& radii,
                          double density, Random& random, int attemptsPerGrain = 20000);

}  // namespace granular
