// GrainPairList (the grain pairs' Verlet list of contact dynamics) gives exactly CellList::findPairs's pairs, in its
// order, at every call: while grains drift through the margins, after a grain jumps, when a radius grows, when a
// grain is added, in 2D and 3D; and it searches far less often than it is called when the grains barely move.
#include "contact/CellList.h"
#include "contact/GrainPairList.h"
#include "util/Random.h"

#include <QTest>

#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

using namespace granular;

namespace {

using PairList = std::vector<std::pair<std::int32_t, std::int32_t>>;

/// A loose random packing: `count` grains of radius 0.9-1 m in a box of `side` m (z = 0 in 2D), overlaps allowed.
Particles randomGrains(Random& random, int count, double side, int dimension)
{
    Particles p;
    for (int i = 0; i < count; ++i) {
        const Vec3 x(random.uniform(0.0, side), random.uniform(0.0, side),
                     dimension == 3 ? random.uniform(0.0, side) : 0.0);
        p.add(x, random.uniform(0.9, 1.0), 1.0, dimension);
    }
    return p;
}

Eigen::AlignedBox3d boxOf(double side)
{
    return {Vec3::Zero(), Vec3(side, side, side)};
}

/// Both searches at the given margin: the pairs must agree; returns how many there were.
std::size_t compare(GrainPairList& list, CellList& cells, const Particles& p, double side, int dimension, double margin)
{
    PairList fromList;
    PairList fromCells;
    list.findPairs(p, boxOf(side), dimension, margin, fromList);
    cells.findPairs(p, boxOf(side), dimension, margin, fromCells);
    if (fromList != fromCells) {
        std::printf("margin %g: %zu pairs from the list, %zu from the cells\n", margin, fromList.size(),
                    fromCells.size());
    }
    return fromList == fromCells ? fromCells.size() : 0;
}

/// Grains drifting at fixed random velocities (so gaps pass through the margins) for `steps` calls, the margin
/// changing from call to call as the candidates' margin does; every call must agree. Returns the list's searches.
std::int64_t drift(int dimension)
{
    Random random(7);
    const double side = dimension == 3 ? 20.0 : 60.0;
    Particles p = randomGrains(random, dimension == 3 ? 1500 : 1000, side, dimension);
    std::vector<Vec3> velocity(p.size());
    for (Vec3& v : velocity) {
        v = Vec3(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0),
                 dimension == 3 ? random.uniform(-1.0, 1.0) : 0.0);
    }
    GrainPairList list(0.3);
    CellList cells;
    std::size_t pairs = 0;
    constexpr int kSteps = 120;
    for (int step = 0; step < kSteps; ++step) {
        for (std::size_t i = 0; i < p.size(); ++i) {
            p.position[i] += 0.004 * velocity[i];  // up to 0.007 m per call in 3D
        }
        const double margin = 0.05 + 0.05 * random.uniform();
        const std::size_t found = compare(list, cells, p, side, dimension, margin);
        if (found == 0) {
            return -1;
        }
        pairs += found;
    }
    std::printf("%dD: %zu pairs over %d calls, %lld searches\n", dimension, pairs, kSteps,
                static_cast<long long>(list.searches()));
    return list.searches();
}

}  // namespace

class TestGrainPairList : public QObject {
    Q_OBJECT

private slots:
    void drifting3dGrainsGiveTheCellSearchPairs()
    {
        const std::int64_t searches = drift(3);
        QVERIFY(searches > 1);   // the grains move far enough for the list to be rebuilt
        QVERIFY(searches < 40);  // and it is reused in between (120 calls)
    }

    void drifting2dGrainsGiveTheCellSearchPairs()
    {
        const std::int64_t searches = drift(2);
        QVERIFY(searches > 1);
        QVERIFY(searches < 40);
    }

    void jumpsGrowthAndNewGrainsRebuildTheList()
    {
        Random random(11);
        constexpr double kSide = 20.0;
        Particles p = randomGrains(random, 1500, kSide, 3);
        GrainPairList list(0.3);
        CellList cells;
        QVERIFY(compare(list, cells, p, kSide, 3, 0.1) > 0);
        QVERIFY(compare(list, cells, p, kSide, 3, 0.1) > 0);
        QCOMPARE(list.searches(), std::int64_t{1});
        // One grain jumps onto another one.
        p.position[10] = p.position[20] + Vec3(0.5, 0.0, 0.0);
        QVERIFY(compare(list, cells, p, kSide, 3, 0.1) > 0);
        QCOMPARE(list.searches(), std::int64_t{2});
        // A grain grows by more than the skin.
        p.radius[30] += 0.5;
        QVERIFY(compare(list, cells, p, kSide, 3, 0.1) > 0);
        QCOMPARE(list.searches(), std::int64_t{3});
        // A grain is added beside another one.
        p.add(p.position[40] + Vec3(0.0, 1.9, 0.0), 1.0, 1.0, 3);
        QVERIFY(compare(list, cells, p, kSide, 3, 0.1) > 0);
        QCOMPARE(list.searches(), std::int64_t{4});
        // A margin beyond the list's reach.
        QVERIFY(compare(list, cells, p, kSide, 3, 0.5) > 0);
        QCOMPARE(list.searches(), std::int64_t{5});
        // Nothing moved: the list serves smaller margins.
        QVERIFY(compare(list, cells, p, kSide, 3, 0.2) > 0);
        QCOMPARE(list.searches(), std::int64_t{5});
    }

    void noSkinSearchesEveryCall()
    {
        Random random(3);
        Particles p = randomGrains(random, 500, 15.0, 3);
        GrainPairList list;
        CellList cells;
        QVERIFY(compare(list, cells, p, 15.0, 3, 0.1) > 0);
        QVERIFY(compare(list, cells, p, 15.0, 3, 0.1) > 0);
        QCOMPARE(list.searches(), std::int64_t{0});  // no list kept: CellList at every call
    }
};

QTEST_APPLESS_MAIN(TestGrainPairList)
#include "tst_grain_pair_list.moc"
