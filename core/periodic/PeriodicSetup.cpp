#include "periodic/PeriodicSetup.h"

#include "model/World.h"
#include "periodic/RandomPlacement.h"
#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "scenario/Value.h"
#include "util/Random.h"

#include <cmath>
#include <string>
#include <vector>

namespace granular {

void buildPeriodicWorld(World& world, const Scenario& s)
{
    if (s.text("solver.method") != "cd_pressure" && s.text("solver.method") != "md") {
        throw ScenarioError("solver.method: setup periodic needs a method that holds the pressure; accepted: "
                            "cd_pressure, md");
    }
    if (s.text("solver.method") == "md" && s.text("pressure.cell_shape") == "free") {
        throw ScenarioError("pressure.cell_shape: free is implemented for solver.method = cd_pressure; accepted with "
                            "md: fixed");
    }
    const int dimension = world.dimension;
    const double rMin = s.real("particles.radius_min");
    const double rMax = s.real("particles.radius_max");
    if (rMin > rMax) {
        throw ScenarioError("particles.radius_min: " + formatValue(rMin) +
                            " m exceeds particles.radius_max = " + formatValue(rMax) + " m; accepted: <= radius_max");
    }
    const double fraction = s.real("cell.initial_fraction");
    // Well below the jamming limit of random sequential addition (0.547 for disks, 0.38 for spheres).
    const double loosest = dimension == 2 ? 0.5 : 0.3;
    if (fraction > loosest) {
        throw ScenarioError("cell.initial_fraction: " + formatValue(fraction) + " is too dense for a random start " +
                            "without overlaps; accepted: a real number in (0, " + formatValue(loosest) + "] in " +
                            std::to_string(dimension) + "D");
    }
    const auto count = static_cast<std::size_t>(s.integer("particles.count"));
    Random random(static_cast<std::uint64_t>(s.integer("seed")));
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
    const PeriodicCell cell = PeriodicCell::cube(dimension, std::pow(solid / fraction, inverseDimension));
    const std::size_t placed = placeRandomly(world.particles, cell, radii, s.real("particles.density"), random);
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
