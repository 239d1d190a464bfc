#pragma once

#include "model/Particles.h"

#include <Eigen/Geometry>

#include <cstdint>
#include <utility>
#include <vector>

namespace granular {

/// Uniform grid over a box for neighbour search in O(n): each particle is binned once (counting sort)
/// and compared with the particles of its own and the adjacent cells only.
class CellList {
public:
    /// Pairs (i, j), i < j, whose surface gap |x_j - x_i| - r_i - r_j is below `margin`,
    /// sorted by j then i (deterministic, independent of the grid).
    void findPairs(const Particles& particles, const Eigen::AlignedBox3d& bounds, int dimension, double margin,
                   std::vector<std::pair<std::int32_t, std::int32_t>>& pairs);

private:
    std::vector<std::int32_t> cellOf_;
    std::vector<std::int32_t> cellStart_;
    std::vector<std::int32_t> sorted_;
};

}  // namespace granular
