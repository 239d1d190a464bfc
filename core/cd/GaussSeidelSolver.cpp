#include "cd/GaussSeidelSolver.h"

#include "model/World.h"

namespace granular {

SweepResult GaussSeidelSolver::solve(World& world, const SolverSettings& solver, const ContactSettings& contact,
                                     Random& random)
{
    motion_.predict(world, solver.dt);
    RigidBoundaryTerms terms{&contact};
    return gaussSeidelSweeps(world.contacts, world.particles, world.dimension, solver, random, motion_, workspace_,
                             terms);
}

}  // namespace granular
