#include "setup/Lattice.h"

#include "scenario/ScenarioError.h"
#include "scenario/Value.h"
#include "settings/Settings.h"
#include "setup/FileGrainChecks.h"
#include "setup/PackingFile.h"
#include "util/Random.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace granular {

namespace {

/// Lattice sites along one edge, at most (bounds the cast of a huge box / tiny grains).
constexpr double kMaxSitesAlong = 1e12;
/// Lattice sites searched for places, at most (about a second).
constexpr std::size_t kMaxScannedSites = 200000000;

}  // namespace

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
    // Sites per row, rows and layers, each bounded before the cast (a box 1e12 grains wide is wider than any count
    // needs); the site index is split by successive divisions, so no product of them is ever formed.
    const auto sites = [](double n) {
        return static_cast<std::size_t>(std::clamp(std::floor(n), 0.0, kMaxSitesAlong));
    };
    const std::size_t nx = sites(size.x() / spacing);
    const std::size_t nz = world.dimension == 3 ? sites(size.z() / spacing) : 1U;
    const std::size_t layers = sites(std::max(0.0, size.y() - lift) / spacing);
    const double product = static_cast<double>(nx) * static_cast<double>(nz) * static_cast<double>(layers);
    const bool scanLimited = product > static_cast<double>(kMaxScannedSites);
    const std::size_t siteCount = scanLimited ? kMaxScannedSites : nx * nz * layers;
    Random random(s.seed);
    const double density = s.particles.density;
    const double jitter = s.particles.jitter * 0.5 * gapWidth;
    Vec3 v0 = s.particles.velocity;
    if (world.dimension == 2) {
        v0.z() = 0.0;
    }
    const auto siteCentre = [&](std::size_t site) {
        const std::size_t row = site / nx;
        const std::size_t layer = row / nz;
        return Vec3((static_cast<double>(site % nx) + 0.5) * spacing,
                    lift + (static_cast<double>(layer) + 0.5) * spacing,
                    world.dimension == 3 ? (static_cast<double>(row % nz) + 0.5) * spacing : 0.0);
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
    if (world.particles.size() < count && scanLimited) {
        throw ScenarioError("particles.radius_max: " + formatShort(rMax) + " m grains make a lattice of " +
                            formatShort(product) + " sites in this container, and the first " +
                            std::to_string(kMaxScannedSites) + " hold only " + std::to_string(world.particles.size()) +
                            " of particles.count = " + std::to_string(count) +
                            "; accepted: larger grains or a smaller container");
    }
    if (world.particles.size() < count) {
        std::size_t capacity = 0;
        for (std::size_t site = 0; site < siteCount; ++site) {
            capacity += accept(siteCentre(site)) ? 1U : 0U;
        }
        // The container's size and the lattice's spacing: a narrowed box.width was refused naming only the count.
        std::string extent = formatShort(size.x()) + " x " + formatShort(size.y());
        if (world.dimension == 3) {
            extent += " x " + formatShort(size.z());
        }
        throw ScenarioError("particles.count: " + std::to_string(count) + " particles do not fit in the container of " +
                            extent + " m (sites " + formatShort(spacing) + " m apart: 2 radius_max (1 + gap))" +
                            "; accepted: at most " + std::to_string(capacity) +
                            " with these box sizes, radius_max, gap and lift");
    }
}

void placeGrains(World& world, const Settings& s, const Vec3& size, BoxWalls walls)
{
    if (s.particles.file.empty()) {
        placeLattice(world, s, size, [](const Vec3&) { return true; });
        return;
    }
    const Packing packing = readPackingFile(s.particles.file, s.particles.fileUpAxis, s.particles.density);
    for (std::size_t i = 0; i < packing.grains.size(); ++i) {
        const Vec3& x = packing.grains[i].position;
        const bool inside = x.x() >= 0.0 && x.x() <= size.x() && x.y() >= 0.0 &&
                            (world.dimension == 2 || (x.z() >= 0.0 && x.z() <= size.z()));
        if (!inside) {
            throw ScenarioError("particles.file: " + s.particles.file + ": grain " + std::to_string(i + 1) + " at (" +
                                std::to_string(x.x()) + ", " + std::to_string(x.y()) + ", " + std::to_string(x.z()) +
                                ") m lies outside the box; accepted: centres inside " +
                                "[0, box.width] x [0, inf) x [0, box.depth] after particles.file_up_axis");
        }
    }
    checkFileGrains(packing, s.particles.file, world.dimension, size, walls);
    for (const auto& grain : packing.grains) {
        world.particles.add(grain.position, grain.radius, grain.density, world.dimension);
        world.particles.velocity.back() = grain.velocity;
        world.particles.angularVelocity.back() = grain.angularVelocity;
        if (world.dimension == 2) {
            // In the plane but for round-off (inThePlane): exactly.
            world.particles.position.back().z() = 0.0;
            world.particles.velocity.back().z() = 0.0;
            world.particles.angularVelocity.back().x() = 0.0;
            world.particles.angularVelocity.back().y() = 0.0;
        }
    }
}

}  // namespace granular
