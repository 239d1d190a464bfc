// md::LoadAssembly: the loads of a contact list added to the grains by blocks of grains (one per solver thread)
// are bit for bit those of one loop over the contacts in index order, for any number of blocks, with every contact
// evaluated exactly once. The loads mix magnitudes (1e16 beside 1) so that any other order of the sums shows.
#include "RandomContacts.h"
#include "md/LoadAssembly.h"
#include "model/World.h"
#include "util/Parallel.h"
#include "util/Random.h"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace granular;

namespace {

/// Contact k's load: a force whose size swings over 16 decades, and no load for every fifth contact.
md::ContactLoad loadOf(std::size_t k, const Contact& c)
{
    md::ContactLoad load;
    load.active = k % 5 != 0;
    const double size = std::pow(10.0, static_cast<double>((k * 7) % 17));
    load.force = Vec3(size + 0.1 * static_cast<double>(k), 1.0 / (1.0 + static_cast<double>(k)), -size);
    load.torque1 = Vec3(0.3, static_cast<double>(k % 13), 1e-3 * size);
    load.torque0 = -2.0 * load.torque1;
    load.forceAlong = load.force.dot(c.normal);
    return load;
}

struct Sums {
    std::vector<Vec3> force;
    std::vector<Vec3> torque;
    double piston = 0.0;
};

/// What one loop over the contacts in index order adds up.
Sums inContactOrder(const World& world)
{
    Sums sums{std::vector<Vec3>(world.particles.size(), Vec3::Zero()),
              std::vector<Vec3>(world.particles.size(), Vec3::Zero()), 0.0};
    for (std::size_t k = 0; k < world.contacts.size(); ++k) {
        const Contact& c = world.contacts[k];
        const md::ContactLoad load = loadOf(k, c);
        if (!load.active) {
            continue;
        }
        const auto j = static_cast<std::size_t>(c.particle);
        sums.force[j] += load.force;
        sums.torque[j] += load.torque1;
        if (c.kind == ContactKind::Particle) {
            const auto i = static_cast<std::size_t>(c.partner);
            sums.force[i] -= load.force;
            sums.torque[i] -= load.torque0;
        } else if (c.kind == ContactKind::Piston) {
            sums.piston -= load.forceAlong;
        }
    }
    return sums;
}

/// The sink LoadAssembly::assemble() calls: the same loads, counting the evaluations of each contact.
struct CountingSink {
    const World* world;
    Sums* sums;
    std::vector<int>* evaluations;
    std::vector<int>* runs;  ///< per contact: how often evaluatePairs covered it

    void evaluatePairs(std::size_t first, std::size_t last, const std::int32_t* partner, const std::int32_t* particle,
                       md::ContactLoad* loads) const
    {
        QVERIFY(last > first && last - first <= md::LoadAssembly::kPairRun);
        for (std::size_t k = first; k < last; ++k) {
            const Contact& c = world->contacts[k];
            QVERIFY(c.kind == ContactKind::Particle && c.partner == partner[k - first] &&
                    c.particle == particle[k - first]);
            ++(*runs)[k];
            ++(*evaluations)[k];
            loads[k - first] = loadOf(k, c);
        }
    }
    void evaluate(std::size_t k, md::ContactLoad& load) const
    {
        ++(*evaluations)[k];
        load = loadOf(k, world->contacts[k]);
    }
    void clear(std::size_t first, std::size_t last) const
    {
        for (std::size_t i = first; i < last; ++i) {
            sums->force[i].setZero();
            sums->torque[i].setZero();
        }
    }
    void toBody1(std::size_t grain, const md::ContactLoad& load) const
    {
        sums->force[grain] += load.force;
        sums->torque[grain] += load.torque1;
    }
    void toBody0(std::size_t grain, const md::ContactLoad& load) const
    {
        sums->force[grain] -= load.force;
        sums->torque[grain] -= load.torque0;
    }
    void toPiston(const md::ContactLoad& load) const { sums->piston -= load.forceAlong; }
};

/// A CountingSink whose grain pairs with body 1 below `slowBelow` take `delay` each to evaluate, as on a core that the
/// machine runs slower.
struct SlowSink : CountingSink {
    std::size_t slowBelow = 0;
    std::chrono::microseconds delay{0};

