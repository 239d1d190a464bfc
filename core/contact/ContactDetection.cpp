#include "contact/ContactDetection.h"

#include "contact/ContactGeometry.h"
#include "model/World.h"
#include "util/Parallel.h"

#include <algorithm>
#include <cmath>

namespace granular {

namespace {

double tangentialTerm(const Particles& p, std::size_t i)
{
    return 1.0 / p.mass[i] + p.radius[i] * p.radius[i] / p.inertia[i];
}

/// Appends the candidate between grain `particle` and the wall-like body (kind, index), with the normal effective
/// mass normalMass(grain mass) (eq. 17). Out of line: most grains are far from most walls (addBoundaryContact).
template <class NormalMass>
[[gnu::noinline]] void appendBoundaryContact(std::vector<Contact>& out, const World& world, ContactKind kind,
                                             std::int32_t index, std::int32_t particle, const NormalMass& normalMass)
{
    Contact c;
    c.kind = kind;
    c.partner = index;
    c.particle = particle;
    refreshGeometry(c, world);
    const auto j = static_cast<std::size_t>(particle);
    const Particles& p = world.particles;
    c.normalMass = normalMass(p.mass[j]);
    c.tangentialMass = 1.0 / tangentialTerm(p, j);
    out.push_back(c);
}

/// Appends the candidate between grain `particle` and the wall-like body (kind, index) when its gap is below the
/// margin (appendBoundaryContact). The gap test inline, in the loop over the grains (a call per grain and wall was
/// ~5 % of the coloured sweep's step on the packing, most of them for a grain far from the wall).
template <class NormalMass>
[[gnu::always_inline]] inline void addBoundaryContact(std::vector<Contact>& out, const World& world, ContactKind kind,
                                                      std::int32_t index, std::int32_t particle, double margin,
                                                      const NormalMass& normalMass)
{
    const Separation s = separation(kind, index, particle, world);
    if (!(s.gap >= margin) && s.hasNormal) {  // a gap that is not a number too: the blow-up guard reports it
        appendBoundaryContact(out, world, kind, index, particle, normalMass);
    }
}

}  // namespace

double candidateMargin(const World& world, double dt, double relativeMargin)
{
    const auto& p = world.particles;
    // Maxima on the solver threads (the same for any order); the smallest radius as the largest negative one.
    const Vec3* velocity = p.velocity.data();
    const Vec3* angularVelocity = p.angularVelocity.data();
    const Vec3* externalForce = p.externalForce.data();
    const double* mass = p.mass.data();
    const double* radius = p.radius.data();
    // A body's speed at the step's end, as far as the forces known before the step take it: its speed now, and what
    // an applied force adds over dt (|F| dt / m; gravity below). Contact forces only push bodies apart.
    double fastest = parallelMaximum(p.size(), 0.0, [=](std::size_t i) {
        const double push = externalForce[i].norm() / mass[i] * dt;  // 0 for a grain of infinite mass
        return velocity[i].norm() + angularVelocity[i].norm() * radius[i] + push;
    });
    const double smallest =
        p.size() > 0 ? -parallelMaximum(p.size(), -p.radius[0], [=](std::size_t i) { return -radius[i]; }) : 0.0;
    if (world.piston) {
        const Piston& piston = *world.piston;
        // A free piston is pushed by its applied force; a driven plate follows its program whatever the force.
        const double push = piston.drive ? 0.0
                                         : std::max(std::fabs(piston.appliedForce(world.time)),
                                                    std::fabs(piston.appliedForce(world.time + dt))) /
                                               piston.mass * dt;
        fastest = std::max(fastest, std::fabs(piston.velocity) + push);
    }
    if (world.drum) {
        fastest = std::max(fastest, std::fabs(world.drum->angularVelocity) * world.drum->radius);
    }
    // Gravity adds at most |g| dt^2 per step; 2x covers two bodies closing in.
    return relativeMargin * smallest + 2.0 * (fastest * dt + world.gravity.norm() * dt * dt);
}

void ContactDetection::update(World& world, double margin)
{
    const Particles& p = world.particles;
    if (world.cell) {
        cells_.findPeriodicPairs(p, *world.cell, margin, pairs_);
    } else {
        pairList_.findPairs(p, world.bounds, world.dimension, margin, pairs_);
    }
    // Each grain's 1/m and 1/m + r^2/I once (the same numbers as per pair, with a division per grain instead of
    // four per pair).
    const std::size_t n = p.size();
    inverseMass_.resize(n);
    tangentialTerm_.resize(n);
    parallelFor(n, [&](std::size_t i) {
        inverseMass_[i] = 1.0 / p.mass[i];
        tangentialTerm_[i] = tangentialTerm(p, i);
    });
    // Both lists are sorted by key: a merge carries each surviving candidate's force over, the grain pairs' in the
    // pass that makes them (in ranges on the threads), the boundary contacts' after they are appended. The last
    // update's entries are overwritten on the threads (a resize from empty would construct them all on this one).
    const std::vector<Contact>& old = world.contacts;
    const auto carryForces = [&old](std::vector<Contact>& fresh, std::size_t begin, std::size_t end, const auto& make) {
        const auto keyBelow = [](const Contact& a, std::uint64_t key) { return a.key() < key; };
        parallelRanges(end - begin, [&](std::size_t first, std::size_t last) {
            auto previous = old.end();
            for (std::size_t k = begin + first; k < begin + last; ++k) {
                Contact& c = fresh[k];
                make(k, c);
                const std::uint64_t key = c.key();
                if (k == begin + first) {
                    previous = std::lower_bound(old.begin(), old.end(), key, keyBelow);
                }
                while (previous != old.end() && previous->key() < key) {
                    ++previous;
                }
                if (previous != old.end() && previous->key() == key) {
                    c.force = previous->force;
                }
            }
        });
    };
    next_.resize(pairs_.size());
    carryForces(next_, 0, pairs_.size(), [&](std::size_t k, Contact& c) {
        const auto [i, j] = pairs_[k];
        const auto si = static_cast<std::size_t>(i);
        const auto sj = static_cast<std::size_t>(j);
        c = Contact{};
        c.kind = ContactKind::Particle;
        c.partner = i;
        c.particle = j;
        c.normal = Vec3::UnitY();  // kept when the centres coincide
        refreshGeometry(c, world);
        c.normalMass = 1.0 / (inverseMass_[si] + inverseMass_[sj]);
        c.tangentialMass = 1.0 / (tangentialTerm_[si] + tangentialTerm_[sj]);
    });
    // m_n against a body of infinite mass is m; walls compute it as 1/(1/m), which may differ in the last
    // bit, and keep doing so for bit-identical series.
    const auto onWall = [](double m) { return 1.0 / (1.0 / m); };
    const auto onDrum = [](double m) { return m; };
    // Grain by grain on the solver threads, appended in grain order: sorted by key as the loops of one thread.
    if (!world.walls.empty()) {
        // The walls, positions and radii through local copies of their addresses, the gaps as separation's (through
        // `world`, with the append a call the compiler cannot see into, it reloaded the walls' vector at every test:
        // the loop over 20,000 grains and 6 walls was ~6 % of a one-thread step of the packing).
        const PlaneWall* walls = world.walls.data();
        const std::size_t wallCount = world.walls.size();
        const Vec3* position = p.position.data();
        const double* radius = p.radius.data();
        appendInOrder(n, next_, blockContacts_,
                      [&, walls, wallCount, position, radius, margin](std::size_t j, std::vector<Contact>& out) {
                          const Vec3 x = position[j];
                          const double r = radius[j];
                          for (std::size_t w = 0; w < wallCount; ++w) {
                              if (!(wallGap(walls[w], x, r) >= margin)) {  // as addBoundaryContact's test
                                  appendBoundaryContact(out, world, ContactKind::Wall, static_cast<std::int32_t>(w),
                                                        static_cast<std::int32_t>(j), onWall);
                              }
                          }
                      });
    }
    if (world.piston) {
        const auto onPiston = [inverse = 1.0 / world.piston->mass](double m) { return 1.0 / (1.0 / m + inverse); };
        appendInOrder(n, next_, blockContacts_, [&](std::size_t j, std::vector<Contact>& out) {
            addBoundaryContact(out, world, ContactKind::Piston, 0, static_cast<std::int32_t>(j), margin, onPiston);
        });
    }
    if (world.drum) {
        appendInOrder(n, next_, blockContacts_, [&](std::size_t j, std::vector<Contact>& out) {
            addBoundaryContact(out, world, ContactKind::Drum, 0, static_cast<std::int32_t>(j), margin, onDrum);
        });
    }
    carryForces(next_, pairs_.size(), next_.size(), [](std::size_t /*k*/, Contact& /*c*/) {});
    world.contacts.swap(next_);
}

}  // namespace granular
