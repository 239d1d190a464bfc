#pragma once

#include <cstdint>

namespace granular {

/// When the Gauss-Seidel iteration of one step stops (seed 000 eq. 35-37).
enum class ConvergenceCriterion {
    Fixed,   ///< exactly N_I iterations (eq. 37)
    Local,   ///< |dR_a| <= eps (|R_a| + delta) for every candidate a (eq. 35 with the cut-off delta)
    Global,  ///< |d<|R_a|>| <= eps <|R_a|> (eq. 36)
};

struct SolverSettings {
    ConvergenceCriterion criterion = ConvergenceCriterion::Fixed;
    std::int64_t iterations = 40;  ///< N_I for Fixed; upper limit for Local and Global
    double tolerance = 1e-6;       ///< eps (1)
    double forceCutoff = 0.0;      ///< delta (N)
    double friction = 0.0;         ///< mu between grains (1)
    double wallFriction = -1.0;    ///< mu between a grain and a wall, the piston or the drum (1); < 0: same as friction
    double dt = 1e-3;              ///< s

    /// The Coulomb coefficient of a contact between a grain and a grain (true) or a wall-like body.
    [[nodiscard]] double frictionFor(bool grainOnGrain) const
    {
        return grainOnGrain || wallFriction < 0.0 ? friction : wallFriction;
    }
};

}  // namespace granular
