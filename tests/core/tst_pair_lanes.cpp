// md::evaluatePairLanes: grain pairs evaluated eight at a time in the lanes of an AVX-512 register, or four at a time
// in those of an AVX2 register (each width this processor has), give bit for bit what the scalar evaluation gives one
// pair after the other: the step loads that evaluateStepForces adds to every grain (elastic and tangential force, the
// dashpot's exact impulse with the opening/closing correction, the torques) and every pair's memory at the step's end
// (overlap, elastic force, normal, tangential spring). The pairs are drawn so that every branch of the step load occurs
// in the lanes, beside each other: pairs open before and after, closing, opening and closed throughout; sticking and
// sliding (the Coulomb cap); a spring at zero (nothing to turn into the tangent plane); a zero tangential stiffness;
// centres that coincide (the normal kept); the linear and the Hertz law, and groups with both, which the lanes leave to
// the scalar code (to the end of the run). Values span decades.
#include "md/ContactForces.h"
#include "md/LoadAssembly.h"
#include "md/PairLanes.h"
#include "model/World.h"
#include "util/Random.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

using namespace granular;

namespace {

Vec3 randomUnit(Random& random)
{
    const Vec3 v(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0));
    return v.norm() > 1e-3 ? Vec3(v.normalized()) : Vec3::UnitZ();
}

