#pragma once

#include "model/World.h"
#include "settings/Choices.h"

#include <functional>

namespace granular {

struct Settings;

/// The plane walls of a box of the given size from the origin: the floor (y = 0), the sides (x, and z in 3D)
/// and the lid (y = size.y), as `walls` asks.
void addBoxWalls(World& world, BoxWalls walls, const Vec3& size);

/// `particles.count` grains on a jittered square (2D) or cubic (3D) lattice filling a box of `size` from the
/// floor up, radii uniform in [radius_min, radius_max], skipping the sites that `accept` refuses (e.g. outside
/// a drum). Throws ScenarioError naming particles.count with the capacity when they do not fit.
void placeLattice(World& world, const Settings& settings, const Vec3& size,
                  const std::function<bool(const Vec3&)>& accept);

/// The grains of `particles.file` when it is set (readPackingFile; refused, naming the file's grain, where a 2D
/// scenario's grain leaves the plane z = 0 or grains overlap each other or the box's `walls` by more than 10 % of a
/// radius), else placeLattice over the whole box.
void placeGrains(World& world, const Settings& settings, const Vec3& size, BoxWalls walls);

}  // namespace granular
