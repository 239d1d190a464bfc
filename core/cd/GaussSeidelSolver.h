#pragma once

#include "cd/GaussSeidelSweep.h"
#include "cd/PredictedMotion.h"

#include <vector>

namespace granular {

struct World;
class Random;

/// Plain CD's iteration (walls, piston, drum; no periodic cell): gaussSeidelSweeps with nothing added.
class GaussSeidelSolver {
public:
    /// Solves for the contact forces of the step t -> t + dt; `world.contacts` hold the candidates with
    /// the previous step's forces (warm start), and on return the new forces.
    SweepResult solve(World& world, const SolverSettings& solver, const ContactSettings& contact, Random& random);

    /// The predicted velocities: after solve(), the new velocities.
    [[nodiscard]] const PredictedMotion& motion() const { return motion_; }

private:
    PredictedMotion motion_;
    SweepWorkspace workspace_;
};

}  // namespace granular
