#pragma once

#include "model/Contact.h"
#include "model/World.h"

namespace granular {

/// Where a candidate's two bodies are relative to each other at the current positions.
struct Separation {
    Vec3 normal = Vec3::UnitX();  ///< unit, from body 0 to body 1
    double gap = 0.0;             ///< m, surface distance (negative: overlap)
    bool hasNormal = true;        ///< false when the centres coincide (grains) or a grain sits on the drum's axis
};

/// m, the gap between a grain of radius r at x and a plane wall (negative: overlap).
[[nodiscard]] [[gnu::always_inline]] inline double wallGap(const PlaneWall& wall, const Vec3& x, double r)
{
    return wall.signedDistance(x) - r;
}

/// The gap and normal between grain `particle` (body 1) and body 0 of the given kind (`partner`: a grain or a wall's
/// index): grain-grain (minimum image in a periodic cell, Shaebani et al. 2009, eq. 21), grain-wall, grain-piston,
/// grain-drum. The one place where gaps are computed. Inline: the md and cd inner loops call it for every candidate
/// at every step.
[[nodiscard]] [[gnu::always_inline]] inline Separation separation(ContactKind kind, std::int32_t partner,
                                                                  std::int32_t particle, const World& world)
{
    const Particles& p = world.particles;
    const auto j = static_cast<std::size_t>(particle);
    const double r1 = p.radius[j];
    Separation s;
    switch (kind) {
    case ContactKind::Particle: {
        const auto i = static_cast<std::size_t>(partner);
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
        const PlaneWall& wall = world.walls[static_cast<std::size_t>(partner)];
        s.normal = wall.normal;
        s.gap = wallGap(wall, p.position[j], r1);
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

/// The same for a candidate.
[[nodiscard]] [[gnu::always_inline]] inline Separation separation(const Contact& c, const World& world)
{
    return separation(c.kind, c.partner, c.particle, world);
}

/// Recomputes the geometry of a candidate at the current positions: normal (kept when undefined), gap,
/// lever arms, and the surface velocity of the drum; the masses and the force are left as they are.
[[gnu::always_inline]] inline void refreshGeometry(Contact& c, const World& world)
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
