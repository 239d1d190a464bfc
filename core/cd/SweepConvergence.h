#pragma once

#include "cd/ContactUpdate.h"
#include "model/Contact.h"
#include "model/Particles.h"
#include "settings/Choices.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace granular {

/// What the convergence measures take of one contact's update, R - dR -> R (N^2), from the forces in the contact's
/// frame (|R|^2 = R_n^2 + |R_t|^2); kept per contact where the updates run out of the measures' order (the coloured
/// sweep), so that the measures add them in their own.
struct ForceChange {
    double squaredForce = 0.0;     ///< |R|^2
    double squaredChange = 0.0;    ///< |dR|^2
    double squaredPrevious = 0.0;  ///< |R - dR|^2

    ForceChange() = default;
    /// From the force R after the change and the change dR.
    ForceChange(const Vec3& R, const Vec3& dR)
        : squaredForce(R.squaredNorm()), squaredChange(dR.squaredNorm()), squaredPrevious((R - dR).squaredNorm())
    {
    }
    /// From the forces before and after the change in the contact's frame.
    template <class Vec>
    ForceChange(const FrameForce<Vec>& before, const FrameForce<Vec>& after, const ForceChangeOf<Vec>& d)
        : squaredForce(after.normal * after.normal + dot(after.tangential, after.tangential)),
          squaredChange(d.normal * d.normal + dot(d.tangential, d.tangential)),
          squaredPrevious(before.normal * before.normal + dot(before.tangential, before.tangential))
    {
    }
};

/// The convergence measures of the non-linear Gauss-Seidel iteration, gathered contact by contact during a
/// sweep: the local criterion's largest relative change (Unger & Kertesz 2003, eq. 35), the global one's mean
/// force (eq. 36), and the relative change of the whole force vector, |dR| / |R| over all contacts (Euclidean
/// norms). Eq. 35 is 1 whenever a contact opened or closed in the sweep, however converged the rest; the
/// force change weighs each contact by its force, so it measures how far the forces still move.
/// A record takes no root where the result does not need one: the mean force only for the global criterion, the
/// relative change only where it may exceed the sweep's largest so far.
class SweepConvergence {
public:
    /// Starts from the contacts' forces before the first sweep (not empty); `forceCutoff`: delta of
    /// eq. 35, N; `criterion`: the residual finishSweep returns.
    SweepConvergence(const std::vector<Contact>& contacts, double forceCutoff, ConvergenceCriterion criterion)
        : forceCutoff_(forceCutoff), criterion_(criterion)
    {
        if (criterion_ == ConvergenceCriterion::Global) {
            for (const Contact& c : contacts) {
                previousMeanForce_ += c.force.norm();
            }
            previousMeanForce_ /= static_cast<double>(contacts.size());
        }
    }

    /// A part of a sweep's measures (e.g. of a block of contacts), to be merged into the whole.
    SweepConvergence(double forceCutoff, ConvergenceCriterion criterion)
        : forceCutoff_(forceCutoff), criterion_(criterion)
    {
    }

    /// Adds what `part` recorded (its sums after this one's, its largest change) and clears `part`.
    void merge(SweepConvergence& part)
    {
        meanForce_ += part.meanForce_;
        squaredForces_ += part.squaredForces_;
        squaredChanges_ += part.squaredChanges_;
        largestRelativeChange_ = std::max(largestRelativeChange_, part.largestRelativeChange_);
        part.meanForce_ = 0.0;
        part.squaredForces_ = 0.0;
        part.squaredChanges_ = 0.0;
        part.largestRelativeChange_ = 0.0;
    }

    /// One contact's force went from R - dR to R.
    void record(const ForceChange& f)
    {
        record(f.squaredForce, f.squaredChange, [&] { return f.squaredPrevious; });
    }

    /// Ends a sweep over `count` contacts; returns the residual of the criterion (eq. 36 for the
    /// global criterion, eq. 35 otherwise) and starts the next sweep.
    double finishSweep(std::size_t count)
    {
        const double meanForce = meanForce_ / static_cast<double>(count);
        const double residual = criterion_ == ConvergenceCriterion::Global
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
    /// |R|^2, |dR|^2 and what gives |R - dR|^2 (taken only where the relative change needs it), N^2.
    template <class SquaredPrevious>
    void record(double squaredForce, double squaredChange, const SquaredPrevious& squaredPrevious)
    {
        squaredForces_ += squaredForce;
        squaredChanges_ += squaredChange;
        if (criterion_ == ConvergenceCriterion::Global) {
            meanForce_ += std::sqrt(squaredForce);
            return;
        }
        if (squaredChange > 0.0) {
            recordRelativeChange(squaredForce, squaredChange, squaredPrevious());
        }
    }

    /// Eq. 35's |dR| / (|R| + delta). The change is scaled by |R| + delta; a contact that just opened (R = 0) is
    /// scaled by its previous force instead, so that the residual stays finite without a cut-off.
    void recordRelativeChange(double squaredForce, double squaredChange, double squaredPrevious)
    {
        // (max(|R|, |R - dR|) + delta)^2 >= max(|R|^2, |R - dR|^2) + delta^2: below this bound (with room for
        // rounding) the change cannot be the sweep's largest, and the roots are not taken.
        const double bound = std::max(squaredForce, squaredPrevious) + forceCutoff_ * forceCutoff_;
        if (squaredChange <= (1.0 - 1e-9) * largestRelativeChange_ * largestRelativeChange_ * bound) {
            return;
        }
        const double scale = std::max(std::sqrt(squaredForce), std::sqrt(squaredPrevious)) + forceCutoff_;
        largestRelativeChange_ = std::max(largestRelativeChange_, std::sqrt(squaredChange) / scale);
    }

    double previousMeanForce_ = 0.0;
    double forceCutoff_;
    ConvergenceCriterion criterion_;
    double meanForce_ = 0.0;
    double largestRelativeChange_ = 0.0;
    double squaredForces_ = 0.0;   ///< N^2, sum of |R|^2 in the sweep
    double squaredChanges_ = 0.0;  ///< N^2, sum of |dR|^2 in the sweep
    double forceChange_ = 0.0;
};

}  // namespace granular
