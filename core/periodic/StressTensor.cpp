#include "periodic/StressTensor.h"

#include "model/World.h"

namespace granular {

Eigen::Matrix3d stressTensor(const World& world)
{
    const auto& p = world.particles;
    Eigen::Matrix3d sum = Eigen::Matrix3d::Zero();
    for (const Contact& c : world.contacts) {
        if (c.kind != ContactKind::Particle) {
            continue;
        }
        const auto i = static_cast<std::size_t>(c.partner);
        const auto j = static_cast<std::size_t>(c.particle);
        const Vec3 l = (p.radius[i] + p.radius[j] + c.gap) * c.normal;
        sum += c.force * l.transpose();
    }
    for (std::size_t i = 0; i < p.size(); ++i) {
        sum += p.mass[i] * p.velocity[i] * p.velocity[i].transpose();
    }
    return sum / world.cell->volume();
}

double stressPressure(const World& world)
{
    return stressTensor(world).trace() / static_cast<double>(world.dimension);
}

}  // namespace granular