    void evaluatePairs(std::size_t first, std::size_t last, const std::int32_t* partner, const std::int32_t* particle,
                       md::ContactLoad* loads) const
    {
        CountingSink::evaluatePairs(first, last, partner, particle, loads);
        for (std::size_t r = 0; r < last - first; ++r) {
            if (static_cast<std::size_t>(particle[r]) < slowBelow) {
                const auto until = std::chrono::steady_clock::now() + delay;
                while (std::chrono::steady_clock::now() < until) {
                }
            }
        }
    }
};

/// A world of `grains` grains and random contacts, the normals random.
World randomWorld(std::size_t grains, std::size_t contacts, Random& random)
{
    World world;
    for (std::size_t i = 0; i < grains; ++i) {
        world.particles.add(Vec3::Zero(), 1.0, 1.0, 3);
    }
    world.contacts = test::randomContacts(grains, contacts, random);
    for (Contact& c : world.contacts) {
        c.normal = Vec3(random.uniform() - 0.5, 1.0, random.uniform() - 0.5).normalized();
    }
    return world;
}

}  // namespace

class LoadAssemblyTest : public QObject {
    Q_OBJECT

private slots:
    void blocksOfGrainsSumAsOneLoopInContactOrder()
    {
        Random random(17);
        const std::size_t grains = 400;
        const World world = randomWorld(grains, 3000, random);
        const Sums expected = inContactOrder(world);
        for (const std::size_t blocks : {1U, 2U, 3U, 4U, 7U, 64U}) {
            md::LoadAssembly assembly;
            assembly.index(world, blocks);
            // Stale values: the assembly overwrites every grain's sums.
            Sums sums{std::vector<Vec3>(grains, Vec3::Constant(5.0)), std::vector<Vec3>(grains, Vec3::Constant(5.0)),
                      0.0};
            std::vector<int> evaluations(world.contacts.size(), 0);
            std::vector<int> runs(world.contacts.size(), 0);
            assembly.assemble(CountingSink{&world, &sums, &evaluations, &runs});
            for (std::size_t k = 0; k < evaluations.size(); ++k) {
                QVERIFY2(evaluations[k] == 1, "every contact is evaluated exactly once");
                const bool pair = world.contacts[k].kind == ContactKind::Particle;
                QVERIFY2(runs[k] == (pair ? 1 : 0),
                         "every grain pair is evaluated in a run of pairs, no other contact");
            }
            for (std::size_t i = 0; i < grains; ++i) {
                QVERIFY2(sums.force[i] == expected.force[i] && sums.torque[i] == expected.torque[i],
                         "a grain's sums differ from those in contact order");
            }
            QCOMPARE(sums.piston, expected.piston);
            std::printf("%zu blocks: %zu contacts on %zu grains, the same sums bit for bit\n", blocks,
                        world.contacts.size(), grains);
        }
    }

    /// The blocks are cut for equal work, a closed contact (overlapping at the index) weighing
    /// LoadAssembly::kClosedWeight = 3 open candidates: in a chain of grains whose first half touch and whose second
    /// half stand apart, the first block ends where the weights reach half, well before the middle grain.
    void closedContactsWeighMoreInTheCut()
    {
        World world;
        const std::size_t grains = 400;
        for (std::size_t i = 0; i < grains; ++i) {
            world.particles.add(Vec3(static_cast<double>(i), 0.0, 0.0), 0.5, 1.0, 3);
        }
        for (std::size_t j = 1; j < grains; ++j) {
            Contact c;
            c.kind = ContactKind::Particle;
            c.partner = static_cast<std::int32_t>(j - 1);
            c.particle = static_cast<std::int32_t>(j);
            c.gap = j < grains / 2 ? -0.01 : 0.05;  // m
            world.contacts.push_back(c);
        }
        md::LoadAssembly assembly;
        assembly.index(world, 2);
        const std::vector<std::size_t> starts = assembly.blockStarts();
        QCOMPARE(starts.size(), std::size_t{2});
        // Work before grain g: 3 per closed pair (grains 1..199), 1 per open one (200..399); all: 3 * 199 + 200 = 797.
        // The second block starts at the first grain whose work before it reaches half of that (398, in whole
        // numbers): 3 * (g - 1) >= 398 at g = 134 (by contacts alone it would be the middle, grain 200).
        QCOMPARE(starts[1], std::size_t{134});
        std::printf("two blocks over 199 closed and 200 open pairs: the second starts at grain %zu\n", starts[1]);
    }

