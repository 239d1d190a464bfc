#include "cd/ContactDynamicsStepper.h"

#include "cd/CoulombLimit.h"
#include "model/World.h"
#include "scenario/Scenario.h"
#include "sim/StageTimer.h"

#include <algorithm>

namespace granular {

SolverSettings solverSettingsFrom(const Scenario& scenario)
{
    SolverSettings settings;
    const std::string& criterion = scenario.text("solver.criterion");
    settings.criterion = criterion == "local"    ? ConvergenceCriterion::Local
                         : criterion == "global" ? ConvergenceCriterion::Global
                                                 : ConvergenceCriterion::Fixed;
    settings.iterations = settings.criterion == ConvergenceCriterion::Fixed ? scenario.integer("solver.iterations")
                                                                            : scenario.integer("solver.max_iterations");
    settings.tolerance = scenario.real("solver.tolerance");
    settings.forceCutoff = scenario.real("solver.force_cutoff");
    settings.friction = scenario.real("contact.friction");
    settings.wallFriction = scenario.real("contact.wall_friction");
    settings.dt = scenario.real("solver.dt");
    return settings;
}

ContactDynamicsStepper::ContactDynamicsStepper(const SolverSettings& settings, std::uint64_t seed,
                                               double relativeMargin)
    : settings_(settings), relativeMargin_(relativeMargin), random_(seed)
{
}

void ContactDynamicsStepper::configure(const Scenario& scenario)
{
    settings_ = solverSettingsFrom(scenario);
    relativeMargin_ = scenario.real("contact.margin");
}

StepDiagnostics ContactDynamicsStepper::step(World& world)
{
    StepDiagnostics diagnostics;
    const double dt = settings_.dt;
    {
        const StageTimer timer(diagnostics, StepStage::Contacts);
        detection_.update(world, candidateMargin(world, dt, relativeMargin_));
    }
    {
        const StageTimer timer(diagnostics, StepStage::Solve);
        const auto result = solver_.solve(world, settings_, random_);
        diagnostics.iterations = result.iterations;
        diagnostics.residual = result.residual;
    }
    {
        const StageTimer timer(diagnostics, StepStage::Integrate);
        auto& p = world.particles;
        for (std::size_t i = 0; i < p.size(); ++i) {
            p.velocity[i] = solver_.velocity()[i];
            p.angularVelocity[i] = solver_.angularVelocity()[i];
            p.position[i] += dt * p.velocity[i];  // implicit Euler: positions with the new velocities
        }
        if (world.piston) {
            world.piston->velocity = solver_.pistonVelocity();
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
        const auto& p = world.particles;
        double pistonForce = 0.0;
        double overlapSum = 0.0;
        for (const Contact& c : world.contacts) {
            const double Rn = c.force.dot(c.normal);
            if (Rn <= 0.0) {
                continue;
            }
            ++diagnostics.contacts;
            if (onCoulombLimit(c.force, c.normal, settings_.frictionFor(c.kind == ContactKind::Particle))) {
                ++diagnostics.slidingContacts;
            }
            const auto j = static_cast<std::size_t>(c.particle);
            double gap = 0.0;
            switch (c.kind) {
            case ContactKind::Particle: {
                const auto i = static_cast<std::size_t>(c.partner);
                gap = (p.position[j] - p.position[i]).norm() - p.radius[i] - p.radius[j];
                break;
            }
            case ContactKind::Wall:
                gap = world.walls[static_cast<std::size_t>(c.partner)].signedDistance(p.position[j]) - p.radius[j];
                break;
            case ContactKind::Piston:
                gap = world.piston->plane.signedDistance(p.position[j]) - p.radius[j];
                pistonForce += Rn;
                break;
            case ContactKind::Drum: {
                const Vec3 fromAxis = p.position[j] - world.drum->centre;
                gap = world.drum->radius - (fromAxis - fromAxis.dot(world.drum->axis) * world.drum->axis).norm() -
                      p.radius[j];
                break;
            }
            }
            const double overlap = std::max(0.0, -gap);
            overlapSum += overlap;
            diagnostics.maxOverlap = std::max(diagnostics.maxOverlap, overlap);
        }
        if (diagnostics.contacts > 0) {
            diagnostics.meanOverlap = overlapSum / static_cast<double>(diagnostics.contacts);
        }
        if (world.piston) {
            world.piston->contactForce = pistonForce;
        }
        diagnostics.candidates = static_cast<std::int64_t>(world.contacts.size());
        diagnostics.contactUpdates = diagnostics.iterations * diagnostics.candidates;
    }
    return diagnostics;
}

}  // namespace granular
