#pragma once

#include "model/Contact.h"
#include "model/Drum.h"
#include "model/Particles.h"
#include "model/PeriodicCell.h"
#include "model/Piston.h"
#include "model/PlaneWall.h"

#include <Eigen/Geometry>

#include <cstdint>
#include <optional>
#include <vector>

namespace granular {

/// Everything a method steps: particles, walls, external fields and the clock.
struct World {
    int dimension = 3;  ///< 2 (disks in the x-y plane) or 3 (spheres)
    Particles particles;
    std::vector<PlaneWall> walls;
    std::optional<Piston> piston;
    std::optional<Drum> drum;
    std::optional<PeriodicCell> cell;  ///< set: periodic in every direction, no walls (Shaebani et al. 2009)
    std::vector<Contact> contacts;     ///< candidates of the last step with their forces (warm start)
    Vec3 gravity = Vec3::Zero();       ///< m/s^2
    Eigen::AlignedBox3d bounds;        ///< m, the container (drawing, cell lists)
    double time = 0.0;                 ///< s
    std::int64_t steps = 0;
};

}  // namespace granular
