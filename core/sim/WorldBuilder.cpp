#include "sim/WorldBuilder.h"

#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "scenario/Value.h"
#include "util/Random.h"

#include <cmath>
#include <string>

namespace granular {

namespace {

Vec3 readVector(const Scenario& s, const std::string& prefix)
{
    return {s.real(prefix + ".x"), s.real(prefix + ".y"), s.real(prefix + ".z")};
}

void addBoxWalls(World& world, const std::string& walls, const Vec3& size)
{
    if (walls == "none") {
        return;
    }
    world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
    if (walls == "floor") {
        return;
    }
    world.walls.push_back({"left", Vec3::Zero(), Vec3::UnitX()});
    world.walls.push_back({"right", Vec3(size.x(), 0, 0), -Vec3::UnitX()});
    if (world.dimension == 3) {
        world.walls.push_back({"back", Vec3::Zero(), Vec3::UnitZ()});
        world.walls.push_back({"front", Vec3(0, 0, size.z()), -Vec3::UnitZ()});
    }
    if (walls == "closed") {
        world.walls.push_back({"lid", Vec3(0, size.y(), 0), -Vec3::UnitY()});
    }
}

/// Particles on a jittered square (2D) or cubic (3D) lattice filling the box from the floor up.
void placeCloud(World& world, const Scenario& s, const Vec3& size)
{
    const double rMin = s.real("particles.radius_min");
    const double rMax = s.real("particles.radius_max");
    if (rMin > rMax) {
        throw ScenarioError("particles.radius_min: " + formatValue(rMin) +
                            " m exceeds particles.radius_max = " + formatValue(rMax) + " m; accepted: <= radius_max");
    }
    const double gapWidth = 2.0 * rMax * s.real("particles.gap");
    const double spacing = 2.0 * rMax + gapWidth;
    const double lift = s.real("particles.lift");
    const auto count = static_cast<std::size_t>(s.integer("particles.count"));
    const auto nx = static_cast<std::size_t>(std::floor(size.x() / spacing));
    const auto nz = world.dimension == 3 ? static_cast<std::size_t>(std::floor(size.z() / spacing)) : 1U;
    const auto layersAvailable = static_cast<std::size_t>(std::floor((size.y() - lift) / spacing));
    const std::size_t capacity = nx * nz * layersAvailable;
    if (count > capacity) {
        throw ScenarioError("particles.count: " + std::to_string(count) + " particles do not fit in the box" +
                            "; accepted: at most " + std::to_string(capacity) +
                            " with these box sizes, radius_max, gap and lift");
    }
    Random random(static_cast<std::uint64_t>(s.integer("seed")));
    const double density = s.real("particles.density");
    const double jitter = s.real("particles.jitter") * 0.5 * gapWidth;
    Vec3 v0 = readVector(s, "particles.velocity");
    if (world.dimension == 2) {
        v0.z() = 0.0;
    }
    for (std::size_t n = 0; n < count; ++n) {
        const std::size_t layer = n / (nx * nz);
        const std::size_t i = n % nx;
        const std::size_t k = (n / nx) % nz;
        Vec3 x((static_cast<double>(i) + 0.5) * spacing, lift + (static_cast<double>(layer) + 0.5) * spacing,
               world.dimension == 3 ? (static_cast<double>(k) + 0.5) * spacing : 0.0);
        Vec3 shake(random.uniform(-jitter, jitter), random.uniform(-jitter, jitter), random.uniform(-jitter, jitter));
        if (world.dimension == 2) {
            shake.z() = 0.0;
        }
        const double r = random.uniform(rMin, rMax);
        world.particles.add(x + shake, r, density, world.dimension);
        world.particles.velocity.back() = v0;
    }
}

}  // namespace

World buildWorld(const Scenario& s)
{
    World world;
    world.dimension = static_cast<int>(s.integer("world.dimension"));
    world.gravity = readVector(s, "gravity");
    Vec3 size(s.real("box.width"), s.real("box.height"), s.real("box.depth"));
    if (world.dimension == 2) {
        world.gravity.z() = 0.0;
        size.z() = 0.0;
    }
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), size);
    placeCloud(world, s, size);
    addBoxWalls(world, s.text("box.walls"), size);
    const auto probe = static_cast<std::size_t>(s.integer("probe.index"));
    if (probe >= world.particles.size()) {
        throw ScenarioError("probe.index: " + std::to_string(probe) + " is out of range; accepted: an integer in [0, " +
                            std::to_string(world.particles.size() - 1) + "] (particles.count - 1)");
    }
    return world;
}

}  // namespace granular
