#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cmath>
#include <type_traits>

namespace granular {

// The arithmetic that a contact update is written in (ContactUpdate.h), for two number types: `double`, one contact at
// a time, and `LanePair`, two contacts side by side in the lanes of an SSE2 register. Every LanePair operation is the
// IEEE operation of its double counterpart in each lane, nothing fused, so an update written once for both gives each
// lane the scalar result bit for bit. A comparison gives a mask (bool, LaneMask); select() picks per lane.

/// Per lane: `yes` where the mask holds, else `no`.
inline double select(bool mask, double yes, double no)
{
    return mask ? yes : no;
}
/// The square root of the lane types, for one lane.
inline double sqrt(double a)
{
    return std::sqrt(a);
}
/// Whether the mask holds in any lane (one lane: whether it holds).
inline bool anyLane(bool mask)
{
    return mask;
}

#if defined(__SSE2__)

/// Whether this build has the two-lane type (it computes two contact updates side by side).
inline constexpr bool kLanePairs = true;

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
inline LaneMask operator<(LanePair a, LanePair b)
{
    return {_mm_cmplt_pd(a.v, b.v)};
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

#else

inline constexpr bool kLanePairs = false;

#endif

/// A number of the update's type from a constant (every lane the same).
template <class Real> Real constant(double value)
{
    if constexpr (std::is_same_v<Real, double>) {
        return value;
    } else {
#if defined(__SSE2__)
        return broadcast(value);
#endif
    }
}

/// A 3-vector of the update's number type (one vector per lane). Its operations are written out component by
/// component in a fixed order, so that every number type rounds alike.
template <class R> struct Vector3Of {
    using Real = R;
    Real x, y, z;
};

/// A vector in the x-y plane of a 2D world (z = 0, not stored), likewise.
template <class R> struct Vector2Of {
    using Real = R;
    Real x, y;
};

template <class Real> Vector2Of<Real> operator+(const Vector2Of<Real>& a, const Vector2Of<Real>& b)
{
    return {a.x + b.x, a.y + b.y};
}
template <class Real> Vector2Of<Real> operator-(const Vector2Of<Real>& a, const Vector2Of<Real>& b)
{
    return {a.x - b.x, a.y - b.y};
}
template <class Real> Vector2Of<Real> operator*(Real s, const Vector2Of<Real>& a)
{
    return {s * a.x, s * a.y};
}
/// x x' + y y'.
template <class Real> Real dot(const Vector2Of<Real>& a, const Vector2Of<Real>& b)
{
    return (a.x * b.x) + (a.y * b.y);
}
/// The z component of a x b (the others are 0).
template <class Real> Real cross(const Vector2Of<Real>& a, const Vector2Of<Real>& b)
{
    return a.x * b.y - a.y * b.x;
}
template <class Real, class Mask> Vector2Of<Real> select(Mask m, const Vector2Of<Real>& yes, const Vector2Of<Real>& no)
{
    return {select(m, yes.x, no.x), select(m, yes.y, no.y)};
}

template <class Real> Vector3Of<Real> operator+(const Vector3Of<Real>& a, const Vector3Of<Real>& b)
{
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class Real> Vector3Of<Real> operator-(const Vector3Of<Real>& a, const Vector3Of<Real>& b)
{
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class Real> Vector3Of<Real> operator*(Real s, const Vector3Of<Real>& a)
{
    return {s * a.x, s * a.y, s * a.z};
}
/// (x x' + y y') + z z'.
template <class Real> Real dot(const Vector3Of<Real>& a, const Vector3Of<Real>& b)
{
    return ((a.x * b.x) + (a.y * b.y)) + (a.z * b.z);
}
template <class Real> Vector3Of<Real> cross(const Vector3Of<Real>& a, const Vector3Of<Real>& b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class Real, class Mask> Vector3Of<Real> select(Mask m, const Vector3Of<Real>& yes, const Vector3Of<Real>& no)
{
    return {select(m, yes.x, no.x), select(m, yes.y, no.y), select(m, yes.z, no.z)};
}

}  // namespace granular
