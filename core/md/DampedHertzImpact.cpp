#include "md/DampedHertzImpact.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace granular::md {

namespace {

constexpr double kStep = 1e-3;         // in units of T: the undamped contact lasts 3218 steps
constexpr double kLongest = 60.0;      // in units of T: a contact still closed then never opens
constexpr double kLargestAlpha = 4.0;  // beyond it no collision rebounds

/// (y', y'') of the dimensionless equation of motion.
std::array<double, 2> rate(double y, double v, double alpha)
{
    const double overlap = std::max(y, 0.0);
    return {v, -overlap * std::sqrt(overlap) - alpha * std::sqrt(std::sqrt(overlap)) * v};
}

}  // namespace

DampedHertzImpact dampedHertzImpact(double alpha)
{
    double y = 0.0;
    double v = 1.0;
    for (int n = 0; n * kStep < kLongest; ++n) {
        const auto k1 = rate(y, v, alpha);
        const auto k2 = rate(y + 0.5 * kStep * k1[0], v + 0.5 * kStep * k1[1], alpha);
        const auto k3 = rate(y + 0.5 * kStep * k2[0], v + 0.5 * kStep * k2[1], alpha);
        const auto k4 = rate(y + kStep * k3[0], v + kStep * k3[1], alpha);
        const double yNext = y + kStep / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
        const double vNext = v + kStep / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]);
        if (n > 0 && yNext <= 0.0) {
            // The overlap closes inside this step: interpolate the crossing linearly.
            const double fraction = y / (y - yNext);
            return {-(v + fraction * (vNext - v)), (n + fraction) * kStep};
        }
        y = yNext;
        v = vNext;
    }
    return {0.0, std::numeric_limits<double>::infinity()};
}

double tsujiDampingFactor(double restitution)
{
    if (restitution >= 1.0) {
        return 0.0;
    }
    double low = 0.0;  // restitutes more than asked
    double high = kLargestAlpha;
    for (int n = 0; n < 48; ++n) {
        const double mid = 0.5 * (low + high);
        if (dampedHertzImpact(mid).restitution > restitution) {
            low = mid;
        } else {
            high = mid;
        }
    }
    return 0.5 * (low + high);
}

HertzCalibration calibrateHertz(double restitution)
{
    HertzCalibration calibration;
    calibration.alpha = tsujiDampingFactor(restitution);
    calibration.duration = dampedHertzImpact(calibration.alpha).duration;
    return calibration;
}

}  // namespace granular::md
