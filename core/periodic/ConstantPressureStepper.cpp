#include "periodic/ConstantPressureStepper.h"

#include "cd/ContactDynamicsStepper.h"
#include "cd/CoulombLimit.h"
#include "model/World.h"
#include "periodic/Relaxation.h"
#include "scenario/Scenario.h"
#include "sim/StageTimer.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace granular {

namespace {

/// Gap below which a pair is a candidate: plain CD's margin plus what the shrinking cell can close in
/// one step (Lambda l dt, with Lambda's most compressive rate at most (P_ext + |sigma - P_in 1|) dt / M_lambda
/// more compressive than now).
double pressureMargin(const World& world, double dt, double relativeMargin, const PressureCoupling& coupling)
{
    const double base = candidateMargin(world, dt, relativeMargin);
    double largest = 0.0;
    for (const double r : world.particles.radius) {
        largest = std::max(largest, r);
    }
    const PeriodicCell& cell = *world.cell;
    double compression = -cell.dilationRate();
    double drive = coupling.externalPressure;
    if (coupling.shape == CellShape::Free) {
        // In 2D the z row and column are zero: an eigenvalue 0 there changes nothing after max(0, .) below.
        compression = -Eigen::SelfAdjointEigenSolver<Mat3>(cell.strainRate, Eigen::EigenvaluesOnly).eigenvalues()(0);
        Mat3 deviator = cell.innerStress;
        deviator.diagonal().array() -= cell.innerPressure;
        drive += deviator.topLeftCorner(cell.dimension, cell.dimension).norm();
    }
    const double closingRate = std::max(0.0, compression) + drive * dt / coupling.inertia;
    return base + 2.0 * closingRate * dt * (2.0 * largest + base);
}

}  // namespace

PressureCoupling pressureCouplingFrom(const Scenario& scenario)
{
    PressureCoupling coupling;
    coupling.externalPressure = scenario.real("pressure.external");
    coupling.inertia = scenario.real("pressure.inertia");
    coupling.variant = scenario.text("pressure.variant") == "partial" ? PressureVariant::PartiallyImplicit
                                                                      : PressureVariant::FullyImplicit;
    coupling.shape = scenario.text("pressure.cell_shape") == "free" ? CellShape::Free : CellShape::Fixed;
    return coupling;
}

ConstantPressureStepper::ConstantPressureStepper(std::uint64_t seed) : random_(seed) {}

void ConstantPressureStepper::configure(const Scenario& scenario)
{
    settings_ = solverSettingsFrom(scenario);
    coupling_ = pressureCouplingFrom(scenario);
    relaxThreshold_ = scenario.real("pressure.relax_threshold");
    relativeMargin_ = scenario.real("contact.margin");
}

StepDiagnostics ConstantPressureStepper::step(World& world)
{
    if (!world.cell) {
        throw std::logic_error("cd_pressure needs a periodic cell (setup periodic)");
    }
    StepDiagnostics diagnostics;
    const double dt = settings_.dt;
    {
        const StageTimer timer(diagnostics, StepStage::Contacts);
        detection_.update(world, pressureMargin(world, dt, relativeMargin_, coupling_));
    }
    {
        const StageTimer timer(diagnostics, StepStage::Solve);
        const auto result = solver_.solve(world, settings_, coupling_, random_);
        diagnostics.iterations = result.iterations;
        diagnostics.residual = result.residual;
    }
    {
        const StageTimer timer(diagnostics, StepStage::Integrate);
        PeriodicCell& cell = *world.cell;
        cell.strainRate = solver_.strainRate();  // eq. 23
        cell.innerPressure = solver_.innerPressure();
        cell.innerStress = solver_.innerStress();
        const Mat3 map = cell.deform(dt);  // eq. 24
        auto& p = world.particles;
        for (std::size_t i = 0; i < p.size(); ++i) {
            p.velocity[i] = solver_.velocity()[i];  // eq. 25
            p.angularVelocity[i] = solver_.angularVelocity()[i];
            p.position[i] = cell.wrap(map * p.position[i] + dt * p.velocity[i]);  // eq. 26
        }
        world.bounds = cell.box();
        world.time += dt;
        ++world.steps;
    }
    {
        const StageTimer timer(diagnostics, StepStage::Observe);
        const auto& p = world.particles;
        double overlapSum = 0.0;
        for (const Contact& c : world.contacts) {
            if (c.force.dot(c.normal) <= 0.0) {
                continue;
            }
            ++diagnostics.contacts;
            if (onCoulombLimit(c.force, c.normal, settings_.friction)) {
                ++diagnostics.slidingContacts;
            }
            const auto i = static_cast<std::size_t>(c.partner);
            const auto j = static_cast<std::size_t>(c.particle);
            const double gap =
                world.cell->minimumImage(p.position[j] - p.position[i]).norm() - p.radius[i] - p.radius[j];
            const double overlap = std::max(0.0, -gap);
            overlapSum += overlap;
            diagnostics.maxOverlap = std::max(diagnostics.maxOverlap, overlap);
        }
        if (diagnostics.contacts > 0) {
            diagnostics.meanOverlap = overlapSum / static_cast<double>(diagnostics.contacts);
        }
        diagnostics.candidates = static_cast<std::int64_t>(world.contacts.size());
        diagnostics.contactUpdates = diagnostics.iterations * diagnostics.candidates;
    }
    return diagnostics;
}

bool ConstantPressureStepper::finished(const World& world) const
{
    return world.cell && world.steps > 0 && measureRelaxation(world, coupling_).below(relaxThreshold_);
}

}  // namespace granular