    /// The cut follows the pace measured since the cut before: when the first block's pairs take longer (its thread
    /// on a slower core), the next cut of the same list gives the first block less work, and the sums are still
    /// those of one loop in contact order, bit for bit.
    void slowerBlocksGetLessWorkAtTheNextCut()
    {
        Random random(29);
        const std::size_t grains = 400;
        const World world = randomWorld(grains, 3000, random);
        const Sums expected = inContactOrder(world);
        md::LoadAssembly assembly;
        assembly.index(world, 2);
        const std::size_t evenStart = assembly.blockStarts()[1];
        Sums sums{std::vector<Vec3>(grains, Vec3::Zero()), std::vector<Vec3>(grains, Vec3::Zero()), 0.0};
        std::vector<int> evaluations(world.contacts.size(), 0);
        std::vector<int> runs(world.contacts.size(), 0);
        SlowSink slow{{&world, &sums, &evaluations, &runs}};
        slow.slowBelow = evenStart;
        slow.delay = std::chrono::microseconds(50);
        assembly.assemble(slow);
        assembly.index(world, 2);
        const std::size_t paceStart = assembly.blockStarts()[1];
        std::printf("two blocks: the second starts at grain %zu of %zu, at %zu once the first block's pairs took 50 us "
                    "each\n",
                    evenStart, grains, paceStart);
        QVERIFY2(paceStart < evenStart, "the slower block gets less work at the next cut");
        sums.piston = 0.0;  // the grains' sums are cleared by the assembly, the piston's by its caller
        assembly.assemble(CountingSink{&world, &sums, &evaluations, &runs});
        for (std::size_t i = 0; i < grains; ++i) {
            QVERIFY2(sums.force[i] == expected.force[i] && sums.torque[i] == expected.torque[i],
                     "a grain's sums differ from those in contact order");
        }
        QCOMPARE(sums.piston, expected.piston);
    }

    /// completingGrains (md's one-thread kick, dashpots and next drift in one pass): every contact once; each grain
    /// sees its contacts in ascending index, its pairs before its wall and piston contacts, and a pair comes after
    /// grain() of both its grains (md kicks them there: a dashpot needs both kicked); complete(first, last)
    /// covers the grains in ascending runs, called after a multiple of `run` grains (or the last), each grain only
    /// once every one of its contacts has been seen; the piston's contacts come in ascending index.
    void completingGrainsSeesEveryGrainsContactsInOrderBeforeCompleting()
    {
        Random random(47);
        const std::size_t grains = 700;
        const World world = randomWorld(grains, 2500, random);
        md::LoadAssembly assembly;
        assembly.index(world, 1);
        QVERIFY(assembly.oneBlock());
        std::vector<int> visits(world.contacts.size(), 0);
        std::vector<std::vector<std::size_t>> seenBy(grains);  // per grain, its contacts in the order seen
        std::vector<int> completed(grains, 0);
        std::vector<std::size_t> pistonOrder;
        std::size_t lastComplete = 0;
        std::size_t grainsSeen = 0;
        bool wellTimed = true;
        bool inRuns = true;
        bool beforeComplete = true;
        bool afterGrains = true;
        bool inOrder = true;
        const std::size_t run = 64;
        assembly.completingGrains(
            run,
            [&](std::size_t j) {
                inOrder = inOrder && j == grainsSeen;  // every grain once, ascending
                grainsSeen = j + 1;
            },
            [&](std::size_t k, std::size_t i, std::size_t j) {
                ++visits[k];
                seenBy[i].push_back(k);
                seenBy[j].push_back(k);
                beforeComplete = beforeComplete && completed[i] == 0 && completed[j] == 0;
                afterGrains = afterGrains && i < j && j < grainsSeen;
            },
            [&](std::size_t k) {
                ++visits[k];
                const auto g = static_cast<std::size_t>(world.contacts[k].particle);
                seenBy[g].push_back(k);
                beforeComplete = beforeComplete && completed[g] == 0;
                if (world.contacts[k].kind == ContactKind::Piston) {
                    pistonOrder.push_back(k);
                }
            },
            [&](std::size_t first, std::size_t last) {
                inRuns = inRuns && first == lastComplete && last > first;
                wellTimed = wellTimed && (grainsSeen % run == 0 || grainsSeen == grains);
                for (std::size_t g = first; g < last; ++g) {
                    ++completed[g];
                }
                lastComplete = last;
            });
        QCOMPARE(lastComplete, grains);
        QVERIFY2(inRuns, "complete() was not given consecutive, ascending runs of grains");
        QVERIFY2(wellTimed, "complete() called between two runs of grains");
        QVERIFY2(beforeComplete, "a contact was seen after its grain was complete");
        QVERIFY2(afterGrains, "a pair was seen before grain() of its grains");
        QVERIFY2(inOrder && grainsSeen == grains, "grain() was not called once for every grain, in ascending order");
        for (std::size_t k = 0; k < world.contacts.size(); ++k) {
            QCOMPARE(visits[k], 1);
        }
        std::vector<std::vector<std::size_t>> expected(grains);  // one loop over the contacts in index order
        for (std::size_t k = 0; k < world.contacts.size(); ++k) {
            const Contact& c = world.contacts[k];
            expected[static_cast<std::size_t>(c.particle)].push_back(k);
            if (c.kind == ContactKind::Particle) {
                expected[static_cast<std::size_t>(c.partner)].push_back(k);
            }
        }
        for (std::size_t g = 0; g < grains; ++g) {
            QCOMPARE(completed[g], 1);
            QVERIFY2(seenBy[g] == expected[g], "a grain's contacts were not seen in ascending index");
        }
        QVERIFY(!pistonOrder.empty());
        QVERIFY(std::is_sorted(pistonOrder.begin(), pistonOrder.end()));
    }

