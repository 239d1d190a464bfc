// driftLanes() and kickLanes() four grains at a time, in the lanes of AVX2 registers (md/VerletLaneGroups.h): the
// width of processors without AVX-512F. The same arithmetic as the eight lanes of md/VerletLanes.cpp in the same
// order, on a layout of four grains' components in three registers.
#include "md/VerletLaneGroups.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
#include <limits>

namespace granular::md::avx2 {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

namespace {

// Four grains' 3-vectors as they lie in memory: 12 doubles in three registers, lane l of register r holding component
// (4 r + l) mod 3 of grain (4 r + l) / 3: (x0 y0 z0 x1) (y1 z1 x2 y2) (z2 x3 y3 z3). A grain's own values (mass,
// inertia) are spread over its three components, so every component's arithmetic is that of the scalar code in its
// lane (core is compiled with -ffp-contract=off: nothing is fused).
struct Flat {
    __m256d r0;
    __m256d r1;
    __m256d r2;
};

[[gnu::target("avx2"), gnu::always_inline]] inline Flat load(const Vec3* v)
{
    const double* d = v->data();
    return {_mm256_loadu_pd(d), _mm256_loadu_pd(d + 4), _mm256_loadu_pd(d + 8)};
}

[[gnu::target("avx2"), gnu::always_inline]] inline void store(Vec3* v, const Flat& a)
{
    double* d = v->data();
    _mm256_storeu_pd(d, a.r0);
    _mm256_storeu_pd(d + 4, a.r1);
    _mm256_storeu_pd(d + 8, a.r2);
}

[[gnu::target("avx2"), gnu::always_inline]] inline Flat operator+(const Flat& a, const Flat& b)
{
    return {_mm256_add_pd(a.r0, b.r0), _mm256_add_pd(a.r1, b.r1), _mm256_add_pd(a.r2, b.r2)};
}

[[gnu::target("avx2"), gnu::always_inline]] inline Flat operator*(const Flat& a, const Flat& b)
{
    return {_mm256_mul_pd(a.r0, b.r0), _mm256_mul_pd(a.r1, b.r1), _mm256_mul_pd(a.r2, b.r2)};
}

/// s a, for a scalar s (in every lane).
[[gnu::target("avx2"), gnu::always_inline]] inline Flat operator*(__m256d s, const Flat& a)
{
    return {_mm256_mul_pd(s, a.r0), _mm256_mul_pd(s, a.r1), _mm256_mul_pd(s, a.r2)};
}

/// Per lane: `yes` where the mask (all bits of a lane set, or none) holds, else `no`.
[[gnu::target("avx2"), gnu::always_inline]] inline Flat select(const Flat& mask, const Flat& yes, const Flat& no)
{
    return {_mm256_blendv_pd(no.r0, yes.r0, mask.r0), _mm256_blendv_pd(no.r1, yes.r1, mask.r1),
            _mm256_blendv_pd(no.r2, yes.r2, mask.r2)};
}

/// Four per-grain values or truths (lane g: grain g) spread over their grains' components: (0 0 0 1) (1 1 2 2)
/// (2 3 3 3), a permutation's selector holding two bits per lane, lane 0 lowest.
[[gnu::target("avx2"), gnu::always_inline]] inline Flat spread(__m256d perGrain)
{
    return {_mm256_permute4x64_pd(perGrain, 0x40), _mm256_permute4x64_pd(perGrain, 0xA5),
            _mm256_permute4x64_pd(perGrain, 0xFE)};
}

/// A 3-vector repeated along the lanes as four grains' components lie.
[[gnu::target("avx2"), gnu::always_inline]] inline Flat repeated(const Vec3& v)
{
    return {_mm256_setr_pd(v.x(), v.y(), v.z(), v.x()), _mm256_setr_pd(v.y(), v.z(), v.x(), v.y()),
            _mm256_setr_pd(v.z(), v.x(), v.y(), v.z())};
}

/// Component c of the four grains, lane g: grain g. Two blends gather the component's four lanes out of the three
/// registers, a permutation puts them in the grains' order:
///   x: (x0 y0 x2 x1) (x0 x3 x2 x1) -> (0 3 2 1);  y: (y1 y0 z0 y2) (y1 y0 y3 y2) -> (1 0 3 2);
///   z: (x0 z1 z0 x1) (z2 z1 z0 z3) -> (2 1 0 3).
[[gnu::target("avx2"), gnu::always_inline]] inline __m256d component(const Flat& a, std::size_t c)
{
    if (c == 0) {
        return _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a.r0, a.r1, 0x4), a.r2, 0x2), 0x6C);
    }
    if (c == 1) {
        return _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a.r0, a.r1, 0x9), a.r2, 0x4), 0xB1);
    }
    return _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a.r0, a.r1, 0x2), a.r2, 0x9), 0xC6);
}

