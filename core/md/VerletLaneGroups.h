#pragma once

#include "md/PairLaneGroups.h"
#include "md/VerletLanes.h"

#include <cstddef>

// The two widths of driftLanes() and kickLanes() (x86-64 only): eight grains in AVX-512 registers
// (md/VerletLanesAvx512.cpp), four in AVX2 registers (md/VerletLanesAvx2.cpp), the arithmetic written once
// (md/VerletLaneGroups.inc). Each takes the leading whole groups of [first, last) and returns how many grains it
// advanced; neither checks the processor (driftLanes() and kickLanes() do).

namespace granular::md::avx512 {
std::size_t driftGroups(const GrainDrift& drift, std::size_t first, std::size_t last, DisplacementBound& bound);
std::size_t kickGroups(const GrainKickArrays& kick, std::size_t first, std::size_t last);
}  // namespace granular::md::avx512

namespace granular::md::avx2 {
// kWidth: the grain pairs' four (md/PairLaneGroups.h); the drift and the kick take as many grains.
std::size_t driftGroups(const GrainDrift& drift, std::size_t first, std::size_t last, DisplacementBound& bound);
std::size_t kickGroups(const GrainKickArrays& kick, std::size_t first, std::size_t last);
}  // namespace granular::md::avx2
