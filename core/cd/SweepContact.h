#pragma once

#include "cd/ContactUpdate.h"
#include "cd/LaneArithmetic.h"
#include "model/Contact.h"
#include "model/Particles.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace granular {

/// What one update of the Gauss-Seidel sweeps reads and writes of a contact, in two cache lines (the sweeps visit
/// the contacts in random order, so each record is a fresh memory access): made from the Contact at the step's
/// start, its force given back at the end. The force is kept in the contact's frame, R = R_n n + R_t, and the shock
/// law's constants of the step with it. CD's contact point lies on each grain's surface along the normal
/// (refreshGeometry): the lever arms are r0 n (body 0) and -r1 n (body 1), so two lengths stand for them.
struct alignas(64) SweepContact {
    /// Body 0: a grain (a grain pair), or the slot of the contact in the sweeps' boundary velocities (a wall or the
    /// drum; unused for the piston).
    std::int32_t body0 = 0;
    std::int32_t body1 = 0;  ///< the grain of body 1
    ContactKind kind = ContactKind::Particle;
    std::uint32_t openAt = 0;  ///< the sweeps' tick at which the contact was last found staying open (OpenContactTicks)
    Vector3Of<double> normal{0.0, 0.0, 0.0};           ///< unit, from body 0 to body 1
    double lever0 = 0.0;                               ///< m, r0: body 0's lever arm is r0 n (0 for a boundary)
    double lever1 = 0.0;                               ///< m, r1: body 1's lever arm is -r1 n
    double normalForce = 0.0;                          ///< N, R_n = R . n (the first cache line ends here)
    Vector3Of<double> tangentialForce{0.0, 0.0, 0.0};  ///< N, R_t = R - R_n n
    double normalRate = 0.0;                           ///< kg/s, m_n / dt (eq. 17)
    double tangentialRate = 0.0;                       ///< kg/s, m_t / dt (eq. 18)
    double gapRate = 0.0;                              ///< m/s, g_pos / dt with g_pos = max(g, 0) (eq. 34)
    double friction = 0.0;                             ///< 1, Coulomb mu of the contact
};

static_assert(sizeof(SweepContact) == 128, "a sweep record is two cache lines");
static_assert(offsetof(SweepContact, normal) == 16, "the tick fills the padding before the normal");

inline Vector3Of<double> components(const Vec3& v)
{
    return {v.x(), v.y(), v.z()};
}
inline Vec3 toVec3(const Vector3Of<double>& v)
{
    return {v.x, v.y, v.z};
}
inline Vec3 toVec3(const Vector2Of<double>& v)
{
    return {v.x, v.y, 0.0};
}

/// A stored vector (3 components) as the update's vector: all of it in 3D, its x-y part in 2D (z = 0 there).
template <class Vec> Vec inSpace(const Vector3Of<double>& v)
{
    if constexpr (std::is_same_v<Vec, Vector3Of<double>>) {
        return v;
    } else {
        return {v.x, v.y};
    }
}
/// A stored angular vector as the update's: all of it in 3D, its z component in 2D.
template <class Vec> SpinOf<Vec> spinInSpace(const Vector3Of<double>& w)
{
    if constexpr (std::is_same_v<Vec, Vector3Of<double>>) {
        return w;
    } else {
        return w.z;
    }
}
/// Stores the update's vector (its components one by one: a copy of the whole went through the stack, and its reload
/// as one 16-byte word waited on two 8-byte stores, a failed store forwarding that took ~20 % of the sweep).
inline void store(Vector3Of<double>& to, const Vector3Of<double>& from)
{
    to.x = from.x;
    to.y = from.y;
    to.z = from.z;
}
inline void store(Vector3Of<double>& to, const Vector2Of<double>& from)
{
    to.x = from.x;
    to.y = from.y;
}
/// Stores the update's angular vector (2D: the z component).
inline void storeSpin(Vector3Of<double>& to, const Vector3Of<double>& from)
{
    store(to, from);
}
inline void storeSpin(Vector3Of<double>& to, double z)
{
    to.z = z;
}

/// The record of contact `c` between grains of radii `p.radius`, with Coulomb's mu `friction`, for the step dt;
/// `boundarySlot` is body0 for a wall or drum contact.
inline SweepContact sweepContact(const Contact& c, const Particles& p, double friction, double dt,
                                 std::int32_t boundarySlot)
{
    SweepContact s;
    const bool pair = c.kind == ContactKind::Particle;
    s.body0 = pair ? c.partner : boundarySlot;
    s.body1 = c.particle;
    s.kind = c.kind;
    s.normal = components(c.normal);
    s.lever0 = pair ? p.radius[static_cast<std::size_t>(c.partner)] : 0.0;
    s.lever1 = p.radius[static_cast<std::size_t>(c.particle)];
    const Vector3Of<double> R = components(c.force);
    s.normalForce = dot(R, s.normal);
    s.tangentialForce = R - s.normalForce * s.normal;
    s.normalRate = c.normalMass / dt;
    s.tangentialRate = c.tangentialMass / dt;
    s.gapRate = std::max(c.gap, 0.0) / dt;
    s.friction = friction;
    return s;
}

/// R = R_n n + R_t, N.
inline Vec3 contactForce(const SweepContact& s)
{
    return toVec3(s.normalForce * s.normal + s.tangentialForce);
}

/// The record's normal and force as the update's vectors.
template <class Vec> Vec normalOf(const SweepContact& s)
{
    return inSpace<Vec>(s.normal);
}
template <class Vec> FrameForce<Vec> forceOf(const SweepContact& s)
{
    return {s.normalForce, inSpace<Vec>(s.tangentialForce)};
}
template <class Vec> void setForce(SweepContact& s, const FrameForce<Vec>& R)
{
    s.normalForce = R.normal;
    store(s.tangentialForce, R.tangential);
}
/// The record's shock-law constants.
inline ShockRates<double> ratesOf(const SweepContact& s)
{
    return {s.normalRate, s.tangentialRate, s.gapRate, s.friction};
}

}  // namespace granular
