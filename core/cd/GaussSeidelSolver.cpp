#include "cd/GaussSeidelSolver.h"

#include "cd/ShockLaw.h"
#include "cd/SweepConvergence.h"
#include "contact/ContactVelocity.h"
#include "model/World.h"
#include "util/Random.h"

#include <algorithm>
#include <cmath>

namespace granular {

void GaussSeidelSolver::predictFreeMotion(const World& world, double dt)
{
    const auto& p = world.particles;
    const std::size_t n = p.size();
    velocity_.resize(n);
    angularVelocity_.resize(n);
    inverseMass_.resize(n);
    inverseInertia_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        inverseMass_[i] = 1.0 / p.mass[i];
        inverseInertia_[i] = 1.0 / p.inertia[i];
        velocity_[i] = p.velocity[i] + dt * (world.gravity + p.externalForce[i] * inverseMass_[i]);
        angularVelocity_[i] = p.angularVelocity[i];
    }
    if (world.piston) {
        const Piston& piston = *world.piston;
        pistonInverseMass_ = 1.0 / piston.mass;
        const double along =
            piston.appliedForce(world.time + dt) * pistonInverseMass_ + world.gravity.dot(piston.plane.normal);
        pistonVelocity_ = piston.velocity + dt * along;
    }
}

void GaussSeidelSolver::applyImpulse(const Contact& c, const Vec3& dR, double dt)
{
    const auto j = static_cast<std::size_t>(c.particle);
    velocity_[j] += (dt * inverseMass_[j]) * dR;
    angularVelocity_[j] += (dt * inverseInertia_[j]) * c.lever1.cross(dR);
    if (c.kind == ContactKind::Particle) {
        const auto i = static_cast<std::size_t>(c.partner);
        velocity_[i] -= (dt * inverseMass_[i]) * dR;
        angularVelocity_[i] -= (dt * inverseInertia_[i]) * c.lever0.cross(dR);
    } else if (c.kind == ContactKind::Piston) {
        pistonVelocity_ -= dt * pistonInverseMass_ * dR.dot(c.normal);
    }
}

GaussSeidelSolver::Result GaussSeidelSolver::solve(World& world, const SolverSettings& settings, Random& random)
{
    const double dt = settings.dt;
    predictFreeMotion(world, dt);
    auto& contacts = world.contacts;
    for (const Contact& c : contacts) {
        applyImpulse(c, c.force, dt);  // warm start: the previous step's forces
    }
    Result result;
    const std::size_t count = contacts.size();
    if (count == 0) {
        return result;
    }
    resetSweepOrder(order_, count);
    SweepConvergence convergence(contacts, settings.forceCutoff);

    while (result.iterations < settings.iterations) {
        shuffleSweepOrder(order_, random);
        for (const std::uint32_t a : order_) {
            Contact& c = contacts[a];
            const Vec3 U =
                freeRelativeVelocity(c, contactPointVelocity(c, velocity_, angularVelocity_, pistonVelocity_), dt);
            const double mu = settings.frictionFor(c.kind == ContactKind::Particle);
            const Vec3 R = shockLaw(U, c.normal, c.gap, c.normalMass, c.tangentialMass, mu, dt);
            const Vec3 dR = R - c.force;
            applyImpulse(c, dR, dt);
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