bool sameBits(double a, double b)
{
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool sameBits(const Vec3& a, const Vec3& b)
{
    return sameBits(a.x(), b.x()) && sameBits(a.y(), b.y()) && sameBits(a.z(), b.z());
}

enum class Laws { Linear, Hertz, Mixed };

constexpr double kDt = 1e-4;  ///< s, the MD step

/// `pairs` disjoint grain pairs (grains 2p and 2p + 1), their candidates sorted as detection leaves them, memories and
/// half-step velocities drawn to cover every branch of the step load.
struct PairSystem {
    World world;
    std::vector<md::ContactMemory> memory;
    md::HalfStepVelocities half;
    std::vector<std::int32_t> partner;   ///< body 0 of each pair
    std::vector<std::int32_t> particle;  ///< body 1 of each pair

    PairSystem(std::size_t pairs, Laws laws, std::uint64_t seed)
    {
        Random random(seed);
        for (std::size_t p = 0; p < pairs; ++p) {
            const double r0 = random.uniform(0.5, 1.0);
            const double r1 = random.uniform(0.5, 1.0);
            const Vec3 x0(random.uniform(-50.0, 50.0), random.uniform(-50.0, 50.0), random.uniform(-50.0, 50.0));
            // The gap after the drift: an overlap of up to 5 % of the radii, a gap of as much, or centres that
            // coincide.
            // Pairs 72-79 (a group of the lanes) all stay open.
            const bool openGroup = p / 8 == 9;
            const double gap = p % 29 == 5 ? -(r0 + r1) : (openGroup ? 0.05 : random.uniform(-0.05, 0.05)) * (r0 + r1);
            const Vec3 x1 = x0 + (r0 + r1 + gap) * randomUnit(random);
            world.particles.add(x0, r0, 1000.0, 3);
            world.particles.add(x1, r1, 1000.0, 3);
            Contact c;
            c.kind = ContactKind::Particle;
            c.partner = static_cast<std::int32_t>(2 * p);
            c.particle = static_cast<std::int32_t>(2 * p + 1);
            world.contacts.push_back(c);
            partner.push_back(c.partner);
            particle.push_back(c.particle);

            md::ContactMemory m;
            // Mixed: the law alternates by groups of eight pairs, and every fifth group has both.
            const std::size_t group = p / md::kPairLanes;
            const bool hertz =
                laws == Laws::Hertz || (laws == Laws::Mixed && (group % 2 == 1 || (group % 5 == 3 && p % 2 == 0)));
            m.law.law = hertz ? NormalLaw::Hertz : NormalLaw::Linear;
            m.law.stiffness = std::pow(10.0, random.uniform(3.0, 9.0));
            m.law.damping = p % 7 == 3 ? 0.0 : std::pow(10.0, random.uniform(0.0, 4.0));
            m.law.tangentialStiffness = p % 11 == 4 ? 0.0 : std::pow(10.0, random.uniform(3.0, 9.0));
            m.law.tangentialDamping = std::pow(10.0, random.uniform(-1.0, 3.0));
            // Mostly a friction that some pairs exceed and others not; a few without any.
            m.law.friction = p % 13 == 2 ? 0.0 : random.uniform(0.05, 1.0);
            // Before the drift: open (closing now or staying open) or closed (opening now or staying closed).
            m.overlap = (openGroup ? -0.01 : random.uniform(-0.05, 0.05)) * (r0 + r1);
            m.elasticForce = m.overlap > 0.0 ? m.law.stiffness * m.overlap : 0.0;
            m.normal = randomUnit(random);
            m.spring =
                p % 5 == 1 ? Vec3::Zero() : Vec3(std::pow(10.0, random.uniform(-6.0, -1.0)) * randomUnit(random));
            memory.push_back(m);

            for (int body = 0; body < 2; ++body) {
                half.velocity.emplace_back(std::pow(10.0, random.uniform(-3.0, 1.0)) * randomUnit(random));
                half.angularVelocity.emplace_back(std::pow(10.0, random.uniform(-3.0, 1.0)) * randomUnit(random));
            }
        }
    }
};

/// Every pair of the system as one run of evaluatePairLanes, with `memory` as the pairs' memories.
md::PairRun wholeRun(const PairSystem& system, std::vector<md::ContactMemory>& memory)
{
    return {system.world.particles.position.data(),
            system.world.particles.radius.data(),
            system.half.velocity.data(),
            system.half.angularVelocity.data(),
            system.partner.data(),
            system.particle.data(),
            memory.data(),
            memory.size(),
            kDt};
}

/// Caps the lanes' width for its lifetime (0: off), then restores the default, the widest the processor has.
struct LaneWidth {
    explicit LaneWidth(std::size_t width) { md::setPairLaneWidth(width); }
    ~LaneWidth() { md::setPairLaneWidth(md::kPairLanes); }
    LaneWidth(const LaneWidth&) = delete;
    LaneWidth& operator=(const LaneWidth&) = delete;
};

/// The widths of the lanes this processor has (AVX-512F's 8, AVX2's 4), widest first; none on other processors.
std::vector<std::size_t> widthsOfThisProcessor()
{
    std::vector<std::size_t> widths;
    for (const std::size_t width : {std::size_t{8}, std::size_t{4}}) {
        const LaneWidth cap(width);
        if (md::pairLaneWidth() == width) {
            widths.push_back(width);
        }
    }
    return widths;
}

struct StepResult {
    md::BodyLoads loads;
    std::vector<md::ContactMemory> memory;
};

/// One step's loads with lanes of `width` pairs (0: the scalar code alone).
StepResult evaluate(const PairSystem& system, std::size_t width)
{
    const LaneWidth cap(width);
    World world = system.world;
    StepResult result{{}, system.memory};
    md::LoadAssembly assembly;
    assembly.index(world);
    md::evaluateStepForces(world, result.memory, system.half, kDt, result.loads, nullptr, assembly, false);
    return result;
}

/// Evaluates the system once with lanes of `width` pairs and once without and returns how many pairs' memories and
/// grains' loads differ in any bit (printing the first few); checks that every branch occurred.
int differencesBetweenLanesAndScalar(Laws laws, std::size_t width)
{
    const PairSystem system(4000, laws, 20261128U + static_cast<std::uint64_t>(laws));
    const StepResult scalar = evaluate(system, 0);
    const StepResult lanes = evaluate(system, width);

    // Every branch occurred (counted on the scalar results).
    int open = 0;
    int closing = 0;
    int opening = 0;
    int closed = 0;
    int sliding = 0;
    int sticking = 0;
    for (std::size_t k = 0; k < system.memory.size(); ++k) {
        const md::ContactMemory& before = system.memory[k];
        const md::ContactMemory& after = scalar.memory[k];
        open += static_cast<int>(before.overlap <= 0.0 && after.overlap <= 0.0);
        closing += static_cast<int>(before.overlap <= 0.0 && after.overlap > 0.0);
        opening += static_cast<int>(before.overlap > 0.0 && after.overlap <= 0.0);
        closed += static_cast<int>(before.overlap > 0.0 && after.overlap > 0.0);
        if (after.overlap > 0.0 && after.law.tangentialStiffness > 0.0) {
            // Sliding: the spring carries the Coulomb limit alone, mu (F_elastic + dashpot impulse / dt).
            const md::PairLaw& law = after.law;
            const double normalForce =
                after.elasticForce + (law.dampingPotential(after.overlap) - law.dampingPotential(before.overlap)) / kDt;
            const double cap = law.friction * std::max(normalForce, 0.0);
            const double spring = law.tangentialStiffnessAt(after.overlap) * after.spring.norm();
            (std::fabs(spring - cap) <= 1e-9 * cap ? sliding : sticking) += 1;
        }
    }
    std::printf("pairs: %d open, %d closing, %d opening, %d closed; %d sliding, %d sticking\n", open, closing, opening,
                closed, sliding, sticking);
    if (open < 100 || closing < 100 || opening < 100 || closed < 100 || sliding < 50 || sticking < 50) {
        return -1;  // a branch too rare to tell
    }

    int differing = 0;
    for (std::size_t k = 0; k < system.memory.size(); ++k) {
        const md::ContactMemory& a = scalar.memory[k];
        const md::ContactMemory& b = lanes.memory[k];
        if (!sameBits(a.overlap, b.overlap) || !sameBits(a.elasticForce, b.elasticForce) ||
            !sameBits(a.normal, b.normal) || !sameBits(a.spring, b.spring)) {
            if (++differing <= 3) {
                std::printf("pair %zu: memory differs (overlap %.17g / %.17g, spring x %.17g / %.17g)\n", k, a.overlap,
                            b.overlap, a.spring.x(), b.spring.x());
            }
        }
    }
    for (std::size_t g = 0; g < system.world.particles.size(); ++g) {
        if (!sameBits(scalar.loads.force[g], lanes.loads.force[g]) ||
            !sameBits(scalar.loads.impulse[g], lanes.loads.impulse[g]) ||
            !sameBits(scalar.loads.torque[g], lanes.loads.torque[g])) {
            if (++differing <= 6) {
                std::printf("grain %zu: loads differ (force x %.17g / %.17g)\n", g, scalar.loads.force[g].x(),
                            lanes.loads.force[g].x());
            }
        }
    }
    return differing;
}

}  // namespace

