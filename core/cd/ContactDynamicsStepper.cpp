#include "cd/ContactDynamicsStepper.h"

#include "method/StageTimer.h"
#include "model/World.h"
#include "util/Parallel.h"
#include "util/StateArchive.h"

namespace granular {

ContactDynamicsStepper::ContactDynamicsStepper(const Settings& settings)
    : solver_(settings.solver), contact_(settings.contact), random_(settings.seed)
{
}

void ContactDynamicsStepper::configure(const Settings& settings)
{
    solver_ = settings.solver;
    contact_ = settings.contact;
}

StepDiagnostics ContactDynamicsStepper::step(World& world)
{
    StepDiagnostics diagnostics;
    const double dt = solver_.dt;
    {
        const StageTimer timer(diagnostics, StepStage::Contacts);
        detection_.update(world, candidateMargin(world, dt, contact_.margin));
    }
    {
        const StageTimer timer(diagnostics, StepStage::Solve);
        const auto result = gaussSeidel_.solve(world, solver_, contact_, random_);
        diagnostics.iterations = result.iterations;
        diagnostics.residual = result.residual;
        diagnostics.forceChange = result.forceChange;
        diagnostics.knownUpdates = result.knownUpdates;
    }
    {
        const StageTimer timer(diagnostics, StepStage::Integrate);
        const PredictedMotion& motion = gaussSeidel_.motion();
        auto& p = world.particles;
        parallelFor(p.size(), [&](std::size_t i) {
            p.velocity[i] = motion.velocity(i);
            p.angularVelocity[i] = motion.angularVelocity(i);
            p.position[i] += dt * p.velocity[i];  // implicit Euler: positions with the new velocities
        });
        if (world.piston) {
            world.piston->velocity = motion.pistonVelocity();
            world.piston->plane.point += dt * world.piston->velocity * world.piston->plane.normal;
        }
        if (world.drum) {
            world.drum->angle += dt * world.drum->angularVelocity;
        }
        world.time += dt;
        ++world.steps;
    }
    {
        const StageTimer timer(diagnostics, StepStage::Observe);
        observer_.observe(world, contact_, diagnostics);
    }
    return diagnostics;
}

void ContactDynamicsStepper::saveState(StateWriter& out) const
{
    out.put(random_.state());  // the sweep order; the warm-start forces are in the world's contacts
}

void ContactDynamicsStepper::loadState(StateReader& in)
{
    random_.setState(in.get<std::array<std::uint64_t, 4>>());
}

}  // namespace granular
