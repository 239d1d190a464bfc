#include "setup/CompressionSetup.h"

#include "model/World.h"
#include "scenario/ScenarioError.h"
#include "scenario/Value.h"
#include "settings/Settings.h"
#include "setup/Lattice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace granular {

void buildCompressionWorld(World& world, const Settings& s)
{
    const Vec3 box(s.box.width, s.compression.topStart, s.box.depth);
    if (s.particles.file.empty()) {
        // A lattice column that holds every grain: the grains settle and the plate comes down onto them.
        const double spacing = 2.0 * s.particles.radiusMax * (1.0 + s.particles.gap);
        // In double: a box of 1e6 m holds ~1e25 sites of 0.2 um, more than an integer takes.
        const double perLayer = std::floor(box.x() / spacing) * std::floor(box.z() / spacing);
        if (perLayer < 1.0) {
            throw ScenarioError("box.width: " + formatValue(box.x()) + " m x box.depth " + formatValue(box.z()) +
                                " m hold no lattice site of " + formatValue(spacing) +
                                " m; accepted: at least one largest diameter (with the gap) each");
        }
        const double layers = std::ceil(static_cast<double>(s.particles.count) / perLayer);
        const double height = s.particles.lift + layers * spacing;
        placeLattice(world, s, Vec3(box.x(), height, box.z()), [](const Vec3&) { return true; });
    } else {
        placeGrains(world, s, box, BoxWalls::Open);
    }
    addBoxWalls(world, BoxWalls::Open, box);
    double highest = 0.0;
    for (std::size_t i = 0; i < world.particles.size(); ++i) {
        highest = std::max(highest, world.particles.position[i].y() + world.particles.radius[i]);
    }
    PlateDrive drive;
    drive.approachFrom = std::max(s.compression.topStart, highest);
    drive.top = s.compression.topStart;
    drive.bottom = s.compression.topEnd;
    drive.strokeTime = s.compression.strokeTime;
    drive.strokes = s.compression.strokes;
    drive.settleTime = s.compression.settleTime;
    Piston plate;
    plate.plane = {"plate", Vec3(0.0, drive.approachFrom, 0.0), -Vec3::UnitY()};
    plate.mass = std::numeric_limits<double>::infinity();
    plate.area = box.x() * box.z();
    plate.velocity = -drive.velocity(0.0);  // along the normal, which points down
    plate.drive = drive;
    world.piston = plate;
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), Vec3(box.x(), drive.approachFrom, box.z()));
}

}  // namespace granular
