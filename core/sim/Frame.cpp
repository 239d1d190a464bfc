#include "sim/Frame.h"

#include "contact/ContactGeometry.h"
#include "model/World.h"

#include <algorithm>

namespace granular {

std::shared_ptr<const Frame> Frame::capture(const World& world)
{
    auto frame = std::make_shared<Frame>();
    frame->dimension = world.dimension;
    frame->time = world.time;
    frame->steps = world.steps;
    const auto& p = world.particles;
    frame->position.reserve(p.size());
    frame->velocity.reserve(p.size());
    frame->angularVelocity.reserve(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
        frame->position.emplace_back(p.position[i].cast<float>());
        frame->velocity.emplace_back(p.velocity[i].cast<float>());
        frame->angularVelocity.emplace_back(p.angularVelocity[i].cast<float>());
    }
    frame->radius.assign(p.radius.begin(), p.radius.end());
    for (const auto& wall : world.walls) {
        frame->walls.push_back({wall.name, wall.point, wall.normal, false});
    }
    if (world.piston) {
        frame->walls.push_back({world.piston->plane.name, world.piston->plane.point, world.piston->plane.normal, true});
    }
    frame->coordination.assign(p.size(), 0);
    frame->overlap.assign(p.size(), 0.0F);
    frame->deformation.assign(p.size(), 0.0F);
    const auto touch = [&frame](std::size_t i, double gap, double bulge) {
        ++frame->coordination[i];
        frame->overlap[i] = std::max(frame->overlap[i], static_cast<float>(-gap));
        frame->deformation[i] = std::max(frame->deformation[i], static_cast<float>(bulge));
    };
    std::vector<Vec3> forceSum(p.size(), Vec3::Zero());
    for (const granular::Contact& c : world.contacts) {
        forceSum[static_cast<std::size_t>(c.particle)] += c.force;
        if (c.kind == ContactKind::Particle) {
            forceSum[static_cast<std::size_t>(c.partner)] -= c.force;
        }
    }
    frame->forceSum.reserve(p.size());
    for (const Vec3& f : forceSum) {
        frame->forceSum.emplace_back(f.cast<float>());
    }
    for (const granular::Contact& c : world.contacts) {
        const double normalForce = c.force.dot(c.normal);
        if (normalForce <= 0.0) {
            continue;
        }
        // The overlap at the frame's positions: contact dynamics' candidate holds its gap from the detection before
        // the step moved the grains (a frame showed the overlaps of the row before).
        const double gap = separation(c, world).gap;
        touch(static_cast<std::size_t>(c.particle), gap, c.bulge[1]);
        if (c.kind == ContactKind::Particle) {
            touch(static_cast<std::size_t>(c.partner), gap, c.bulge[0]);
            // Rigid (CD) contacts may carry force across a small gap that the step closes: only bulges create one.
            const bool bulging = c.bulge[0] != 0.0 || c.bulge[1] != 0.0;
            const bool created = bulging && gap + c.bulge[0] + c.bulge[1] > 0.0;
            const double tangentialForce = (c.force - normalForce * c.normal).norm();
            frame->contacts.push_back(
                {c.partner, c.particle, static_cast<float>(normalForce), created, static_cast<float>(tangentialForce)});
        }
    }
    frame->bounds = world.bounds;
    if (world.cell) {
        frame->periodic = true;
        frame->bounds = world.cell->box();
        frame->cell = *world.cell;
    }
    if (world.drum) {
        frame->hasDrum = true;
        frame->drumCentre = world.drum->centre;
        frame->drumRadius = world.drum->radius;
        frame->drumAngle = world.drum->angle;
    }
    return frame;
}

std::optional<std::pair<Eigen::Vector3f, Eigen::Vector3f>> Frame::contactEnds(const Contact& c) const
{
    const auto i = static_cast<std::size_t>(c.first);
    const auto j = static_cast<std::size_t>(c.second);
    if (c.first < 0 || c.second < 0 || i >= position.size() || j >= position.size()) {
        return std::nullopt;
    }
    const Eigen::Vector3f& from = position[i];
    Eigen::Vector3f d = position[j] - from;
    if (periodic) {
        d = cell.minimumImage(d.cast<double>()).cast<float>();
    }
    return std::make_pair(from, Eigen::Vector3f(from + d));
}

}  // namespace granular
