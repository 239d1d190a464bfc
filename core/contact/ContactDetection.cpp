#include "contact/ContactDetection.h"

#include "model/World.h"

#include <algorithm>
#include <cmath>

namespace granular {

namespace {

double tangentialTerm(const Particles& p, std::size_t i)
{
    return 1.0 / p.mass[i] + p.radius[i] * p.radius[i] / p.inertia[i];
}

void addPlaneContact(std::vector<Contact>& out, const Particles& p, const PlaneWall& plane, ContactKind kind,
                     std::int32_t index, std::int32_t particle, double margin, double partnerInverseMass)
{
    const auto j = static_cast<std::size_t>(particle);
    const double gap = plane.signedDistance(p.position[j]) - p.radius[j];
    if (gap >= margin) {
        return;
    }
    Contact c;
    c.kind = kind;
    c.partner = index;
    c.particle = particle;
    c.normal = plane.normal;
    c.lever1 = -p.radius[j] * plane.normal;
    c.gap = gap;
    c.normalMass = 1.0 / (1.0 / p.mass[j] + partnerInverseMass);
    c.tangentialMass = 1.0 / tangentialTerm(p, j);
    out.push_back(c);
}

void addDrumContact(std::vector<Contact>& out, const Particles& p, const Drum& drum, std::int32_t particle,
                    double margin)
{
    const auto j = static_cast<std::size_t>(particle);
    const Vec3 fromAxis = p.position[j] - drum.centre;
    const Vec3 radial = fromAxis - fromAxis.dot(drum.axis) * drum.axis;
    const double distance = radial.norm();
    const double gap = drum.radius - distance - p.radius[j];
    if (gap >= margin || distance == 0.0) {
        return;
    }
    Contact c;
    c.kind = ContactKind::Drum;
    c.partner = 0;
    c.particle = particle;
    c.normal = -radial / distance;  // from the drum's surface towards its axis
    c.lever1 = -p.radius[j] * c.normal;
    c.surfaceVelocity = drum.surfaceVelocity(p.position[j] + c.lever1);
    c.gap = gap;
    c.normalMass = p.mass[j];
    c.tangentialMass = 1.0 / tangentialTerm(p, j);
    out.push_back(c);
}

}  // namespace

double candidateMargin(const World& world, double dt, double relativeMargin)
{
    const auto& p = world.particles;
    double smallest = p.size() > 0 ? p.radius[0] : 0.0;
    double fastest = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        smallest = std::min(smallest, p.radius[i]);
        fastest = std::max(fastest, p.velocity[i].norm() + p.angularVelocity[i].norm() * p.radius[i]);
    }
    if (world.piston) {
        fastest = std::max(fastest, std::fabs(world.piston->velocity));
    }
    if (world.drum) {
        fastest = std::max(fastest, std::fabs(world.drum->angularVelocity) * world.drum->radius);
    }
    // Gravity and the applied forces add at most |a| dt^2 per step; 2x covers two bodies closing in.
    return relativeMargin * smallest + 2.0 * (fastest * dt + world.gravity.norm() * dt * dt);
}

void ContactDetection::update(World& world, double margin)
{
    const Particles& p = world.particles;
    next_.clear();
    if (world.cell) {
        cells_.findPeriodicPairs(p, *world.cell, margin, pairs_);
    } else {
        cells_.findPairs(p, world.bounds, world.dimension, margin, pairs_);
    }
    for (const auto& [i, j] : pairs_) {
        const auto si = static_cast<std::size_t>(i);
        const auto sj = static_cast<std::size_t>(j);
        Vec3 d = p.position[sj] - p.position[si];
        if (world.cell) {
            d = world.cell->minimumImage(d);  // seed 003 eq. 21
        }
        const double distance = d.norm();
        Contact c;
        c.kind = ContactKind::Particle;
        c.partner = i;
        c.particle = j;
        c.normal = distance > 0.0 ? Vec3(d / distance) : Vec3::UnitY();
        c.lever0 = p.radius[si] * c.normal;
        c.lever1 = -p.radius[sj] * c.normal;
        c.gap = distance - p.radius[si] - p.radius[sj];
        c.normalMass = 1.0 / (1.0 / p.mass[si] + 1.0 / p.mass[sj]);
        c.tangentialMass = 1.0 / (tangentialTerm(p, si) + tangentialTerm(p, sj));
        next_.push_back(c);
    }
    const auto n = static_cast<std::int32_t>(p.size());
    for (std::int32_t j = 0; j < n; ++j) {
        for (std::size_t w = 0; w < world.walls.size(); ++w) {
            addPlaneContact(next_, p, world.walls[w], ContactKind::Wall, static_cast<std::int32_t>(w), j, margin, 0.0);
        }
    }
    if (world.piston) {
        for (std::int32_t j = 0; j < n; ++j) {
            addPlaneContact(next_, p, world.piston->plane, ContactKind::Piston, 0, j, margin, 1.0 / world.piston->mass);
        }
    }
    if (world.drum) {
        for (std::int32_t j = 0; j < n; ++j) {
            addDrumContact(next_, p, *world.drum, j, margin);
        }
    }
    // Both lists are sorted by key: a merge carries each surviving candidate's force over.
    auto previous = world.contacts.begin();
    for (Contact& c : next_) {
        const std::uint64_t key = c.key();
        while (previous != world.contacts.end() && previous->key() < key) {
            ++previous;
        }
        if (previous != world.contacts.end() && previous->key() == key) {
            c.force = previous->force;
        }
    }
    world.contacts.swap(next_);
}

}  // namespace granular
