#pragma once

#include "md/MaterialModel.h"
#include "model/Contact.h"

#include <array>
#include <cmath>

namespace granular::md {

/// The force law of one contact, fixed by the material and the two bodies (docs/REFERENCES.md).
/// Normal force on body 1 along n: F_n = elastic(delta) + dampingCoefficient(delta) d(delta)/dt.
///   linear: elastic = k delta,          damping coefficient c
///   Hertz:  elastic = k_h delta^(3/2),  damping coefficient eta delta^(1/4)   (Tsuji-type)
/// Tangential spring xi (Cundall-Strack): F_t = -k_t(delta) xi - c_t(delta) u_t, |F_t| <= mu F_n.
/// Two grains act in series: a grain-grain contact of the linear law has k_n/2, a grain on a rigid
/// wall, piston or drum k_n. Bodies of infinite mass (fixed or driven grains) get no dashpot among
/// themselves: neither responds to it.
struct PairLaw {
    NormalLaw law = NormalLaw::Linear;
    /// Zero: the bytes between the law and the doubles, which a checkpoint saves with the rest (as padding they were
    /// whatever the memory held, and two checkpoints of the same state differed in them).
    std::array<char, sizeof(double) - sizeof(NormalLaw)> zero{};
    double stiffness = 0.0;  ///< linear: k (N/m); Hertz: k_h (N/m^(3/2))
    double damping = 0.0;    ///< linear: c (kg/s); Hertz: eta (kg/(s m^(1/4)))
    double tangentialStiffness =
        0.0;                         ///< linear: k_t (N/m); Hertz: k_t(delta) / sqrt(delta) = 8 G* sqrt(R*) (N/m^(3/2))
    double tangentialDamping = 0.0;  ///< linear: c_t (kg/s); Hertz: c_t(delta) / delta^(1/4) (kg/(s m^(1/4)))
    double friction = 0.0;           ///< Coulomb mu (1)

    /// N, the elastic normal force at the overlap delta > 0 (m).
    [[nodiscard]] double elasticForce(double overlap) const
    {
        return law == NormalLaw::Linear ? stiffness * overlap : stiffness * overlap * std::sqrt(overlap);
    }
    /// p of elastic ~ delta^p: 1 (linear) or 3/2 (Hertz).
    [[nodiscard]] double elasticExponent() const { return law == NormalLaw::Linear ? 1.0 : 1.5; }
    /// kg/s, the normal dashpot's coefficient at the overlap delta > 0.
    [[nodiscard]] double dampingCoefficient(double overlap) const
    {
        return law == NormalLaw::Linear ? damping : damping * std::sqrt(std::sqrt(overlap));
    }
    /// N s, the dashpot's potential D with dD/dt = dampingCoefficient(delta) d(delta)/dt: the normal
    /// dashpot's impulse between two instants is D(delta_1) - D(delta_0), exactly, also across the
    /// opening or closing of the contact (D = 0 for delta <= 0).
    [[nodiscard]] double dampingPotential(double overlap) const
    {
        if (overlap <= 0.0) {
            return 0.0;
        }
        return law == NormalLaw::Linear ? damping * overlap : 0.8 * damping * overlap * std::sqrt(std::sqrt(overlap));
    }
    /// N/m, k_t at the overlap delta > 0.
    [[nodiscard]] double tangentialStiffnessAt(double overlap) const
    {
        return law == NormalLaw::Linear ? tangentialStiffness : tangentialStiffness * std::sqrt(overlap);
    }
    /// kg/s, c_t at the overlap delta > 0.
    [[nodiscard]] double tangentialDampingAt(double overlap) const
    {
        return law == NormalLaw::Linear ? tangentialDamping : tangentialDamping * std::sqrt(std::sqrt(overlap));
    }
};

static_assert(sizeof(PairLaw) == 6 * sizeof(double), "PairLaw has no padding: a checkpoint saves its bytes");

/// m, Hertz's effective radius R* of a contact of this kind between body 0 of radius `radius0` and a grain of radius
/// `radius1`: r0 r1 / (r0 + r1) for two grains, r1 on a flat wall or piston, and r1 sqrt(R / (R - r1)) inside a drum
/// of radius R = radius0 (the equivalent radius sqrt(R' R'') of the relative curvatures 1/R' = 1/r1 - 1/R across the
/// axis and 1/R'' = 1/r1 along it; Johnson, Contact Mechanics, 1985, sec. 4.2).
[[nodiscard]] double hertzEffectiveRadius(ContactKind kind, double radius0, double radius1);

/// The law of the candidate `c` (masses m_n, m_t from the contact detection, Unger & Kertesz 2003, eq. 17-18,
/// which are right for equal and unequal grains, fixed partners of infinite mass and walls).
/// `radius0` is body 0's radius (m): a grain's, the drum's for a drum contact, 0 for a wall or the piston; `radius1`
/// the grain's. `tsujiAlpha` is tsujiDampingFactor(e) for the Hertz law (computed once per material).
[[nodiscard]] PairLaw pairLawFor(const MaterialModel& material, const Contact& c, double radius0, double radius1,
                                 double tsujiAlpha);

}  // namespace granular::md
