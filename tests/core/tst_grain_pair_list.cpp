// GrainPairList (the grain pairs' Verlet list of contact dynamics) gives exactly CellList::findPairs's pairs, in its
// order, at every call: while grains drift through the margins, after a grain jumps, when a radius grows, when a
// grain is added, in 2D and 3D; and it searches far less often than it is called when the grains barely move
// relative to each other (also when they all travel far together). And
// CellList's own searches (box and periodic) give every pair that testing all pairs gives.
#include "contact/CellList.h"
#include "contact/GrainPairList.h"
#include "model/PeriodicCell.h"
#include "util/Parallel.h"
#include "util/Random.h"

#include <QTest>

#include <cmath>
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

/// Every pair (i, j), i < j, with |x_j - x_i|^2 < (r_i + r_j + margin)^2, by testing all of them, sorted by j then i:
/// what CellList::findPairs and findPeriodicPairs (`cell` set: the minimum image) must return.
PairList allPairs(const Particles& p, double margin, const PeriodicCell* cell)
{
    PairList pairs;
    for (std::size_t j = 0; j < p.size(); ++j) {
        for (std::size_t i = 0; i < j; ++i) {
            Vec3 d = p.position[j] - p.position[i];
            if (cell != nullptr) {
                d = cell->minimumImage(d);
            }
            const double reach = p.radius[i] + p.radius[j] + margin;
            if (d.squaredNorm() < reach * reach) {
                pairs.emplace_back(static_cast<std::int32_t>(i), static_cast<std::int32_t>(j));
            }
        }
    }
    return pairs;
}

/// Grains of radius 0.2-2 m (the cells are sized by the largest) at random places of `cell` (reduced coordinates in
/// [0, 1)).
Particles grainsInCell(Random& random, int count, const PeriodicCell& cell)
{
    Particles p;
    for (int i = 0; i < count; ++i) {
        const Vec3 s(random.uniform(), random.uniform(), cell.dimension == 3 ? random.uniform() : 0.0);
        p.add(cell.edges * s, random.uniform(0.2, 2.0), 1.0, cell.dimension);
    }
    return p;
}

/// Both cell searches against allPairs on one and two solver threads, in 2D and 3D: a cube, and a sheared periodic
/// cell. Returns false (and says where) at the first difference.
bool cellSearchesFindAllPairs()
{
    Random random(11);
    for (const int dimension : {2, 3}) {
        const int count = dimension == 3 ? 2500 : 2000;
        const double side = dimension == 3 ? 30.0 : 90.0;
        PeriodicCell cube = PeriodicCell::cube(dimension, side);
        PeriodicCell sheared = cube;
        Mat3 h = cube.edges;
        h(0, 1) = 0.3 * side;  // the second edge leans along x
        sheared.setEdges(h);
        for (const PeriodicCell* cell : {&cube, &sheared}) {
            const Particles p = grainsInCell(random, count, *cell);
            for (const double margin : {0.0, 0.4}) {
                const PairList bounded = allPairs(p, margin, nullptr);
                const PairList periodic = allPairs(p, margin, cell);
                for (const int threads : {1, 2}) {
                    setSolverThreads(threads);
                    CellList cells;
                    PairList found;
                    cells.findPairs(p, Eigen::AlignedBox3d(Vec3::Zero(), cell->edges * Vec3::Ones()), dimension, margin,
                                    found);
                    PairList foundPeriodic;
                    cells.findPeriodicPairs(p, *cell, margin, foundPeriodic);
                    setSolverThreads(1);
                    if (found != bounded || foundPeriodic != periodic) {
                        std::printf("%dD, margin %g, %d threads: %zu/%zu pairs in the box, %zu/%zu periodic\n",
                                    dimension, margin, threads, found.size(), bounded.size(), foundPeriodic.size(),
                                    periodic.size());
                        return false;
                    }
                }
                std::printf("%dD %s cell, margin %g: %zu pairs in the box, %zu periodic, as testing all pairs\n",
                            dimension, cell == &cube ? "cubic" : "sheared", margin, bounded.size(), periodic.size());
            }
        }
    }
    return true;
}

}  // namespace

class TestGrainPairList : public QObject {
    Q_OBJECT

private slots:
    /// CellList's searches, of the box and of a periodic cell, return exactly the pairs that testing every pair finds
    /// (gap below the margin, i < j, sorted by j then i), for grains of radii 0.2-2 m, on one and two threads.
    void cellSearchesGiveEveryPairWithinTheMargin() { QVERIFY(cellSearchesFindAllPairs()); }

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

    void aPackingMovingAsAWholeKeepsItsList()
    {
        // 1500 grains carried 1.8 m along (1, 1, 1)/sqrt(3) in 60 calls, each also drifting by up to 0.0005 m per axis
        // and call: their drifts stay in a box 0.06 m wide per axis, so the pairs close in by at most 0.104 m in all,
        // within the list's skin of 0.27 m, and one search serves every call. Twice the largest displacement (the rule
        // before the displacements' box) passes the skin after 5 calls.
        Random random(5);
        constexpr double kSide = 20.0;
        Particles p = randomGrains(random, 1500, kSide - 2.0, 3);
        std::vector<Vec3> velocity(p.size());
        for (Vec3& v : velocity) {
            v = Vec3::Constant(0.03 / std::sqrt(3.0)) +
                0.0005 * Vec3(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0));
        }
        GrainPairList list(0.3);
        CellList cells;
        for (int call = 0; call < 60; ++call) {
            for (std::size_t i = 0; i < p.size(); ++i) {
                p.position[i] += velocity[i];
            }
            QVERIFY(compare(list, cells, p, kSide, 3, 0.1) > 0);
        }
        QCOMPARE(list.searches(), std::int64_t{1});
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

    /// Grains far apart compared with their size: the grids stay within 8 n + 64 cells (their cell counts were
    /// products in int64 that overflowed: a 3D box over 262,000 grains across km, a periodic cell over ~2e6 ranges per
    /// axis) and the searches still find the touching pairs.
    void sparseGrainsFarApartKeepTheGridBounded()
    {
        // 65^3 grains of radius 1 m, 100 km apart, and one grain touching the first: a grid of 8 n + 64 cells per axis
        // had ~1e19 cells.
        Particles p;
        constexpr int kAcross = 65;
        for (int x = 0; x < kAcross; ++x) {
            for (int y = 0; y < kAcross; ++y) {
                for (int z = 0; z < kAcross; ++z) {
                    p.add(1e5 * Vec3(x, y, z), 1.0, 1.0, 3);
                }
            }
        }
        const auto partner = static_cast<std::int32_t>(p.size());
        p.add(Vec3(1.5, 0.0, 0.0), 1.0, 1.0, 3);
        CellList cells;
        PairList found;
        cells.findPairs(p, Eigen::AlignedBox3d(Vec3::Zero(), Vec3::Zero()), 3, 0.1, found);
        QCOMPARE(found, PairList({{0, partner}}));
        // Three grains in a periodic cube 1e7 m across: ~5e6 interaction ranges per axis. The first two touch through
        // the cell's face.
        const PeriodicCell cube = PeriodicCell::cube(3, 1e7);
        Particles few;
        few.add(Vec3(0.5, 10.0, 10.0), 1.0, 1.0, 3);
        few.add(Vec3(1e7 - 0.5, 10.0, 10.0), 1.0, 1.0, 3);
        few.add(Vec3(5e6, 5e6, 5e6), 1.0, 1.0, 3);
        found.clear();
        cells.findPeriodicPairs(few, cube, 0.1, found);
        QCOMPARE(found, PairList({{0, 1}}));
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
