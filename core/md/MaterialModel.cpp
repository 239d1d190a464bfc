#include "md/MaterialModel.h"

#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "scenario/Value.h"

#include <cmath>
#include <numbers>

namespace granular::md {

MaterialModel materialModelFrom(const Scenario& scenario)
{
    MaterialModel m;
    m.law = scenario.text("material.law") == "hertz" ? NormalLaw::Hertz : NormalLaw::Linear;
    m.grainStiffness = scenario.real("material.stiffness");
    m.restitution = scenario.real("material.restitution");
    m.youngModulus = scenario.real("material.young_modulus");
    m.poissonRatio = scenario.real("material.poisson_ratio");
    m.tangentialRatio = scenario.real("material.tangential_ratio");
    m.friction = scenario.real("contact.friction");
    const double wallFriction = scenario.real("contact.wall_friction");
    m.wallFriction = wallFriction < 0.0 ? m.friction : wallFriction;
    m.cdTimeStep = scenario.real("solver.dt");
    m.cdIterations = scenario.integer("solver.iterations");
    if (m.restitution < 0.0 && m.restitution != -1.0) {
        throw ScenarioError("material.restitution: " + formatValue(m.restitution) +
                            " is out of range; accepted: a real number in [0, 1], or -1 for the CD-equivalent damping");
    }
    if (m.law == NormalLaw::Hertz && m.cdEquivalentDamping()) {
        throw ScenarioError(
            "material.restitution: -1 (CD-equivalent damping) exists for the linear law only; accepted: "
            "a real number in [0, 1] with material.law = hertz");
    }
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
