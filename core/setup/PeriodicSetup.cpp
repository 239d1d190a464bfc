#include "setup/PeriodicSetup.h"

#include "model/World.h"
#include "scenario/ScenarioError.h"
#include "scenario/Value.h"
#include "settings/Settings.h"
#include "setup/RandomPlacement.h"
#include "util/Random.h"

#include <cmath>
#include <string>
#include <vector>

namespace granular {

void buildPeriodicWorld(World& world, const Settings& s)
{
    const int dimension = world.dimension;
    const double rMin = s.particles.radiusMin;
    const double rMax = s.particles.radiusMax;
    const double fraction = s.initialFraction;
    const auto count = static_cast<std::size_t>(s.particles.count);
    Random random(s.seed);
    std::vector<double> radii(count);
    double solid = 0.0;  // m^3 (2D: m^2)
    for (double& r : radii) {
        r = random.uniform(rMin, rMax);
        solid += particleMass(r, 1.0, dimension);
    }
    const double inverseDimension = 1.0 / static_cast<double>(dimension);
    // Minimum-image contacts need a cell longer than twice the interaction range, also once compacted
    // (at most to close packing): 2.5 largest diameters.
    const double densest = dimension == 2 ? 0.9069 : 0.7405;
    const double shortest = 5.0 * rMax;
    if (std::pow(solid / densest, inverseDimension) < shortest) {
        const double perGrain = solid / static_cast<double>(count);
        const auto fewest = static_cast<long long>(std::ceil(densest * std::pow(shortest, dimension) / perGrain));
        throw ScenarioError(
            "particles.count: " + std::to_string(count) +
            " grains are too few for minimum-image contacts in a periodic cell; accepted: an integer >= " +
            std::to_string(fewest) + " with these radii");
    }
    // A dilute start is a gas that the pressure compacts; its cell's contact grid (cells one largest diameter wide)
    // is allotted at most kCellsPerGrain cells per grain: a fraction of 1e-6 asked for gigabytes, 1e-300 overflowed
    // the grid's count.
    constexpr int kCellsPerGrain = 1000;
    const double length = std::pow(solid / fraction, inverseDimension);
    const double diameters = length / (2.0 * rMax);
    const double cells = std::pow(diameters, dimension);
    const double mostCells = kCellsPerGrain * static_cast<double>(count);
    if (!(cells <= mostCells)) {
        const double lowest = solid / (mostCells * std::pow(2.0 * rMax, dimension));
        throw ScenarioError("cell.initial_fraction: " + formatShort(fraction) + " makes a start cell " +
                            formatShort(diameters) + " grain diameters across, " + formatShort(cells) +
                            " diameter-wide cells for " + std::to_string(count) + " grains (at most " +
                            std::to_string(kCellsPerGrain) + " per grain); accepted: at least " +
                            formatShort(lowest * 1.01) + " with these grains, at most 1");
    }
    const PeriodicCell cell = PeriodicCell::cube(dimension, length);
    const std::size_t placed = placeRandomly(world.particles, cell, radii, s.particles.density, random);
    if (placed < count) {
        throw ScenarioError("cell.initial_fraction: " + std::to_string(count) +
                            " grains do not fit a periodic cell of " + formatValue(cell.length()) +
                            " m without overlaps (" + std::to_string(placed) +
                            " placed); accepted: a lower fraction than " + formatValue(fraction));
    }
    world.cell = cell;
    world.bounds = cell.box();
}

}  // namespace granular
