// Unger & Kertesz 2003, section 3.3.1 (Fig. 6-7): the built-in `chain1d` (50 disks, d = m = dt = 1, F_ext = 0.05)
// solved by CD with a fixed N_I oscillates like a visco-elastic rod. Once the contacts have settled and the
// higher modes died out, only the slowest mode k = 2 pi / (4 L) survives; its angular frequency is eq. 58,
// omega = k sqrt(c^2 - D^2 k^2 / 4) with c = sqrt(q N_I) d / dt (eq. 57), D = q N_I d^2 / dt (eq. 54),
// q = (4 sqrt(e) - 5) / 2 (eq. 46), and its damping time is eq. 60, tau = 2 / (D k^2).
//
// The random sweep order makes a single run's fitted tau scatter by about 5 % (N_I = 20) around the
// theory, so the check averages the fits of eight seeds; every single run's omega must still be
// within 3 %.
#include "BuiltinScenarios.h"
#include "analysis/ChainOscillation.h"
#include "analysis/OscillationAnalysis.h"
#include "analysis/SeriesTable.h"
#include "scenario/Scenario.h"
#include "sim/Run.h"
#include "sim/Simulation.h"

#include "settings/SettingsBinding.h"

#include <QTest>

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

using namespace granular;

namespace {

constexpr int kSeeds = 8;
constexpr double kOmegaTolerance = 0.03;  // issue acceptance: fitted omega within 3 % of eq. 58
constexpr double kTauTolerance = 0.08;    // issue acceptance: fitted tau within 8 % of eq. 60

/// The chain's oscillation fitted; `kept`, if given, gets the run's series.
analysis::ChainOscillation runChain(std::int64_t iterations, std::int64_t seed, std::int64_t count = 50,
                                    double runTime = 600.0, SeriesTable* kept = nullptr)
{
    Scenario scenario = resolveScenario("chain1d");
    scenario.set("solver.iterations", iterations);
    scenario.set("seed", seed);
    scenario.set("chain.count", count);
    scenario.set("run.time", runTime);
    Simulation simulation(scenario);
    SeriesTable series;
    for (const auto& observable : simulation.observables()) {
        series.columns.push_back(observable.name);
    }
    runToEnd(simulation, [&](double t, const std::vector<double>& values) { series.append(t, values); });
    auto result = analysis::analyzeChainOscillation(simulation.settings(), series);
    if (kept != nullptr) {
        *kept = std::move(series);
    }
    return result;
}

void checkIterations(std::int64_t iterations)
{
    double omegaSum = 0.0;
    double tauSum = 0.0;
    analysis::ChainOscillation last;
    for (int seed = 1; seed <= kSeeds; ++seed) {
        last = runChain(iterations, seed);
        QVERIFY2(last.fit.converged, "the damped-oscillation fit (eq. 64) did not converge");
        const double omegaError = std::fabs(last.fit.omega / last.theoryOmega - 1.0);
        QVERIFY2(omegaError < kOmegaTolerance,
                 ("eq. 58: N_I = " + std::to_string(iterations) + ", seed " + std::to_string(seed) + ": fitted omega " +
                  std::to_string(last.fit.omega) + " rad/s vs theory " + std::to_string(last.theoryOmega))
                     .c_str());
        omegaSum += last.fit.omega;
        tauSum += last.fit.tau;
    }
    const double omega = omegaSum / kSeeds;
    const double tau = tauSum / kSeeds;
    std::printf(
        "N_I = %lld: omega fit %.5f vs theory %.5f rad/s (%+.2f %%), tau fit %.2f vs theory %.2f s (%+.2f %%)\n",
        static_cast<long long>(iterations), omega, last.theoryOmega, 100.0 * (omega / last.theoryOmega - 1.0), tau,
        last.theoryTau, 100.0 * (tau / last.theoryTau - 1.0));
    QVERIFY2(std::fabs(omega / last.theoryOmega - 1.0) < kOmegaTolerance, "eq. 58: mean fitted omega off by > 3 %");
    QVERIFY2(std::fabs(tau / last.theoryTau - 1.0) < kTauTolerance, "eq. 60: mean fitted tau off by > 8 %");
}

}  // namespace

