#include "ballistic/BallisticStepper.h"

#include "method/StageTimer.h"
#include "model/World.h"
#include "settings/Settings.h"

namespace granular {

void BallisticStepper::configure(const Settings& settings)
{
    dt_ = settings.solver.dt;
}

StepDiagnostics BallisticStepper::step(World& world)
{
    StepDiagnostics diagnostics;
    {
        const StageTimer timer(diagnostics, StepStage::Integrate);
        auto& p = world.particles;
        const Vec3 dv = world.gravity * dt_;
        const Vec3 drop = 0.5 * world.gravity * dt_ * dt_;  // g dt^2 / 2
        for (std::size_t i = 0; i < p.size(); ++i) {
            p.position[i] += p.velocity[i] * dt_ + drop;
            p.velocity[i] += dv;
        }
    }
    world.time += dt_;
    ++world.steps;
    return diagnostics;
}

}  // namespace granular
