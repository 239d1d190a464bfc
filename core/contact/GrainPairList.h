#pragma once

#include "contact/CellList.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace granular {

/// The grain pairs whose gap is below a margin, as CellList::findPairs finds them, from a Verlet list: the cell
/// search runs with the margin plus a skin, and while no grain has moved far enough since, the pairs of a later
/// call are picked from that list with findPairs's own test. A pair closes in by at most the two grains'
/// displacements, so the list holds every pair that can pass; the pairs and their order are exactly findPairs's
/// whatever the skin, the thread count or the history (a skin of 0 searches at every call).
class GrainPairList {
public:
    /// `relativeSkin`: the skin in smallest radii (0: no list, a search at every call).
    explicit GrainPairList(double relativeSkin = 0.0) : relativeSkin_(relativeSkin) {}

    /// Pairs (i, j), i < j, with |x_j - x_i| - r_i - r_j < `margin`, sorted by j then i (CellList::findPairs).
    void findPairs(const Particles& particles, const Eigen::AlignedBox3d& bounds, int dimension, double margin,
                   std::vector<std::pair<std::int32_t, std::int32_t>>& pairs);

    /// Cell searches so far (for tests and benches: how often the list was rebuilt).
    [[nodiscard]] std::int64_t searches() const { return searches_; }

private:
    /// Whether every pair with a gap below `margin` is in the list (positions and radii against the search's).
    [[nodiscard]] bool covers(const Particles& particles, double margin) const;

    using PairList = std::vector<std::pair<std::int32_t, std::int32_t>>;
    double relativeSkin_ = 0.0;
    CellList cells_;
    PairList listed_;                  ///< the pairs with a gap below listedMargin_ at the last search
    std::vector<Vec3> searchedAt_;     ///< m, the grains' positions at the last search
    std::vector<double> searchRadii_;  ///< m, their radii then
    double listedMargin_ = 0.0;        ///< m, margin + skin of the last search
    double largestRadius_ = 0.0;       ///< m, at the last search
    bool searched_ = false;
    std::int64_t searches_ = 0;
    std::vector<PairList> blockPairs_;  ///< the picked pairs of each block of the list on the solver threads
};

}  // namespace granular
