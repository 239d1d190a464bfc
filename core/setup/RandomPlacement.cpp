#include "setup/RandomPlacement.h"

#include "util/Random.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace granular {

std::size_t placeRandomly(Particles& particles, const PeriodicCell& cell, const std::vector<double>& radii,
                          double density, Random& random, int attemptsPerGrain)
{
    const double largest = radii.empty() ? 0.0 : *std::max_element(radii.begin(), radii.end());
    // Buckets at least one largest diameter wide; a single bucket when fewer than three fit (the 3^D
    // neighbours then repeat it, which only repeats checks).
    auto perAxis = static_cast<std::int64_t>(cell.length() / (2.0 * largest));
    if (perAxis < 3) {
        perAxis = 1;
    }
    const double bucketsPerLength = static_cast<double>(perAxis) / cell.length();
    const std::int64_t reachZ = cell.dimension == 3 ? 1 : 0;
    std::vector<std::vector<std::size_t>> buckets(
        static_cast<std::size_t>(cell.dimension == 3 ? perAxis * perAxis * perAxis : perAxis * perAxis));
    const auto coordinate = [&](double x) {
        return std::clamp<std::int64_t>(static_cast<std::int64_t>(x * bucketsPerLength), 0, perAxis - 1);
    };
    const auto bucketOf = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
        const auto wrap = [&](std::int64_t c) { return (c % perAxis + perAxis) % perAxis; };
        return static_cast<std::size_t>(wrap(x) + perAxis * (wrap(y) + perAxis * (cell.dimension == 3 ? wrap(z) : 0)));
    };
    const auto isFree = [&](const Vec3& x, double r) {
        const std::int64_t cx = coordinate(x.x());
        const std::int64_t cy = coordinate(x.y());
        const std::int64_t cz = cell.dimension == 3 ? coordinate(x.z()) : 0;
        for (std::int64_t dz = -reachZ; dz <= reachZ; ++dz) {
            for (std::int64_t dy = -1; dy <= 1; ++dy) {
                for (std::int64_t dx = -1; dx <= 1; ++dx) {
                    for (const std::size_t k : buckets[bucketOf(cx + dx, cy + dy, cz + dz)]) {
                        const double contact = r + particles.radius[k];
                        if (cell.minimumImage(x - particles.position[k]).squaredNorm() < contact * contact) {
                            return false;
                        }
                    }
                }
            }
        }
        return true;
    };
    std::size_t placed = 0;
    for (const double r : radii) {
        bool found = false;
        for (int attempt = 0; attempt < attemptsPerGrain && !found; ++attempt) {
            Vec3 x(random.uniform(0.0, cell.length()), random.uniform(0.0, cell.length()),
                   cell.dimension == 3 ? random.uniform(0.0, cell.length()) : 0.0);
            x = cell.wrap(x);
            if (isFree(x, r)) {
                particles.add(x, r, density, cell.dimension);
                buckets[bucketOf(coordinate(x.x()), coordinate(x.y()), cell.dimension == 3 ? coordinate(x.z()) : 0)]
                    .push_back(particles.size() - 1);
                found = true;
            }
        }
        if (!found) {
            break;
        }
        ++placed;
    }
    return placed;
}

}  // namespace granular
