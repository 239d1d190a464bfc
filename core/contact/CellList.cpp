#include "contact/CellList.h"

#include "scenario/Value.h"
#include "util/Parallel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace granular {

void CellList::sortByCell(std::int64_t cellCount)
{
    // Counting sort: cellStart_[c] .. cellStart_[c + 1] index the particles of cell c in sorted_.
    cellStart_.assign(static_cast<std::size_t>(cellCount + 1), 0);
    for (const std::int32_t c : cellOf_) {
        ++cellStart_[static_cast<std::size_t>(c) + 1];
    }
    for (std::int64_t c = 0; c < cellCount; ++c) {
        cellStart_[static_cast<std::size_t>(c + 1)] += cellStart_[static_cast<std::size_t>(c)];
    }
    sorted_.resize(cellOf_.size());
    std::vector<std::int32_t> fill(cellStart_.begin(), cellStart_.end() - 1);
    for (std::size_t i = 0; i < cellOf_.size(); ++i) {
        sorted_[static_cast<std::size_t>(fill[static_cast<std::size_t>(cellOf_[i])]++)] = static_cast<std::int32_t>(i);
    }
}

namespace {

/// Writes (i, j) at out[kept] for every particle i = sorted[k], k in [begin, end), and keeps it (returns kept + the
/// number kept) where i < j and its sphere's surface is less than `margin` from grain j's (radius rj):
/// squaredDistance(centre) is |x_j - x_i|^2. No branch on the two tests: i < j goes either way at random, and the
/// mispredictions of a branch on it cost a tenth of a search (3.58 -> 3.22 ms over 20,000 spheres without).
template <class Sphere, class SquaredDistance>
[[gnu::always_inline]] inline std::size_t
keepCloseLower(const std::int32_t* sorted, const Sphere* spheres, std::int32_t begin, std::int32_t end, std::int32_t j,
               double rj, double margin, const SquaredDistance& squaredDistance,
               std::pair<std::int32_t, std::int32_t>* out, std::size_t kept)
{
    for (std::int32_t k = begin; k < end; ++k) {
        const std::int32_t i = sorted[k];
        const Sphere& other = spheres[k];
        const double reach = other.radius + rj + margin;
        const bool close = squaredDistance(other.centre) < reach * reach;
        out[kept] = {i, j};
        kept += static_cast<std::size_t>(static_cast<unsigned>(i < j) & static_cast<unsigned>(close));
    }
    return kept;
}

}  // namespace

