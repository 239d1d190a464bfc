// ColourPace (the coloured sweep's cuts of a colour between its threads): the threads' ranges cover a colour's
// members once, in thread order; fed the times that a model of uneven members and uneven threads gives, the cuts
// settle where the threads' times are equal (the closed contacts of a settling packing lie at the bottom, in the
// first members of every colour); no thread's share falls below the least; the cuts carry over to the next step.
#include "cd/ColourPace.h"

#include <QTest>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace granular;

namespace {

/// Each thread's time on its range of a colour of n units: the sum of cost(unit) over the range, divided by the
/// thread's speed.
std::vector<double> modelTimes(const ColourPace& pace, std::size_t colour, std::size_t n,
                               const std::function<double(std::size_t)>& cost, const std::vector<double>& speed)
{
    std::vector<double> times(speed.size(), 0.0);
    for (std::size_t t = 0; t < speed.size(); ++t) {
        const auto [first, end] = pace.range(colour, t, n);
        for (std::size_t m = first; m < end; ++m) {
            times[t] += cost(m) / speed[t];
        }
    }
    return times;
}

/// Runs `iterations` of adjust() on the model and returns the last iteration's times.
std::vector<double> settle(ColourPace& pace, std::size_t n, const std::function<double(std::size_t)>& cost,
                           const std::vector<double>& speed, int iterations)
{
    std::vector<double> times;
    for (int k = 0; k < iterations; ++k) {
        times = modelTimes(pace, 0, n, cost, speed);
        for (std::size_t t = 0; t < speed.size(); ++t) {
            pace.record(0, t, times[t]);
        }
        pace.adjust();
    }
    return modelTimes(pace, 0, n, cost, speed);
}

double imbalance(const std::vector<double>& times)
{
    return *std::max_element(times.begin(), times.end()) / *std::min_element(times.begin(), times.end());
}

}  // namespace

class ColourPaceTest : public QObject {
    Q_OBJECT

private slots:
    void rangesCoverEveryMemberOnceInThreadOrder()
    {
        for (const std::size_t threads : {1U, 2U, 3U, 8U}) {
            for (const std::size_t n : {0U, 1U, 2U, 7U, 1000U}) {
                ColourPace pace;
                pace.start(3, threads);
                std::size_t next = 0;
                for (std::size_t t = 0; t < threads; ++t) {
                    const auto [first, end] = pace.range(1, t, n);
                    QCOMPARE(first, next);
                    QVERIFY(end >= first);
                    next = end;
                }
                QCOMPARE(next, n);
            }
        }
        ColourPace even;
        even.start(1, 2);
        QCOMPARE(even.range(0, 0, 1000).second, std::size_t{500});  // an even cut before anything is measured
    }

    /// The closed contacts (ten times an open one's cost) in the first 30 % of a colour's members: an even cut gives
    /// the first thread 10 * 300 + 200 = 3,200 against 500; the cuts settle within a few percent of equal times.
    void cutsSettleWhereUnevenMembersTakeEqualTimes()
    {
        const std::size_t n = 1000;
        const auto cost = [](std::size_t m) { return m < 300 ? 10.0 : 1.0; };
        ColourPace pace;
        pace.start(1, 2);
        const std::vector<double> speed{1.0, 1.0};
        QVERIFY(imbalance(modelTimes(pace, 0, n, cost, speed)) > 6.0);
        const std::vector<double> times = settle(pace, n, cost, speed, 20);
        std::printf("two threads, closed members first: cut at %zu of %zu, times %.0f and %.0f\n",
                    pace.range(0, 0, n).second, n, times[0], times[1]);
        QVERIFY(imbalance(times) < 1.05);
        QVERIFY(pace.range(0, 0, n).second < 300);

        ColourPace three;
        three.start(1, 3);
        const std::vector<double> threeTimes = settle(three, n, cost, {1.0, 1.0, 1.0}, 30);
        std::printf("three threads: times %.0f, %.0f, %.0f\n", threeTimes[0], threeTimes[1], threeTimes[2]);
        QVERIFY(imbalance(threeTimes) < 1.05);
    }

    /// Even members, the second thread at half speed (a busy core): it ends with about a third of them.
    void aSlowerThreadGetsFewerMembers()
    {
        const std::size_t n = 3000;
        ColourPace pace;
        pace.start(1, 2);
        const std::vector<double> times = settle(
            pace, n, [](std::size_t) { return 1.0; }, {1.0, 0.5}, 20);
        const auto [first, end] = pace.range(0, 1, n);
        std::printf("slow second thread: %zu of %zu members\n", end - first, n);
        QVERIFY(imbalance(times) < 1.02);
        QVERIFY(end - first > 950 && end - first < 1050);
    }

    /// However slow a thread's members, it keeps kLeastShare of an even share (else it would measure nothing): the
    /// cost of a colour in its first ten members (the balance would give the first thread ~5 of 10,000), then in its
    /// last ten (the top clamp, for the last thread).
    void noThreadFallsBelowTheLeastShare()
    {
        const std::size_t n = 10000;
        const auto least = static_cast<std::size_t>(ColourPace::kLeastShare * 0.5 * static_cast<double>(n));
        ColourPace first;
        first.start(1, 2);
        settle(
            first, n, [](std::size_t m) { return m < 10 ? 1e6 : 1.0; }, {1.0, 1.0}, 40);
        const auto [begin0, end0] = first.range(0, 0, n);
        std::printf("cost in the first ten members: the first thread keeps %zu of %zu\n", end0 - begin0, n);
        QVERIFY(end0 - begin0 >= least - 1);
        QVERIFY(end0 - begin0 <= least + 1);
        ColourPace last;
        last.start(1, 2);
        settle(
            last, n, [](std::size_t m) { return m >= 9990 ? 1e6 : 1.0; }, {1.0, 1.0}, 40);
        const auto [begin1, end1] = last.range(0, 1, n);
        std::printf("cost in the last ten members: the last thread keeps %zu of %zu\n", end1 - begin1, n);
        QVERIFY(end1 - begin1 >= least - 1);
        QVERIFY(end1 - begin1 <= least + 1);
    }

    /// A colour that a thread did not measure keeps its cuts; a new step keeps the cuts of the colours it had,
    /// starts new colours even, and starts all even on another thread count.
    void cutsCarryOverToTheNextStep()
    {
        const std::size_t n = 1000;
        ColourPace pace;
        pace.start(2, 2);
        pace.record(0, 0, 3.0);
        pace.record(0, 1, 1.0);
        pace.record(1, 0, 3.0);  // colour 1: the second thread measured nothing
        pace.adjust();
        const std::size_t moved = pace.range(0, 0, n).second;
        QVERIFY(moved < 500);
        QCOMPARE(pace.range(1, 0, n).second, std::size_t{500});
        pace.start(3, 2);
        QCOMPARE(pace.range(0, 0, n).second, moved);
        QCOMPARE(pace.range(2, 0, n).second, std::size_t{500});
        pace.start(3, 3);
        QCOMPARE(pace.range(0, 0, 999).second, std::size_t{333});
    }
};

QTEST_APPLESS_MAIN(ColourPaceTest)
#include "tst_colour_pace.moc"
