#include "setup/PairSetup.h"

#include "settings/Settings.h"

#include <limits>

namespace granular {

void buildPairWorld(World& world, const Settings& s)
{
    const double r = s.particles.radiusMax;
    constexpr double infinite = std::numeric_limits<double>::infinity();
    auto& p = world.particles;
    p.add(Vec3::Zero(), r, s.particles.density, world.dimension);
    p.mass.back() = infinite;
    p.inertia.back() = infinite;
    p.add(Vec3(0.0, s.pair.height, 0.0), r, s.particles.density, world.dimension);
    Vec3 v = s.particles.velocity;
    if (world.dimension == 2) {
        v.z() = 0.0;
    }
    p.velocity.back() = v;
    if (s.pair.driven) {
        p.mass.back() = infinite;
        p.inertia.back() = infinite;
    }
    const double depth = world.dimension == 3 ? r : 0.0;
    world.bounds = Eigen::AlignedBox3d(Vec3(-r, -r, -depth), Vec3(r, s.pair.height + r, depth));
}

}  // namespace granular
