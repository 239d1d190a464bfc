// `granular run --threads N`: the same scenario and seed give a byte-identical series.csv for 1, 2 and 3 solver
// threads (more threads than this machine's cores included). md and mcdem evaluate their contacts on the solver
// threads and gather the loads onto the grains in a fixed order (core/md/LoadAssembly.h); cd and cd_pressure find
// their candidates on the solver threads, with solver.sweep = coloured solve each colour of contacts on them, and
// with solver.sweep = strips the strips of each parity (core/cd/StripSweep.h). The systems here are large enough
// (over 512 grains, colours of over 128 contacts, over 1024 candidates) for the parallel loops to run on every thread.
#include "CliProcess.h"
#include "util/Parallel.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <filesystem>
#include <string>

using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

/// series.csv of `granular run ARGUMENTS --threads N`.
std::string seriesWithThreads(const std::string& arguments, int threads)
{
    const ScratchDirectory dir;
    const Result r = runGranular("run " + arguments + " --quiet --threads " + std::to_string(threads) + " --out '" +
                                 dir.path.string() + "'");
    if (r.exitCode != 0) {
        return "exit " + std::to_string(r.exitCode) + ": " + r.err;
    }
    return slurp(dir.path / "series.csv");
}

void checkIdenticalForThreads(const std::string& arguments)
{
    const std::string one = seriesWithThreads(arguments, 1);
    QVERIFY2(one.size() > 1000, one.c_str());
    for (const int threads : {2, 3}) {
        const std::string many = seriesWithThreads(arguments, threads);
        QVERIFY2(many == one,
                 (arguments + ": --threads " + std::to_string(threads) + " differs from --threads 1").c_str());
    }
}

}  // namespace

class CliThreadsTest : public QObject {
    Q_OBJECT

private slots:
    void softParticlesAreIdenticalForAnyThreadCount();
    void periodicSoftParticlesAreIdenticalForAnyThreadCount();
    void multiContactIsIdenticalForAnyThreadCount();
    void contactDynamicsIsIdenticalForAnyThreadCount();
    void colouredSweepIsIdenticalForAnyThreadCount();
    void periodicColouredSweepIsIdenticalForAnyThreadCount();
    void stripSweepIsIdenticalForAnyThreadCount();
    void thePaceTriesOneThreadUnlessThreadsAreFixed();
    void aThreadCountThatIsNoneIsSaid();
};

namespace {

/// 3000 rigid spheres settling on the floor of a box (cd, friction 0.4), ~2000 candidates after 0.3 s.
const std::string kSettlingSpheres =
    "freefall3d --set solver.method=cd --set contact.friction=0.4 --set particles.count=3000 --set particles.lift=0 "
    "--set particles.gap=0.01 --set particles.jitter=0.2 --set box.walls=open --set solver.dt=0.002 "
    "--set solver.iterations=30 --set run.time=0.3 --set output.interval=0.02";

}  // namespace

// The paper's random sweep is sequential; the candidates are found on the solver threads.
void CliThreadsTest::contactDynamicsIsIdenticalForAnyThreadCount()
{
    checkIdenticalForThreads(kSettlingSpheres);
}

// The coloured sweep: each colour's contacts on the solver threads.
void CliThreadsTest::colouredSweepIsIdenticalForAnyThreadCount()
{
    checkIdenticalForThreads(kSettlingSpheres + " --set solver.sweep=coloured");
}

// The strip sweep: strips of one parity on the solver threads, each waiting for its neighbours only. The spheres
// settle under the fixed criterion, and piston2d (1000 disks under a piston, whose contacts lie in the highest strips)
// under the local criterion, where the test of an iteration runs beside the next.
void CliThreadsTest::stripSweepIsIdenticalForAnyThreadCount()
{
    checkIdenticalForThreads(kSettlingSpheres + " --set solver.sweep=strips");
    // (The piston meets the disks at t ~ 3.5 s; at 8 s it presses on ~190 contacts, of up to 1e5 iterations a step.)
    checkIdenticalForThreads("piston2d --set solver.sweep=strips --set solver.criterion=local --set "
                             "solver.tolerance=1e-3 --set run.time=8 --set output.interval=0.2");
}

// 2000 disks compacting in the periodic cell at constant pressure, the cell's expectations updated per colour.
void CliThreadsTest::periodicColouredSweepIsIdenticalForAnyThreadCount()
{
    checkIdenticalForThreads("periodic2d --set particles.count=2000 --set solver.sweep=coloured --set run.time=3");
}

// mcdem_compress: the 514 hydrogel spheres of Brodu et al. 2015 settling (the bulges are computed on one thread,
// the contact loads on the solver threads).
void CliThreadsTest::multiContactIsIdenticalForAnyThreadCount()
{
    checkIdenticalForThreads("mcdem_compress --set run.time=0.05 --set output.interval=0.005");
}

