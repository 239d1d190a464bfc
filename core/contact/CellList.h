#pragma once

#include "model/Particles.h"
#include "model/PeriodicCell.h"
#include "util/Parallel.h"

#include <Eigen/Geometry>

#include <array>
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

    /// The same pairs in a periodic cell (positions inside it): the grid wraps around and gaps use
    /// the minimum image (Shaebani et al. 2009, eq. 21). Throws std::runtime_error when the cell is shorter than
    /// twice the interaction range, where a pair could touch through two images at once.
    void findPeriodicPairs(const Particles& particles, const PeriodicCell& cell, double margin,
                           std::vector<std::pair<std::int32_t, std::int32_t>>& pairs);

private:
    /// A particle's centre and radius where the cells' particles are stored one after the other (sorted_'s order), so
    /// that a search reads the particles of adjacent cells from one contiguous run of memory.
    struct Sphere {
        Vec3 centre = Vec3::Zero();  ///< m
        double radius = 0.0;         ///< m
    };

    /// Bins every particle into the grid of dims cells (x fastest) by its integer coordinate along
    /// each axis, cellCoordinate(position, axis), and sorts the particles by cell.
    template <class CellCoordinate>
    void binParticles(const Particles& particles, const std::array<std::int64_t, 3>& dims,
                      const CellCoordinate& cellCoordinate)
    {
        // The cells and the sorted spheres on the solver threads (on one, the binning was about a quarter of a
        // two-thread search, the other thread waiting); the counting sort between them on one.
        cellOf_.resize(particles.size());
        std::int32_t* cellOf = cellOf_.data();
        parallelFor(particles.size(), [&](std::size_t i) {
            const Vec3& x = particles.position[i];
            cellOf[i] = static_cast<std::int32_t>(cellCoordinate(x, 0) +
                                                  dims[0] * (cellCoordinate(x, 1) + dims[1] * cellCoordinate(x, 2)));
        });
        sortByCell(dims[0] * dims[1] * dims[2]);
        spheres_.resize(sorted_.size());
        Sphere* spheres = spheres_.data();
        const std::int32_t* sorted = sorted_.data();
        parallelFor(sorted_.size(), [&](std::size_t k) {
            const auto i = static_cast<std::size_t>(sorted[k]);
            spheres[k] = Sphere{particles.position[i], particles.radius[i]};
        });
    }

    /// Fills cellStart_ and sorted_ from cellOf_ (the cell of every particle).
    void sortByCell(std::int64_t cellCount);

    std::vector<std::int32_t> cellOf_;
    std::vector<std::int32_t> cellStart_;
    std::vector<std::int32_t> sorted_;
    std::vector<Sphere> spheres_;  ///< the particles in sorted_'s order
    using PairList = std::vector<std::pair<std::int32_t, std::int32_t>>;
    std::vector<PairList> blockPairs_;  ///< the pairs of each block of grains on the solver threads
};

}  // namespace granular
