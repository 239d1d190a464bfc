#include "analysis/PackingDistributions.h"

#include "model/World.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace granular::analysis {

namespace {

bool carriesForce(const Contact& c)
{
    return c.kind == ContactKind::Particle && c.force.dot(c.normal) > 0.0;
}

}  // namespace

void Histogram::add(double value)
{
    const auto bins = static_cast<std::ptrdiff_t>(counts.size());
    const auto k = static_cast<std::ptrdiff_t>(std::floor((value - low) / binWidth()));
    counts[static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(k, 0, bins - 1))] += 1.0;
}

double Histogram::total() const
{
    return std::accumulate(counts.begin(), counts.end(), 0.0);
}

Histogram contactNormalHistogram(const World& world, int bins)
{
    Histogram h;
    h.high = world.dimension == 2 ? std::numbers::pi : 1.0;
    h.counts.assign(static_cast<std::size_t>(std::max(bins, 1)), 0.0);
    for (const Contact& c : world.contacts) {
        if (!carriesForce(c)) {
            continue;
        }
        if (world.dimension == 2) {
            double angle = std::atan2(c.normal.y(), c.normal.x());
            if (angle < 0.0) {
                angle += std::numbers::pi;
            }
            h.add(angle >= std::numbers::pi ? 0.0 : angle);
        } else {
            h.add(std::fabs(c.normal.z()));
        }
    }
    return h;
}

std::vector<double> contactDensityGrid(const World& world, int cellsPerAxis)
{
    const std::size_t perAxis = static_cast<std::size_t>(std::max(cellsPerAxis, 1));
    const Eigen::AlignedBox3d box = world.cell ? world.cell->box() : world.bounds;
    const Vec3 size = box.sizes();
    const int dimension = world.dimension;
    std::vector<double> counts(dimension == 2 ? perAxis * perAxis : perAxis * perAxis * perAxis, 0.0);
    const auto& p = world.particles;
    for (const Contact& c : world.contacts) {
        if (!carriesForce(c)) {
            continue;
        }
        Vec3 point = p.position[static_cast<std::size_t>(c.partner)] + c.lever0;
        if (world.cell) {
            point = world.cell->wrap(point);
        }
        std::size_t index = 0;
        std::size_t stride = 1;
        for (int a = 0; a < dimension; ++a) {
            // Along the periodic cell's edges (reduced coordinates), or across the box.
            const double u = world.cell      ? world.cell->reduced(point)[a]
                             : size[a] > 0.0 ? (point[a] - box.min()[a]) / size[a]
                                             : 0.0;
            const auto k = static_cast<std::ptrdiff_t>(std::floor(u * static_cast<double>(perAxis)));
            index += stride * static_cast<std::size_t>(
                                  std::clamp<std::ptrdiff_t>(k, 0, static_cast<std::ptrdiff_t>(perAxis) - 1));
            stride *= perAxis;
        }
        counts[index] += 1.0;
    }
    double cellVolume = 1.0;
    for (int a = 0; a < dimension; ++a) {
        cellVolume *= size[a] / static_cast<double>(perAxis);
    }
    if (world.cell) {
        cellVolume = world.cell->volume() / static_cast<double>(counts.size());
    }
    if (cellVolume > 0.0) {
        for (double& x : counts) {
            x /= cellVolume;
        }
    }
    return counts;
}

Histogram forceDistribution(const World& world, int bins, double largestRatio)
{
    Histogram h;
    h.high = largestRatio;
    h.counts.assign(static_cast<std::size_t>(std::max(bins, 1)), 0.0);
    std::vector<double> forces;
    for (const Contact& c : world.contacts) {
        if (carriesForce(c)) {
            forces.push_back(c.force.dot(c.normal));
        }
    }
    if (forces.empty()) {
        return h;
    }
    const double mean = std::accumulate(forces.begin(), forces.end(), 0.0) / static_cast<double>(forces.size());
    for (const double f : forces) {
        h.add(f / mean);
    }
    return h;
}

}  // namespace granular::analysis