// 2000 disks settling in a periodic cell at constant pressure (md, linear law, friction).
void CliThreadsTest::periodicSoftParticlesAreIdenticalForAnyThreadCount()
{
    checkIdenticalForThreads("periodic2d --set solver.method=md --set material.stiffness=1e4 --set "
                             "material.restitution=0.5 --set particles.count=2000 --set run.time=1");
}

// 3000 spheres settling on the floor of a box under gravity (md, Hertz law, friction), ~1900 contacts.
void CliThreadsTest::softParticlesAreIdenticalForAnyThreadCount()
{
    checkIdenticalForThreads(
        "freefall3d --set solver.method=md --set material.law=hertz --set material.restitution=0.5 "
        "--set material.young_modulus=1e7 --set contact.friction=0.4 --set particles.count=3000 "
        "--set particles.lift=0 --set particles.gap=0.01 --set particles.jitter=0.2 --set box.walls=open "
        "--set run.time=0.02 --set output.interval=0.002");
}

// The thread pace (core/sim/ThreadPace.h): with 2 threads set, the fourth step runs on one thread whatever the
// timings (its first probe, after ThreadPace::kFirstProbe steps on the team), and summary.json counts it among the
// steps on fewer threads and in its steps by threads;
// --fixed-threads runs every step on the threads set.
void CliThreadsTest::thePaceTriesOneThreadUnlessThreadsAreFixed()
{
    if (!granular::parallelBuild()) {
        QSKIP("a build without OpenMP runs every step on one thread");
    }
    // The summary.json of a run of 100 steps (null where the run failed).
    const auto summaryOf = [](const std::string& options) -> nlohmann::json {
        const ScratchDirectory dir;
        const Result r = runGranular("run piston2d --set run.time=0.1 --quiet --threads 2 " + options + " --out '" +
                                     dir.path.string() + "'");
        return r.exitCode == 0 ? nlohmann::json::parse(slurp(dir.path / "summary.json")) : nlohmann::json();
    };
    const nlohmann::json adaptive = summaryOf("");
    QVERIFY(adaptive.is_object());
    const auto fewer = adaptive.at("steps_on_fewer_threads").get<long long>();
    QVERIFY2(fewer >= 1 && fewer <= 10, std::to_string(fewer).c_str());
    const nlohmann::json& onThreads = adaptive.at("steps_on_threads");
    QCOMPARE(onThreads.value("1", 0LL), fewer);
    QCOMPARE(onThreads.value("1", 0LL) + onThreads.value("2", 0LL), adaptive.at("steps").get<long long>());
    const nlohmann::json fixed = summaryOf("--fixed-threads");
    QVERIFY(fixed.is_object());
    QCOMPARE(fixed.at("steps_on_fewer_threads").get<long long>(), 0LL);
    const nlohmann::json allOnTwo{{"2", fixed.at("steps").get<long long>()}};
    QCOMPARE(fixed.at("steps_on_threads").dump(), allOnTwo.dump());
}

// OMP_NUM_THREADS=0: OpenMP's own warning at start-up names neither what it accepts nor what runs instead; the CLI
// says both, once, and runs (on every core). With --threads the variable is not used: no warning of ours.
void CliThreadsTest::aThreadCountThatIsNoneIsSaid()
{
    if (!granular::parallelBuild()) {
        QSKIP("a build without OpenMP runs on one thread whatever OMP_NUM_THREADS says");
    }
    const std::string run = "run freefall2d --quiet --set run.time=0.01";
    const Result unset = runGranularAfter("unset OMP_NUM_THREADS", run);
    QCOMPARE(unset.exitCode, 0);
    QVERIFY2(unset.err.find("OMP_NUM_THREADS") == std::string::npos, unset.err.c_str());
    for (const char* value : {"0", "two", "300"}) {
        const Result bad = runGranularAfter(std::string("export OMP_NUM_THREADS=") + value, run);
        QCOMPARE(bad.exitCode, 0);
        const std::string said = std::string("granular: warning: OMP_NUM_THREADS = \"") + value +
                                 "\" is not a thread count (a whole number in " + "[1, 256]";
        QVERIFY2(bad.err.find(said) != std::string::npos, bad.err.c_str());
        QVERIFY2(bad.err.find(" solver threads, one per core") != std::string::npos, bad.err.c_str());
        const Result given = runGranularAfter(std::string("export OMP_NUM_THREADS=") + value, run + " --threads 2");
        QCOMPARE(given.exitCode, 0);
        QVERIFY2(given.err.find("granular: warning") == std::string::npos, given.err.c_str());
    }
}

QTEST_APPLESS_MAIN(CliThreadsTest)
#include "tst_cli_threads.moc"
