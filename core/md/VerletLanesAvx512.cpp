// driftLanes() and kickLanes() eight grains at a time, in the lanes of AVX-512 registers (md/VerletLaneGroups.h): the
// layout of eight grains' components in three registers and its operations; the arithmetic is md/VerletLaneGroups.inc,
// as for the four lanes of AVX2 (md/VerletLanesAvx2.cpp).
#include "md/VerletLaneGroups.h"

#include "util/Avx512Intrinsics.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

namespace granular::md::avx512 {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

// The target of every function of the lanes (md/VerletLaneGroups.inc).
#define GRANULAR_LANES_ISA "avx512f"  // NOLINT(cppcoreguidelines-macro-usage): an attribute's argument, not a value

namespace {

/// Eight doubles, lane g: grain g.
using Lanes = __m512d;

[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes broadcast(double a)
{
    return _mm512_set1_pd(a);
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes loadGrains(const double* p)
{
    return _mm512_loadu_pd(p);
}
[[gnu::target("avx512f"), gnu::always_inline]] inline void storeGrains(double* p, Lanes a)
{
    _mm512_storeu_pd(p, a);
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes minimum(Lanes a, Lanes b)
{
    return _mm512_min_pd(a, b);
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes maximum(Lanes a, Lanes b)
{
    return _mm512_max_pd(a, b);
}

// Eight grains' 3-vectors as they lie in memory: 24 doubles in three registers, lane l of register r holding component
// (8 r + l) mod 3 of grain (8 r + l) / 3. A grain's own values (mass, inertia) are spread over its three components,
// so every component's arithmetic is that of the scalar code in its lane, with no reordering of the vectors.
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
[[gnu::target("avx512f"), gnu::always_inline]] inline Flat spread(Lanes perGrain)
{
    return {_mm512_permutexvar_pd(indexOf(kGrainOfLane[0]), perGrain),
            _mm512_permutexvar_pd(indexOf(kGrainOfLane[1]), perGrain),
            _mm512_permutexvar_pd(indexOf(kGrainOfLane[2]), perGrain)};
}

/// Whether each of the eight grains is mobile (a finite mass: |m| < infinity, false for NaN), over its components.
[[gnu::target("avx512f"), gnu::always_inline]] inline FlatMask mobileLanes(Lanes mass)
{
    const __mmask8 perGrain =
        _mm512_cmp_pd_mask(_mm512_abs_pd(mass), _mm512_set1_pd(std::numeric_limits<double>::infinity()), _CMP_LT_OQ);
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
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes component(const Flat& a, std::size_t c)
{
    const __m512d firstTwo = _mm512_permutex2var_pd(a.r0, indexOf(kFromFirstTwo.at(c)), a.r1);
    return _mm512_permutex2var_pd(firstTwo, indexOf(kWithThird.at(c)), a.r2);
}

/// A truth per grain, bit g: grain g.
using Finite = __mmask8;

[[gnu::always_inline]] inline Finite everyLane()
{
    return 0xFF;
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Finite atMost(Finite finite, Lanes a, Lanes b)
{
    return static_cast<Finite>(finite & _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ));
}
[[gnu::always_inline]] inline bool holdsInEveryLane(Finite finite)
{
    return finite == 0xFF;
}

}  // namespace

#include "md/VerletLaneGroups.inc"

#undef GRANULAR_LANES_ISA

#endif

}  // namespace granular::md::avx512
