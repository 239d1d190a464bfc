// ContactStrips (solver.sweep = strips): every contact in exactly one strip, in ascending index within it; no grain
// touched by contacts of two strips two or more apart (so the strips of one parity may be swept at once); the piston's
// contacts in at most two neighbouring strips, across the piston's normal; and the threads' shares of a parity's
// contacts cutting its strips into consecutive runs that cover each strip once; the same strips cut on 1, 2 or 3
// threads.
#include "cd/ContactStrips.h"
#include "model/Contact.h"
#include "model/Particles.h"
#include "util/Parallel.h"
#include "util/Random.h"

#include <QTest>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace granular;

namespace {

constexpr double kRadius = 0.01;  // m

/// Disks on a jittered lattice, `columns` wide and `rows` high (y up), their candidates (gaps below a tenth of a
/// radius), a floor under the lowest row and, with `piston`, a flat piston on the highest row (normal -y).
struct Packing {
    Particles particles;
    std::vector<Contact> contacts;
};

Packing latticePacking(int columns, int rows, bool piston, Random& random)
{
    Packing p;
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column) {
            const Vec3 jitter(random.uniform(-0.02, 0.02) * kRadius, random.uniform(-0.02, 0.02) * kRadius, 0.0);
            p.particles.add(Vec3(2.03 * kRadius * column, 2.03 * kRadius * row, 0.0) + jitter,
                            kRadius * random.uniform(0.97, 1.0), 2500.0, 2);
        }
    }
    const auto n = static_cast<std::int32_t>(p.particles.size());
    for (std::int32_t j = 0; j < n; ++j) {
        const Vec3& xj = p.particles.position[static_cast<std::size_t>(j)];
        const double rj = p.particles.radius[static_cast<std::size_t>(j)];
        for (std::int32_t i = 0; i < j; ++i) {
            const Vec3 d = xj - p.particles.position[static_cast<std::size_t>(i)];
            const double ri = p.particles.radius[static_cast<std::size_t>(i)];
            if (d.norm() < ri + rj + 0.1 * kRadius) {
                Contact c;
                c.partner = i;
                c.particle = j;
                c.normal = d.normalized();
                c.lever0 = ri * c.normal;
                c.lever1 = -rj * c.normal;
                c.gap = d.norm() - ri - rj;
                p.contacts.push_back(c);
            }
        }
        if (j < columns) {
            Contact floor;
            floor.kind = ContactKind::Wall;
            floor.particle = j;
            floor.normal = Vec3::UnitY();
            floor.lever1 = -rj * Vec3::UnitY();
            p.contacts.push_back(floor);
        }
        if (piston && j >= n - columns) {
            Contact top;
            top.kind = ContactKind::Piston;
            top.particle = j;
            top.normal = -Vec3::UnitY();
            // The contact point on the piston's plane, just above the highest grain.
            top.lever1 = Vec3(0.0, 2.03 * kRadius * (rows - 1) + kRadius - xj.y(), 0.0);
            p.contacts.push_back(top);
        }
    }
    return p;
}

/// Every contact once, ascending within its strip, placeOf the inverse of the members, and no grain in two strips
/// two or more apart.
void checkStrips(const Packing& p, const ContactStrips& strips)
{
    std::vector<int> seen(p.contacts.size(), 0);
    // Per grain, the lowest and the highest strip of its contacts.
    std::vector<std::size_t> lowest(p.particles.size(), strips.strips());
    std::vector<std::size_t> highest(p.particles.size(), 0);
    for (std::size_t s = 0; s < strips.strips(); ++s) {
        const std::size_t first = strips.firstMember(s);
        for (std::size_t i = first; i < first + strips.size(s); ++i) {
            const std::uint32_t k = strips.allMembers()[i];
            ++seen[k];
            QCOMPARE(static_cast<std::size_t>(strips.placeOf(k)), i);
            if (i > first) {
                QVERIFY(strips.allMembers()[i - 1] < k);
            }
            const Contact& c = p.contacts[k];
            for (const std::int32_t g : {c.particle, c.kind == ContactKind::Particle ? c.partner : c.particle}) {
                lowest[static_cast<std::size_t>(g)] = std::min(lowest[static_cast<std::size_t>(g)], s);
                highest[static_cast<std::size_t>(g)] = std::max(highest[static_cast<std::size_t>(g)], s);
            }
        }
    }
    QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
    for (std::size_t g = 0; g < p.particles.size(); ++g) {
        if (lowest[g] < strips.strips()) {
            QVERIFY2(highest[g] <= lowest[g] + 1, ("grain " + std::to_string(g) + " in strips " +
                                                   std::to_string(lowest[g]) + " and " + std::to_string(highest[g]))
                                                      .c_str());
        }
    }
}

}  // namespace

class ContactStripsTest : public QObject {
    Q_OBJECT

private slots:
    /// A packing 12 disks wide and 60 high under a piston: strips across the piston's normal (y), so many of them,
    /// the piston's contacts all in the highest.
    void stripsAcrossThePistonShareNoGrainTwoApart()
    {
        Random random(3);
        const Packing p = latticePacking(12, 60, true, random);
        ContactStrips strips;
        strips.cut(p.contacts, p.particles);
        std::printf("%zu contacts on %zu disks: %zu strips of %.4g m\n", p.contacts.size(), p.particles.size(),
                    strips.strips(), strips.width());
        QVERIFY(strips.strips() >= 20);
        QVERIFY(strips.width() >= 2.0 * kRadius);
        checkStrips(p, strips);
        std::size_t pistonLow = strips.strips();
        std::size_t pistonHigh = 0;
        for (std::size_t k = 0; k < p.contacts.size(); ++k) {
            if (p.contacts[k].kind == ContactKind::Piston) {
                std::size_t strip = 0;
                while (strips.firstMember(strip + 1) <= strips.placeOf(k)) {
                    ++strip;
                }
                pistonLow = std::min(pistonLow, strip);
                pistonHigh = std::max(pistonHigh, strip);
            }
        }
        QVERIFY(pistonHigh <= pistonLow + 1);
        QCOMPARE(pistonLow, std::size_t{0});  // the axis points along the piston's normal, away from the piston
    }

