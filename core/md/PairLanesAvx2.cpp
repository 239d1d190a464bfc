// evaluatePairLanes() four grain pairs at a time, in the lanes of an AVX2 register (md/PairLaneGroups.h): the width
// of processors without AVX-512F (AMD before Zen 4, Intel's client cores).
#include "md/PairLaneGroups.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include <array>
#include <cstdint>

namespace granular::md::avx2 {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

// The target of every function of the lanes (md/PairLaneGroups.inc).
#define GRANULAR_LANES_ISA "avx2"  // NOLINT(cppcoreguidelines-macro-usage): an attribute's argument, not a value

namespace {

constexpr unsigned kAllLanes = 0xFU;

struct Lanes {
    __m256d v;
};
/// A lane's truth as all its bits set (true) or none (false), as AVX's comparisons leave it.
struct Mask {
    __m256d m;
};

[[gnu::target("avx2"), gnu::always_inline]] inline Lanes broadcast(double a)
{
    return {_mm256_set1_pd(a)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes operator+(Lanes a, Lanes b)
{
    return {_mm256_add_pd(a.v, b.v)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes operator-(Lanes a, Lanes b)
{
    return {_mm256_sub_pd(a.v, b.v)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes operator*(Lanes a, Lanes b)
{
    return {_mm256_mul_pd(a.v, b.v)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes operator/(Lanes a, Lanes b)
{
    return {_mm256_div_pd(a.v, b.v)};
}
/// The sign flipped, as the scalar unary minus (not 0 - a, which differs at +0).
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes operator-(Lanes a)
{
    return {_mm256_xor_pd(a.v, _mm256_set1_pd(-0.0))};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes sqrt(Lanes a)
{
    return {_mm256_sqrt_pd(a.v)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Mask lessEqual(Lanes a, Lanes b)
{
    return {_mm256_cmp_pd(a.v, b.v, _CMP_LE_OQ)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Mask less(Lanes a, Lanes b)
{
    return {_mm256_cmp_pd(a.v, b.v, _CMP_LT_OQ)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Mask greater(Lanes a, Lanes b)
{
    return {_mm256_cmp_pd(a.v, b.v, _CMP_GT_OQ)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Mask greaterEqual(Lanes a, Lanes b)
{
    return {_mm256_cmp_pd(a.v, b.v, _CMP_GE_OQ)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Mask operator&(Mask a, Mask b)
{
    return {_mm256_and_pd(a.m, b.m)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline Mask andNot(Mask a, Mask b)
{
    return {_mm256_andnot_pd(a.m, b.m)};
}
[[gnu::target("avx2"), gnu::always_inline]] inline unsigned bits(Mask a)
{
    return static_cast<unsigned>(_mm256_movemask_pd(a.m));
}
/// Per lane: `yes` where the mask holds, else `no`.
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes select(Mask mask, Lanes yes, Lanes no)
{
    return {_mm256_blendv_pd(no.v, yes.v, mask.m)};
}
template <class Item, class Value>
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes lanesOf(const Item* items, const std::int32_t* index,
                                                                 const Value& value)
{
    return {
        _mm256_set_pd(value(items[index[3]]), value(items[index[2]]), value(items[index[1]]), value(items[index[0]]))};
}
template <class Item, class Value>
[[gnu::target("avx2"), gnu::always_inline]] inline Lanes lanesOf(const Item* items, const Value& value)
{
    return {_mm256_set_pd(value(items[3]), value(items[2]), value(items[1]), value(items[0]))};
}
[[gnu::target("avx2"), gnu::always_inline]] inline void store(double* to, Lanes a)
{
    _mm256_store_pd(to, a.v);
}

}  // namespace

#include "md/PairLaneGroups.inc"

#undef GRANULAR_LANES_ISA

#else

std::size_t evaluatePairGroups(const PairRun& /*run*/, ContactLoad* /*loads*/)
{
    return 0;
}

#endif

}  // namespace granular::md::avx2
