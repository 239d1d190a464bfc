#include "cd/ContactStrips.h"

#include "util/ThreadTeam.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace granular {

void ContactStrips::cut(const std::vector<Contact>& contacts, const Particles& particles)
{
    const std::size_t count = contacts.size();
    place_.resize(count);
    stripOf_.resize(count);
    members_.resize(count);
    placeOf_.resize(count);
    // One parallel region, the contacts in one consecutive range per thread, four passes with the team's barriers
    // between them; what is merged across the ranges (minima, maxima, the first piston contact, counts per strip) is
    // the same whatever the ranges, so the strips are the same for any thread count.
    // Below kParallelCut contacts on one thread: four barriers cost as much as they save (piston2d's 2,212
    // contacts on two threads: 0.98x the contact updates/s of a cut on one, median of six alternating pairs).
    constexpr std::size_t kParallelCut = 8192;
    inThreadTeam(count >= kParallelCut ? count : 0, [&](const ThreadTeam& team) {
        const std::size_t threads = team.size();
        const std::size_t self = team.thread();
        const std::size_t first = count * self / threads;
        const std::size_t last = count * (self + 1) / threads;
        team.single([&] { ranges_.resize(threads); });
        RangeMeasures& mine = ranges_[self];
        mine.restart(count);
        // The axis: the piston's normal (its contacts' normals: the piston is flat), else the longest side of the
        // contact points' bounding box.
        Vec3 lowPoint = Vec3::Constant(std::numeric_limits<double>::infinity());
        Vec3 highPoint = -lowPoint;
        for (std::size_t k = first; k < last; ++k) {
            const Contact& c = contacts[k];
            if (c.kind == ContactKind::Piston) {
                mine.firstPiston = k;
                break;
            }
            const Vec3 point = particles.position[static_cast<std::size_t>(c.particle)] + c.lever1;
            lowPoint = lowPoint.cwiseMin(point);
            highPoint = highPoint.cwiseMax(point);
        }
        mine.lowPoint = lowPoint;
        mine.highPoint = highPoint;
        team.barrier();
        std::size_t firstPiston = count;
        for (const RangeMeasures& range : ranges_) {
            firstPiston = std::min(firstPiston, range.firstPiston);
            lowPoint = lowPoint.cwiseMin(range.lowPoint);
            highPoint = highPoint.cwiseMax(range.highPoint);
        }
        Vec3 axis = Vec3::UnitX();
        if (firstPiston < count) {
            axis = contacts[firstPiston].normal;
        } else if (count > 0) {
            Eigen::Index longest = 0;
            (highPoint - lowPoint).maxCoeff(&longest);
            axis = Vec3::Unit(longest);
        }
        measurePlaces(contacts, particles, axis, first, last, mine);
        team.barrier();
        team.single([&] { chooseStrips(count); });
        // A counting sort by strip (ascending contact index within a strip): each range counts its strips, then
        // places its contacts after those of the ranges before it.
        std::vector<std::uint32_t>& counts = mine.counts;
        counts.assign(strips(), 0);
        const std::size_t stripCount = strips();
        for (std::size_t k = first; k < last; ++k) {
            const std::uint32_t s = stripCount > 1 ? stripAt(place_[k]) : 0U;
            stripOf_[k] = s;
            ++counts[s];
        }
        team.barrier();
        team.single([&] { countMembers(); });
        std::vector<std::uint32_t>& next = mine.next;
        next.resize(stripCount);
        for (std::size_t s = 0; s < stripCount; ++s) {
            std::uint32_t place = start_[s];
            for (std::size_t r = 0; r < self; ++r) {
                place += ranges_[r].counts[s];
            }
            next[s] = place;
        }
        for (std::size_t k = first; k < last; ++k) {
            placeOf_[k] = next[stripOf_[k]]++;
            members_[placeOf_[k]] = static_cast<std::uint32_t>(k);
        }
    });
}