class ChainOscillationTest : public QObject {
    Q_OBJECT

private slots:
    void theoryOfTheBuiltInChain();
    void contactOpeningsEndBeforeTheFitWindow();
    void omegaAndTauAtTwentyIterations();
    void omegaAndTauAtFortyIterations();
    void omegaAndTauAtEightyIterations();
    void probeFollowsTheChainsFreeEnd();
    void everySingleRunAgreesOnShortAndLongChains();
    void theTheoryIsOfTheRandomSweepAtAFixedNI();
};

// Eq. 58, 60 with q = 0.797 (eq. 46) describe CD with a fixed N_I and the random sweep, and md with the CD-equivalent
// law (eq. 67-68) where the slowest mode oscillates; any other run of the chain gets its fit without a theory to
// compare with.
void ChainOscillationTest::theTheoryIsOfTheRandomSweepAtAFixedNI()
{
    const auto reason = [](const std::vector<std::pair<const char*, const char*>>& edits) {
        Scenario scenario = resolveScenario("chain1d");
        for (const auto& [key, value] : edits) {
            scenario.setFromText(key, value);
        }
        return analysis::chainTheoryInapplicable(parseSettings(scenario));
    };
    QVERIFY(!reason({}).has_value());
    QVERIFY(!reason({{"solver.method", "md"}}).has_value());  // chain1d's md: the CD-equivalent law
    for (const auto& edits : std::vector<std::vector<std::pair<const char*, const char*>>>{
             {{"solver.sweep", "coloured"}},
             {{"solver.criterion", "local"}},
             {{"solver.method", "md"}, {"material.stiffness", "1e4"}},
             {{"solver.method", "md"}, {"material.restitution", "0.5"}}}) {
        const auto why = reason(edits);
        QVERIFY2(why.has_value() && !why->empty(), edits.front().first);
    }
    // The studio's analysis: no theory curve, and the reason to show instead.
    Scenario coloured = resolveScenario("chain1d");
    coloured.setFromText("solver.sweep", "coloured");
    const auto analysis = analysis::analyzeOscillation(parseSettings(coloured), SeriesTable{}, "probe_x", {0.0, 1.0});
    QVERIFY(!analysis.theoryOmega.has_value());
    QVERIFY(analysis.theoryNote.find("random sweep") != std::string::npos);
    // An overdamped slowest mode (k > k_c = 2c/D, eq. 59) has no omega and no tau of eq. 60: 20 disks at N_I = 1000
    // (k/k_c = 1.11) and 2 disks at the built-in N_I = 40; 20 disks at N_I = 40 oscillate.
    QVERIFY(!reason({{"chain.count", "20"}}).has_value());
    for (const auto& edits : std::vector<std::vector<std::pair<const char*, const char*>>>{
             {{"chain.count", "20"}, {"solver.iterations", "1000"}}, {{"chain.count", "2"}}}) {
        const auto why = reason(edits);
        QVERIFY2(why.has_value() && why->find("overdamped") != std::string::npos, edits.front().second);
    }
}

// The built-in chain is the paper's: n = 50, d = m = dt = 1, N_I = 40, so (eq. 54, 57, 58, 60)
// D = 40 q, c = sqrt(40 q), k = pi / 100.
void ChainOscillationTest::theoryOfTheBuiltInChain()
{
    const auto chain = analysis::chainParametersFrom(parseSettings(resolveScenario("chain1d")));
    QCOMPARE(chain.particleCount, 50);
    QCOMPARE(chain.iterationsPerStep, 40);
    const double q = (4.0 * std::sqrt(std::exp(1.0)) - 5.0) / 2.0;
    const double k = std::acos(-1.0) / 100.0;
    const double D = 40.0 * q;
    const double expectedOmega = k * std::sqrt(40.0 * q - D * D * k * k / 4.0);
    const double expectedTau = 2.0 / (D * k * k);
    const auto result = runChain(40, 1);
    QVERIFY(std::fabs(result.theoryOmega - expectedOmega) < 1e-12);
    QVERIFY(std::fabs(result.theoryTau - expectedTau) < 1e-9);
}

