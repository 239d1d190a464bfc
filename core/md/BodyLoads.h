#pragma once

#include "model/Contact.h"

#include <vector>

namespace granular::md {

/// The contact loads on every body at one instant of the velocity-Verlet step. The elastic and
/// tangential forces enter the kick by the trapezoidal rule; the normal dashpot enters as the exact
/// impulse of the step (see PairLaw::dampingPotential) and as an instantaneous force that only the
/// drift uses. Piston entries are components along the piston's normal.
struct BodyLoads {
    std::vector<Vec3> force;     ///< N, elastic normal + tangential contact force
    std::vector<Vec3> torque;    ///< N m, of the tangential forces about the centre
    std::vector<Vec3> damping;   ///< N, normal dashpot force at this instant
    std::vector<Vec3> impulse;   ///< N s, dashpot impulse of the step and opening/closing corrections
    double pistonForce = 0.0;    ///< N
    double pistonDamping = 0.0;  ///< N
    double pistonImpulse = 0.0;  ///< N s

    void clear(std::size_t bodies)
    {
        force.assign(bodies, Vec3::Zero());
        torque.assign(bodies, Vec3::Zero());
        damping.assign(bodies, Vec3::Zero());
        impulse.assign(bodies, Vec3::Zero());
        pistonForce = 0.0;
        pistonDamping = 0.0;
        pistonImpulse = 0.0;
    }

    /// Sized for `bodies`, the entries left as they are (for loops that write every one).
    void resize(std::size_t bodies)
    {
        force.resize(bodies);
        torque.resize(bodies);
        damping.resize(bodies);
        impulse.resize(bodies);
    }
};

}  // namespace granular::md
