#include "md/ContactGeometry.h"

#include "model/World.h"

namespace granular::md {

void refreshGeometry(Contact& c, const World& world)
{
    const Particles& p = world.particles;
    const auto j = static_cast<std::size_t>(c.particle);
    const double r1 = p.radius[j];
    switch (c.kind) {
    case ContactKind::Particle: {
        const auto i = static_cast<std::size_t>(c.partner);
        Vec3 d = p.position[j] - p.position[i];
        if (world.cell) {
            d = world.cell->minimumImage(d);
        }
        const double distance = d.norm();
        if (distance > 0.0) {
            c.normal = d / distance;
        }
        c.gap = distance - p.radius[i] - r1;
        c.lever0 = p.radius[i] * c.normal;
        break;
    }
    case ContactKind::Wall: {
        const PlaneWall& wall = world.walls[static_cast<std::size_t>(c.partner)];
        c.normal = wall.normal;
        c.gap = wall.signedDistance(p.position[j]) - r1;
        break;
    }
    case ContactKind::Piston:
        c.normal = world.piston->plane.normal;
        c.gap = world.piston->plane.signedDistance(p.position[j]) - r1;
        break;
    case ContactKind::Drum: {
        const Drum& drum = *world.drum;
        const Vec3 fromAxis = p.position[j] - drum.centre;
        const Vec3 radial = fromAxis - fromAxis.dot(drum.axis) * drum.axis;
        const double distance = radial.norm();
        if (distance > 0.0) {
            c.normal = -radial / distance;
        }
        c.gap = drum.radius - distance - r1;
        break;
    }
    }
    c.lever1 = -r1 * c.normal;
    if (c.kind == ContactKind::Drum) {
        c.surfaceVelocity = world.drum->surfaceVelocity(p.position[j] + c.lever1);
    }
}

}  // namespace granular::md
