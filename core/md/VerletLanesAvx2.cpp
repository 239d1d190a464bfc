// driftLanes() and kickLanes() four grains at a time, in the lanes of AVX2 registers (md/VerletLaneGroups.h): the
// width of processors without AVX-512F. The layout of four grains' components in three registers and its operations;
// the arithmetic is md/VerletLaneGroups.inc, as for the eight lanes of AVX-512 (md/VerletLanesAvx512.cpp).
#include "md/VerletLaneGroups.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
#include <limits>

namespace granular::md::avx2 {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

// The target of every function of the lanes (md/VerletLaneGroups.inc).
#define GRANULAR_LANES_ISA "avx2"  // NOLINT(cppcoreguidelines-macro-usage): an attribute's argument, not a value

namespace {

/// Four doubles, lane g: grain g.
using Lanes = __m256d;

[[gnu::target("avx2"), gnu::always_inline]] inline Lanes broadcast(double a)
{
    return _mm256_set1_pd(a);
}
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes loadGrains(const double* p)
{
    return _mm256_loadu_pd(p);
}
[[gnu::target("avx2"), gnu::always_inline]] inline void storeGrains(double* p, Lanes a)
{
    _mm256_storeu_pd(p, a);
}
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes minimum(Lanes a, Lanes b)
{
    return _mm256_min_pd(a, b);
}
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes maximum(Lanes a, Lanes b)
{
    return _mm256_max_pd(a, b);
}

// Four grains' 3-vectors as they lie in memory: 12 doubles in three registers, lane l of register r holding component
// (4 r + l) mod 3 of grain (4 r + l) / 3: (x0 y0 z0 x1) (y1 z1 x2 y2) (z2 x3 y3 z3). A grain's own values (mass,
// inertia) are spread over its three components, so every component's arithmetic is that of the scalar code in its
// lane (core is compiled with -ffp-contract=off: nothing is fused).
struct Flat {
    __m256d r0;
    __m256d r1;
    __m256d r2;
};

/// A truth per component: all bits of its lane set, or none.
struct FlatMask {
    __m256d r0;
    __m256d r1;
    __m256d r2;
};

/// Per lane: `yes` where the mask holds, else `no`.
[[gnu::target("avx2"), gnu::always_inline]] inline Flat select(const FlatMask& mask, const Flat& yes, const Flat& no)
{
    return {_mm256_blendv_pd(no.r0, yes.r0, mask.r0), _mm256_blendv_pd(no.r1, yes.r1, mask.r1),
            _mm256_blendv_pd(no.r2, yes.r2, mask.r2)};
}

/// Four per-grain values or truths (lane g: grain g) spread over their grains' components: (0 0 0 1) (1 1 2 2)
/// (2 3 3 3), a permutation's selector holding two bits per lane, lane 0 lowest.
[[gnu::target("avx2"), gnu::always_inline]] inline Flat spread(Lanes perGrain)
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
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes component(const Flat& a, std::size_t c)
{
    if (c == 0) {
        return _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a.r0, a.r1, 0x4), a.r2, 0x2), 0x6C);
    }
    if (c == 1) {
        return _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a.r0, a.r1, 0x9), a.r2, 0x4), 0xB1);
    }
    return _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a.r0, a.r1, 0x2), a.r2, 0x9), 0xC6);
}

/// Whether each of the four grains is mobile (a finite mass: |m| < infinity, false for NaN), over its components.
[[gnu::target("avx2"), gnu::always_inline]] inline FlatMask mobileLanes(Lanes mass)
{
    const __m256d magnitude = _mm256_andnot_pd(_mm256_set1_pd(-0.0), mass);
    const Flat mobile =
        spread(_mm256_cmp_pd(magnitude, _mm256_set1_pd(std::numeric_limits<double>::infinity()), _CMP_LT_OQ));
    return {mobile.r0, mobile.r1, mobile.r2};
}

/// A truth per grain: all bits of lane g set where it holds for grain g, or none.
using Finite = __m256d;

[[gnu::target("avx2"), gnu::always_inline]] inline Finite everyLane()
{
    return _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
}
[[gnu::target("avx2"), gnu::always_inline]] inline Finite atMost(Finite finite, Lanes a, Lanes b)
{
    return _mm256_and_pd(finite, _mm256_cmp_pd(a, b, _CMP_LE_OQ));
}
[[gnu::target("avx2"), gnu::always_inline]] inline bool holdsInEveryLane(Finite finite)
{
    return _mm256_movemask_pd(finite) == 0xF;
}

}  // namespace

#include "md/VerletLaneGroups.inc"

#undef GRANULAR_LANES_ISA

#endif

}  // namespace granular::md::avx2
