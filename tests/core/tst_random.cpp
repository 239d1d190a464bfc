// Random::below draws the same numbers as the textbook rejection it replaces (the limit M - (M mod n) computed
// for every draw), also where the rejection is frequent, and stays in [0, n); so does its form without a division
// (remainderBy with the reciprocal floor(2^64 / n)), whose remainders equal the % operator's at the edges of its
// bound (x near a multiple of n, x = 2^64 - 1, n a power of two, n near 2^64).
#include "util/Random.h"
#include "util/Reciprocal.h"

#include <QTest>

#include <cstdint>
#include <vector>

using granular::Random;
using granular::reciprocalOf;
using granular::remainderBy;

namespace {

/// The rejection of draws at or above M - (M mod n), M = 2^64 - 1, with the limit computed for every draw.
std::uint64_t referenceBelow(Random& random, std::uint64_t n)
{
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
    std::uint64_t x = random.next();
    while (x >= limit) {
        x = random.next();
    }
    return x % n;
}

}  // namespace

class TestRandom : public QObject {
    Q_OBJECT

private slots:
    void belowDrawsTheReferenceNumbers()
    {
        // Small bounds (the sweeps' shuffles), a bound near 2^32, and bounds whose rejection zone is large:
        // 2^63 + 1 rejects almost half of all draws, 2^64 - 1 one in 2^64.
        const std::uint64_t bounds[] = {1,
                                        2,
                                        3,
                                        1000,
                                        20000,
                                        (std::uint64_t{1} << 32U) + 7,
                                        (std::uint64_t{1} << 63U) + 1,
                                        (std::uint64_t{1} << 63U) + (std::uint64_t{1} << 62U),
                                        ~std::uint64_t{0}};
        int rejectingBounds = 0;
        for (const std::uint64_t n : bounds) {
            Random fast(42);
            Random reference(42);
            for (int draw = 0; draw < 20000; ++draw) {
                const std::uint64_t x = fast.below(n);
                QCOMPARE(x, referenceBelow(reference, n));
                QVERIFY(x < n);
            }
            // Both generators must also have used the same number of raw draws.
            QCOMPARE(fast.next(), reference.next());
            rejectingBounds += n > (std::uint64_t{1} << 63U) ? 1 : 0;
        }
        QCOMPARE(rejectingBounds, 3);
    }

    void reciprocalIsTheFloorOfTwoToThe64Over()
    {
        QCOMPARE(reciprocalOf(2), std::uint64_t{1} << 63U);
        QCOMPARE(reciprocalOf(3), std::uint64_t{0x5555555555555555});  // (2^64 - 1) / 3, 2^64 = 1 mod 3
        QCOMPARE(reciprocalOf(std::uint64_t{1} << 32U), std::uint64_t{1} << 32U);
        QCOMPARE(reciprocalOf(~std::uint64_t{0}), std::uint64_t{1});
        QCOMPARE(reciprocalOf((std::uint64_t{1} << 63U) + 1), std::uint64_t{1});
    }

    void remainderByEqualsTheModuloOperator()
    {
        constexpr std::uint64_t kMax = ~std::uint64_t{0};
        const std::uint64_t bounds[] = {2,
                                        3,
                                        7,
                                        1000,
                                        1024,
                                        20000,
                                        65535,
                                        65536,
                                        (std::uint64_t{1} << 32U) - 1,
                                        std::uint64_t{1} << 32U,
                                        (std::uint64_t{1} << 32U) + 7,
                                        (std::uint64_t{1} << 63U) - 1,
                                        std::uint64_t{1} << 63U,
                                        (std::uint64_t{1} << 63U) + 1,
                                        kMax - 1,
                                        kMax};
        Random random(3);
        int checked = 0;
        for (const std::uint64_t n : bounds) {
            const std::uint64_t m = reciprocalOf(n);
            std::vector<std::uint64_t> xs = {0,
                                             1,
                                             n - 1,
                                             n,
                                             n + 1,
                                             2 * n - 1,
                                             2 * n,
                                             kMax,
                                             kMax - 1,
                                             kMax - n,
                                             kMax - kMax % n,
                                             kMax - kMax % n - 1,
                                             (kMax / n) * n - 1};
            for (int draw = 0; draw < 20000; ++draw) {
                xs.push_back(random.next());
            }
            for (const std::uint64_t x : xs) {
                QCOMPARE(remainderBy(x, n, m), x % n);
                ++checked;
            }
        }
        QVERIFY(checked > 300000);
        // Every bound a shuffle of up to 100,000 contacts uses.
        for (std::uint64_t n = 2; n <= 100000; ++n) {
            const std::uint64_t m = reciprocalOf(n);
            for (const std::uint64_t x : {kMax, kMax - 1, random.next(), (kMax / n) * n, (kMax / n) * n - 1}) {
                QCOMPARE(remainderBy(x, n, m), x % n);
            }
        }
    }

    void belowWithTheReciprocalDrawsTheSameNumbers()
    {
        granular::Reciprocals reciprocals;
        reciprocals.cover(5000);
        reciprocals.cover(100);  // covering less keeps the table
        Random plain(11);
        Random fast(11);
        for (std::uint64_t n = 5000; n >= 2; --n) {
            QCOMPARE(fast.below(n, reciprocals[n]), plain.below(n));
        }
        for (const std::uint64_t n : {(std::uint64_t{1} << 63U) + 1, ~std::uint64_t{0}}) {
            for (int draw = 0; draw < 20000; ++draw) {
                QCOMPARE(fast.below(n, reciprocalOf(n)), plain.below(n));
            }
        }
        QCOMPARE(fast.next(), plain.next());
    }

    void belowOfOneIsZero()
    {
        Random random(7);
        for (int draw = 0; draw < 100; ++draw) {
            QCOMPARE(random.below(1), std::uint64_t{0});
        }
    }
};

QTEST_APPLESS_MAIN(TestRandom)
#include "tst_random.moc"
