#pragma once

#include "model/Contact.h"
#include "model/Particles.h"

#include <cmath>

namespace granular {

/// U of eq. 23: the relative velocity V the contact would have after dt without its own force R,
/// V - dt M^-1 R with the normal and tangential effective masses (eq. 17-18).
inline Vec3 freeRelativeVelocity(const Contact& c, const Vec3& V, double dt)
{
    const double Rn = c.force.dot(c.normal);
    const Vec3 Rt = c.force - Rn * c.normal;
    return V - dt * ((Rn / c.normalMass) * c.normal + Rt / c.tangentialMass);
}

/// The per-step constants of one contact's shock law (eq. 34): they change only between steps, so a sweep
/// takes them from here instead of dividing by dt in every update.
struct ShockCoefficients {
    double gapPositive = 0.0;     ///< m, g_pos = max(g, 0)
    double gapRate = 0.0;         ///< m/s, g_pos / dt
    double normalRate = 0.0;      ///< kg/s, m_n / dt
    double tangentialRate = 0.0;  ///< kg/s, m_t / dt
    double friction = 0.0;        ///< 1, Coulomb mu of the contact

    ShockCoefficients() = default;
    /// For a contact with gap g (m, negative = overlap), effective masses m_n, m_t (kg, eq. 17-18), mu, and step dt.
    ShockCoefficients(double gap, double normalMass, double tangentialMass, double mu, double dt)
        : gapPositive(gap > 0.0 ? gap : 0.0), gapRate(gapPositive / dt), normalRate(normalMass / dt),
          tangentialRate(tangentialMass / dt), friction(mu)
    {
    }
};

/// One contact's force from the inelastic shock law with g_pos = max(g, 0) (Unger & Kertesz 2003, eq. 34).
/// U: relative velocity the contact would have after dt without its own force R (eq. 23), n: unit
/// normal from body 0 to body 1, `k`: the contact's coefficients for this step. Returns R acting on body 1 (N).
inline Vec3 shockLaw(const Vec3& U, const Vec3& n, const ShockCoefficients& k, double dt)
{
    const double Un = U.dot(n);
    if (k.gapPositive + Un * dt > 0.0) {
        return Vec3::Zero();  // no contact
    }
    const double Rn = -k.normalRate * (k.gapRate + Un);  // sticking: the gap closes exactly
    Vec3 Rt = -k.tangentialRate * (U - Un * n);          // sticking: no tangential slip
    const double limit = k.friction * Rn;                // N, mu R_n >= 0
    const double squared = Rt.squaredNorm();
    // Well inside the cone the contact sticks; near or beyond it the exact test decides (no root otherwise).
    if (squared > 0.999999 * (limit * limit)) {
        const double RtNorm = std::sqrt(squared);
        if (RtNorm > limit) {
            Rt *= limit / RtNorm;  // sliding: on the Coulomb cone (a graph in 2D), opposing the slip
        }
    }
    return Rn * n + Rt;
}

}  // namespace granular