class PairLanesTest : public QObject {
    Q_OBJECT

private slots:
    void lanesGiveTheScalarResults()
    {
        const std::vector<std::size_t> widths = widthsOfThisProcessor();
        if (widths.empty()) {
            QSKIP("this processor has neither AVX-512F nor AVX2: every grain pair is evaluated by the scalar code");
        }
        for (const std::size_t width : widths) {
            for (const Laws laws : {Laws::Linear, Laws::Hertz, Laws::Mixed}) {
                std::printf("%zu lanes, %s law%s:\n", width,
                            laws == Laws::Linear ? "linear" : (laws == Laws::Hertz ? "Hertz" : "mixed"),
                            laws == Laws::Mixed ? "s" : "");
                QCOMPARE(differencesBetweenLanesAndScalar(laws, width), 0);
            }
        }
    }

    void eachLaneGivesTheScalarLoad()
    {
        // evaluatePairLanes called directly on every pair (not through evaluateStepForces, whose results would be the
        // scalar code's too if it stopped calling the lanes): each pair's record against what the scalar evaluation
        // added to its two grains, which no other pair touches (a zeroed sum plus the load, minus for body 0), its
        // projections on the normal, and `active` exactly where the pair is not open before and after.
        const std::vector<std::size_t> widths = widthsOfThisProcessor();
        if (widths.empty()) {
            QSKIP("this processor has neither AVX-512F nor AVX2: every grain pair is evaluated by the scalar code");
        }
        for (const auto& [laws, width] :
             {std::pair{Laws::Linear, widths.front()}, std::pair{Laws::Hertz, widths.front()},
              std::pair{Laws::Linear, widths.back()}, std::pair{Laws::Hertz, widths.back()}}) {
            const PairSystem system(4000, laws, 20261129U + static_cast<std::uint64_t>(laws));
            const StepResult scalar = evaluate(system, 0);
            const LaneWidth cap(width);
            std::vector<md::ContactMemory> memory = system.memory;
            std::vector<md::ContactLoad> loads(memory.size());
            QCOMPARE(md::evaluatePairLanes(wholeRun(system, memory), loads.data()), memory.size());
            int differing = 0;
            for (std::size_t k = 0; k < memory.size(); ++k) {
                const md::ContactLoad& load = loads[k];
                const std::size_t i = 2 * k;      // body 0
                const std::size_t j = 2 * k + 1;  // body 1
                const md::ContactMemory& m = scalar.memory[k];
                const bool active = !(system.memory[k].overlap <= 0.0 && m.overlap <= 0.0);
                bool same = load.active == active && sameBits(memory[k].overlap, m.overlap) &&
                            sameBits(memory[k].elasticForce, m.elasticForce) && sameBits(memory[k].normal, m.normal) &&
                            sameBits(memory[k].spring, m.spring);
                if (same && active) {
                    const Vec3 zero = Vec3::Zero();
                    same = sameBits(zero + load.force, scalar.loads.force[j]) &&
                           sameBits(zero - load.force, scalar.loads.force[i]) &&
                           sameBits(zero + load.impulse, scalar.loads.impulse[j]) &&
                           sameBits(zero - load.impulse, scalar.loads.impulse[i]) &&
                           sameBits(zero + load.torque1, scalar.loads.torque[j]) &&
                           sameBits(zero - load.torque0, scalar.loads.torque[i]) &&
                           sameBits(load.forceAlong, load.force.dot(m.normal)) &&
                           sameBits(load.impulseAlong, load.impulse.dot(m.normal));
                }
                if (!same && ++differing <= 3) {
                    std::printf("pair %zu differs (active %d / %d, force x %.17g / %.17g)\n", k,
                                static_cast<int>(load.active), static_cast<int>(active), load.force.x(),
                                scalar.loads.force[j].x());
                }
            }
            QCOMPARE(differing, 0);
        }
    }

