// The statistics of an ensemble's values (granular ensemble): mean, sample standard deviation with n - 1,
// standard error of the mean sigma / sqrt(n), the 95 % confidence interval by Student's t, min and max, on values whose
// answers are known exactly, and the same bits for the same values in the same order.
#include "analysis/SampleStatistics.h"
#include "analysis/StudentQuantile.h"

#include <QTest>

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace granular::analysis;

class SampleStatisticsTest : public QObject {
    Q_OBJECT

private slots:
    void knownValues();
    void oneValueHasNoSpread();
    void confidenceIntervalUsesStudentsT();
    void largeOffsetKeepsTheSpread();
    void equalValuesHaveTheirMeanAndNoSpread();
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
    // One value says nothing of the spread: not a standard error of 0, which would claim an exact mean.
    const auto s = sampleStatistics({0.75});
    QCOMPARE(s.mean, 0.75);
    QVERIFY(std::isnan(s.standardDeviation));
    QVERIFY(std::isnan(s.standardError));
    QVERIFY(std::isnan(s.confidence95));
}

void SampleStatisticsTest::confidenceIntervalUsesStudentsT()
{
    // Five values: mean +- t_{0.975, 4} s / sqrt(5), t_{0.975, 4} = 2.7764 (the standard table).
    const auto s = sampleStatistics({1.0, 2.0, 3.0, 4.0, 5.0});
    QCOMPARE(s.confidence95, 2.7764 * std::sqrt(2.5) / std::sqrt(5.0));
    // The table's ends and the expansion beyond it (exact values: R's qt(0.975, nu)).
    QCOMPARE(studentQuantile975(1), 12.7062);
    QCOMPARE(studentQuantile975(30), 2.0423);
    for (const auto& [nu, exact] :
         {std::pair{31L, 2.039513}, {40L, 2.021075}, {60L, 2.000298}, {120L, 1.979930}, {100000L, 1.959988}}) {
        QVERIFY2(std::abs(studentQuantile975(nu) - exact) < 1e-4, std::to_string(nu).c_str());
    }
    bool refused = false;
    try {
        (void)studentQuantile975(0);
    } catch (const std::invalid_argument&) {
        refused = true;
    }
    QVERIFY(refused);
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

void SampleStatisticsTest::equalValuesHaveTheirMeanAndNoSpread()
{
    // Three identical runs (md_impact's final kinetic energy): their plain sum over 3 gave 4.8518958438743646e-30,
    // above the maximum, and a standard deviation of 8.6e-46.
    const double x = 4.851895843874364e-30;
    const auto s = sampleStatistics({x, x, x});
    // Exact comparisons (QCOMPARE of doubles is fuzzy, and takes 8.6e-46 for 0).
    QVERIFY(s.mean == x);
    QVERIFY(s.standardDeviation == 0.0);
    QVERIFY(s.confidence95 == 0.0);
    // Unequal values: the mean stays within [min, max].
    for (const double y : {0.1, 0.7, 1e-300, 3.3e10}) {
        const auto t = sampleStatistics({y, y, y, y, y, y, 0.3 * y});
        QVERIFY(t.mean >= t.min && t.mean <= t.max);
    }
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
