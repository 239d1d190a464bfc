// The updates the sweeps know without computing them (OpenContactTicks): an open contact that stays open (eq. 34,
// Unger & Kertesz 2003: R_n = 0 where g_pos / dt + V_n > 0) changes nothing, and its next update gives the same while
// its grains' predicted velocities stay as they were. The ticks' rules, and a loose packing of spheres in a box whose
// updates are mostly known: the share, and the same series on one, two and three threads. That the skipped updates
// give the series of every update computed is pinned in tst_series_hash (the loose packing's hashes date from the
// build before the sweeps skipped any update).
#include "cd/OpenContactTicks.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <QTest>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

using namespace granular;

namespace {

SweepContact record(ContactKind kind, std::int32_t body0, std::int32_t body1)
{
    SweepContact s;
    s.kind = kind;
    s.body0 = body0;
    s.body1 = body1;
    return s;
}

/// Spheres falling in a box (floor and sides), 0.02 m apart on a jittered lattice: the bench's packing
/// (bench/CdPacking3d.h) with 1,000 instead of 20,000; most candidates are open in its first second.
Scenario loosePacking(const char* sweep)
{
    Scenario s;
    for (const auto& [key, value] : std::vector<std::pair<const char*, const char*>>{{"world.dimension", "3"},
                                                                                     {"solver.method", "cd"},
                                                                                     {"solver.iterations", "20"},
                                                                                     {"solver.dt", "0.01"},
                                                                                     {"gravity.y", "-1"},
                                                                                     {"contact.friction", "0.3"},
                                                                                     {"particles.count", "1000"},
                                                                                     {"particles.radius_min", "0.9"},
                                                                                     {"particles.radius_max", "1"},
                                                                                     {"particles.density", "1"},
                                                                                     {"particles.gap", "0.02"},
                                                                                     {"particles.jitter", "0.5"},
                                                                                     {"box.width", "21"},
                                                                                     {"box.depth", "21"},
                                                                                     {"box.height", "25"},
                                                                                     {"solver.sweep", sweep}}) {
        s.setFromText(key, value);
    }
    return s;
}

struct Run {
    std::vector<std::vector<double>> rows;  ///< the samples, then every grain's position and velocity
    std::int64_t updates = 0;
    std::int64_t known = 0;
};

Run run(const char* sweep, int threads, int steps)
{
    const int before = solverThreads();
    setSolverThreads(threads);
    Simulation simulation(loosePacking(sweep));
    Run r;
    for (int n = 0; n < steps; ++n) {
        simulation.step();
        r.rows.push_back(simulation.sample());
        r.updates += simulation.lastStep().contactUpdates;
        r.known += simulation.lastStep().knownUpdates;
    }
    const auto& p = simulation.world().particles;
    for (std::size_t i = 0; i < p.size(); ++i) {
        r.rows.push_back({p.position[i].x(), p.position[i].y(), p.position[i].z(), p.velocity[i].x(), p.velocity[i].y(),
                          p.velocity[i].z()});
    }
    setSolverThreads(before);
    return r;
}

}  // namespace

class OpenContactsTest : public QObject {
    Q_OBJECT

private slots:
    void anUpdateIsKnownWhileItsGrainsStayAsTheyWere()
    {
        OpenContactTicks ticks;
        ticks.start(4);
        SweepContact pair = record(ContactKind::Particle, 0, 1);
        SweepContact wall = record(ContactKind::Wall, 7, 2);  // body 0: the boundary's slot, not a grain
        SweepContact other = record(ContactKind::Particle, 1, 2);
        QVERIFY(!ticks.unchanged(pair));  // never found open
        ticks.updated(pair, 1, false);
        ticks.updated(wall, 2, false);
        QVERIFY(ticks.unchanged(pair));
        QVERIFY(ticks.unchanged(wall));
        ticks.updated(other, 3, true);  // grains 1 and 2 move
        QVERIFY(!ticks.unchanged(pair));
        QVERIFY(!ticks.unchanged(wall));
        QVERIFY(!ticks.unchanged(other));  // its force changed
        ticks.updated(pair, 4, false);     // found open again after the change
        QVERIFY(ticks.unchanged(pair));
        ticks.updated(pair, 5, true);  // it closed
        QVERIFY(!ticks.unchanged(pair));
    }

    void thePistonsContactsAreNeverKnown()
    {
        // The piston's velocity changes with each of its contacts' updates: what a piston contact reads may change
        // though its grain did not.
        OpenContactTicks ticks;
        ticks.start(2);
        SweepContact piston = record(ContactKind::Piston, 0, 1);
        ticks.updated(piston, 1, false);
        QVERIFY(!ticks.unchanged(piston));
    }

    void ticksThatWouldPassTwoToThe32ForgetWhatWasFound()
    {
        OpenContactTicks ticks;
        ticks.start(2);
        std::vector<SweepContact> records{record(ContactKind::Particle, 0, 1)};
        ticks.advance(std::numeric_limits<std::uint32_t>::max() - 10);
        ticks.updated(records[0], ticks.next(), false);
        QVERIFY(ticks.unchanged(records[0]));
        ticks.reserve(5, records);  // room enough: nothing forgotten
        QVERIFY(ticks.unchanged(records[0]));
        ticks.reserve(20, records);  // not: the ticks start again
        QCOMPARE(ticks.next(), 1U);
        QVERIFY(!ticks.unchanged(records[0]));
    }

    void aLoosePackingsUpdatesAreMostlyKnown()
    {
        // 50 steps (0.5 s of falling): the random and the coloured sweeps skip more than half their updates, and
        // compute the same series on one, two and three threads.
        for (const char* sweep : {"random", "coloured"}) {
            const Run one = run(sweep, 1, 50);
            const double share = static_cast<double>(one.known) / static_cast<double>(one.updates);
            std::printf("%s sweep: %lld of %lld updates known (%.1f %%)\n", sweep, static_cast<long long>(one.known),
                        static_cast<long long>(one.updates), 100.0 * share);
            QVERIFY2(share > 0.5, sweep);
            for (const int threads : {2, 3}) {
                const Run more = run(sweep, threads, 50);
                QCOMPARE(more.known, one.known);
                QVERIFY2(more.rows == one.rows, sweep);
            }
        }
    }
};

QTEST_APPLESS_MAIN(OpenContactsTest)
#include "tst_open_contacts.moc"
