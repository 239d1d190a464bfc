// Random::below draws the same numbers as the textbook rejection it replaces (the limit M - (M mod n) computed
// for every draw), also where the rejection is frequent, and stays in [0, n).
#include "util/Random.h"

#include <QtTest>

#include <cstdint>

using granular::Random;

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
