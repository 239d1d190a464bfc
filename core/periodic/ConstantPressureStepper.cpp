#include "periodic/ConstantPressureStepper.h"

#include "contact/ContactDetection.h"
#include "method/StageTimer.h"
#include "model/World.h"
#include "periodic/Relaxation.h"
#include "util/StateArchive.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace granular {

namespace {

/// Gap below which a pair is a candidate: plain CD's margin plus what the shrinking cell can close in
/// one step (Lambda l dt, with Lambda's most compressive rate at most (P_ext + |sigma - P_in 1|) dt / M_lambda
/// more compressive than now).
double pressureMargin(const World& world, double dt, double relativeMargin, const PressureSettings& coupling)
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

ConstantPressureStepper::ConstantPressureStepper(const Settings& settings) : random_(settings.seed)
{
    configure(settings);
}

void ConstantPressureStepper::configure(const Settings& settings)
{
    solver_ = settings.solver;
    contact_ = settings.contact;
    pressure_ = settings.pressure;
}

StepDiagnostics ConstantPressureStepper::step(World& world)
{
    if (!world.cell) {
        throw std::logic_error("cd_pressure needs a periodic cell (setup periodic)");
    }
    StepDiagnostics diagnostics;
    const double dt = solver_.dt;
    {
        const StageTimer timer(diagnostics, StepStage::Contacts);
        detection_.update(world, pressureMargin(world, dt, contact_.margin, pressure_));
    }
    {
        const StageTimer timer(diagnostics, StepStage::Solve);
        const auto result = gaussSeidel_.solve(world, solver_, contact_, pressure_, random_);
        diagnostics.iterations = result.iterations;
        diagnostics.residual = result.residual;
        diagnostics.forceChange = result.forceChange;
    }
    {
        const StageTimer timer(diagnostics, StepStage::Integrate);
        PeriodicCell& cell = *world.cell;
        cell.strainRate = gaussSeidel_.strainRate();  // eq. 23
        cell.innerPressure = gaussSeidel_.innerPressure();
        cell.innerStress = gaussSeidel_.innerStress();
        const Mat3 map = cell.deform(dt);  // eq. 24
        auto& p = world.particles;
        for (std::size_t i = 0; i < p.size(); ++i) {
            p.velocity[i] = gaussSeidel_.motion().velocity(i);  // eq. 25
            p.angularVelocity[i] = gaussSeidel_.motion().angularVelocity(i);
            p.position[i] = cell.wrap(map * p.position[i] + dt * p.velocity[i]);  // eq. 26
        }
        world.bounds = cell.box();
        world.time += dt;
        ++world.steps;
    }
    {
        const StageTimer timer(diagnostics, StepStage::Observe);
        observer_.observe(world, contact_, diagnostics);
    }
    return diagnostics;
}

void ConstantPressureStepper::saveState(StateWriter& out) const
{
    out.put(random_.state());  // the sweep order; the cell and the warm-start forces are in the world
}

void ConstantPressureStepper::loadState(StateReader& in)
{
    random_.setState(in.get<std::array<std::uint64_t, 4>>());
}

bool ConstantPressureStepper::finished(const World& world) const
{
    return world.cell && world.steps > 0 && measureRelaxation(world, pressure_).below(pressure_.relaxThreshold);
}

}  // namespace granular
