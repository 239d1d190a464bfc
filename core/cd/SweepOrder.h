#pragma once

#include "util/Random.h"
#include "util/Reciprocal.h"

#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

namespace granular {

/// The sweep order 0, 1, ..., count - 1 before the first shuffle of a step.
inline void resetSweepOrder(std::vector<std::uint32_t>& order, std::size_t count)
{
    order.resize(count);
    std::iota(order.begin(), order.end(), 0U);
}

/// A fresh random permutation of the sweep order (Fisher-Yates): every candidate exactly once per
/// iteration, in an order drawn from the seeded generator (Unger & Kertesz 2003, section 2.5).
inline void shuffleSweepOrder(std::vector<std::uint32_t>& order, Random& random)
{
    for (std::size_t k = order.size(); k > 1; --k) {
        std::swap(order[k - 1], order[random.below(k)]);
    }
}

/// The same permutation from the same draws, the bounds' divisions taken from `reciprocals` (covering order.size()):
/// a division per draw was some 10 % of a small packing's sweep.
inline void shuffleSweepOrder(std::span<std::uint32_t> order, Random& random, const Reciprocals& reciprocals)
{
    for (std::size_t k = order.size(); k > 1; --k) {
        std::swap(order[k - 1], order[random.below(k, reciprocals[k])]);
    }
}

}  // namespace granular