void ContactStrips::measurePlaces(const std::vector<Contact>& contacts, const Particles& particles, const Vec3& axis,
                                  std::size_t first, std::size_t last, RangeMeasures& measures)
{
    for (std::size_t k = first; k < last; ++k) {
        const Contact& c = contacts[k];
        const double particle = particles.position[static_cast<std::size_t>(c.particle)].dot(axis);
        place_[k] = particle + c.lever1.dot(axis);
        measures.low = std::min(measures.low, place_[k]);
        measures.high = std::max(measures.high, place_[k]);
        measures.reach = std::max(measures.reach, std::abs(particle - place_[k]));
        if (c.kind == ContactKind::Piston) {
            measures.pistonLowest = std::min(measures.pistonLowest, place_[k]);
            measures.pistonHighest = std::max(measures.pistonHighest, place_[k]);
        }
        if (c.kind == ContactKind::Particle) {
            // The partner's centre itself, not its lever: a candidate's grains may be a gap apart.
            const double partner = particles.position[static_cast<std::size_t>(c.partner)].dot(axis);
            measures.reach = std::max(measures.reach, std::abs(partner - place_[k]));
        }
    }
}

void ContactStrips::chooseStrips(std::size_t count)
{
    RangeMeasures all;
    for (const RangeMeasures& range : ranges_) {
        all.low = std::min(all.low, range.low);
        all.high = std::max(all.high, range.high);
        all.reach = std::max(all.reach, range.reach);
        all.pistonLowest = std::min(all.pistonLowest, range.pistonLowest);
        all.pistonHighest = std::max(all.pistonHighest, range.pistonHighest);
    }
    // Two contacts that share a grain lie at most 2 reach apart; a strip between them is wider than that.
    const double width = 2.0 * all.reach * (1.0 + 1e-9) + std::numeric_limits<double>::min();
    std::size_t strips = 1;
    if (count > 0 && std::isfinite(all.high - all.low) && all.high - all.low >= 2.0 * width) {
        strips = static_cast<std::size_t>(std::floor((all.high - all.low) / width));
    }
    low_ = all.low;
    width_ = width;
    start_.assign(strips + 1, 0);  // strips() from here on
    // The piston's contacts in at most two neighbouring strips (one of each parity), else one strip for all (stripAt
    // keeps the order of places, so the extreme places give the extreme strips).
    if (strips > 1 && all.pistonLowest <= all.pistonHighest &&
        stripAt(all.pistonHighest) > stripAt(all.pistonLowest) + 1) {
        start_.assign(2, 0);
    }
    if (this->strips() == 1) {
        width_ = 0.0;
    }
}

std::uint32_t ContactStrips::stripAt(double place) const
{
    const double s = std::floor((place - low_) / width_);
    return static_cast<std::uint32_t>(std::min(static_cast<double>(strips() - 1), std::max(0.0, s)));
}

void ContactStrips::countMembers()
{
    const std::size_t count = strips();
    for (std::size_t s = 0; s < count; ++s) {
        for (const RangeMeasures& range : ranges_) {
            start_[s + 1] += range.counts[s];
        }
    }
    largest_ = 0;
    for (std::size_t s = 0; s < count; ++s) {
        largest_ = std::max<std::size_t>(largest_, start_[s + 1]);
        start_[s + 1] += start_[s];
    }
    offset_.resize(count);
    parityCount_ = {0, 0};
    for (std::size_t s = 0; s < count; ++s) {
        offset_[s] = parityCount_[s % 2];
        parityCount_[s % 2] += size(s);
    }
}

std::pair<std::size_t, std::size_t> ContactStrips::share(std::size_t parity, std::size_t from, std::size_t to) const
{
    const std::size_t count = strips();
    // The first strip of the parity whose middle lies at or after `unit` (in half contacts: no rounding).
    const auto at = [&](std::size_t unit) {
        std::size_t k = parity;
        while (k < count && 2 * offset_[k] + size(k) < 2 * unit) {
            k += 2;
        }
        return std::min(k, count);
    };
    const std::size_t first = from == 0 ? std::min(parity, count) : at(from);
    const std::size_t end = to >= parityCount_[parity] ? count : at(to);
    return {first, std::max(first, end)};
}

}  // namespace granular
