#include "cd/ContactStrips.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace granular {

namespace {

/// The strips' axis: the piston's normal (its contacts' normals: the piston is flat), else the longest side of the
/// contact points' bounding box (one pass over the contacts either way).
Vec3 stripAxis(const std::vector<Contact>& contacts, const Particles& particles)
{
    Vec3 low = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 high = -low;
    for (const Contact& c : contacts) {
        if (c.kind == ContactKind::Piston) {
            return c.normal;
        }
        const Vec3 point = particles.position[static_cast<std::size_t>(c.particle)] + c.lever1;
        low = low.cwiseMin(point);
        high = high.cwiseMax(point);
    }
    Eigen::Index longest = 0;
    (high - low).maxCoeff(&longest);
    return Vec3::Unit(longest);
}

}  // namespace

void ContactStrips::cut(const std::vector<Contact>& contacts, const Particles& particles)
{
    const std::size_t count = contacts.size();
    const Vec3 axis = count > 0 ? stripAxis(contacts, particles) : Vec3::UnitX();
    place_.resize(count);
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    double reach = 0.0;  // m, the farthest a grain's centre lies from the place of one of its contacts along the axis
    double pistonLowest = std::numeric_limits<double>::infinity();  // m, the piston's contacts' places
    double pistonHighest = -pistonLowest;
    for (std::size_t k = 0; k < count; ++k) {
        const Contact& c = contacts[k];
        const double particle = particles.position[static_cast<std::size_t>(c.particle)].dot(axis);
        place_[k] = particle + c.lever1.dot(axis);
        low = std::min(low, place_[k]);
        high = std::max(high, place_[k]);
        reach = std::max(reach, std::abs(particle - place_[k]));
        if (c.kind == ContactKind::Piston) {
            pistonLowest = std::min(pistonLowest, place_[k]);
            pistonHighest = std::max(pistonHighest, place_[k]);
        }
        if (c.kind == ContactKind::Particle) {
            // The partner's centre itself, not its lever: a candidate's grains may be a gap apart.
            const double partner = particles.position[static_cast<std::size_t>(c.partner)].dot(axis);
            reach = std::max(reach, std::abs(partner - place_[k]));
        }
    }
    // Two contacts that share a grain lie at most 2 reach apart; a strip between them is wider than that.
    const double width = 2.0 * reach * (1.0 + 1e-9) + std::numeric_limits<double>::min();
    std::size_t strips = 1;
    if (count > 0 && std::isfinite(high - low) && high - low >= 2.0 * width) {
        strips = static_cast<std::size_t>(std::floor((high - low) / width));
    }
    stripOf_.resize(count);
    const auto stripAt = [&](double place) {
        const double s = std::floor((place - low) / width);
        return static_cast<std::uint32_t>(std::min(static_cast<double>(strips - 1), std::max(0.0, s)));
    };
    // The piston's contacts in at most two neighbouring strips (one of each parity), else one strip for all (stripAt
    // keeps the order of places, so the extreme places give the extreme strips).
    if (strips > 1 && pistonLowest <= pistonHighest && stripAt(pistonHighest) > stripAt(pistonLowest) + 1) {
        strips = 1;
    }
    for (std::size_t k = 0; k < count; ++k) {
        stripOf_[k] = strips > 1 ? stripAt(place_[k]) : 0U;
    }
    width_ = strips > 1 ? width : 0.0;
    // A counting sort by strip: ascending contact index within a strip.
    start_.assign(strips + 1, 0);
    for (const std::uint32_t s : stripOf_) {
        ++start_[s + 1];
    }
    largest_ = 0;
    for (std::size_t s = 0; s < strips; ++s) {
        largest_ = std::max<std::size_t>(largest_, start_[s + 1]);
        start_[s + 1] += start_[s];
    }
    offset_.resize(strips);
    parityCount_ = {0, 0};
    for (std::size_t s = 0; s < strips; ++s) {
        offset_[s] = parityCount_[s % 2];
        parityCount_[s % 2] += size(s);
    }
    members_.resize(count);
    placeOf_.resize(count);
    next_.assign(start_.begin(), start_.end() - 1);
    for (std::size_t k = 0; k < count; ++k) {
        placeOf_[k] = next_[stripOf_[k]]++;
        members_[placeOf_[k]] = static_cast<std::uint32_t>(k);
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
