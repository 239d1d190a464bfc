#include "setup/WorldBuilder.h"

#include "scenario/ScenarioError.h"
#include "settings/Settings.h"
#include "setup/PairSetup.h"
#include "setup/PeriodicSetup.h"
#include "util/Random.h"

#include <cmath>
#include <functional>
#include <string>

namespace granular {

namespace {

void addBoxWalls(World& world, BoxWalls walls, const Vec3& size)
{
    if (walls == BoxWalls::None) {
        return;
    }
    world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
    if (walls == BoxWalls::Floor) {
        return;
    }
    world.walls.push_back({"left", Vec3::Zero(), Vec3::UnitX()});
    world.walls.push_back({"right", Vec3(size.x(), 0, 0), -Vec3::UnitX()});
    if (world.dimension == 3) {
        world.walls.push_back({"back", Vec3::Zero(), Vec3::UnitZ()});
        world.walls.push_back({"front", Vec3(0, 0, size.z()), -Vec3::UnitZ()});
    }
    if (walls == BoxWalls::Closed) {
        world.walls.push_back({"lid", Vec3(0, size.y(), 0), -Vec3::UnitY()});
    }
}

/// Particles on a jittered square (2D) or cubic (3D) lattice filling the box from the floor up,
/// skipping lattice sites that `accept` refuses (e.g. outside a drum).
void placeLattice(World& world, const Settings& s, const Vec3& size, const std::function<bool(const Vec3&)>& accept)
{
    const double rMin = s.particles.radiusMin;
    const double rMax = s.particles.radiusMax;
    const double gapWidth = 2.0 * rMax * s.particles.gap;
    const double spacing = 2.0 * rMax + gapWidth;
    const double lift = s.particles.lift;
    const auto count = static_cast<std::size_t>(s.particles.count);
    const auto nx = static_cast<std::size_t>(std::floor(size.x() / spacing));
    const auto nz = world.dimension == 3 ? static_cast<std::size_t>(std::floor(size.z() / spacing)) : 1U;
    const auto layers = static_cast<std::size_t>(std::floor(std::max(0.0, size.y() - lift) / spacing));
    Random random(s.seed);
    const double density = s.particles.density;
    const double jitter = s.particles.jitter * 0.5 * gapWidth;
    Vec3 v0 = s.particles.velocity;
    if (world.dimension == 2) {
        v0.z() = 0.0;
    }
    const std::size_t siteCount = nx * nz * layers;
    const auto siteCentre = [&](std::size_t site) {
        const std::size_t layer = site / (nx * nz);
        return Vec3((static_cast<double>(site % nx) + 0.5) * spacing,
                    lift + (static_cast<double>(layer) + 0.5) * spacing,
                    world.dimension == 3 ? (static_cast<double>((site / nx) % nz) + 0.5) * spacing : 0.0);
    };
    for (std::size_t site = 0; site < siteCount && world.particles.size() < count; ++site) {
        const Vec3 x = siteCentre(site);
        if (!accept(x)) {
            continue;
        }
        Vec3 shake(random.uniform(-jitter, jitter), random.uniform(-jitter, jitter), random.uniform(-jitter, jitter));
        if (world.dimension == 2) {
            shake.z() = 0.0;
        }
        const double r = random.uniform(rMin, rMax);
        world.particles.add(x + shake, r, density, world.dimension);
        world.particles.velocity.back() = v0;
    }
    if (world.particles.size() < count) {
        std::size_t capacity = 0;
        for (std::size_t site = 0; site < siteCount; ++site) {
            capacity += accept(siteCentre(site)) ? 1U : 0U;
        }
        throw ScenarioError("particles.count: " + std::to_string(count) + " particles do not fit in the box" +
                            "; accepted: at most " + std::to_string(capacity) +
                            " with these box sizes, radius_max, gap and lift");
    }
}

Vec3 boxSize(const Settings& s, int dimension)
{
    return {s.box.width, s.box.height, dimension == 2 ? 0.0 : s.box.depth};
}

void buildCloud(World& world, const Settings& s)
{
    const Vec3 size = boxSize(s, world.dimension);
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), size);
    placeLattice(world, s, size, [](const Vec3&) { return true; });
    addBoxWalls(world, s.box.walls, size);
}

