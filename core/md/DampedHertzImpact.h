#pragma once

namespace granular::md {

/// A head-on collision under the Hertz law with Tsuji-type damping,
///     m* delta'' = -k_h delta^(3/2) - alpha sqrt(m* k_h) delta^(1/4) delta',
/// in the units delta = v T y, t = T s with T = (m*^2 / (k_h^2 v))^(1/5), where it reads
///     y'' = -y^(3/2) - alpha y^(1/4) y',   y(0) = 0, y'(0) = 1.
/// Neither the impact speed v nor the material enters: the restitution depends on alpha alone, which
/// is why this damping keeps e constant (Tsuji et al. 1992); the relation e(alpha) has no closed form,
/// so it is integrated here once and inverted.
struct DampedHertzImpact {
    double restitution = 1.0;  ///< e = -y'(s_c), the rebound speed when the overlap closes again
    double duration =
        0.0;  ///< s_c: the contact lasts t_c = s_c T (3.218 undamped, i.e. t_c = 2.868 (m*^2/(R* E*^2 v))^(1/5))
};

/// Integrates the dimensionless collision for the damping factor alpha >= 0 (RK4). A collision that
/// does not open within s = 60 (overdamped) reports e = 0 and an infinite duration.
[[nodiscard]] DampedHertzImpact dampedHertzImpact(double alpha);

/// The damping factor alpha whose collisions restitute e, for e in [0, 1] (bisection on dampedHertzImpact).
[[nodiscard]] double tsujiDampingFactor(double restitution);

/// The Hertz damping of one material: alpha and the dimensionless duration s_c of its collisions.
struct HertzCalibration {
    double alpha = 0.0;     ///< 1, damping factor
    double duration = 0.0;  ///< 1, s_c
};
[[nodiscard]] HertzCalibration calibrateHertz(double restitution);

}  // namespace granular::md
