#pragma once

#include "model/Particles.h"

#include <string>

namespace granular {

/// A fixed plane wall of infinite mass. The unit normal points into the region the particles occupy.
struct PlaneWall {
    std::string name;
    Vec3 point = Vec3::Zero();    ///< m, any point of the plane
    Vec3 normal = Vec3::UnitY();  ///< unit vector

    /// Distance of x from the plane along the normal (m): positive on the particles' side.
    [[nodiscard]] double signedDistance(const Vec3& x) const { return normal.dot(x - point); }
};

}  // namespace granular
