#include "model/Particles.h"

#include <numbers>

namespace granular {

double particleMass(double radius, double density, int dimension)
{
    const double pi = std::numbers::pi;
    return dimension == 2 ? density * pi * radius * radius : density * 4.0 / 3.0 * pi * radius * radius * radius;
}

double particleInertia(double mass, double radius, int dimension)
{
    return (dimension == 2 ? 0.5 : 0.4) * mass * radius * radius;
}

void Particles::add(const Vec3& x, double r, double density, int dimension)
{
    const double m = particleMass(r, density, dimension);
    position.emplace_back(x);
    velocity.emplace_back(Vec3::Zero());
    angularVelocity.emplace_back(Vec3::Zero());
    radius.push_back(r);
    mass.push_back(m);
    inertia.push_back(particleInertia(m, r, dimension));
    externalForce.emplace_back(Vec3::Zero());
}

}  // namespace granular
