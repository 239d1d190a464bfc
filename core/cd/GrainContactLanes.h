#pragma once

#include "cd/PredictedMotion.h"
#include "cd/ShockLaw.h"
#include "model/Contact.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace granular {

// Two contact updates side by side. Two grain-grain contacts that share no grain do not see each other's update:
// neither reads what the other writes (the coloured sweep's colours hold only such contacts). So they can be computed
// at once, each in one lane of an SSE2 register, with the results of one after the other. Every lane operation below
// is the IEEE operation of the scalar update (contactForce: freeRelativeVelocity and shockLaw; applyImpulseToGrains:
// PredictedBody::receive and react) in the same order, and no operation is fused, so each lane gives the scalar
// result bit for bit (tst_grain_contact_lanes checks it).

#if defined(__SSE2__)

/// Whether this build computes two contact updates side by side.
inline constexpr bool kGrainContactLanes = true;

/// Two doubles, lane 0 and lane 1 of an SSE2 register.
struct LanePair {
    __m128d v;
};

inline LanePair lanes(double first, double second)
{
    return {_mm_set_pd(second, first)};
}
inline LanePair broadcast(double value)
{
    return {_mm_set1_pd(value)};
}
inline double firstLane(LanePair a)
{
    return _mm_cvtsd_f64(a.v);
}
inline double secondLane(LanePair a)
{
    return _mm_cvtsd_f64(_mm_unpackhi_pd(a.v, a.v));
}
inline LanePair operator+(LanePair a, LanePair b)
{
    return {_mm_add_pd(a.v, b.v)};
}
inline LanePair operator-(LanePair a, LanePair b)
{
    return {_mm_sub_pd(a.v, b.v)};
}
inline LanePair operator*(LanePair a, LanePair b)
{
    return {_mm_mul_pd(a.v, b.v)};
}
inline LanePair operator/(LanePair a, LanePair b)
{
    return {_mm_div_pd(a.v, b.v)};
}
inline LanePair sqrt(LanePair a)
{
    return {_mm_sqrt_pd(a.v)};
}

/// Per lane: all bits set where a comparison holds.
struct LaneMask {
    __m128d bits;
};

inline LaneMask operator>(LanePair a, LanePair b)
{
    return {_mm_cmpgt_pd(a.v, b.v)};
}
inline LaneMask operator&(LaneMask a, LaneMask b)
{
    return {_mm_and_pd(a.bits, b.bits)};
}
inline bool anyLane(LaneMask m)
{
    return _mm_movemask_pd(m.bits) != 0;
}
/// Per lane: `yes` where the mask is set, else `no` (bits copied, no arithmetic).
inline LanePair select(LaneMask m, LanePair yes, LanePair no)
{
    return {_mm_or_pd(_mm_and_pd(m.bits, yes.v), _mm_andnot_pd(m.bits, no.v))};
}

/// Two vectors, one per lane.
struct Vec3Lanes {
    LanePair x, y, z;
};