/// Unger & Kertesz 2003, Fig. 6: equal disks in a line along x, touching, a wall `chain.wall_gap` left of the first.
void buildChain(World& world, const Settings& s)
{
    const auto count = static_cast<std::size_t>(s.chain.count);
    const double r = s.particles.radiusMax;
    const double mass = s.chain.mass;
    const double wallGap = s.chain.wallGap;
    for (std::size_t k = 0; k < count; ++k) {
        const Vec3 x(wallGap + r + 2.0 * r * static_cast<double>(k), 0.0, 0.0);
        world.particles.add(x, r, 1.0, world.dimension);
        world.particles.mass.back() = mass;
        world.particles.inertia.back() = particleInertia(mass, r, world.dimension);
    }
    world.walls.push_back({"wall", Vec3::Zero(), Vec3::UnitX()});
    const double length = wallGap + 2.0 * r * static_cast<double>(count);
    world.bounds = Eigen::AlignedBox3d(Vec3(0.0, -r, world.dimension == 3 ? -r : 0.0),
                                       Vec3(length, r, world.dimension == 3 ? r : 0.0));
}

/// Unger & Kertesz 2003, Fig. 5: a box with fixed base and side walls closed at the top by a mobile piston.
void buildPiston(World& world, const Settings& s)
{
    const Vec3 size = boxSize(s, world.dimension);
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), size);
    placeLattice(world, s, size, [](const Vec3&) { return true; });
    addBoxWalls(world, BoxWalls::Open, size);
    Piston piston;
    piston.plane = {"piston", Vec3(0.0, size.y(), 0.0), -Vec3::UnitY()};
    piston.mass = s.piston.mass;
    piston.area = world.dimension == 2 ? size.x() : size.x() * size.z();
    world.piston = piston;
}

/// A drum of radius R with its axis along z through (R, R); end caps at z = 0 and z = depth in 3D.
void buildDrum(World& world, const Settings& s)
{
    const double radius = s.drum.radius;
    const Vec3 size(2.0 * radius, 2.0 * radius, world.dimension == 2 ? 0.0 : s.box.depth);
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), size);
    Drum drum;
    drum.centre = Vec3(radius, radius, 0.0);
    drum.radius = radius;
    world.drum = drum;
    const double reach = radius - s.particles.radiusMax;
    placeLattice(world, s, size, [&](const Vec3& x) {
        const Vec3 d = x - drum.centre;
        return std::hypot(d.x(), d.y()) < reach;
    });
    if (world.dimension == 3) {
        world.walls.push_back({"back", Vec3::Zero(), Vec3::UnitZ()});
        world.walls.push_back({"front", Vec3(0, 0, size.z()), -Vec3::UnitZ()});
    }
}

}  // namespace

void applyLiveParameters(World& world, const Settings& s)
{
    world.gravity = s.gravity;
    if (world.dimension == 2) {
        world.gravity.z() = 0.0;
    }
    if (s.setup == Setup::Chain && world.particles.size() > 0) {
        world.particles.externalForce.back() = Vec3(-s.chain.force, 0.0, 0.0);
    }
    if (world.piston) {
        world.piston->force = s.piston.force;
        world.piston->loadStep = s.piston.loadStep;
        world.piston->loadStepTime = s.piston.loadStepTime;
    }
    if (world.drum) {
        world.drum->angularVelocity = s.drum.angularVelocity;
    }
    if (world.cell) {
        world.cell->externalPressure = s.pressure.externalPressure;
    }
}

World buildWorld(const Settings& s)
{
    World world;
    world.dimension = s.dimension;
    switch (s.setup) {
    case Setup::Chain:
        buildChain(world, s);
        break;
    case Setup::Piston:
        buildPiston(world, s);
        break;
    case Setup::Drum:
        buildDrum(world, s);
        break;
    case Setup::Periodic:
        buildPeriodicWorld(world, s);
        break;
    case Setup::Pair:
        buildPairWorld(world, s);
        break;
    case Setup::Cloud:
        buildCloud(world, s);
        break;
    }
    applyLiveParameters(world, s);
    const auto probe = static_cast<std::size_t>(s.probeIndex);
    if (probe >= world.particles.size()) {
        throw ScenarioError("probe.index: " + std::to_string(probe) + " is out of range; accepted: an integer in [0, " +
                            std::to_string(world.particles.size() - 1) + "] (number of particles - 1)");
    }
    return world;
}

}  // namespace granular
