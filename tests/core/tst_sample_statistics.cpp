// The statistics of an ensemble's values (granular ensemble): mean, sample standard deviation with n - 1,
// standard error of the mean sigma / sqrt(n), min and max, on values whose answers are known exactly, and the
// same bits for the same values in the same order.
#include "analysis/SampleStatistics.h"

#include <QTest>

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace granular::analysis;

class SampleStatisticsTest : public QObject {
    Q_OBJECT

private slots:
    void knownValues();
    void oneValueHasNoSpread();
    void largeOffsetKeepsTheSpread();
    void noValuesAreRefused();
};

void SampleStatisticsTest::knownValues()
{
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sum of squared deviations 32, s = sqrt(32 / 7).
    const auto s = sampleStatistics({2, 4, 4, 4, 5, 5, 7, 9});
    QCOMPARE(s.count, std::size_t{8});
    QCOMPARE(s.mean, 5.0);
    QCOMPARE(s.standardDeviation, std::sqrt(32.0 / 7.0));
    QCOMPARE(s.standardError, std::sqrt(32.0 / 7.0) / std::sqrt(8.0));
    QCOMPARE(s.min, 2.0);
    QCOMPARE(s.max, 9.0);
}

void SampleStatisticsTest::oneValueHasNoSpread()
{
    const auto s = sampleStatistics({0.75});
    QCOMPARE(s.mean, 0.75);
    QCOMPARE(s.standardDeviation, 0.0);
    QCOMPARE(s.standardError, 0.0);
}

void SampleStatisticsTest::largeOffsetKeepsTheSpread()
{
    // Two passes: a spread of 1 on top of 1e9 is not lost to cancellation (a one-pass sum of squares would be).
    std::vector<double> values;
    for (const double x : {1.0, 2.0, 3.0}) {
        values.push_back(1e9 + x);
    }
    const auto s = sampleStatistics(values);
    QCOMPARE(s.mean, 1e9 + 2.0);
    QCOMPARE(s.standardDeviation, 1.0);
}

void SampleStatisticsTest::noValuesAreRefused()
{
    bool refused = false;
    try {
        (void)sampleStatistics({});
    } catch (const std::invalid_argument&) {
        refused = true;
    }
    QVERIFY(refused);
}

QTEST_APPLESS_MAIN(SampleStatisticsTest)
#include "tst_sample_statistics.moc"
