#pragma once

#include "model/PlaneWall.h"
#include "model/PlateDrive.h"

#include <optional>

namespace granular {

/// A mobile plane of finite mass that moves only along its normal (no rotation, no sideways motion).
/// The normal points into the packing; the applied force pushes along it. A driven piston (`drive` set) follows
/// its prescribed motion whatever the grains do, like a body of infinite mass.
struct Piston {
    PlaneWall plane;
    double mass = 1.0;                ///< kg (2D: kg per unit thickness)
    double velocity = 0.0;            ///< m/s along plane.normal
    double force = 0.0;               ///< N, applied along plane.normal (towards the particles)
    double loadStep = 0.0;            ///< N, added to `force` from loadStepTime on
    double loadStepTime = 1e300;      ///< s
    double area = 1.0;                ///< m^2 (2D: length in m), for the pressure
    double contactForce = 0.0;        ///< N, force of the particles on the piston in the last step (against the normal)
    std::optional<PlateDrive> drive;  ///< set: the height follows this program (the normal is -y)

    [[nodiscard]] double appliedForce(double time) const { return time >= loadStepTime ? force + loadStep : force; }
};

}  // namespace granular
