#include "md/MaterialModel.h"

#include <cmath>
#include <numbers>

namespace granular::md {

MaterialModel materialModelFrom(const Settings& settings)
{
    MaterialModel m;
    m.law = settings.material.law;
    m.grainStiffness = settings.material.stiffness;
    m.restitution = settings.material.restitution;
    m.youngModulus = settings.material.youngModulus;
    m.poissonRatio = settings.material.poissonRatio;
    m.tangentialRatio = settings.material.tangentialRatio;
    m.friction = settings.contact.friction;
    const double wallFriction = settings.contact.wallFriction;
    m.wallFriction = wallFriction < 0.0 ? m.friction : wallFriction;
    m.cdTimeStep = settings.solver.dt;
    m.cdIterations = settings.solver.iterations;
    return m;
}

double linearDampingRatio(double restitution)
{
    if (restitution <= 0.0) {
        return 1.0;
    }
    if (restitution >= 1.0) {
        return 0.0;
    }
    const double logE = std::log(restitution);
    return -logE / std::sqrt(std::numbers::pi * std::numbers::pi + logE * logE);
}

}  // namespace granular::md
