#pragma once

#include "model/Contact.h"
#include "model/Particles.h"
#include "settings/Choices.h"
#include "util/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace granular {

/// The sweep order 0, 1, ..., count - 1 before the first shuffle of a step.
inline void resetSweepOrder(std::vector<std::uint32_t>& order, std::size_t count)
{
    order.resize(count);
    std::iota(order.begin(), order.end(), 0U);
}

/// A fresh random permutation of the sweep order (Fisher-Yates): every candidate exactly once per
/// iteration, in an order drawn from the seeded generator (Unger & Kertesz 2003, section 2.5).
inline void shuffleSweepOrder(std::vector<std::uint32_t>& order, Random& random)
{
    for (std::size_t k = order.size() - 1; k > 0; --k) {
        std::swap(order[k], order[random.below(k + 1)]);
    }
}

/// The convergence measures of the non-linear Gauss-Seidel iteration, gathered contact by contact during a
/// sweep: the local criterion's largest relative change (Unger & Kertesz 2003, eq. 35), the global one's mean
/// force (eq. 36), and the relative change of the whole force vector, |dR| / |R| over all contacts (Euclidean
/// norms). Eq. 35 is 1 whenever a contact opened or closed in the sweep, however converged the rest; the
/// force change weighs each contact by its force, so it measures how far the forces still move.
class SweepConvergence {
public:
    /// Starts from the contacts' forces before the first sweep (not empty); `forceCutoff`: delta of
    /// eq. 35, N.
    SweepConvergence(const std::vector<Contact>& contacts, double forceCutoff) : forceCutoff_(forceCutoff)
    {
        for (const Contact& c : contacts) {
            previousMeanForce_ += c.force.norm();
        }
        previousMeanForce_ /= static_cast<double>(contacts.size());
    }

    /// One contact's force went from R - dR to R.
    void record(const Vec3& R, const Vec3& dR)
    {
        const double magnitude = R.norm();
        meanForce_ += magnitude;
        const double change = dR.norm();
        squaredForces_ += magnitude * magnitude;
        squaredChanges_ += change * change;
        // Eq. 35 scales the change by |R| + delta; a contact that just opened (R = 0) is scaled by
        // its previous force instead, so that the residual stays finite without a cut-off.
        const double scale = std::max(magnitude, (R - dR).norm()) + forceCutoff_;
        if (change > 0.0) {
            largestRelativeChange_ = std::max(largestRelativeChange_, change / scale);
        }
    }

    /// Ends a sweep over `count` contacts; returns the residual of `criterion` (eq. 36 for the
    /// global criterion, eq. 35 otherwise) and starts the next sweep.
    double finishSweep(std::size_t count, ConvergenceCriterion criterion)
    {
        const double meanForce = meanForce_ / static_cast<double>(count);
        const double residual = criterion == ConvergenceCriterion::Global
                                    ? (meanForce > 0.0 ? std::fabs(meanForce - previousMeanForce_) / meanForce : 0.0)
                                    : largestRelativeChange_;
        forceChange_ = squaredForces_ > 0.0 ? std::sqrt(squaredChanges_ / squaredForces_) : 0.0;
        previousMeanForce_ = meanForce;
        meanForce_ = 0.0;
        largestRelativeChange_ = 0.0;
        squaredForces_ = 0.0;
        squaredChanges_ = 0.0;
        return residual;
    }

    /// The last finished sweep's |dR| / |R| over all contacts (0 when every force is zero).
    [[nodiscard]] double forceChange() const { return forceChange_; }

private:
    double previousMeanForce_ = 0.0;
    double forceCutoff_;
    double meanForce_ = 0.0;
    double largestRelativeChange_ = 0.0;
    double squaredForces_ = 0.0;   ///< N^2, sum of |R|^2 in the sweep
    double squaredChanges_ = 0.0;  ///< N^2, sum of |dR|^2 in the sweep
    double forceChange_ = 0.0;
};

}  // namespace granular