void CellList::findPairs(const Particles& particles, const Eigen::AlignedBox3d& bounds, int dimension, double margin,
                         std::vector<std::pair<std::int32_t, std::int32_t>>& pairs)
{
    pairs.clear();
    const auto n = static_cast<std::int32_t>(particles.size());
    if (n < 2) {
        return;
    }
    double largest = 0.0;
    Eigen::AlignedBox3d box = bounds;
    for (std::int32_t i = 0; i < n; ++i) {
        largest = std::max(largest, particles.radius[static_cast<std::size_t>(i)]);
        box.extend(particles.position[static_cast<std::size_t>(i)]);
    }
    // A cell is at least one interaction range wide, so neighbours lie in adjacent cells; the grid
    // is coarsened when the box is huge compared with the particles (e.g. a free-flying cloud).
    double cell = 2.0 * largest + std::max(margin, 0.0);
    const Eigen::Vector3d extent = box.sizes();
    std::array<std::int64_t, 3> dims{1, 1, 1};
    const double mostCells = 8.0 * static_cast<double>(n) + 64.0;
    for (;;) {
        double total = 1.0;  // in double: three axes of up to mostCells each overflow an int64 beyond ~260,000 grains
        for (int a = 0; a < dimension; ++a) {
            // Bounded before the cast: a cloud far larger than its grains would overflow it.
            const double across = std::clamp(extent[a] / cell, 1.0, mostCells);
            dims[static_cast<std::size_t>(a)] = static_cast<std::int64_t>(across);
            total *= static_cast<double>(dims[static_cast<std::size_t>(a)]);
        }
        if (total <= mostCells) {
            break;
        }
        cell *= 1.5;
    }
    const auto cellCoordinate = [&](const Vec3& x, int a) {
        const std::int64_t m = dims[static_cast<std::size_t>(a)];
        if (m == 1) {
            return std::int64_t{0};  // one cell across (z in 2D, a flat box): no division by a zero extent
        }
        const double c = (x[a] - box.min()[a]) / extent[a] * static_cast<double>(m);
        return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::clamp(c, 0.0, static_cast<double>(m - 1))), 0,
                                        m - 1);
    };
    binParticles(particles, dims, cellCoordinate);

    const std::int64_t reachZ = dimension == 3 ? 1 : 0;
    // The arrays' addresses by value: through the members the compiler reloads them after every store of a pair.
    const std::int32_t* cellStart = cellStart_.data();
    const std::int32_t* sorted = sorted_.data();
    const Sphere* spheres = spheres_.data();
    const Vec3* position = particles.position.data();
    const double* radius = particles.radius.data();
    appendInOrder(static_cast<std::size_t>(n), pairs, blockPairs_, [&](std::size_t sj, PairList& found) {
        const auto j = static_cast<std::int32_t>(sj);
        const Vec3 xj = position[sj];
        const std::int64_t cx = cellCoordinate(xj, 0);
        const std::int64_t cy = cellCoordinate(xj, 1);
        const std::int64_t cz = cellCoordinate(xj, 2);
        const double rj = radius[sj];
        // The three cells along x at one (y, z) lie side by side in sorted_: one run of particles per row.
        const std::int64_t x0 = std::max<std::int64_t>(cx - 1, 0);
        const std::int64_t x1 = std::min<std::int64_t>(cx + 1, dims[0] - 1);
        const std::int64_t z0 = std::max<std::int64_t>(cz - reachZ, 0);
        const std::int64_t z1 = std::min(cz + reachZ, dims[2] - 1);
        const std::int64_t y0 = std::max<std::int64_t>(cy - 1, 0);
        const std::int64_t y1 = std::min<std::int64_t>(cy + 1, dims[1] - 1);
        // Room for every particle of the rows: keepCloseLower writes each and keeps the pairs.
        std::size_t room = 0;
        for (std::int64_t z = z0; z <= z1; ++z) {
            for (std::int64_t y = y0; y <= y1; ++y) {
                const std::int64_t row = dims[0] * (y + dims[1] * z);
                room += static_cast<std::size_t>(cellStart[row + x1 + 1] - cellStart[row + x0]);
            }
        }
        const std::size_t first = found.size();
        found.resize(first + room);
        const auto squaredDistance = [&xj](const Vec3& centre) { return (xj - centre).squaredNorm(); };
        std::size_t kept = 0;
        for (std::int64_t z = z0; z <= z1; ++z) {
            for (std::int64_t y = y0; y <= y1; ++y) {
                const std::int64_t row = dims[0] * (y + dims[1] * z);
                kept = keepCloseLower(sorted, spheres, cellStart[row + x0], cellStart[row + x1 + 1], j, rj, margin,
                                      squaredDistance, found.data() + first, kept);
            }
        }
        found.resize(first + kept);
        std::sort(found.begin() + static_cast<std::ptrdiff_t>(first), found.end());
    });
}

