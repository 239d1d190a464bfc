#include "contact/GrainPairList.h"

#include "contact/DisplacementBound.h"

#include "util/Parallel.h"

#include <algorithm>
#include <functional>

namespace granular {

bool GrainPairList::covers(const Particles& particles, double margin) const
{
    if (!searched_ || particles.size() != searchedAt_.size() || particles.radius != searchRadii_) {
        return false;
    }
    const Vec3* position = particles.position.data();
    const Vec3* searchedAt = searchedAt_.data();
    const DisplacementBound moved = parallelRangeReduce(
        particles.size(), DisplacementBound{},
        [=](std::size_t first, std::size_t last) {
            DisplacementBound bound;
            for (std::size_t i = first; i < last; ++i) {
                bound.add(position[i] - searchedAt[i]);
            }
            return bound;
        },
        std::mem_fn(&DisplacementBound::merge));
    // Two grains close in by at most the bound of their displacements' difference; the allowance covers the rounding
    // of the squared distances that findPairs compares and of the displacements (a few units in the last place of
    // lengths of this size).
    const double allowance = 1e-9 * (2.0 * largestRadius_ + listedMargin_);
    return margin + moved.pairApproach() + allowance <= listedMargin_;
}

void GrainPairList::findPairs(const Particles& particles, const Eigen::AlignedBox3d& bounds, int dimension,
                              double margin, std::vector<std::pair<std::int32_t, std::int32_t>>& pairs)
{
    if (relativeSkin_ <= 0.0) {
        cells_.findPairs(particles, bounds, dimension, margin, pairs);
        return;
    }
    if (!covers(particles, margin)) {
        const auto [smallest, largest] = std::minmax_element(particles.radius.begin(), particles.radius.end());
        const bool any = smallest != particles.radius.end();
        listedMargin_ = margin + (any ? relativeSkin_ * *smallest : 0.0);
        largestRadius_ = any ? *largest : 0.0;
        cells_.findPairs(particles, bounds, dimension, listedMargin_, listed_);
        searchedAt_ = particles.position;
        searchRadii_ = particles.radius;
        searched_ = true;
        ++searches_;
    }
    // findPairs's own test, pair by pair in the list's order (which is findPairs's).
    pairs.clear();
    const Vec3* position = particles.position.data();
    const double* radius = particles.radius.data();
    const std::pair<std::int32_t, std::int32_t>* listed = listed_.data();
    appendInOrder(listed_.size(), pairs, blockPairs_, [=](std::size_t k, PairList& out) {
        const auto i = static_cast<std::size_t>(listed[k].first);
        const auto j = static_cast<std::size_t>(listed[k].second);
        const double reach = radius[i] + radius[j] + margin;
        if ((position[j] - position[i]).squaredNorm() < reach * reach) {
            out.push_back(listed[k]);
        }
    });
}

}  // namespace granular