    /// blockDone(first, last) is called once for each block's grains, together covering every grain once, and sees
    /// those grains' sums already final (those of one loop in contact order); with one block it is not called.
    void blockDoneSeesTheBlocksFinishedSums()
    {
        Random random(41);
        const std::size_t grains = 400;
        const World world = randomWorld(grains, 3000, random);
        const Sums expected = inContactOrder(world);
        for (const std::size_t blocks : {1U, 2U, 3U, 7U}) {
            md::LoadAssembly assembly;
            assembly.index(world, blocks);
            Sums sums{std::vector<Vec3>(grains, Vec3::Zero()), std::vector<Vec3>(grains, Vec3::Zero()), 0.0};
            std::vector<int> evaluations(world.contacts.size(), 0);
            std::vector<int> runs(world.contacts.size(), 0);
            std::vector<int> calls(grains, 0);     // per grain: how many blockDone ranges held it
            std::vector<int> finished(grains, 0);  // per grain: its sums final when its block was done
            assembly.assemble(CountingSink{&world, &sums, &evaluations, &runs}, [&](std::size_t first,
                                                                                    std::size_t last) {
                for (std::size_t i = first; i < last; ++i) {
                    ++calls[i];
                    finished[i] = sums.force[i] == expected.force[i] && sums.torque[i] == expected.torque[i] ? 1 : 0;
                }
            });
            for (std::size_t i = 0; i < grains; ++i) {
                QCOMPARE(calls[i], blocks > 1 ? 1 : 0);
                if (blocks > 1) {
                    QVERIFY2(finished[i] == 1, "a block was done before its grains' sums were final");
                }
            }
        }
    }

    /// reduceOverBlocks: on two solver threads, body is called over the blocks' grains (the cut of the index), the
    /// results merged; for another number of grains it falls back on parallelRangeReduce's ranges.
    void reduceOverBlocksCoversTheBlocksGrains()
    {
        Random random(43);
        const std::size_t grains = 2000;
        const World world = randomWorld(grains, 6000, random);
        const int before = solverThreadSetting();
        setSolverThreads(2);
        md::LoadAssembly assembly;
        assembly.index(world);
        const std::vector<std::size_t> starts = assembly.blockStarts();
        for (const std::size_t n : {grains, grains + 1}) {
            std::vector<int> visits(n, 0);
            std::vector<std::size_t> rangeStarts(n, 0);  // 1 where a range began
            const auto [count, last] = assembly.reduceOverBlocks(
                n, std::pair<std::size_t, std::size_t>{0, 0},
                [&](std::size_t first, std::size_t end) {
                    rangeStarts[first] = 1;
                    for (std::size_t i = first; i < end; ++i) {
                        ++visits[i];
                    }
                    return std::pair<std::size_t, std::size_t>{end - first, end};
                },
                [](std::pair<std::size_t, std::size_t>& into, const std::pair<std::size_t, std::size_t>& from) {
                    into.first += from.first;
                    into.second = std::max(into.second, from.second);
                });
            QCOMPARE(count, n);
            QCOMPARE(last, n);
            for (std::size_t i = 0; i < n; ++i) {
                QCOMPARE(visits[i], 1);
            }
            if (n == grains) {
                // Two blocks where OpenMP is built in (one thread, one block, one range without it).
                QCOMPARE(starts.size(), std::size_t{parallelBuild() ? 2U : 1U});
                for (std::size_t i = 0; i < n; ++i) {
                    const bool blockStart = std::find(starts.begin(), starts.end(), i) != starts.end();
                    QVERIFY2((rangeStarts[i] == 1) == blockStart, "the ranges are not the blocks");
                }
            }
        }
        setSolverThreads(before);
    }

    /// A list out of key order would break the per-grain order the blocks rely on: refused.
    void unsortedContactsAreRefused()
    {
        Random random(3);
        World world;
        for (int i = 0; i < 50; ++i) {
            world.particles.add(Vec3::Zero(), 1.0, 1.0, 3);
        }
        world.contacts = test::randomContacts(50, 200, random);
        std::swap(world.contacts[0], world.contacts[100]);
        md::LoadAssembly assembly;
        bool refused = false;
        try {
            assembly.index(world, 2);
        } catch (const std::logic_error&) {
            refused = true;
        }
        QVERIFY(refused);
    }
};

QTEST_APPLESS_MAIN(LoadAssemblyTest)
#include "tst_load_assembly.moc"
