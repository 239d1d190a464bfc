#include "md/CandidateList.h"

#include "model/World.h"

#include <algorithm>
#include <cmath>

namespace granular::md {

bool CandidateList::refresh(World& world, double skin, double reach, const MaterialModel& material, double tsujiAlpha,
                            bool rebuild)
{
    const auto& p = world.particles;
    const bool crossed = 2.0 * largestDisplacement_ + strainApproach_ > skin_ ||
                         pistonDisplacement_ + largestDisplacement_ > skin_ || reach > reach_;
    if (!rebuild && !crossed && skin == skin_ && displacement_.size() == p.size()) {
        return false;
    }
    reach_ = 1.5 * reach;
    detection_.update(world, skin + reach_);
    std::vector<std::uint64_t> keys;
    std::vector<ContactMemory> memory;
    keys.reserve(world.contacts.size());
    memory.reserve(world.contacts.size());
    auto previous = keys_.begin();
    for (const Contact& c : world.contacts) {
        const std::uint64_t key = c.key();
        previous = std::lower_bound(previous, keys_.end(), key);
        ContactMemory m;
        if (previous != keys_.end() && *previous == key) {
            m = memory_[static_cast<std::size_t>(previous - keys_.begin())];
        } else {
            m.overlap = -c.gap;
            m.normal = c.normal;
        }
        const double radius0 = c.kind == ContactKind::Particle ? p.radius[static_cast<std::size_t>(c.partner)] : 0.0;
        m.law = pairLawFor(material, c, radius0, p.radius[static_cast<std::size_t>(c.particle)], tsujiAlpha);
        keys.push_back(key);
        memory.push_back(m);
    }
    keys_.swap(keys);
    memory_.swap(memory);
    displacement_.assign(p.size(), Vec3::Zero());
    largestDisplacement_ = 0.0;
    pistonDisplacement_ = 0.0;
    strainApproach_ = 0.0;
    skin_ = skin;
    return true;
}

void CandidateList::recordMotion(const std::vector<Vec3>& velocity, double dt, double pistonStep)
{
    double largestSquare = 0.0;
    for (std::size_t i = 0; i < displacement_.size(); ++i) {
        displacement_[i] += dt * velocity[i];
        largestSquare = std::max(largestSquare, displacement_[i].squaredNorm());
    }
    largestDisplacement_ = std::sqrt(largestSquare);
    pistonDisplacement_ += std::fabs(pistonStep);
}

}  // namespace granular::md
