#pragma once

#include "settings/Settings.h"

#include <cstdint>

namespace granular::md {

/// The contact material of the soft-particle method, read from `material.*`, `contact.*` and the
/// CD settings that the CD-MD equivalence (Unger & Kertesz 2003, eq. 67-68) refers to.
struct MaterialModel {
    NormalLaw law = NormalLaw::Linear;
    double grainStiffness = 0.0;         ///< N/m, k_n of one grain (linear law); 0: the CD-equivalent stiffness
    double restitution = -1.0;           ///< 1, e in [0, 1]; negative: the CD-equivalent damping (linear law only)
    double youngModulus = 7e10;          ///< Pa, E of the grains (Hertz)
    double poissonRatio = 0.25;          ///< 1, nu of the grains (Hertz)
    double tangentialRatio = 2.0 / 7.0;  ///< 1, k_t / k_n of the tangential spring (linear law)
    double friction = 0.0;               ///< 1, Coulomb mu between grains
    double wallFriction = 0.0;           ///< 1, Coulomb mu between a grain and a wall, the piston or the drum
    double cdTimeStep = 1e-3;            ///< s, the CD time step dt of the equivalence (solver.dt)
    std::int64_t cdIterations = 40;      ///< N_I of the equivalent CD (solver.iterations)

    [[nodiscard]] bool operator==(const MaterialModel&) const = default;

    /// Stiffness from Unger & Kertesz 2003, eq. 67 (linear law with material.stiffness = 0).
    [[nodiscard]] bool cdEquivalentStiffness() const { return law == NormalLaw::Linear && grainStiffness == 0.0; }
    /// Damping from Unger & Kertesz 2003, eq. 68 (material.restitution = -1).
    [[nodiscard]] bool cdEquivalentDamping() const { return restitution < 0.0; }
};

/// The material of a scenario's settings (checkSettings has refused the values that do not fit together,
/// e.g. a restitution in (-1, 0) or the CD-equivalent damping with Hertz).
[[nodiscard]] MaterialModel materialModelFrom(const Settings& settings);

/// Damping ratio zeta = -ln e / sqrt(pi^2 + ln^2 e) of a linear spring-dashpot whose collisions
/// restitute e (MSCM 2024: c_n = 2 sqrt(k m*) zeta = 2 sqrt(k m*) / sqrt(1 + (pi / ln e)^2)); 1 at e = 0.
[[nodiscard]] double linearDampingRatio(double restitution);

}  // namespace granular::md
