#pragma once

#include "contact/DisplacementBound.h"
#include "util/Vector.h"

#include <cstddef>

namespace granular::md {

/// The most grains driftLanes() and kickLanes() take at a time (AVX-512F's eight doubles); they take as many as the
/// grain pairs' lanes (pairLaneWidth(): eight, or four with AVX2 only).
inline constexpr std::size_t kVerletLanes = 8;

/// The first half of velocity-Verlet for grains outside a periodic cell, as SoftParticleStepper::drift writes it: for a
/// mobile grain (finite mass) v' = v + dt/2 (F + D + F_ext)/m + dt/2 g, else v' = v; w' = w + dt/2 T/I; the position
/// x := scale x + dt v' and the displacement record d += dt v'. The arrays' addresses, one entry per grain.
struct GrainDrift {
    const Vec3* velocity = nullptr;         ///< m/s, v at the step's start
    const Vec3* angularVelocity = nullptr;  ///< rad/s, w at the step's start
    const double* mass = nullptr;           ///< kg (infinite: a grain that does not move)
    const double* inertia = nullptr;        ///< kg m^2
    const Vec3* externalForce = nullptr;    ///< N
    const Vec3* force = nullptr;            ///< N, F: elastic and tangential loads at the step's start
    const Vec3* damping = nullptr;          ///< N, D: the dashpots' loads at the step's start
    const Vec3* torque = nullptr;           ///< N m, T
    Vec3* position = nullptr;               ///< m, updated in place
    Vec3* halfVelocity = nullptr;           ///< m/s, v' written
    Vec3* halfAngularVelocity = nullptr;    ///< rad/s, w' written
    Vec3* displacement = nullptr;           ///< m, since the candidates' last rebuild, updated in place
    Vec3 gravity = Vec3::Zero();            ///< m/s^2
    double dt = 0.0;                        ///< s
    double scale = 1.0;                     ///< the cell's dilation of the positions (1 outside a cell)
};

/// The second half of velocity-Verlet, as GrainKick in SoftParticleStepper.cpp writes it: for a mobile grain
/// v += dt/2m (F + F') + J'/m + dt (g + F_ext/m); w += dt/2I (T + T').
struct GrainKickArrays {
    Vec3* velocity = nullptr;             ///< m/s, updated in place
    Vec3* angularVelocity = nullptr;      ///< rad/s, updated in place
    const double* mass = nullptr;         ///< kg
    const double* inertia = nullptr;      ///< kg m^2
    const Vec3* externalForce = nullptr;  ///< N
    const Vec3* force = nullptr;          ///< N, F at the step's start
    const Vec3* nextForce = nullptr;      ///< N, F' at its end
    const Vec3* nextImpulse = nullptr;    ///< N s, J': the dashpots' exact impulse over the step
    const Vec3* torque = nullptr;         ///< N m, T
    const Vec3* nextTorque = nullptr;     ///< N m, T'
    Vec3 gravity = Vec3::Zero();          ///< m/s^2
    double dt = 0.0;                      ///< s
};

/// Whether grains are advanced several at a time: the switch of the grain pairs' lanes (pairLanesOn()), at their width.
[[nodiscard]] bool verletLanesOn();

/// Drifts the leading grains of [first, last), pairLaneWidth() at a time, bit for bit as the scalar drift one grain
/// after the other (every lane does its IEEE operations in their order, nothing fused; the components of eight, or
/// four, grains lie in three registers as in memory, each grain's mass and inertia spread over its three components),
/// and takes their displacements into `bound`. Returns how many it drifted: a multiple of the width, 0 where
/// verletLanesOn() is false. The bound is the same as the scalar one's: minima and maxima of the same values (a zero's
/// sign aside, which neither of its bounds sees).
std::size_t driftLanes(const GrainDrift& drift, std::size_t first, std::size_t last, DisplacementBound& bound);

/// Kicks the leading grains of [first, last) pairLaneWidth() at a time, bit for bit as the scalar kick; returns how
/// many.
std::size_t kickLanes(const GrainKickArrays& kick, std::size_t first, std::size_t last);

}  // namespace granular::md
