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
        b.inverseMass = 1.0 / p.mass[i];
        b.inverseInertia = 1.0 / p.inertia[i];
        b.velocity = p.velocity[i] + dt * (world.gravity + p.externalForce[i] * b.inverseMass);
        b.angularVelocity = p.angularVelocity[i];
    });
    if (world.piston) {
        const Piston& piston = *world.piston;
        pistonInverseMass_ = 1.0 / piston.mass;
        const double along =
            piston.appliedForce(world.time + dt) * pistonInverseMass_ + world.gravity.dot(piston.plane.normal);
        pistonVelocity_ = piston.velocity + dt * along;
    }
}

}  // namespace granular
