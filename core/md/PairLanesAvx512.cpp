// evaluatePairLanes() eight grain pairs at a time, in the lanes of an AVX-512 register (md/PairLaneGroups.h).
#include "md/PairLaneGroups.h"

#include "util/Avx512Intrinsics.h"

#include <array>
#include <cstdint>

namespace granular::md::avx512 {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

// The target of every function of the lanes (md/PairLaneGroups.inc).
#define GRANULAR_LANES_ISA "avx512f"  // NOLINT(cppcoreguidelines-macro-usage): an attribute's argument, not a value

namespace {

constexpr unsigned kAllLanes = 0xFFU;

struct Lanes {
    __m512d v;
};
struct Mask {
    __mmask8 m;
};

[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes broadcast(double a)
{
    return {_mm512_set1_pd(a)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes operator+(Lanes a, Lanes b)
{
    return {_mm512_add_pd(a.v, b.v)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes operator-(Lanes a, Lanes b)
{
    return {_mm512_sub_pd(a.v, b.v)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes operator*(Lanes a, Lanes b)
{
    return {_mm512_mul_pd(a.v, b.v)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes operator/(Lanes a, Lanes b)
{
    return {_mm512_div_pd(a.v, b.v)};
}
/// The sign flipped, as the scalar unary minus (not 0 - a, which differs at +0).
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes operator-(Lanes a)
{
    const __m512i sign = _mm512_set1_epi64(static_cast<long long>(0x8000000000000000ULL));
    return {_mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(a.v), sign))};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes sqrt(Lanes a)
{
    return {_mm512_sqrt_pd(a.v)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask lessEqual(Lanes a, Lanes b)
{
    return {_mm512_cmp_pd_mask(a.v, b.v, _CMP_LE_OQ)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask less(Lanes a, Lanes b)
{
    return {_mm512_cmp_pd_mask(a.v, b.v, _CMP_LT_OQ)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask greater(Lanes a, Lanes b)
{
    return {_mm512_cmp_pd_mask(a.v, b.v, _CMP_GT_OQ)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask greaterEqual(Lanes a, Lanes b)
{
    return {_mm512_cmp_pd_mask(a.v, b.v, _CMP_GE_OQ)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask operator&(Mask a, Mask b)
{
    return {static_cast<__mmask8>(a.m & b.m)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask andNot(Mask a, Mask b)
{
    return {static_cast<__mmask8>(~a.m & b.m)};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline unsigned bits(Mask a)
{
    return a.m;
}
/// Per lane: `yes` where the mask holds, else `no`.
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes select(Mask mask, Lanes yes, Lanes no)
{
    return {_mm512_mask_blend_pd(mask.m, no.v, yes.v)};
}
template <class Item, class Value>
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes lanesOf(const Item* items, const std::int32_t* index,
                                                                    const Value& value)
{
    return {_mm512_set_pd(value(items[index[7]]), value(items[index[6]]), value(items[index[5]]),
                          value(items[index[4]]), value(items[index[3]]), value(items[index[2]]),
                          value(items[index[1]]), value(items[index[0]]))};
}
template <class Item, class Value>
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes lanesOf(const Item* items, const Value& value)
{
    return {_mm512_set_pd(value(items[7]), value(items[6]), value(items[5]), value(items[4]), value(items[3]),
                          value(items[2]), value(items[1]), value(items[0]))};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline void store(double* to, Lanes a)
{
    _mm512_store_pd(to, a.v);
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

}  // namespace granular::md::avx512
