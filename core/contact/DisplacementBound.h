#pragma once

#include "util/Vector.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace granular {

/// What a Verlet list needs to know of the grains' displacements d_i since it was made: how far one grain came nearer
/// a fixed boundary (at most the largest |d_i|), and how far two grains came nearer each other, |d_j - d_i|. The
/// latter is at most twice the largest |d| and at most the diagonal of the box that holds every d (both d_i and d_j
/// lie in it): a packing that moves as a whole, e.g. a column settling under gravity, has a small box though each
/// grain moved far. A non-finite displacement makes both bounds infinite. Minima and maxima do not depend on the
/// order the displacements come in, so the bound is the same for any thread count.
class DisplacementBound {
public:
    /// Takes in one grain's displacement (m).
    void add(const Vec3& d)
    {
        const double square = d.squaredNorm();
        largestSquare_ = std::max(largestSquare_, square);
        finite_ = finite_ && square <= std::numeric_limits<double>::max();  // false for NaN and infinity
        lower_ = lower_.cwiseMin(d);
        upper_ = upper_.cwiseMax(d);
    }

    /// The bound of displacements known by parts: the largest finite |d|^2, whether every d was finite, and the box of
    /// them all (e.g. taken in lane by lane).
    static DisplacementBound ofParts(double largestSquare, bool finite, const Vec3& lower, const Vec3& upper)
    {
        DisplacementBound bound;
        bound.largestSquare_ = largestSquare;
        bound.finite_ = finite;
        bound.lower_ = lower;
        bound.upper_ = upper;
        return bound;
    }

    /// Takes in the displacements another bound took in.
    void merge(const DisplacementBound& other)
    {
        largestSquare_ = std::max(largestSquare_, other.largestSquare_);
        finite_ = finite_ && other.finite_;
        lower_ = lower_.cwiseMin(other.lower_);
        upper_ = upper_.cwiseMax(other.upper_);
    }

    /// m, the largest |d|: how far any grain came nearer a fixed wall (0 without grains; infinite if one is not
    /// finite).
    [[nodiscard]] double largest() const
    {
        return finite_ ? std::sqrt(largestSquare_) : std::numeric_limits<double>::infinity();
    }

    /// m, a bound of |d_j - d_i| over every two grains: how far any pair came nearer each other (0 for fewer than two
    /// grains that moved alike).
    [[nodiscard]] double pairApproach() const
    {
        const double twice = 2.0 * largest();
        if (!std::isfinite(twice)) {
            return twice;
        }
        if (!(lower_.array() <= upper_.array()).all()) {
            return 0.0;  // no grain
        }
        return std::min(twice, (upper_ - lower_).norm());
    }

private:
    double largestSquare_ = 0.0;  ///< m^2, of the finite displacements
    bool finite_ = true;          ///< no displacement was infinite or NaN
    Vec3 lower_ = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 upper_ = Vec3::Constant(-std::numeric_limits<double>::infinity());
};

}  // namespace granular
