#pragma once

#include "cd/LaneArithmetic.h"

namespace granular {

// One contact update of the non-linear Gauss-Seidel iteration (Unger & Kertesz 2003, section 2.5), written once for
// any number type of LaneArithmetic.h (`double` for one contact, `LanePair` for two side by side: GrainContactLanes)
// and for both spaces: `Vec` is Vector3Of (spheres) or Vector2Of (disks in the x-y plane, whose angular velocities
// and torques have a z component only: a number, where 3D has a vector).

/// The angular quantities of a space: a vector in 3D, the z component in 2D.
template <class Vec> using SpinOf = decltype(cross(Vec{}, Vec{}));

/// The zero vector (+0 in every component and lane).
template <class Vec> Vec zeroVector()
{
    const auto zero = constant<typename Vec::Real>(0.0);
    if constexpr (std::is_same_v<Vec, Vector3Of<typename Vec::Real>>) {
        return {zero, zero, zero};
    } else {
        return {zero, zero};
    }
}

/// A contact force in the contact's frame: R = R_n n + R_t (N).
template <class Vec> struct FrameForce {
    typename Vec::Real normal;  ///< R_n
    Vec tangential;             ///< R_t, perpendicular to n
};

/// The per-step constants of a contact's shock law (eq. 34).
template <class Real> struct ShockRates {
    Real normalRate;      ///< kg/s, m_n / dt
    Real tangentialRate;  ///< kg/s, m_t / dt
    Real gapRate;         ///< m/s, g_pos / dt
    Real friction;        ///< 1, mu
};

/// What a grain's predicted motion is made of for an update.
template <class Vec> struct BodyMotion {
    Vec velocity;                        ///< m/s
    SpinOf<Vec> angularVelocity;         ///< rad/s
    typename Vec::Real linearResponse;   ///< m/(N s), dt / m: the velocity change per newton acting for dt
    typename Vec::Real angularResponse;  ///< 1/(N m s), dt / I
};

/// w x n for an angular velocity w: in 2D (w along z, n in the plane) (-w n_y, w n_x) is subtracted below as
/// written out, so that nothing is computed for the zero components.
template <class Real>
[[gnu::always_inline]] inline Vector3Of<Real> lessSpin(const Vector3Of<Real>& a, const Vector3Of<Real>& w,
                                                       const Vector3Of<Real>& n)
{
    return a - cross(w, n);
}
template <class Real>
[[gnu::always_inline]] inline Vector2Of<Real> lessSpin(const Vector2Of<Real>& a, Real w, const Vector2Of<Real>& n)
{
    return {a.x + w * n.y, a.y - w * n.x};
}

/// The velocity of body 1 relative to body 0 at the contact point (eq. 3) with the lever arms r0 n and -r1 n (m):
/// v1 - v0 - (r1 w1 + r0 w0) x n.
template <class Vec>
[[gnu::always_inline]] inline Vec relativePointVelocity(const BodyMotion<Vec>& body0, typename Vec::Real r0,
                                                        const BodyMotion<Vec>& body1, typename Vec::Real r1,
                                                        const Vec& n)
{
    return lessSpin(body1.velocity - body0.velocity, r1 * body1.angularVelocity + r0 * body0.angularVelocity, n);
}

/// The same against a boundary moving at u (a wall, the piston, the drum's rim): v1 - u - r1 w1 x n.
template <class Vec>
[[gnu::always_inline]] inline Vec relativeBoundaryVelocity(const Vec& u, const BodyMotion<Vec>& body1,
                                                           typename Vec::Real r1, const Vec& n)
{
    return lessSpin(body1.velocity - u, r1 * body1.angularVelocity, n);
}

/// The shock law (eq. 34) of a contact whose point moves at V with its present force R (N) in the predicted motion.
/// Eq. 23 takes R out: U = V - dt M^-1 R with the effective masses m_n, m_t (eq. 17-18); eq. 34 then gives, where
/// the gap closes, R_n' = -(m_n / dt)(g_pos / dt + U_n) and, sticking, R_t' = -(m_t / dt) U_t. Put together, the
/// division by the masses drops out: R_n' = R_n - (m_n / dt)(g_pos / dt + V_n) and R_t' = R_t - (m_t / dt) V_t. The
/// contact opens (R' = 0) where R_n' < 0 (eq. 34's g_pos + U_n dt > 0) and slides where |R_t'| > mu R_n': R_t' is then
/// scaled onto the Coulomb cone (a graph in 2D), opposing the slip.
template <class Vec>
[[gnu::always_inline]] inline FrameForce<Vec> shockLawUpdate(const Vec& V, const Vec& n, const FrameForce<Vec>& R,
                                                             const ShockRates<typename Vec::Real>& k)
{
    using Real = typename Vec::Real;
    const Real zero = constant<Real>(0.0);
    const Real Vn = dot(V, n);
    const Real Rn = R.normal - k.normalRate * (k.gapRate + Vn);
    if constexpr (std::is_same_v<Real, double>) {
        if (Rn < 0.0) {
            return {0.0, Vec{}};  // what the lanes select below for an opening contact
        }
    }
    Vec Rt = R.tangential - k.tangentialRate * (V - Vn * n);
    const Real limit = k.friction * Rn;  // N, mu R_n
    const Real squared = dot(Rt, Rt);
    // Well inside the cone the contact sticks; near or beyond it the exact test decides (no root otherwise).
    const auto nearCone = squared > constant<Real>(0.999999) * (limit * limit);
    if (anyLane(nearCone)) {
        const Real norm = sqrt(squared);
        const auto sliding = nearCone & (norm > limit);
        const Real scale = limit / select(sliding, norm, constant<Real>(1.0));
        Rt = select(sliding, scale * Rt, Rt);
    }
    const auto open = Rn < zero;
    return {select(open, zero, Rn), select(open, zeroVector<Vec>(), Rt)};
}

/// A change of a contact's force, dR = dR_n n + dR_t, and the turn n x dR_t that its torques share: body 0 takes the
/// reaction -dR at its lever r0 n, a torque -r0 n x dR; body 1 takes dR at its lever -r1 n, a torque -r1 n x dR (both
/// along n x dR_t, since n x n = 0).
template <class Vec> struct ForceChangeOf {
    typename Vec::Real normal;  ///< N, dR_n
    Vec tangential;             ///< N, dR_t
    Vec vector;                 ///< N, dR
    SpinOf<Vec> turn;           ///< N, n x dR_t
};

template <class Vec>
[[gnu::always_inline]] inline ForceChangeOf<Vec> changeOfForce(const FrameForce<Vec>& from, const FrameForce<Vec>& to,
                                                               const Vec& n)
{
    ForceChangeOf<Vec> d{};
    d.normal = to.normal - from.normal;
    d.tangential = to.tangential - from.tangential;
    d.vector = d.normal * n + d.tangential;
    d.turn = cross(n, d.tangential);
    return d;
}

/// Body 1's predicted motion after the change dR acting for dt at its lever -r1 n: v += (dt / m) dR,
/// w += (dt / I)(-r1 n x dR).
template <class Vec>
[[gnu::always_inline]] inline void receive(BodyMotion<Vec>& body, typename Vec::Real r1, const ForceChangeOf<Vec>& d)
{
    body.velocity = body.velocity + body.linearResponse * d.vector;
    body.angularVelocity = body.angularVelocity - (body.angularResponse * r1) * d.turn;
}

/// Body 0's after the reaction -dR at its lever r0 n: v -= (dt / m) dR, w -= (dt / I)(r0 n x dR).
template <class Vec>
[[gnu::always_inline]] inline void react(BodyMotion<Vec>& body, typename Vec::Real r0, const ForceChangeOf<Vec>& d)
{
    body.velocity = body.velocity - body.linearResponse * d.vector;
    body.angularVelocity = body.angularVelocity - (body.angularResponse * r0) * d.turn;
}

}  // namespace granular