void CellList::findPeriodicPairs(const Particles& particles, const PeriodicCell& cell, double margin,
                                 std::vector<std::pair<std::int32_t, std::int32_t>>& pairs)
{
    pairs.clear();
    const auto n = static_cast<std::int32_t>(particles.size());
    if (n < 2) {
        return;
    }
    double largest = 0.0;
    for (const double r : particles.radius) {
        largest = std::max(largest, r);
    }
    const double range = 2.0 * largest + std::max(margin, 0.0);
    const double narrowest = cell.narrowestWidth();
    if (2.0 * range > narrowest) {
        // Two diameters per half cell: too few grains for the cell; else the margin (a step's approach) outgrew it.
        const std::string cause =
            4.0 * largest > narrowest
                ? "too few particles"
                : "the grains or the cell's dilation move " + formatShort(margin) +
                      " m in one step: too fast for solver.dt (a pressure.external too high for pressure.inertia, "
                      "or a blow-up)";
        throw std::runtime_error("periodic cell " + formatShort(narrowest) +
                                 " m across is narrower than twice the interaction range " + formatShort(range) +
                                 " m: minimum-image contacts are ambiguous (" + cause + ")");
    }
    // Cells at least one interaction range across, laid out in reduced coordinates (along the cell's edges);
    // the grid wraps, so neighbours lie in adjacent cells modulo the grid.
    // Bounded before the cast and counted in double, as in findPairs: a cell far wider than its grains would overflow.
    const double mostCells = 8.0 * static_cast<double>(n) + 64.0;
    std::array<std::int64_t, 3> dims{1, 1, 1};
    double total = 1.0;
    for (int a = 0; a < cell.dimension; ++a) {
        dims[static_cast<std::size_t>(a)] =
            static_cast<std::int64_t>(std::clamp(cell.width(a) / range, 1.0, mostCells));
        total *= static_cast<double>(dims[static_cast<std::size_t>(a)]);
    }
    while (total > mostCells) {
        total = 1.0;
        for (int a = 0; a < cell.dimension; ++a) {
            auto& m = dims[static_cast<std::size_t>(a)];
            m = std::max<std::int64_t>(1, m * 2 / 3);
            total *= static_cast<double>(m);
        }
    }
    const auto cellCoordinate = [&](const Vec3& x, int a) {
        const auto m = dims[static_cast<std::size_t>(a)];
        const auto c = static_cast<std::int64_t>(std::floor(cell.reduced(x)[a] * static_cast<double>(m)));
        return std::clamp<std::int64_t>(c, 0, m - 1);
    };
    binParticles(particles, dims, cellCoordinate);

    // The distinct neighbour coordinates along an axis: fewer than three when the grid is that small.
    const auto neighbours = [&](std::int64_t c, int a, std::array<std::int64_t, 3>& out) {
        const std::int64_t m = dims[static_cast<std::size_t>(a)];
        if (m >= 3) {
            out = {(c + m - 1) % m, c, (c + 1) % m};
            return 3;
        }
        out = {0, 1, 0};
        return static_cast<int>(m);
    };
    const std::int32_t* cellStart = cellStart_.data();
    const std::int32_t* sorted = sorted_.data();
    const Sphere* spheres = spheres_.data();
    appendInOrder(static_cast<std::size_t>(n), pairs, blockPairs_, [&](std::size_t sj, PairList& found) {
        const auto j = static_cast<std::int32_t>(sj);
        const Vec3 xj = particles.position[sj];
        const double rj = particles.radius[sj];
        std::array<std::int64_t, 3> xs{};
        std::array<std::int64_t, 3> ys{};
        std::array<std::int64_t, 3> zs{};
        const int nx = neighbours(cellCoordinate(xj, 0), 0, xs);
        const int ny = neighbours(cellCoordinate(xj, 1), 1, ys);
        const int nz = neighbours(cellCoordinate(xj, 2), 2, zs);
        std::array<std::int64_t, 27> cells{};
        std::size_t cellCount = 0;
        std::size_t room = 0;
        for (int iz = 0; iz < nz; ++iz) {
            for (int iy = 0; iy < ny; ++iy) {
                for (int ix = 0; ix < nx; ++ix) {
                    const std::int64_t c =
                        xs[static_cast<std::size_t>(ix)] +
                        dims[0] * (ys[static_cast<std::size_t>(iy)] + dims[1] * zs[static_cast<std::size_t>(iz)]);
                    cells[cellCount++] = c;
                    room += static_cast<std::size_t>(cellStart[c + 1] - cellStart[c]);
                }
            }
        }
        const std::size_t first = found.size();
        found.resize(first + room);
        const auto squaredDistance = [&](const Vec3& centre) { return cell.minimumImage(xj - centre).squaredNorm(); };
        std::size_t kept = 0;
        for (std::size_t run = 0; run < cellCount; ++run) {
            kept = keepCloseLower(sorted, spheres, cellStart[cells[run]], cellStart[cells[run] + 1], j, rj, margin,
                                  squaredDistance, found.data() + first, kept);
        }
        found.resize(first + kept);
        std::sort(found.begin() + static_cast<std::ptrdiff_t>(first), found.end());
    });
}

}  // namespace granular
