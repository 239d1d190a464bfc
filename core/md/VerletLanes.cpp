#include "md/VerletLanes.h"

#include "md/PairLanes.h"
#include "md/VerletLaneGroups.h"
#include "util/Avx512Intrinsics.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

namespace granular::md {

bool verletLanesOn()
{
    return pairLanesOn();
}

std::size_t driftLanes(const GrainDrift& drift, std::size_t first, std::size_t last, DisplacementBound& bound)
{
    switch (pairLaneWidth()) {
    case kVerletLanes:
        return avx512::driftGroups(drift, first, last, bound);
    case avx2::kWidth:
        return avx2::driftGroups(drift, first, last, bound);
    default:
        return 0;
    }
}

std::size_t kickLanes(const GrainKickArrays& kick, std::size_t first, std::size_t last)
{
    switch (pairLaneWidth()) {
    case kVerletLanes:
        return avx512::kickGroups(kick, first, last);
    case avx2::kWidth:
        return avx2::kickGroups(kick, first, last);
    default:
        return 0;
    }
}

namespace avx512 {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

namespace {

// Eight grains' 3-vectors as they lie in memory: 24 doubles in three registers, lane l of register r holding component
// (8 r + l) mod 3 of grain (8 r + l) / 3. A grain's own values (mass, inertia) are spread over its three components,
// so every component's arithmetic is that of the scalar code in its lane, with no reordering of the vectors (this file
// is compiled with -ffp-contract=off, as all of core: nothing is fused).
struct Flat {
    __m512d r0;
    __m512d r1;
    __m512d r2;
};

/// A mask per register of a Flat.
using FlatMask = std::array<__mmask8, 3>;

/// Eight doubles' indices, for the permutations.
using LaneIndex = std::array<std::int64_t, 8>;

[[gnu::target("avx512f"), gnu::always_inline]] inline __m512i indexOf(const LaneIndex& index)
{
    return _mm512_loadu_si512(index.data());
}

[[gnu::target("avx512f"), gnu::always_inline]] inline Flat load(const Vec3* v)
{
    const double* d = v->data();
    return {_mm512_loadu_pd(d), _mm512_loadu_pd(d + 8), _mm512_loadu_pd(d + 16)};
}

[[gnu::target("avx512f"), gnu::always_inline]] inline void store(Vec3* v, const Flat& a)
{
    double* d = v->data();
    _mm512_storeu_pd(d, a.r0);
    _mm512_storeu_pd(d + 8, a.r1);
    _mm512_storeu_pd(d + 16, a.r2);
}

[[gnu::target("avx512f"), gnu::always_inline]] inline Flat operator+(const Flat& a, const Flat& b)
{
    return {_mm512_add_pd(a.r0, b.r0), _mm512_add_pd(a.r1, b.r1), _mm512_add_pd(a.r2, b.r2)};
}

[[gnu::target("avx512f"), gnu::always_inline]] inline Flat operator*(const Flat& a, const Flat& b)
{
    return {_mm512_mul_pd(a.r0, b.r0), _mm512_mul_pd(a.r1, b.r1), _mm512_mul_pd(a.r2, b.r2)};
}

/// s a, for a scalar s (in every lane).
[[gnu::target("avx512f"), gnu::always_inline]] inline Flat operator*(__m512d s, const Flat& a)
{
    return {_mm512_mul_pd(s, a.r0), _mm512_mul_pd(s, a.r1), _mm512_mul_pd(s, a.r2)};
}

/// Per lane: `yes` where the mask holds, else `no`.
[[gnu::target("avx512f"), gnu::always_inline]] inline Flat select(const FlatMask& mask, const Flat& yes, const Flat& no)
{
    return {_mm512_mask_blend_pd(mask[0], no.r0, yes.r0), _mm512_mask_blend_pd(mask[1], no.r1, yes.r1),
            _mm512_mask_blend_pd(mask[2], no.r2, yes.r2)};
}

/// Which of the eight grains lane l of register r belongs to.
constexpr std::array<LaneIndex, 3> kGrainOfLane{
    {{0, 0, 0, 1, 1, 1, 2, 2}, {2, 3, 3, 3, 4, 4, 4, 5}, {5, 5, 6, 6, 6, 7, 7, 7}}};

/// Eight per-grain values (lane g: grain g) spread over their grains' components.
[[gnu::target("avx512f"), gnu::always_inline]] inline Flat spread(__m512d perGrain)
{
    return {_mm512_permutexvar_pd(indexOf(kGrainOfLane[0]), perGrain),
            _mm512_permutexvar_pd(indexOf(kGrainOfLane[1]), perGrain),
            _mm512_permutexvar_pd(indexOf(kGrainOfLane[2]), perGrain)};
}

/// A mask of eight grains (bit g: grain g) spread over their components.
[[gnu::always_inline]] inline FlatMask spread(__mmask8 perGrain)
{
    if (perGrain == 0xFF) {  // every grain mobile, as nearly always
        return {0xFF, 0xFF, 0xFF};
    }
    FlatMask out{};
    for (std::size_t r = 0; r < 3; ++r) {
        unsigned bits = 0;
        for (std::size_t lane = 0; lane < 8; ++lane) {
            bits |= ((static_cast<unsigned>(perGrain) >> kGrainOfLane.at(r).at(lane)) & 1U) << lane;
        }
        out.at(r) = static_cast<__mmask8>(bits);
    }
    return out;
}

/// The 24 doubles of eight grains' 3-vectors.
using FlatValues = std::array<double, 24>;

/// Where lane l of each register finds its component of a 3-vector: (8 r + l) mod 3.
constexpr std::array<LaneIndex, 3> kComponentOfLane{
    {{0, 1, 2, 0, 1, 2, 0, 1}, {2, 0, 1, 2, 0, 1, 2, 0}, {1, 2, 0, 1, 2, 0, 1, 2}}};

/// A 3-vector repeated along the lanes as eight grains' components lie.
[[gnu::target("avx512f"), gnu::always_inline]] inline Flat repeated(const Vec3& v)
{
    const __m512d xyz = _mm512_set_pd(0.0, 0.0, 0.0, 0.0, 0.0, v.z(), v.y(), v.x());
    return {_mm512_permutexvar_pd(indexOf(kComponentOfLane[0]), xyz),
            _mm512_permutexvar_pd(indexOf(kComponentOfLane[1]), xyz),
            _mm512_permutexvar_pd(indexOf(kComponentOfLane[2]), xyz)};
}

// The x, y and z components of the eight grains out of the three registers (index of the 24 doubles: 3 g + c), each
// by two two-source permutations: the first takes what lies in registers 0 and 1, the second adds register 2's.
constexpr std::array<LaneIndex, 3> kFromFirstTwo{
    {{0, 3, 6, 9, 12, 15, 0, 0}, {1, 4, 7, 10, 13, 0, 0, 0}, {2, 5, 8, 11, 14, 0, 0, 0}}};
constexpr std::array<LaneIndex, 3> kWithThird{
    {{0, 1, 2, 3, 4, 5, 10, 13}, {0, 1, 2, 3, 4, 8, 11, 14}, {0, 1, 2, 3, 4, 9, 12, 15}}};

/// Component c of the eight grains, lane g: grain g.
[[gnu::target("avx512f"), gnu::always_inline]] inline __m512d component(const Flat& a, std::size_t c)
{
    const __m512d firstTwo = _mm512_permutex2var_pd(a.r0, indexOf(kFromFirstTwo.at(c)), a.r1);
    return _mm512_permutex2var_pd(firstTwo, indexOf(kWithThird.at(c)), a.r2);
}

/// The lanes of `fold` (a minimum or maximum), register by register, that hold component c; `start` is its identity.
template <class Fold>
[[gnu::target("avx512f"), gnu::always_inline]] inline double foldComponent(const Flat& a, std::size_t c, double start,
                                                                           const Fold& fold)
{
    FlatValues values{};
    _mm512_storeu_pd(values.data(), a.r0);
    _mm512_storeu_pd(values.data() + 8, a.r1);
    _mm512_storeu_pd(values.data() + 16, a.r2);
    double value = start;
    for (std::size_t k = c; k < values.size(); k += 3) {
        value = fold(value, values.at(k));
    }
    return value;
}

}  // namespace

[[gnu::target("avx512f")]] std::size_t driftGroups(const GrainDrift& drift, std::size_t first, std::size_t last,
                                                   DisplacementBound& bound)
{
    if (last < first + kVerletLanes) {
        return 0;
    }
    const __m512d halfDt = _mm512_set1_pd(0.5 * drift.dt);
    const __m512d dt = _mm512_set1_pd(drift.dt);
    const __m512d scale = _mm512_set1_pd(drift.scale);
    const __m512d one = _mm512_set1_pd(1.0);
    const __m512d infinity = _mm512_set1_pd(std::numeric_limits<double>::infinity());
    const __m512d largestFinite = _mm512_set1_pd(std::numeric_limits<double>::max());
    const Flat gravity = repeated(drift.gravity);
    // The bound's parts lane by lane: the largest square of each lane's grains, the box of each lane's components.
    __m512d largestSquare = _mm512_setzero_pd();
    __mmask8 finite = 0xFF;
    Flat lower{infinity, infinity, infinity};
    const __m512d negativeInfinity = _mm512_set1_pd(-std::numeric_limits<double>::infinity());
    Flat upper{negativeInfinity, negativeInfinity, negativeInfinity};
    std::size_t i = first;
    for (; i + kVerletLanes <= last; i += kVerletLanes) {
        const __m512d mass = _mm512_loadu_pd(drift.mass + i);
        // isMobile: a finite mass (|m| < infinity, false for NaN).
        const __mmask8 mobile = _mm512_cmp_pd_mask(_mm512_abs_pd(mass), infinity, _CMP_LT_OQ);
        const FlatMask mobileLanes = spread(mobile);
        const Flat inverseMass = spread(_mm512_div_pd(one, mass));
        const Flat rotation = spread(_mm512_div_pd(halfDt, _mm512_loadu_pd(drift.inertia + i)));
        const Flat velocity = load(drift.velocity + i);
        // v + dt/2 (F + D + F_ext)/m + dt/2 g, in the scalar code's order: v + (dt/2) ((1/m) ((F + D) + F_ext) + g).
        const Flat kicked = velocity + halfDt * (inverseMass * ((load(drift.force + i) + load(drift.damping + i)) +
                                                                load(drift.externalForce + i)) +
                                                 gravity);
        const Flat half = select(mobileLanes, kicked, velocity);
        store(drift.halfVelocity + i, half);
        store(drift.halfAngularVelocity + i, load(drift.angularVelocity + i) + rotation * load(drift.torque + i));
        const Flat step = dt * half;
        store(drift.position + i, scale * load(drift.position + i) + step);
        const Flat displacement = load(drift.displacement + i) + step;
        store(drift.displacement + i, displacement);
        // DisplacementBound::add: |d|^2 as Eigen's squaredNorm, (x x + y y) + z z; std::max(largest, square) and
        // std::min(lower, d), std::max(upper, d) as the instructions' operand order gives them (the second operand
        // where the two are equal or one is NaN).
        const Flat squares = displacement * displacement;
        const __m512d square =
            _mm512_add_pd(_mm512_add_pd(component(squares, 0), component(squares, 1)), component(squares, 2));
        largestSquare = _mm512_max_pd(square, largestSquare);
        finite = static_cast<__mmask8>(finite & _mm512_cmp_pd_mask(square, largestFinite, _CMP_LE_OQ));
        lower = {_mm512_min_pd(displacement.r0, lower.r0), _mm512_min_pd(displacement.r1, lower.r1),
                 _mm512_min_pd(displacement.r2, lower.r2)};
        upper = {_mm512_max_pd(displacement.r0, upper.r0), _mm512_max_pd(displacement.r1, upper.r1),
                 _mm512_max_pd(displacement.r2, upper.r2)};
    }
    std::array<double, 8> squares{};
    _mm512_storeu_pd(squares.data(), largestSquare);
    double largest = 0.0;
    for (const double square : squares) {
        largest = std::max(largest, square);
    }
    Vec3 low;
    Vec3 high;
    for (std::size_t c = 0; c < 3; ++c) {
        low[static_cast<Eigen::Index>(c)] = foldComponent(lower, c, std::numeric_limits<double>::infinity(),
                                                          [](double a, double b) { return std::min(a, b); });
        high[static_cast<Eigen::Index>(c)] = foldComponent(upper, c, -std::numeric_limits<double>::infinity(),
                                                           [](double a, double b) { return std::max(a, b); });
    }
    bound.merge(DisplacementBound::ofParts(largest, finite == 0xFF, low, high));
    return i - first;
}

[[gnu::target("avx512f")]] std::size_t kickGroups(const GrainKickArrays& kick, std::size_t first, std::size_t last)
{
    if (last < first + kVerletLanes) {
        return 0;
    }
    const __m512d halfDt = _mm512_set1_pd(0.5 * kick.dt);
    const __m512d dt = _mm512_set1_pd(kick.dt);
    const __m512d one = _mm512_set1_pd(1.0);
    const __m512d infinity = _mm512_set1_pd(std::numeric_limits<double>::infinity());
    const Flat gravity = repeated(kick.gravity);
    std::size_t i = first;
    for (; i + kVerletLanes <= last; i += kVerletLanes) {
        const __m512d mass = _mm512_loadu_pd(kick.mass + i);
        const __mmask8 mobile = _mm512_cmp_pd_mask(_mm512_abs_pd(mass), infinity, _CMP_LT_OQ);
        const FlatMask mobileLanes = spread(mobile);
        const __m512d perGrainInverseMass = _mm512_div_pd(one, mass);
        const Flat inverseMass = spread(perGrainInverseMass);
        const Flat halfStepOverMass = spread(_mm512_mul_pd(halfDt, perGrainInverseMass));  // (0.5 dt) (1/m)
        const Flat rotation = spread(_mm512_div_pd(halfDt, _mm512_loadu_pd(kick.inertia + i)));
        const Flat velocity = load(kick.velocity + i);
        // v + ((dt/2m) (F + F') + (1/m) J') + dt (g + (1/m) F_ext), Eigen's left-to-right sums.
        const Flat kicked = velocity + ((halfStepOverMass * (load(kick.force + i) + load(kick.nextForce + i)) +
                                         inverseMass * load(kick.nextImpulse + i)) +
                                        dt * (gravity + inverseMass * load(kick.externalForce + i)));
        store(kick.velocity + i, select(mobileLanes, kicked, velocity));
        store(kick.angularVelocity + i,
              load(kick.angularVelocity + i) + rotation * (load(kick.torque + i) + load(kick.nextTorque + i)));
    }
    return i - first;
}

#else

std::size_t driftGroups(const GrainDrift& /*drift*/, std::size_t /*first*/, std::size_t /*last*/,
                        DisplacementBound& /*bound*/)
{
    return 0;
}

std::size_t kickGroups(const GrainKickArrays& /*kick*/, std::size_t /*first*/, std::size_t /*last*/)
{
    return 0;
}

#endif

}  // namespace avx512

}  // namespace granular::md
