#include "ballistic/BallisticStepper.h"

#include "method/StageTimer.h"
#include "model/World.h"
#include "settings/Settings.h"

#include <cmath>

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
        for (std::size_t i = 0; i < p.size(); ++i) {
            if (!std::isfinite(p.mass[i])) {
                p.position[i] += p.velocity[i] * dt_;  // fixed or driven: it keeps its velocity
                continue;
            }
            const Vec3 acceleration = world.gravity + p.externalForce[i] / p.mass[i];
            p.position[i] += p.velocity[i] * dt_ + 0.5 * acceleration * dt_ * dt_;  // a dt^2 / 2
            p.velocity[i] += acceleration * dt_;
        }
    }
    world.time += dt_;
    ++world.steps;
    return diagnostics;
}

}  // namespace granular