// The fit window starts after the transient: the wall collision opens contacts for a while
// (sound waves), then the array stays pressed together and the higher modes die out.
void ChainOscillationTest::contactOpeningsEndBeforeTheFitWindow()
{
    SeriesTable series;
    const auto result = runChain(40, 1, 50, 600.0, &series);
    // The contacts' count settles after the start: the collision opened some (windowStart > 0 held whatever happened,
    // the window starting three periods after the settling at the earliest).
    const double settled = analysis::contactsSettled(series);
    QVERIFY2(settled > 0.0, "the collision with the wall must open contacts");
    QVERIFY(result.windowStart >= settled);
    QVERIFY2(result.windowEnd - result.windowStart > 2.0 * result.theoryTau,
             "the window must cover at least two damping times");
}

void ChainOscillationTest::omegaAndTauAtTwentyIterations()
{
    checkIterations(20);
}
void ChainOscillationTest::omegaAndTauAtFortyIterations()
{
    checkIterations(40);
}
void ChainOscillationTest::omegaAndTauAtEightyIterations()
{
    checkIterations(80);
}

// The theory (eq. 58, 60) is that of the free end: the built-in chain probes its last disk whatever its length
// (probe.index = -1). Before, a 30-disk chain was refused (probe 49 out of range) and a 70-disk chain probed an
// interior disk.
void ChainOscillationTest::probeFollowsTheChainsFreeEnd()
{
    for (const std::int64_t count : {std::int64_t{30}, std::int64_t{50}, std::int64_t{70}}) {
        Scenario scenario = resolveScenario("chain1d");
        scenario.set("chain.count", count);
        Simulation simulation(scenario);
        simulation.step();
        const World& world = simulation.world();
        QCOMPARE(world.particles.size(), static_cast<std::size_t>(count));
        const double freeEnd = world.particles.position.back().x();  // the disk the force pushes (setup/chain)
        for (const auto& observable : simulation.observables()) {
            if (observable.name == "probe_x") {
                QCOMPARE(observable.measure(world, simulation.lastStep()), freeEnd);
            }
        }
    }
}

// The summary's window (chainFitStart: three periods of eq. 58's mode after the contacts settled) on chains
// shorter and longer than the paper's, at several N_I and seeds: every single run's omega within 2 % of eq. 58 and
// tau within 4 % of eq. 60. Before, the window began at the last contact opening, while contacts were still
// closing again: 30 disks at N_I = 60 (800 s) were off by -13 % / -26 % (seed 1) and -17 % / -36 % (seed 2).
void ChainOscillationTest::everySingleRunAgreesOnShortAndLongChains()
{
    struct Case {
        std::int64_t count;
        std::int64_t iterations;
        double runTime;  ///< s
    };
    for (const Case c : {Case{20, 40, 600.0}, Case{30, 60, 800.0}, Case{100, 80, 2500.0}}) {
        for (std::int64_t seed = 1; seed <= 5; ++seed) {
            const auto result = runChain(c.iterations, seed, c.count, c.runTime);
            const std::string what = std::to_string(c.count) + " disks, N_I = " + std::to_string(c.iterations) +
                                     ", seed " + std::to_string(seed) + ": omega " +
                                     std::to_string(result.fit.omega / result.theoryOmega - 1.0) + ", tau " +
                                     std::to_string(result.fit.tau / result.theoryTau - 1.0) + " off eq. 58/60";
            QVERIFY2(result.fit.converged, what.c_str());
            QVERIFY2(std::fabs(result.fit.omega / result.theoryOmega - 1.0) < 0.02, what.c_str());
            QVERIFY2(std::fabs(result.fit.tau / result.theoryTau - 1.0) < 0.04, what.c_str());
        }
    }
}

QTEST_APPLESS_MAIN(ChainOscillationTest)
#include "tst_chain_oscillation.moc"
