#include "md/CandidateList.h"

#include "model/World.h"
#include "util/Parallel.h"
#include "util/StateArchive.h"

#include <type_traits>

#include <algorithm>
#include <cmath>

namespace granular::md {

bool CandidateList::refresh(World& world, double skin, double reach, const MaterialModel& material, double tsujiAlpha,
                            bool rebuild)
{
    const auto& p = world.particles;
    // Two grains close in by at most pairApproach_ (plus the cell's dilation), a grain and a wall or the drum by at
    // most largestDisplacement_, a grain and the piston by that and the piston's own travel. The record sums the
    // drift's steps, which differ from the positions' own updates by a few units in their last place per step: far
    // below any skin.
    const bool bounded = !world.walls.empty() || world.piston || world.drum;
    const bool crossed = pairApproach_ + strainApproach_ > skin_ ||
                         (bounded && pistonDisplacement_ + largestDisplacement_ > skin_) || reach > reach_;
    if (!rebuild && !crossed && skin == skin_ && displacement_.size() == p.size()) {
        return false;
    }
    reach_ = 1.5 * reach;
    detection_.update(world, skin + reach_);
    // Both lists are sorted by key: a merge finds each candidate's memory (in ranges on the solver threads).
    const std::size_t count = world.contacts.size();
    // Into the spare lists of the last rebuild (their records are all written below): a fresh list of a few MB
    // would be zeroed, and its pages faulted in, on one thread.
    std::vector<std::uint64_t>& keys = spareKeys_;
    std::vector<ContactMemory>& memory = spareMemory_;
    keys.resize(count);
    memory.resize(count);
    // A candidate that stays keeps its law (a function of the material and its two grains) unless the material
    // changed (`rebuild`); a new one gets it from pairLawFor.
    parallelRanges(count, [&](std::size_t first, std::size_t last) {
        auto previous = std::lower_bound(keys_.begin(), keys_.end(), world.contacts[first].key());
        for (std::size_t k = first; k < last; ++k) {
            const Contact& c = world.contacts[k];
            const std::uint64_t key = c.key();
            while (previous != keys_.end() && *previous < key) {
                ++previous;  // both sorted, most keys stay: a step at a time, not a search
            }
            ContactMemory& m = memory[k];
            const bool stays = previous != keys_.end() && *previous == key;
            if (stays) {
                m = memory_[static_cast<std::size_t>(previous - keys_.begin())];
            } else {
                m = ContactMemory{};
                // A new candidate that overlaps already closed within the last step (the list held every pair that
                // overlapped before it): its overlap before the step is taken as 0, so that the step's forces count
                // the closing (the first forces of a world overwrite it with the present overlap).
                m.overlap = std::min(-c.gap, 0.0);
                m.normal = c.normal;
            }
            if (!stays || rebuild) {
                double radius0 = 0.0;  // a wall or the piston
                if (c.kind == ContactKind::Particle) {
                    radius0 = p.radius[static_cast<std::size_t>(c.partner)];
                } else if (c.kind == ContactKind::Drum) {
                    radius0 = world.drum->radius;
                }
                m.law = pairLawFor(material, c, radius0, p.radius[static_cast<std::size_t>(c.particle)], tsujiAlpha);
            }
            keys[k] = key;
        }
    });
    keys_.swap(keys);
    memory_.swap(memory);
    displacement_.assign(p.size(), Vec3::Zero());
    largestDisplacement_ = 0.0;
    pairApproach_ = 0.0;
    pistonDisplacement_ = 0.0;
    strainApproach_ = 0.0;
    skin_ = skin;
    ++rebuilds_;
    return true;
}

static_assert(std::is_trivially_copyable_v<PairLaw>);

void CandidateList::saveState(StateWriter& out) const
{
    out.putVector(keys_);
    out.put(static_cast<std::uint64_t>(memory_.size()));
    for (const ContactMemory& m : memory_) {
        out.put(m.law);
        out.put(m.overlap);
        out.put(m.elasticForce);
        out.put(m.normal);
        out.put(m.spring);
        out.put(m.bulge);
    }
    out.putVector(displacement_);
    out.put(largestDisplacement_);
    out.put(pistonDisplacement_);
    out.put(strainApproach_);
    out.put(skin_);
    out.put(reach_);
}

void CandidateList::loadState(StateReader& in)
{
    keys_ = in.getVector<std::uint64_t>();
    const auto count = in.get<std::uint64_t>();
    if (count != keys_.size()) {
        throw StateError("the saved candidate list's keys and memories differ in number");
    }
    memory_.clear();
    for (std::uint64_t k = 0; k < count; ++k) {
        ContactMemory m;
        m.law = in.get<PairLaw>();
        m.overlap = in.get<double>();
        m.elasticForce = in.get<double>();
        m.normal = in.get<Vec3>();
        m.spring = in.get<Vec3>();
        m.bulge = in.get<std::array<double, 2>>();
        memory_.push_back(m);
    }
    displacement_ = in.getVector<Vec3>();
    largestDisplacement_ = in.get<double>();
    // Not saved (a state written before it existed loads too): the bound of the saved displacements, as the last
    // finishMotion took it from the same values.
    DisplacementBound bound;
    for (const Vec3& d : displacement_) {
        bound.add(d);
    }
    pairApproach_ = bound.pairApproach();
    pistonDisplacement_ = in.get<double>();
    strainApproach_ = in.get<double>();
    skin_ = in.get<double>();
    reach_ = in.get<double>();
}

void CandidateList::finishMotion(const DisplacementBound& grains, double pistonStep)
{
    largestDisplacement_ = grains.largest();
    pairApproach_ = grains.pairApproach();
    pistonDisplacement_ += std::fabs(pistonStep);
}

}  // namespace granular::md