    void lanesTakeWholeGroupsOfOneLaw()
    {
        // evaluatePairLanes takes the leading whole groups (of eight, or of four) and stops before a group whose laws
        // differ.
        const std::vector<std::size_t> widths = widthsOfThisProcessor();
        if (widths.empty()) {
            QSKIP("this processor has neither AVX-512F nor AVX2: every grain pair is evaluated by the scalar code");
        }
        PairSystem system(40, Laws::Linear, 7U);
        system.memory[21].law.law = NormalLaw::Hertz;  // pairs 16-23 (eights) or 20-23 (fours) mix the laws
        std::vector<md::ContactMemory> memory = system.memory;
        md::PairRun run = wholeRun(system, memory);
        std::vector<md::ContactLoad> loads(40);
        for (const std::size_t width : widths) {
            const LaneWidth cap(width);
            run.count = 15;
            QCOMPARE(md::evaluatePairLanes(run, loads.data()), width == 8 ? std::size_t{8} : std::size_t{12});
            run.count = 40;
            QCOMPARE(md::evaluatePairLanes(run, loads.data()), width == 8 ? std::size_t{16} : std::size_t{20});
        }
        const LaneWidth off(0);
        QVERIFY(!md::pairLanesOn());
        QCOMPARE(md::evaluatePairLanes(run, loads.data()), std::size_t{0});
    }
};

QTEST_APPLESS_MAIN(PairLanesTest)
#include "tst_pair_lanes.moc"
