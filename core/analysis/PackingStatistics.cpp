#include "analysis/PackingStatistics.h"

#include "model/World.h"

#include <algorithm>
#include <vector>

namespace granular::analysis {

double volumeFraction(const World& world)
{
    double solid = 0.0;
    for (const double r : world.particles.radius) {
        solid += particleMass(r, 1.0, world.dimension);  // unit density: the volume (2D: area)
    }
    double volume = 0.0;
    if (world.cell) {
        volume = world.cell->volume();
    } else {
        const Vec3 size = world.bounds.sizes();
        volume = world.dimension == 2 ? size.x() * size.y() : size.prod();
    }
    return volume > 0.0 ? solid / volume : 0.0;
}

PackingStatistics packingStatistics(const World& world)
{
    const auto& p = world.particles;
    PackingStatistics stats;
    stats.volumeFraction = volumeFraction(world);
    std::vector<int> contactsOf(p.size(), 0);
    double overlapSum = 0.0;
    for (const Contact& c : world.contacts) {
        if (c.kind != ContactKind::Particle || c.force.dot(c.normal) <= 0.0) {
            continue;
        }
        const auto i = static_cast<std::size_t>(c.partner);
        const auto j = static_cast<std::size_t>(c.particle);
        ++contactsOf[i];
        ++contactsOf[j];
        ++stats.contacts;
        Vec3 d = p.position[j] - p.position[i];
        if (world.cell) {
            d = world.cell->minimumImage(d);
        }
        const double overlap = std::max(0.0, p.radius[i] + p.radius[j] - d.norm());
        overlapSum += overlap;
        stats.maxOverlap = std::max(stats.maxOverlap, overlap);
    }
    if (stats.contacts > 0) {
        stats.meanOverlap = overlapSum / static_cast<double>(stats.contacts);
    }
    stats.rattlers = std::count(contactsOf.begin(), contactsOf.end(), 0);
    const auto grains = static_cast<std::int64_t>(p.size());
    if (grains > 0) {
        stats.coordination = 2.0 * static_cast<double>(stats.contacts) / static_cast<double>(grains);
    }
    if (grains > stats.rattlers) {
        stats.coordinationWithoutRattlers =
            2.0 * static_cast<double>(stats.contacts) / static_cast<double>(grains - stats.rattlers);
    }
    return stats;
}

}  // namespace granular::analysis
