#pragma once

#include "model/Contact.h"
#include "model/Particles.h"

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace granular {

/// Contacts in strips across one axis such that two contacts whose strips lie two or more apart share no grain: the
/// strip sweep (solver.sweep = strips) sweeps the even strips side by side, then the odd ones. A contact's place on
/// the axis is its contact point's; a strip is at least twice as wide as the farthest any contact's grain centre
/// lies from that point along the axis (so two contacts of one grain lie less than a strip apart). The axis is the
/// piston's normal where there is a piston (its contacts then fall in at most two neighbouring strips, which are never
/// swept at once), else the longest side of the contact points' bounding box. Where the piston's contacts would fall in
/// strips swept at once, all the contacts form one strip. The strips depend on the contacts and the grains only, never
/// on the thread count.
class ContactStrips {
public:
    /// Cuts `contacts` between `particles` into strips (on the solver threads from 8,192 contacts; the same strips for
    /// any thread count).
    void cut(const std::vector<Contact>& contacts, const Particles& particles);

    [[nodiscard]] std::size_t strips() const { return start_.empty() ? 0 : start_.size() - 1; }
    /// All contacts, strip by strip, ascending contact index within a strip.
    [[nodiscard]] std::span<const std::uint32_t> allMembers() const { return members_; }
    /// Where strip k's contacts start in allMembers(); firstMember(strips()) is the contacts' count.
    [[nodiscard]] std::size_t firstMember(std::size_t k) const { return start_[k]; }
    /// Contact k's place in allMembers().
    [[nodiscard]] std::uint32_t placeOf(std::size_t k) const { return placeOf_[k]; }
    /// How many contacts strip k holds.
    [[nodiscard]] std::size_t size(std::size_t k) const { return start_[k + 1] - start_[k]; }
    /// The contacts of the strips of one parity (0: the even strips, 1: the odd).
    [[nodiscard]] std::size_t parityCount(std::size_t parity) const { return parityCount_[parity]; }
    /// The contacts of the strips of strip k's parity before it.
    [[nodiscard]] std::size_t offset(std::size_t k) const { return offset_[k]; }
    /// The strips of one parity whose middle lies in [from, to) of that parity's contacts (counted in strip order),
    /// the last share taking those at its end: strips first, first + 2, ... below end. Shares that cut a parity's
    /// contacts into consecutive ranges cut its strips into consecutive runs, each strip in one.
    [[nodiscard]] std::pair<std::size_t, std::size_t> share(std::size_t parity, std::size_t from, std::size_t to) const;
    /// The most contacts any strip holds.
    [[nodiscard]] std::size_t largest() const { return largest_; }
    /// m, a strip's width (the last strip's may be larger); 0 where all the contacts form one strip.
    [[nodiscard]] double width() const { return width_; }

private:
    /// What one thread's range of contacts measures while cutting.
    struct alignas(64) RangeMeasures {
        std::size_t firstPiston = 0;   ///< the range's first piston contact (the contacts' count: none)
        Vec3 lowPoint = Vec3::Zero();  ///< m, the bounding box of its contact points before that
        Vec3 highPoint = Vec3::Zero();
        double low = std::numeric_limits<double>::infinity();  ///< m, its places on the axis
        double high = -std::numeric_limits<double>::infinity();
        double reach = 0.0;  ///< m, the farthest a grain's centre lies from one of its contacts' places, along the axis
        double pistonLowest = std::numeric_limits<double>::infinity();  ///< m, its piston contacts' places
        double pistonHighest = -std::numeric_limits<double>::infinity();
        std::vector<std::uint32_t> counts;  ///< per strip, the range's contacts there
        std::vector<std::uint32_t> next;    ///< per strip, the next free place in members_ for the range's contacts

        /// Measures afresh (the vectors keep their storage).
        void restart(std::size_t contacts)
        {
            firstPiston = contacts;
            low = std::numeric_limits<double>::infinity();
            high = -low;
            reach = 0.0;
            pistonLowest = low;
            pistonHighest = high;
        }
    };

    /// Places of contacts [first, last) on the axis, and what they measure.
    void measurePlaces(const std::vector<Contact>& contacts, const Particles& particles, const Vec3& axis,
                       std::size_t first, std::size_t last, RangeMeasures& measures);
    /// The strips' count and width from the ranges' measures (start_ sized, zeroed).
    void chooseStrips(std::size_t count);
    /// The strip of a place on the axis (more than one strip).
    [[nodiscard]] std::uint32_t stripAt(double place) const;
    /// Strip sizes and offsets from the ranges' counts.
    void countMembers();

    std::vector<double> place_;           ///< per contact, m, its contact point on the axis
    std::vector<std::uint32_t> stripOf_;  ///< per contact
    std::vector<std::uint32_t> start_;    ///< strip k's members: [start_[k], start_[k + 1])
    std::vector<std::uint32_t> members_;  ///< contact indices by strip
    std::vector<std::uint32_t> placeOf_;  ///< per contact, its place in members_
    std::vector<RangeMeasures> ranges_;   ///< per thread of the last cut
    std::array<std::size_t, 2> parityCount_{0, 0};
    std::vector<std::size_t> offset_;  ///< per strip, the contacts of its parity's strips before it
    std::size_t largest_ = 0;
    double width_ = 0.0;
    double low_ = 0.0;  ///< m, the lowest place on the axis
};

}  // namespace granular
