#include "cd/PredictedMotion.h"

#include "model/World.h"
#include "util/Parallel.h"

namespace granular {

void PredictedMotion::predict(const World& world, double dt)
{
    const auto& p = world.particles;
    const std::size_t n = p.size();
    bodies_.resize(n);
    parallelFor(n, [&](std::size_t i) {
        PredictedBody& b = bodies_[i];
        b.linearResponse = dt / p.mass[i];
        b.angularResponse = dt / p.inertia[i];
        b.velocity = components(p.velocity[i] + dt * (world.gravity + p.externalForce[i] / p.mass[i]));
        b.angularVelocity = components(p.angularVelocity[i]);
    });
    if (world.piston) {
        const Piston& piston = *world.piston;
        piston_.response = dt / piston.mass;
        const double along =
            piston.appliedForce(world.time + dt) / piston.mass + world.gravity.dot(piston.plane.normal);
        piston_.velocity = piston.velocity + dt * along;
    }
}

Vec3 PredictedMotion::contactVelocity(const Contact& c) const
{
    const PredictedBody& b1 = bodies_[static_cast<std::size_t>(c.particle)];
    const Vec3 v1 = toVec3(b1.velocity) + toVec3(b1.angularVelocity).cross(c.lever1);
    switch (c.kind) {
    case ContactKind::Particle: {
        const PredictedBody& b0 = bodies_[static_cast<std::size_t>(c.partner)];
        return v1 - (toVec3(b0.velocity) + toVec3(b0.angularVelocity).cross(c.lever0));
    }
    case ContactKind::Piston:
        return v1 - piston_.velocity * c.normal;
    case ContactKind::Wall:
    case ContactKind::Drum:
        break;
    }
    return v1 - c.surfaceVelocity;
}

}  // namespace granular
