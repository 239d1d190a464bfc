#include "setup/WorldBuilder.h"

#include "scenario/ScenarioError.h"
#include "settings/Settings.h"
#include "setup/CompressionSetup.h"
#include "setup/Lattice.h"
#include "setup/PairSetup.h"
#include "setup/PeriodicSetup.h"
#include "util/Random.h"

#include <cmath>
#include <functional>
#include <string>

namespace granular {

namespace {

Vec3 boxSize(const Settings& s, int dimension)
{
    return {s.box.width, s.box.height, dimension == 2 ? 0.0 : s.box.depth};
}

void buildCloud(World& world, const Settings& s)
{
    const Vec3 size = boxSize(s, world.dimension);
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), size);
    placeGrains(world, s, size, s.box.walls);
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
    placeGrains(world, s, size, BoxWalls::Open);
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
    case Setup::Compression:
        buildCompressionWorld(world, s);
        break;
    case Setup::Cloud:
        buildCloud(world, s);
        break;
    }
    applyLiveParameters(world, s);
    checkProbeIndex(s, world.particles.size());
    return world;
}

void checkProbeIndex(const Settings& s, std::size_t particles)
{
    const auto count = static_cast<std::int64_t>(particles);
    if (s.probeIndex >= count || s.probeIndex < -count) {
        throw ScenarioError("probe.index: " + std::to_string(s.probeIndex) +
                            " is out of range; accepted: an integer in [" + std::to_string(-count) + ", " +
                            std::to_string(count - 1) +
                            "] (from the first particle 0 to the last, or counted back from the last, -1)");
    }
}

}  // namespace granular
