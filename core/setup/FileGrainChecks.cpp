#include "setup/FileGrainChecks.h"

#include "scenario/ScenarioError.h"
#include "scenario/Value.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace granular {

namespace {

/// How deep file grains may overlap each other or the box's floor and sides, in the smaller radius: a settled soft
/// packing's overlaps are a few percent; deeper ones are grains placed on top of each other.
constexpr double kDeepestFileOverlap = 0.1;

std::string grainName(const std::string& file, std::size_t index)
{
    return "particles.file: " + file + ": grain " + std::to_string(index + 1);
}

/// Whether a file grain lies and moves in the plane z = 0, but for round-off (a file's own, or of the up-axis turn).
bool inThePlane(const Packing::Grain& g)
{
    constexpr double kRoundOff = 1e-9;
    const auto small = [](double x, double scale) { return std::fabs(x) <= std::max(kRoundOff * scale, 1e-12); };
    const double speed = std::hypot(g.velocity.x(), g.velocity.y());
    const double spin = std::fabs(g.angularVelocity.z());
    return small(g.position.z(), g.radius) && small(g.velocity.z(), speed) && small(g.angularVelocity.x(), spin) &&
           small(g.angularVelocity.y(), spin);
}

}  // namespace

void checkFileGrains(const Packing& packing, const std::string& file, int dimension, const Vec3& size, BoxWalls walls)
{
    const auto& grains = packing.grains;
    for (std::size_t i = 0; i < grains.size(); ++i) {
        const auto& g = grains[i];
        if (dimension == 2 && !inThePlane(g)) {
            throw ScenarioError(grainName(file, i) + " has z = " + formatShort(g.position.z()) +
                                " m, vz = " + formatShort(g.velocity.z()) +
                                " m/s or a spin about x or y: a 2D scenario's disks move in the plane z = 0; "
                                "accepted: z = 0, vz = 0, wx = wy = 0 but for round-off (1e-9 of the radius, speed or "
                                "spin), or world.dimension = 3");
        }
        double reach = walls == BoxWalls::None ? g.radius : g.position.y();
        if (walls == BoxWalls::Open || walls == BoxWalls::Closed) {
            reach = std::min({reach, g.position.x(), size.x() - g.position.x()});
            if (dimension == 3) {
                reach = std::min({reach, g.position.z(), size.z() - g.position.z()});
            }
        }
        if (g.radius - reach > kDeepestFileOverlap * g.radius) {
            throw ScenarioError(grainName(file, i) + " of radius " + formatShort(g.radius) + " m overlaps the box's " +
                                "floor or a side wall by " + formatShort(g.radius - reach) + " m; accepted: at most " +
                                formatShort(100.0 * kDeepestFileOverlap) +
                                " % of its radius (box.width, box.depth: the box's sides)");
        }
    }
    // Pairs by a grid of cells (hashed: the box may be wide and sparsely filled) one diameter of the 99th percentile
    // of the radii wide; the few grains larger than that are held against every grain (with cells one largest
    // diameter wide, one grain of 1 m among 1e5 of 1 mm put them all in one cell: 15 s).
    std::vector<double> radii;
    radii.reserve(grains.size());
    for (const auto& g : grains) {
        radii.push_back(g.radius);
    }
    const auto percentile = radii.begin() + static_cast<std::ptrdiff_t>(99 * (radii.size() - 1) / 100);
    std::nth_element(radii.begin(), percentile, radii.end());
    const double width = 2.0 * *percentile;
    const auto checkPair = [&](std::size_t i, std::size_t j) {
        const auto& a = grains[i];
        const auto& b = grains[j];
        const double overlap = a.radius + b.radius - (b.position - a.position).norm();
        if (overlap > kDeepestFileOverlap * std::min(a.radius, b.radius)) {
            throw ScenarioError(grainName(file, std::min(i, j)) + " and grain " + std::to_string(std::max(i, j) + 1) +
                                " overlap by " + formatShort(overlap) + " m (radii " + formatShort(a.radius) + " and " +
                                formatShort(b.radius) + " m); accepted: at most " +
                                formatShort(100.0 * kDeepestFileOverlap) + " % of the smaller radius");
        }
    };
    for (std::size_t i = 0; i < grains.size(); ++i) {
        if (2.0 * grains[i].radius > width) {
            for (std::size_t j = 0; j < grains.size(); ++j) {
                if (j != i && (2.0 * grains[j].radius <= width || j > i)) {
                    checkPair(i, j);
                }
            }
        }
    }
    // A grain far beyond the others (a packing file's 1e300 m) has no cell index in 64 bits (the cast was undefined):
    // clamped, it shares the last cell with any grain out there, and the distance test decides.
    const auto index = [&](double coordinate) {
        constexpr double kFarthest = 4.0e18;
        return static_cast<std::int64_t>(std::clamp(std::floor(coordinate / width), -kFarthest, kFarthest));
    };
    const auto cellOf = [&](const Vec3& x) {
        return std::array<std::int64_t, 3>{index(x.x()), index(x.y()), index(x.z())};
    };
    const auto key = [](const std::array<std::int64_t, 3>& c) {
        return (static_cast<std::uint64_t>(c[0]) * 73856093U) ^ (static_cast<std::uint64_t>(c[1]) * 19349663U) ^
               (static_cast<std::uint64_t>(c[2]) * 83492791U);
    };
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> cells;
    for (std::size_t j = 0; j < grains.size(); ++j) {
        if (2.0 * grains[j].radius > width) {
            continue;  // held against every grain above
        }
        const auto c = cellOf(grains[j].position);
        for (std::int64_t dx = -1; dx <= 1; ++dx) {
            for (std::int64_t dy = -1; dy <= 1; ++dy) {
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    const auto found = cells.find(key({c[0] + dx, c[1] + dy, c[2] + dz}));
                    if (found == cells.end()) {
                        continue;
                    }
                    for (const std::size_t i : found->second) {
                        checkPair(i, j);
                    }
                }
            }
        }
        cells[key(c)].push_back(j);
    }
}

}  // namespace granular
