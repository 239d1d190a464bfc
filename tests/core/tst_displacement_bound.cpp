// DisplacementBound, the Verlet lists' test of how far grains moved since the list was made: pairApproach() must bound
// |d_j - d_i| over every two displacements (checked against all pairs, for random displacements and for a packing that
// moves as a whole), largest() must be the largest |d|; the box's diagonal must make the bound much tighter than twice
// the largest |d| where the grains move alike; merging partial bounds gives the bound of all; no grain gives 0, a
// non-finite displacement an infinite bound.
#include "contact/DisplacementBound.h"
#include "util/Random.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace granular;

namespace {

/// The largest |d_j - d_i| over every two displacements (all pairs).
double largestPairDifference(const std::vector<Vec3>& d)
{
    double largest = 0.0;
    for (std::size_t j = 0; j < d.size(); ++j) {
        for (std::size_t i = 0; i < j; ++i) {
            largest = std::max(largest, (d[j] - d[i]).norm());
        }
    }
    return largest;
}

/// `count` displacements: a common `drift` plus a random part of up to `spread` m per axis.
std::vector<Vec3> displacements(Random& random, int count, const Vec3& drift, double spread)
{
    std::vector<Vec3> d;
    for (int i = 0; i < count; ++i) {
        d.push_back(drift +
                    spread * Vec3(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0)));
    }
    return d;
}

DisplacementBound boundOf(const std::vector<Vec3>& d)
{
    DisplacementBound bound;
    for (const Vec3& x : d) {
        bound.add(x);
    }
    return bound;
}

}  // namespace

class DisplacementBoundTest : public QObject {
    Q_OBJECT

private slots:
    void boundsEveryPairOfRandomDisplacements()
    {
        Random random(20261130);
        for (int trial = 0; trial < 200; ++trial) {
            const Vec3 drift = random.uniform(0.0, 2.0) *
                               Vec3(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0));
            const std::vector<Vec3> d = displacements(random, 2 + trial % 40, drift, random.uniform(0.0, 1.0));
            const DisplacementBound bound = boundOf(d);
            double largest = 0.0;
            for (const Vec3& x : d) {
                largest = std::max(largest, x.norm());
            }
            QCOMPARE(bound.largest(), largest);
            QVERIFY(bound.pairApproach() >= largestPairDifference(d));
            QVERIFY(bound.pairApproach() <= 2.0 * bound.largest());
        }
    }

    void aPackingMovingAsAWholeHasASmallBound()
    {
        // 500 grains moved by 1 m along (1, 1, 1)/sqrt(3) and by up to 0.01 m each way on top: the pairs closed in
        // by at most 2 sqrt(3) 0.01 m, which the box's diagonal gives; twice the largest |d| would be ~2 m.
        Random random(7);
        const std::vector<Vec3> d = displacements(random, 500, Vec3::Constant(1.0 / std::sqrt(3.0)), 0.01);
        const DisplacementBound bound = boundOf(d);
        QVERIFY(bound.largest() > 1.0);
        QVERIFY(bound.pairApproach() >= largestPairDifference(d));
        QVERIFY2(bound.pairApproach() <= 2.0 * std::sqrt(3.0) * 0.01, "the bound is not the box's diagonal");
    }

    void mergedPartsGiveTheBoundOfAll()
    {
        Random random(11);
        const std::vector<Vec3> d = displacements(random, 300, Vec3(0.3, -0.2, 0.1), 0.05);
        const DisplacementBound whole = boundOf(d);
        DisplacementBound merged;
        for (std::size_t first = 0; first < d.size(); first += 70) {
            DisplacementBound part;
            for (std::size_t i = first; i < std::min(d.size(), first + 70); ++i) {
                part.add(d[i]);
            }
            merged.merge(part);
        }
        merged.merge(DisplacementBound{});  // an empty part changes nothing
        QCOMPARE(merged.largest(), whole.largest());
        QCOMPARE(merged.pairApproach(), whole.pairApproach());
    }

    void noGrainGivesZeroAndANonFiniteOneAnInfiniteBound()
    {
        const DisplacementBound none;
        QCOMPARE(none.largest(), 0.0);
        QCOMPARE(none.pairApproach(), 0.0);
        DisplacementBound one;
        one.add(Vec3(3.0, 0.0, 0.0));
        QCOMPARE(one.largest(), 3.0);
        QCOMPARE(one.pairApproach(), 0.0);  // a single grain closes in on no other grain
        for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
            DisplacementBound bound;
            bound.add(Vec3(0.1, 0.0, 0.0));
            bound.add(Vec3(bad, 0.0, 0.0));
            bound.add(Vec3(0.2, 0.0, 0.0));  // a finite grain after it does not hide it
            QVERIFY(std::isinf(bound.largest()));
            QVERIFY(std::isinf(bound.pairApproach()));
            DisplacementBound merged;
            merged.add(Vec3(0.1, 0.0, 0.0));
            merged.merge(bound);
            QVERIFY(std::isinf(merged.pairApproach()));
        }
    }
};

QTEST_APPLESS_MAIN(DisplacementBoundTest)
#include "tst_displacement_bound.moc"
