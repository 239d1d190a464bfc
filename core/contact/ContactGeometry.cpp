#include "contact/ContactGeometry.h"

#include "model/World.h"

namespace granular {

Separation separation(const Contact& c, const World& world)
{
    const Particles& p = world.particles;
    const auto j = static_cast<std::size_t>(c.particle);
    const double r1 = p.radius[j];
    Separation s;
    switch (c.kind) {
    case ContactKind::Particle: {
        const auto i = static_cast<std::size_t>(c.partner);
        Vec3 d = p.position[j] - p.position[i];
        if (world.cell) {
            d = world.cell->minimumImage(d);
        }
        const double distance = d.norm();
        s.hasNormal = distance > 0.0;
        if (s.hasNormal) {
            s.normal = d / distance;
        }
        s.gap = distance - p.radius[i] - r1;
        break;
    }
    case ContactKind::Wall: {
        const PlaneWall& wall = world.walls[static_cast<std::size_t>(c.partner)];
        s.normal = wall.normal;
        s.gap = wall.signedDistance(p.position[j]) - r1;
        break;
    }
    case ContactKind::Piston:
        s.normal = world.piston->plane.normal;
        s.gap = world.piston->plane.signedDistance(p.position[j]) - r1;
        break;
    case ContactKind::Drum: {
        const Drum& drum = *world.drum;
        const Vec3 fromAxis = p.position[j] - drum.centre;
        const Vec3 radial = fromAxis - fromAxis.dot(drum.axis) * drum.axis;
        const double distance = radial.norm();
        s.hasNormal = distance > 0.0;
        if (s.hasNormal) {
            s.normal = -radial / distance;  // from the drum's surface towards its axis
        }
        s.gap = drum.radius - distance - r1;
        break;
    }
    }
    return s;
}

void refreshGeometry(Contact& c, const World& world)
{
    const Separation s = separation(c, world);
    if (s.hasNormal) {
        c.normal = s.normal;
    }
    c.gap = s.gap;
    const Particles& p = world.particles;
    if (c.kind == ContactKind::Particle) {
        c.lever0 = p.radius[static_cast<std::size_t>(c.partner)] * c.normal;
    }
    c.lever1 = -p.radius[static_cast<std::size_t>(c.particle)] * c.normal;
    if (c.kind == ContactKind::Drum) {
        c.surfaceVelocity = world.drum->surfaceVelocity(p.position[static_cast<std::size_t>(c.particle)] + c.lever1);
    }
}

}  // namespace granular
