#pragma once

#include "model/Contact.h"
#include "model/Particles.h"

namespace granular {

/// U of eq. 23: the relative velocity V the contact would have after dt without its own force R,
/// V - dt M^-1 R with the normal and tangential effective masses (eq. 17-18).
inline Vec3 freeRelativeVelocity(const Contact& c, const Vec3& V, double dt)
{
    const double Rn = c.force.dot(c.normal);
    const Vec3 Rt = c.force - Rn * c.normal;
    return V - dt * ((Rn / c.normalMass) * c.normal + Rt / c.tangentialMass);
}

/// One contact's force from the inelastic shock law with g_pos = max(g, 0) (Unger & Kertesz 2003, eq. 34).
/// U: relative velocity the contact would have after dt without its own force (eq. 23), n: unit
/// normal from body 0 to body 1, gap g (m), normal and tangential effective masses m_n, m_t (eq. 17-18),
/// Coulomb coefficient mu. Returns R acting on body 1 (N).
inline Vec3 shockLaw(const Vec3& U, const Vec3& n, double gap, double normalMass, double tangentialMass, double mu,
                     double dt)
{
    const double gPos = gap > 0.0 ? gap : 0.0;
    const double Un = U.dot(n);
    if (gPos + Un * dt > 0.0) {
        return Vec3::Zero();  // no contact
    }
    const double Rn = -(normalMass / dt) * (gPos / dt + Un);  // sticking: the gap closes exactly
    Vec3 Rt = -(tangentialMass / dt) * (U - Un * n);          // sticking: no tangential slip
    const double RtNorm = Rt.norm();
    if (RtNorm > mu * Rn) {
        Rt *= mu * Rn / RtNorm;  // sliding: on the Coulomb cone (a graph in 2D), opposing the slip
    }
    return Rn * n + Rt;
}

}  // namespace granular
