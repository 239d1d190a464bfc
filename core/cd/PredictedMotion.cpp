#include "cd/PredictedMotion.h"

#include "model/World.h"

namespace granular {

void PredictedMotion::predict(const World& world, double dt)
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

void PredictedMotion::applyImpulse(const Contact& c, const Vec3& dR, double dt)
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

}  // namespace granular
