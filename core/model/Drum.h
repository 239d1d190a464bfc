#pragma once

#include "model/Particles.h"

namespace granular {

/// The inside of a rotating cylinder (drum) of infinite mass; particles stay inside it.
struct Drum {
    Vec3 centre = Vec3::Zero();    ///< m, a point on the axis
    Vec3 axis = Vec3::UnitZ();     ///< unit vector
    double radius = 1.0;           ///< m
    double angularVelocity = 0.0;  ///< rad/s about axis (right-hand rule)
    double angle = 0.0;            ///< rad turned since t = 0 (advanced by the stepper; for drawing)

    /// Velocity of the drum's surface at the point x (m/s).
    [[nodiscard]] Vec3 surfaceVelocity(const Vec3& x) const { return angularVelocity * axis.cross(x - centre); }
    /// The distance of the point x from the axis (m).
    [[nodiscard]] double distanceFromAxis(const Vec3& x) const
    {
        const Vec3 fromAxis = x - centre;
        return (fromAxis - fromAxis.dot(axis) * axis).norm();
    }
};

}  // namespace granular
