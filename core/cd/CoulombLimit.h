#pragma once

#include "model/Particles.h"

namespace granular {

/// True when the contact force R (on body 1, normal n) presses (R_n > 0) and its friction is at
/// Coulomb's limit |R_t| = mu R_n: the slipping contact of the shock law (Unger & Kertesz 2003, eq. 29-30), the cone in
/// 3D and the graph in 2D. Frictionless contacts (mu = 0) never count: they have no friction to
/// reach a limit.
inline bool onCoulombLimit(const Vec3& force, const Vec3& normal, double mu)
{
    const double Rn = force.dot(normal);
    if (mu <= 0.0 || Rn <= 0.0) {
        return false;
    }
    constexpr double kRounding = 1e-9;  // the sliding branch scales R_t to mu R_n; allow its round-off
    return (force - Rn * normal).norm() >= (1.0 - kRounding) * mu * Rn;
}

}  // namespace granular