inline Vec3Lanes lanes(const Vec3& first, const Vec3& second)
{
    return {lanes(first.x(), second.x()), lanes(first.y(), second.y()), lanes(first.z(), second.z())};
}
inline Vec3 firstLane(const Vec3Lanes& a)
{
    return {firstLane(a.x), firstLane(a.y), firstLane(a.z)};
}
inline Vec3 secondLane(const Vec3Lanes& a)
{
    return {secondLane(a.x), secondLane(a.y), secondLane(a.z)};
}
inline Vec3Lanes operator+(const Vec3Lanes& a, const Vec3Lanes& b)
{
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec3Lanes operator-(const Vec3Lanes& a, const Vec3Lanes& b)
{
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec3Lanes operator*(LanePair s, const Vec3Lanes& a)
{
    return {s * a.x, s * a.y, s * a.z};
}
inline Vec3Lanes operator/(const Vec3Lanes& a, LanePair s)
{
    return {a.x / s, a.y / s, a.z / s};
}
/// Eigen's order: (x x' + y y') + z z'.
inline LanePair dot(const Vec3Lanes& a, const Vec3Lanes& b)
{
    return ((a.x * b.x) + (a.y * b.y)) + (a.z * b.z);
}
/// Eigen's order, component by component.
inline Vec3Lanes cross(const Vec3Lanes& a, const Vec3Lanes& b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline Vec3Lanes select(LaneMask m, const Vec3Lanes& yes, const Vec3Lanes& no)
{
    return {select(m, yes.x, no.x), select(m, yes.y, no.y), select(m, yes.z, no.z)};
}

/// Grains' predicted motion, one grain per lane.
struct BodyLanes {
    Vec3Lanes velocity;         ///< m/s
    Vec3Lanes angularVelocity;  ///< rad/s
    LanePair inverseMass;       ///< 1/kg
    LanePair inverseInertia;    ///< 1/(kg m^2)
};

inline BodyLanes lanes(const PredictedMotion::PredictedBody& first, const PredictedMotion::PredictedBody& second)
{
    return {lanes(first.velocity, second.velocity), lanes(first.angularVelocity, second.angularVelocity),
            lanes(first.inverseMass, second.inverseMass), lanes(first.inverseInertia, second.inverseInertia)};
}

/// The update of two contacts between grains that share no grain, at once: each gets its new force R (eq. 23 and 34,
/// as contactForce with nothing added to the free velocity), the change dR is applied to its grains' predicted motion
/// (as applyImpulseToGrains) and R is stored in the contact. `firstChange`, `secondChange` get the two dR (N).
inline void updateGrainContacts(Contact& first, Contact& second, const ShockCoefficients& kFirst,
                                const ShockCoefficients& kSecond, PredictedMotion& motion, double dt, Vec3& firstChange,
                                Vec3& secondChange)
{
    PredictedMotion::PredictedBody& first0 = motion.body(static_cast<std::size_t>(first.partner));
    PredictedMotion::PredictedBody& first1 = motion.body(static_cast<std::size_t>(first.particle));
    PredictedMotion::PredictedBody& second0 = motion.body(static_cast<std::size_t>(second.partner));
    PredictedMotion::PredictedBody& second1 = motion.body(static_cast<std::size_t>(second.particle));
    const BodyLanes body0 = lanes(first0, second0);
    const BodyLanes body1 = lanes(first1, second1);
    const Vec3Lanes n = lanes(first.normal, second.normal);
    const Vec3Lanes lever0 = lanes(first.lever0, second.lever0);
    const Vec3Lanes lever1 = lanes(first.lever1, second.lever1);
    const Vec3Lanes force = lanes(first.force, second.force);
    const LanePair step = broadcast(dt);

    // contact velocity and freeRelativeVelocity (eq. 23)
    const Vec3Lanes V = (body1.velocity + cross(body1.angularVelocity, lever1)) -
                        (body0.velocity + cross(body0.angularVelocity, lever0));
    const LanePair Rn = dot(force, n);
    const Vec3Lanes Rt = force - Rn * n;
    const LanePair normalShare = Rn / lanes(first.normalMass, second.normalMass);
    const Vec3Lanes U = V - step * (normalShare * n + Rt / lanes(first.tangentialMass, second.tangentialMass));

    // shockLaw (eq. 34)
    const LanePair Un = dot(U, n);
    const LaneMask open = (lanes(kFirst.gapPositive, kSecond.gapPositive) + Un * step) > broadcast(0.0);
    const LanePair newRn =
        lanes(-kFirst.normalRate, -kSecond.normalRate) * (lanes(kFirst.gapRate, kSecond.gapRate) + Un);
    Vec3Lanes newRt = lanes(-kFirst.tangentialRate, -kSecond.tangentialRate) * (U - Un * n);
    const LanePair limit = lanes(kFirst.friction, kSecond.friction) * newRn;
    const LanePair squared = dot(newRt, newRt);
    const LaneMask nearCone = squared > broadcast(0.999999) * (limit * limit);
    if (anyLane(nearCone)) {
        const LanePair RtNorm = sqrt(squared);
        const LaneMask sliding = nearCone & (RtNorm > limit);
        const LanePair scale = limit / select(sliding, RtNorm, broadcast(1.0));
        newRt = select(sliding, scale * newRt, newRt);
    }
    const Vec3Lanes zero{broadcast(0.0), broadcast(0.0), broadcast(0.0)};
    const Vec3Lanes R = select(open, zero, newRn * n + newRt);
    const Vec3Lanes dR = R - force;

    // PredictedBody::receive and react
    const Vec3Lanes v1 = body1.velocity + (step * body1.inverseMass) * dR;
    const Vec3Lanes w1 = body1.angularVelocity + (step * body1.inverseInertia) * cross(lever1, dR);
    const Vec3Lanes v0 = body0.velocity - (step * body0.inverseMass) * dR;
    const Vec3Lanes w0 = body0.angularVelocity - (step * body0.inverseInertia) * cross(lever0, dR);
    first1.velocity = firstLane(v1);
    first1.angularVelocity = firstLane(w1);
    second1.velocity = secondLane(v1);
    second1.angularVelocity = secondLane(w1);
    first0.velocity = firstLane(v0);
    first0.angularVelocity = firstLane(w0);
    second0.velocity = secondLane(v0);
    second0.angularVelocity = secondLane(w0);
    first.force = firstLane(R);
    second.force = secondLane(R);
    firstChange = firstLane(dR);
    secondChange = secondLane(dR);
}

#else

inline constexpr bool kGrainContactLanes = false;

#endif

}  // namespace granular
