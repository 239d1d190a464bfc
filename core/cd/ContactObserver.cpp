#include "cd/ContactObserver.h"

#include "cd/CoulombLimit.h"
#include "contact/ContactGeometry.h"
#include "util/Parallel.h"

#include <algorithm>
#include <cstdint>

namespace granular {

namespace {

/// What a range of contacts counts: counts and a maximum, the same whatever the ranges.
struct ContactCounts {
    std::int64_t active = 0;
    std::int64_t sliding = 0;
    double maxOverlap = 0.0;  ///< m

    void merge(const ContactCounts& other)
    {
        active += other.active;
        sliding += other.sliding;
        maxOverlap = std::max(maxOverlap, other.maxOverlap);
    }
};

}  // namespace

void ContactObserver::observe(World& world, const ContactSettings& contact, StepDiagnostics& diagnostics)
{
    const std::vector<Contact>& contacts = world.contacts;
    shares_.resize(contacts.size());
    Shares* shares = shares_.data();
    const World& seen = world;
    ContactCounts start;
    start.maxOverlap = diagnostics.maxOverlap;
    const ContactCounts counts = parallelRangeReduce(
        contacts.size(), start,
        [&, shares](std::size_t first, std::size_t last) {
            ContactCounts range;
            range.maxOverlap = start.maxOverlap;
            for (std::size_t k = first; k < last; ++k) {
                const Contact& c = contacts[k];
                const double Rn = c.force.dot(c.normal);
                if (Rn <= 0.0) {
                    shares[k] = Shares{};
                    continue;
                }
                ++range.active;
                if (onCoulombLimit(c.force, c.normal, contact.frictionFor(c.kind == ContactKind::Particle))) {
                    ++range.sliding;
                }
                const double overlap = std::max(0.0, -separation(c, seen).gap);
                shares[k] = Shares{overlap, c.kind == ContactKind::Piston ? Rn : 0.0};
                range.maxOverlap = std::max(range.maxOverlap, overlap);
            }
            return range;
        },
        [](ContactCounts& into, const ContactCounts& from) { into.merge(from); });
    // In contact order: the zeros of the contacts without force change no sum (both sums start at +0 and add no -0).
    double overlapSum = 0.0;
    double pistonForce = 0.0;
    for (const Shares& s : shares_) {
        overlapSum += s.overlap;
        pistonForce += s.pistonForce;
    }
    diagnostics.contacts += counts.active;
    diagnostics.slidingContacts += counts.sliding;
    diagnostics.maxOverlap = counts.maxOverlap;
    if (diagnostics.contacts > 0) {
        diagnostics.meanOverlap = overlapSum / static_cast<double>(diagnostics.contacts);
    }
    if (world.piston) {
        world.piston->contactForce = pistonForce;
    }
    diagnostics.candidates = static_cast<std::int64_t>(contacts.size());
    diagnostics.contactUpdates = diagnostics.iterations * diagnostics.candidates;
}

}  // namespace granular
