#include "md/PairLanes.h"

#include "util/Avx512Intrinsics.h"

#include <array>
#include <atomic>
#include <cstdint>

namespace granular::md {

namespace {

bool processorHasLanes()
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    static const bool has = [] {
        __builtin_cpu_init();
        return static_cast<bool>(__builtin_cpu_supports("avx512f"));
    }();
    return has;
#else
    return false;
#endif
}

std::atomic<bool>& switchedOff()
{
    static std::atomic<bool> off{false};
    return off;
}

}  // namespace

bool pairLanesOn()
{
    return !switchedOff().load(std::memory_order_relaxed) && processorHasLanes();
}

void setPairLanes(bool on)
{
    switchedOff().store(!on, std::memory_order_relaxed);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

namespace {

// Eight doubles in the lanes of an AVX-512 register. Every operation is the IEEE operation of its scalar counterpart
// in each lane (this file is compiled with -ffp-contract=off: no product is fused with a sum), so arithmetic written in
// the scalar code's order gives each lane the scalar result bit for bit.
struct Lanes {
    __m512d v;
};
using Mask = __mmask8;

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
// The comparisons of C++ (ordered: false where either side is NaN).
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask lessEqual(Lanes a, Lanes b)
{
    return _mm512_cmp_pd_mask(a.v, b.v, _CMP_LE_OQ);
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask less(Lanes a, Lanes b)
{
    return _mm512_cmp_pd_mask(a.v, b.v, _CMP_LT_OQ);
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask greater(Lanes a, Lanes b)
{
    return _mm512_cmp_pd_mask(a.v, b.v, _CMP_GT_OQ);
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Mask greaterEqual(Lanes a, Lanes b)
{
    return _mm512_cmp_pd_mask(a.v, b.v, _CMP_GE_OQ);
}
/// Per lane: `yes` where the mask holds, else `no`.
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes select(Mask mask, Lanes yes, Lanes no)
{
    return {_mm512_mask_blend_pd(mask, no.v, yes.v)};
}
/// Eight 3-vectors, a register per component.
struct Lanes3 {
    Lanes x;
    Lanes y;
    Lanes z;
};

[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 operator+(const Lanes3& a, const Lanes3& b)
{
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 operator-(const Lanes3& a, const Lanes3& b)
{
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 operator-(const Lanes3& a)
{
    return {-a.x, -a.y, -a.z};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 operator*(Lanes s, const Lanes3& a)
{
    return {s * a.x, s * a.y, s * a.z};
}
/// Eigen's `v *= s`: each component times s, in that order (which NaN's payload survives follows the order).
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 operator*(const Lanes3& a, Lanes s)
{
    return {a.x * s, a.y * s, a.z * s};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 operator/(const Lanes3& a, Lanes s)
{
    return {a.x / s, a.y / s, a.z / s};
}
/// Eigen's dot of 3-vectors: (x x' + y y') + z z'.
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes dot(const Lanes3& a, const Lanes3& b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
/// Eigen's cross product.
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 cross(const Lanes3& a, const Lanes3& b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 select(Mask mask, const Lanes3& yes, const Lanes3& no)
{
    return {select(mask, yes.x, no.x), select(mask, yes.y, no.y), select(mask, yes.z, no.z)};
}
/// Lane l: value(items[index[l]]).
template <class Item, class Value>
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes lanesOf(const Item* items, const std::int32_t* index,
                                                                    const Value& value)
{
    return {_mm512_set_pd(value(items[index[7]]), value(items[index[6]]), value(items[index[5]]),
                          value(items[index[4]]), value(items[index[3]]), value(items[index[2]]),
                          value(items[index[1]]), value(items[index[0]]))};
}
/// Lane l: value(items[l]).
template <class Item, class Value>
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes lanesOf(const Item* items, const Value& value)
{
    return {_mm512_set_pd(value(items[7]), value(items[6]), value(items[5]), value(items[4]), value(items[3]),
                          value(items[2]), value(items[1]), value(items[0]))};
}
/// Lane l: the vector vector(items[index[l]]).
template <class Item, class Vector>
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 lanesOf3(const Item* items, const std::int32_t* index,
                                                                      const Vector& vector)
{
    return {lanesOf(items, index, [&](const Item& item) { return vector(item).x(); }),
            lanesOf(items, index, [&](const Item& item) { return vector(item).y(); }),
            lanesOf(items, index, [&](const Item& item) { return vector(item).z(); })};
}
/// Lane l: the vector vector(items[l]).
template <class Item, class Vector>
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes3 lanesOf3(const Item* items, const Vector& vector)
{
    return {lanesOf(items, [&](const Item& item) { return vector(item).x(); }),
            lanesOf(items, [&](const Item& item) { return vector(item).y(); }),
            lanesOf(items, [&](const Item& item) { return vector(item).z(); })};
}
[[gnu::target("avx512f"), gnu::always_inline]] inline void store(double* to, Lanes a)
{
    _mm512_store_pd(to, a.v);
}

/// PairLaw::elasticForce at an overlap > 0.
template <bool Hertz> [[gnu::target("avx512f"), gnu::always_inline]] inline Lanes elasticForce(Lanes k, Lanes overlap)
{
    if constexpr (Hertz) {
        return k * overlap * sqrt(overlap);
    } else {
        return k * overlap;
    }
}

/// PairLaw::dampingPotential.
template <bool Hertz>
[[gnu::target("avx512f"), gnu::always_inline]] inline Lanes dampingPotential(Lanes damping, Lanes overlap)
{
    const Lanes zero = broadcast(0.0);
    if constexpr (Hertz) {
        return select(lessEqual(overlap, zero), zero, broadcast(0.8) * damping * overlap * sqrt(sqrt(overlap)));
    } else {
        return select(lessEqual(overlap, zero), zero, damping * overlap);
    }
}

/// What a group's lanes hand back, a row of kPairLanes per quantity.
struct alignas(64) GroupResult {  // NOLINT(cppcoreguidelines-pro-type-member-init): `row`, see there
    enum Row {
        Overlap,
        Elastic,
        Normal,  // x, y, z
        Spring = Normal + 3,
        Force = Spring + 3,
        Impulse = Force + 3,
        Torque1 = Impulse + 3,
        Torque0 = Torque1 + 3,
        ForceAlong = Torque0 + 3,
        ImpulseAlong,
        Rows
    };
    // Not zeroed: every row that writeGroup reads is stored first (a zeroing per run cost more than its groups'
    // stores).
    std::array<std::array<double, kPairLanes>, Rows> row;
    Mask apart = 0;
};

[[gnu::target("avx512f"), gnu::always_inline]] inline void store3(GroupResult& out, std::size_t row, const Lanes3& a)
{
    store(out.row[row].data(), a.x);
    store(out.row[row + 1].data(), a.y);
    store(out.row[row + 2].data(), a.z);
}

/// The scalar evaluation of evaluateStepForces (rigidPairGeometry, then stepLoad for a step that does not publish)
/// for the pairs [first, first + kPairLanes) of the run, lane by lane.
template <bool Hertz>
[[gnu::target("avx512f")]] void evaluateGroup(const PairRun& run, std::size_t first, GroupResult& out)
{
    const ContactMemory* memory = run.memory + first;
    const std::int32_t* i = run.partner + first;   // body 0
    const std::int32_t* j = run.particle + first;  // body 1
    const Lanes zero = broadcast(0.0);
    const Lanes3 zero3{zero, zero, zero};
    const Lanes dt = broadcast(run.dt);

    // rigidPairGeometry (body 0 = grain i, body 1 = grain j), and the open pair's shortcut.
    const Lanes3 d = lanesOf3(run.position, j, [](const Vec3& v) -> const Vec3& { return v; }) -
                     lanesOf3(run.position, i, [](const Vec3& v) -> const Vec3& { return v; });
    const Lanes ri = lanesOf(run.radius, i, [](double r) { return r; });
    const Lanes rj = lanesOf(run.radius, j, [](double r) { return r; });
    const Lanes before = lanesOf(memory, [](const ContactMemory& m) { return m.overlap; });
    const Lanes3 previousNormal = lanesOf3(memory, [](const ContactMemory& m) -> const Vec3& { return m.normal; });
    const Lanes distance = sqrt(dot(d, d));
    const Lanes gap = distance - ri - rj;
    out.apart = static_cast<Mask>(lessEqual(before, zero) & greaterEqual(gap, zero));
    if (out.apart == 0xFF) {
        // Every pair open before and after: the gaps only.
        store(out.row[GroupResult::Overlap].data(), -gap);
        return;
    }
    const Lanes3 n = select(greater(distance, zero), d / distance, previousNormal);
    const Lanes3 lever1 = (-(rj + broadcast(0.5) * gap)) * n;
    const Lanes3 lever0 = (ri + broadcast(0.5) * gap) * n;

    // stepLoad.
    const Lanes after = -gap;
    const Mask closedAfter = greater(after, zero);
    const Lanes stiffness = lanesOf(memory, [](const ContactMemory& m) { return m.law.stiffness; });
    const Lanes damping = lanesOf(memory, [](const ContactMemory& m) { return m.law.damping; });
    const Lanes elastic = select(closedAfter, elasticForce<Hertz>(stiffness, after), zero);
    const Lanes dashpotImpulse = dampingPotential<Hertz>(damping, after) - dampingPotential<Hertz>(damping, before);
    const Lanes3 dashpot = dashpotImpulse * n;
    const Lanes exponentPlusOne = broadcast(Hertz ? 2.5 : 2.0);
    const Lanes halfDt = broadcast(0.5 * run.dt);
    const Mask closing = lessEqual(before, zero);
    const Mask opening = static_cast<Mask>(~closing & lessEqual(after, zero));
    const Lanes tauClosing = dt * after / (after - before);
    const Lanes3 closingImpulse = dashpot + (elastic * (tauClosing / exponentPlusOne - halfDt)) * n;
    const Lanes elasticBefore = lanesOf(memory, [](const ContactMemory& m) { return m.elasticForce; });
    const Lanes tauOpening = dt * before / (before - after);
    const Lanes3 openingImpulse = dashpot + (elasticBefore * (tauOpening / exponentPlusOne - halfDt)) * previousNormal;
    const Lanes3 impulse = select(closing, closingImpulse, select(opening, openingImpulse, dashpot));

    // The tangential force of a pair closed at the step's end: the point velocity, springInTangentPlane, the
    // spring's force and capByCoulomb.
    const Lanes3 V = (lanesOf3(run.velocity, j, [](const Vec3& v) -> const Vec3& { return v; }) +
                      cross(lanesOf3(run.angularVelocity, j, [](const Vec3& v) -> const Vec3& { return v; }), lever1)) -
                     (lanesOf3(run.velocity, i, [](const Vec3& v) -> const Vec3& { return v; }) +
                      cross(lanesOf3(run.angularVelocity, i, [](const Vec3& v) -> const Vec3& { return v; }), lever0));
    const Lanes3 slip = dt * (V - dot(V, n) * n);
    const Lanes3 oldSpring = lanesOf3(memory, [](const ContactMemory& m) -> const Vec3& { return m.spring; });
    Lanes3 turned = oldSpring - dot(oldSpring, n) * n;
    const Lanes length = sqrt(dot(turned, turned));
    turned = select(greater(length, zero), turned * (sqrt(dot(oldSpring, oldSpring)) / length), turned);
    Lanes3 spring = turned + slip;
    Lanes tangentialStiffness = lanesOf(memory, [](const ContactMemory& m) { return m.law.tangentialStiffness; });
    Lanes tangentialDamping = lanesOf(memory, [](const ContactMemory& m) { return m.law.tangentialDamping; });
    if constexpr (Hertz) {
        tangentialStiffness = tangentialStiffness * sqrt(after);
        tangentialDamping = tangentialDamping * sqrt(sqrt(after));
    }
    Lanes3 tangential = (-tangentialStiffness) * spring - (tangentialDamping / dt) * slip;
    const Lanes normalForce = elastic + dashpotImpulse / dt;
    const Lanes limit = lanesOf(memory, [](const ContactMemory& m) { return m.law.friction; }) *
                        select(less(normalForce, zero), zero, normalForce);
    const Lanes magnitude = sqrt(dot(tangential, tangential));
    const Mask sliding = greater(magnitude, limit);
    tangential = select(sliding, tangential * (limit / magnitude), tangential);
    spring =
        select(sliding, select(greater(tangentialStiffness, zero), (-tangential) / tangentialStiffness, zero3), spring);
    tangential = select(closedAfter, tangential, zero3);
    spring = select(closedAfter, spring, zero3);

    const Lanes3 force = elastic * n + tangential;
    store(out.row[GroupResult::Overlap].data(), after);
    store(out.row[GroupResult::Elastic].data(), elastic);
    store3(out, GroupResult::Normal, select(out.apart, previousNormal, n));  // an open pair keeps its normal
    store3(out, GroupResult::Spring, spring);
    store3(out, GroupResult::Force, force);
    store3(out, GroupResult::Impulse, impulse);
    store3(out, GroupResult::Torque1, cross(lever1, tangential));
    store3(out, GroupResult::Torque0, cross(lever0, tangential));
    store(out.row[GroupResult::ForceAlong].data(), dot(force, n));
    store(out.row[GroupResult::ImpulseAlong].data(), dot(impulse, n));
}

Vec3 vectorAt(const GroupResult& out, std::size_t row, std::size_t lane)
{
    return {out.row[row][lane], out.row[row + 1][lane], out.row[row + 2][lane]};
}

/// Writes a group's results into the pairs' memories and loads, as the scalar evaluation does. A pair open before
/// and after has zero elastic force and spring in its lanes, and its normal of before.
void writeGroup(const GroupResult& out, ContactMemory* memory, ContactLoad* loads)
{
    if (out.apart == 0xFF) {
        for (std::size_t lane = 0; lane < kPairLanes; ++lane) {
            ContactMemory& m = memory[lane];
            m.overlap = out.row[GroupResult::Overlap][lane];
            m.elasticForce = 0.0;
            m.spring.setZero();
            loads[lane].active = false;
        }
        return;
    }
    for (std::size_t lane = 0; lane < kPairLanes; ++lane) {
        ContactMemory& m = memory[lane];
        ContactLoad& load = loads[lane];
        m.overlap = out.row[GroupResult::Overlap][lane];
        m.elasticForce = out.row[GroupResult::Elastic][lane];
        m.normal = vectorAt(out, GroupResult::Normal, lane);
        m.spring = vectorAt(out, GroupResult::Spring, lane);
        load.force = vectorAt(out, GroupResult::Force, lane);
        load.impulse = vectorAt(out, GroupResult::Impulse, lane);
        load.torque1 = vectorAt(out, GroupResult::Torque1, lane);
        load.torque0 = vectorAt(out, GroupResult::Torque0, lane);
        load.forceAlong = out.row[GroupResult::ForceAlong][lane];
        load.impulseAlong = out.row[GroupResult::ImpulseAlong][lane];
        load.active = ((out.apart >> lane) & 1U) == 0;
    }
}

}  // namespace

std::size_t evaluatePairLanes(const PairRun& run, ContactLoad* loads)
{
    if (!pairLanesOn()) {
        return 0;
    }
    GroupResult out;
    std::size_t first = 0;
    for (; first + kPairLanes <= run.count; first += kPairLanes) {
        const NormalLaw law = run.memory[first].law.law;
        for (std::size_t lane = 1; lane < kPairLanes; ++lane) {
            if (run.memory[first + lane].law.law != law) {
                return first;
            }
        }
        if (law == NormalLaw::Linear) {  // as PairLaw: anything else is Hertz's
            evaluateGroup<false>(run, first, out);
        } else {
            evaluateGroup<true>(run, first, out);
        }
        writeGroup(out, run.memory + first, loads + first);
    }
    return first;
}

#else

std::size_t evaluatePairLanes(const PairRun& /*run*/, ContactLoad* /*loads*/)
{
    return 0;
}

#endif

}  // namespace granular::md