    /// Without a piston the strips run across the longest side: a packing 60 wide and 12 high is cut along x.
    void stripsRunAcrossTheLongestSide()
    {
        Random random(5);
        const Packing p = latticePacking(60, 12, false, random);
        ContactStrips strips;
        strips.cut(p.contacts, p.particles);
        QVERIFY(strips.strips() >= 20);
        checkStrips(p, strips);
    }

    /// Piston contacts whose points spread over more than two strips (a piston that is not flat) would be swept by
    /// two threads at once: all the contacts then form one strip. Here grains all the way down touch "the piston"
    /// at their tops.
    void pistonContactsSpreadOverStripsGiveOneStrip()
    {
        Random random(7);
        Packing p = latticePacking(12, 60, true, random);
        for (std::size_t g = 0; g < p.particles.size(); g += 50) {
            Contact top;
            top.kind = ContactKind::Piston;
            top.particle = static_cast<std::int32_t>(g);
            top.normal = -Vec3::UnitY();
            top.lever1 = p.particles.radius[g] * Vec3::UnitY();
            p.contacts.push_back(top);
        }
        ContactStrips strips;
        strips.cut(p.contacts, p.particles);
        QCOMPARE(strips.strips(), std::size_t{1});
        QCOMPARE(strips.size(0), p.contacts.size());
        QCOMPARE(strips.width(), 0.0);
        checkStrips(p, strips);
    }

    /// A list long enough to be cut on the solver threads (ContactStrips::cut's kParallelCut): the same strips,
    /// members, places and offsets on 1, 2 and 3 threads, with a piston (its contacts in the last thread's range) and
    /// without (the axis from the bounding box merged over the ranges).
    void cutIsTheSameOnAnyThreadCount()
    {
        for (const bool piston : {true, false}) {
            Random random(11);
            const Packing p = piston ? latticePacking(40, 120, true, random) : latticePacking(120, 40, false, random);
            QVERIFY(p.contacts.size() >= 8192);
            const int before = solverThreadSetting();
            std::vector<ContactStrips> cuts(3);
            for (int threads = 1; threads <= 3; ++threads) {
                setSolverThreads(threads);
                cuts[static_cast<std::size_t>(threads - 1)].cut(p.contacts, p.particles);
            }
            setSolverThreads(before);
            const ContactStrips& one = cuts[0];
            QVERIFY(one.strips() >= 20);
            checkStrips(p, one);
            for (std::size_t t = 1; t < cuts.size(); ++t) {
                const ContactStrips& many = cuts[t];
                QCOMPARE(many.strips(), one.strips());
                QCOMPARE(many.width(), one.width());
                QCOMPARE(many.largest(), one.largest());
                QVERIFY(std::equal(many.allMembers().begin(), many.allMembers().end(), one.allMembers().begin(),
                                   one.allMembers().end()));
                for (std::size_t s = 0; s < one.strips(); ++s) {
                    QCOMPARE(many.firstMember(s), one.firstMember(s));
                    QCOMPARE(many.offset(s), one.offset(s));
                }
                for (std::size_t k = 0; k < p.contacts.size(); ++k) {
                    QCOMPARE(many.placeOf(k), one.placeOf(k));
                }
                QCOMPARE(many.parityCount(0), one.parityCount(0));
                QCOMPARE(many.parityCount(1), one.parityCount(1));
            }
        }
    }

    /// Shares of a parity's contacts in thread order (any cuts) give each thread a run of consecutive strips of the
    /// parity, together each strip once.
    void sharesCutEachParityIntoRuns()
    {
        Random random(9);
        const Packing p = latticePacking(12, 60, true, random);
        ContactStrips strips;
        strips.cut(p.contacts, p.particles);
        for (int trial = 0; trial < 200; ++trial) {
            const std::size_t threads = 1 + random.below(5);
            for (std::size_t parity = 0; parity < 2; ++parity) {
                const std::size_t total = strips.parityCount(parity);
                std::vector<std::size_t> cuts{0, total};
                for (std::size_t t = 1; t < threads; ++t) {
                    cuts.push_back(random.below(total + 1));
                }
                std::sort(cuts.begin(), cuts.end());
                std::vector<int> taken(strips.strips(), 0);
                std::size_t next = parity;  // the runs follow one another
                for (std::size_t t = 0; t < threads; ++t) {
                    const auto [first, end] = strips.share(parity, cuts[t], cuts[t + 1]);
                    QVERIFY(first <= end && end <= strips.strips());
                    if (first < end) {
                        QCOMPARE(first, next);
                        QCOMPARE(first % 2, parity);
                    }
                    for (std::size_t k = first; k < end; k += 2) {
                        ++taken[k];
                        next = k + 2;
                    }
                }
                for (std::size_t k = parity; k < strips.strips(); k += 2) {
                    QCOMPARE(taken[k], 1);
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(ContactStripsTest)
#include "tst_contact_strips.moc"
