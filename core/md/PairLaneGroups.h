#pragma once

#include "md/LoadAssembly.h"
#include "md/PairLanes.h"

#include <cstddef>

// The two widths of evaluatePairLanes(): the same arithmetic (md/PairLaneGroups.inc) in the lanes of an AVX-512
// register (eight pairs) and of an AVX2 register (four pairs). Each returns how many leading pairs of the run it
// evaluated, a multiple of its width, stopping before the first group whose laws differ; neither checks the processor
// (evaluatePairLanes() does).

namespace granular::md::avx512 {
inline constexpr std::size_t kWidth = 8;
std::size_t evaluatePairGroups(const PairRun& run, ContactLoad* loads);
}  // namespace granular::md::avx512

namespace granular::md::avx2 {
inline constexpr std::size_t kWidth = 4;
std::size_t evaluatePairGroups(const PairRun& run, ContactLoad* loads);
}  // namespace granular::md::avx2