/// Whether each grain is mobile: a finite mass, |m| < infinity (false for NaN), all bits of its lane set.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256d mobile(__m256d mass)
{
    const __m256d magnitude = _mm256_andnot_pd(_mm256_set1_pd(-0.0), mass);
    return _mm256_cmp_pd(magnitude, _mm256_set1_pd(std::numeric_limits<double>::infinity()), _CMP_LT_OQ);
}

/// The lanes of `fold` (a minimum or maximum), register by register, that hold component c; `start` is its identity.
template <class Fold>
[[gnu::target("avx2"), gnu::always_inline]] inline double foldComponent(const Flat& a, std::size_t c, double start,
                                                                        const Fold& fold)
{
    std::array<double, 12> values{};
    _mm256_storeu_pd(values.data(), a.r0);
    _mm256_storeu_pd(values.data() + 4, a.r1);
    _mm256_storeu_pd(values.data() + 8, a.r2);
    double value = start;
    for (std::size_t k = c; k < values.size(); k += 3) {
        value = fold(value, values.at(k));
    }
    return value;
}

}  // namespace

[[gnu::target("avx2")]] std::size_t driftGroups(const GrainDrift& drift, std::size_t first, std::size_t last,
                                                DisplacementBound& bound)
{
    if (last < first + kWidth) {
        return 0;
    }
    const __m256d halfDt = _mm256_set1_pd(0.5 * drift.dt);
    const __m256d dt = _mm256_set1_pd(drift.dt);
    const __m256d scale = _mm256_set1_pd(drift.scale);
    const __m256d one = _mm256_set1_pd(1.0);
    const __m256d infinity = _mm256_set1_pd(std::numeric_limits<double>::infinity());
    const __m256d largestFinite = _mm256_set1_pd(std::numeric_limits<double>::max());
    const Flat gravity = repeated(drift.gravity);
    // The bound's parts lane by lane: the largest square of each lane's grains, the box of each lane's components.
    __m256d largestSquare = _mm256_setzero_pd();
    __m256d finite = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    Flat lower{infinity, infinity, infinity};
    const __m256d negativeInfinity = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
    Flat upper{negativeInfinity, negativeInfinity, negativeInfinity};
    std::size_t i = first;
    for (; i + kWidth <= last; i += kWidth) {
        const __m256d mass = _mm256_loadu_pd(drift.mass + i);
        const Flat mobileLanes = spread(mobile(mass));
        const Flat inverseMass = spread(_mm256_div_pd(one, mass));
        const Flat rotation = spread(_mm256_div_pd(halfDt, _mm256_loadu_pd(drift.inertia + i)));
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
        const __m256d square =
            _mm256_add_pd(_mm256_add_pd(component(squares, 0), component(squares, 1)), component(squares, 2));
        largestSquare = _mm256_max_pd(square, largestSquare);
        finite = _mm256_and_pd(finite, _mm256_cmp_pd(square, largestFinite, _CMP_LE_OQ));
        lower = {_mm256_min_pd(displacement.r0, lower.r0), _mm256_min_pd(displacement.r1, lower.r1),
                 _mm256_min_pd(displacement.r2, lower.r2)};
        upper = {_mm256_max_pd(displacement.r0, upper.r0), _mm256_max_pd(displacement.r1, upper.r1),
                 _mm256_max_pd(displacement.r2, upper.r2)};
    }
    std::array<double, kWidth> squares{};
    _mm256_storeu_pd(squares.data(), largestSquare);
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
    bound.merge(DisplacementBound::ofParts(largest, _mm256_movemask_pd(finite) == 0xF, low, high));
    return i - first;
}

[[gnu::target("avx2")]] std::size_t kickGroups(const GrainKickArrays& kick, std::size_t first, std::size_t last)
{
    if (last < first + kWidth) {
        return 0;
    }
    const __m256d halfDt = _mm256_set1_pd(0.5 * kick.dt);
    const __m256d dt = _mm256_set1_pd(kick.dt);
    const __m256d one = _mm256_set1_pd(1.0);
    const Flat gravity = repeated(kick.gravity);
    std::size_t i = first;
    for (; i + kWidth <= last; i += kWidth) {
        const __m256d mass = _mm256_loadu_pd(kick.mass + i);
        const Flat mobileLanes = spread(mobile(mass));
        const __m256d perGrainInverseMass = _mm256_div_pd(one, mass);
        const Flat inverseMass = spread(perGrainInverseMass);
        const Flat halfStepOverMass = spread(_mm256_mul_pd(halfDt, perGrainInverseMass));  // (0.5 dt) (1/m)
        const Flat rotation = spread(_mm256_div_pd(halfDt, _mm256_loadu_pd(kick.inertia + i)));
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

}  // namespace granular::md::avx2
