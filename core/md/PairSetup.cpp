#include "md/PairSetup.h"

#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "scenario/Value.h"

#include <limits>

namespace granular {

void buildPairWorld(World& world, const Scenario& scenario)
{
    const double r = scenario.real("particles.radius_max");
    const double density = scenario.real("particles.density");
    const double height = scenario.real("pair.height");
    if (height < 2.0 * r * (1.0 - 1e-12)) {
        throw ScenarioError("pair.height: " + formatValue(height) + " m makes the grains overlap; accepted: >= " +
                            formatValue(2.0 * r) + " m (2 particles.radius_max)");
    }
    constexpr double infinite = std::numeric_limits<double>::infinity();
    auto& p = world.particles;
    p.add(Vec3::Zero(), r, density, world.dimension);
    p.mass.back() = infinite;
    p.inertia.back() = infinite;
    p.add(Vec3(0.0, height, 0.0), r, density, world.dimension);
    Vec3 v(scenario.real("particles.velocity.x"), scenario.real("particles.velocity.y"),
           scenario.real("particles.velocity.z"));
    if (world.dimension == 2) {
        v.z() = 0.0;
    }
    p.velocity.back() = v;
    if (scenario.boolean("pair.driven")) {
        p.mass.back() = infinite;
        p.inertia.back() = infinite;
    }
    const double depth = world.dimension == 3 ? r : 0.0;
    world.bounds = Eigen::AlignedBox3d(Vec3(-r, -r, -depth), Vec3(r, height + r, depth));
}

}  // namespace granular
