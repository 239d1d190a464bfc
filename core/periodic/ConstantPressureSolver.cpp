#include "periodic/ConstantPressureSolver.h"

#include "cd/ShockLaw.h"
#include "cd/SweepConvergence.h"
#include "contact/ContactVelocity.h"
#include "model/World.h"
#include "util/Random.h"

#include <algorithm>
#include <cmath>

namespace granular {

void ConstantPressureSolver::predictFreeMotion(const World& world, double dt)
{
    const auto& p = world.particles;
    const std::size_t n = p.size();
    velocity_.resize(n);
    angularVelocity_.resize(n);
    mass_.assign(p.mass.begin(), p.mass.end());
    inverseMass_.resize(n);
    inverseInertia_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        inverseMass_[i] = 1.0 / p.mass[i];
        inverseInertia_[i] = 1.0 / p.inertia[i];
        velocity_[i] = p.velocity[i] + dt * (world.gravity + p.externalForce[i] * inverseMass_[i]);
        angularVelocity_[i] = p.angularVelocity[i];
    }
}

void ConstantPressureSolver::applyImpulse(const Contact& c, const Vec3& dR, double dt)
{
    const auto j = static_cast<std::size_t>(c.particle);
    const auto i = static_cast<std::size_t>(c.partner);
    velocity_[j] += (dt * inverseMass_[j]) * dR;
    angularVelocity_[j] += (dt * inverseInertia_[j]) * c.lever1.cross(dR);
    velocity_[i] -= (dt * inverseMass_[i]) * dR;
    angularVelocity_[i] -= (dt * inverseInertia_[i]) * c.lever0.cross(dR);
}

double ConstantPressureSolver::kineticVirial() const
{
    double sum = 0.0;
    for (std::size_t i = 0; i < velocity_.size(); ++i) {
        sum += mass_[i] * velocity_[i].squaredNorm();
    }
    return sum;
}

void ConstantPressureSolver::updateExpectations(double dt, const PressureCoupling& coupling)
{
    expectedInnerPressure_ = pressureScale_ * virial_;  // eq. 27 / 32
    expectedDilationRate_ =
        dilationRate0_ + (expectedInnerPressure_ - coupling.externalPressure) * dt / coupling.inertia;  // eq. 28
}

ConstantPressureSolver::Result ConstantPressureSolver::solve(World& world, const SolverSettings& settings,
                                                             const PressureCoupling& coupling, Random& random)
{
    const double dt = settings.dt;
    const PeriodicCell& cell = *world.cell;
    const bool fullyImplicit = coupling.variant == PressureVariant::FullyImplicit;
    predictFreeMotion(world, dt);
    pressureScale_ = 1.0 / (static_cast<double>(cell.dimension) * cell.volume());
    dilationRate0_ = cell.dilationRate;

    // The partially implicit variant keeps the old velocities' term of eq. 32, sum_i m_i v_i(t) . v_i(t),
    // for the whole step.
    virial_ = 0.0;
    if (!fullyImplicit) {
        for (std::size_t i = 0; i < world.particles.size(); ++i) {
            virial_ += mass_[i] * world.particles.velocity[i].squaredNorm();
        }
    }
    auto& contacts = world.contacts;
    const std::size_t count = contacts.size();
    branch_.resize(count);
    for (std::size_t k = 0; k < count; ++k) {
        const Contact& c = contacts[k];
        const auto i = static_cast<std::size_t>(c.partner);
        const auto j = static_cast<std::size_t>(c.particle);
        branch_[k] = (world.particles.radius[i] + world.particles.radius[j] + c.gap) * c.normal;
        applyImpulse(c, c.force, dt);  // warm start: the previous step's forces
        virial_ += c.force.dot(branch_[k]);
    }
    if (fullyImplicit) {
        virial_ += kineticVirial();  // with the warm-started velocities v_i* (eq. 27)
    }
    updateExpectations(dt, coupling);  // the one full sum of the step; the sweeps only add increments

    Result result;
    if (count == 0) {
        return result;
    }
    resetSweepOrder(order_, count);
    SweepConvergence convergence(contacts, settings.forceCutoff);

    while (result.iterations < settings.iterations) {
        shuffleSweepOrder(order_, random);
        for (const std::uint32_t a : order_) {
            Contact& c = contacts[a];
            const auto i = static_cast<std::size_t>(c.partner);
            const auto j = static_cast<std::size_t>(c.particle);
            const Vec3& l = branch_[a];
            const Vec3 free = freeRelativeVelocity(c, contactPointVelocity(c, velocity_, angularVelocity_, 0.0), dt);
            // Eq. 29-31: the dilation of the cell adds lambda* l to the free relative velocity.
            const Vec3 R = shockLaw(free + expectedDilationRate_ * l, c.normal, c.gap, c.normalMass, c.tangentialMass,
                                    settings.frictionFor(true), dt);
            const Vec3 dR = R - c.force;
            if (fullyImplicit) {
                const double before = mass_[i] * velocity_[i].squaredNorm() + mass_[j] * velocity_[j].squaredNorm();
                applyImpulse(c, dR, dt);
                const double after = mass_[i] * velocity_[i].squaredNorm() + mass_[j] * velocity_[j].squaredNorm();
                virial_ += dR.dot(l) + (after - before);  // the three changed terms of eq. 27
            } else {
                applyImpulse(c, dR, dt);
                virial_ += dR.dot(l);  // the one changed term of eq. 32
            }
            updateExpectations(dt, coupling);
            c.force = R;
            convergence.record(R, dR);
        }
        ++result.iterations;
        result.residual = convergence.finishSweep(count, settings.criterion);
        if (settings.criterion != ConvergenceCriterion::Fixed && result.residual <= settings.tolerance) {
            break;
        }
    }
    return result;
}

}  // namespace granular
