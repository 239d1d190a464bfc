// Unger & Kertesz 2003, section 3.3.2 (Fig. 5, 8): the built-in `piston2d` (1000 disks, radii in [r_min, 2 r_min],
// mass ~ area, no gravity, mu = 0.05) is compressed by the piston force F to equilibrium; a load step
// F -> F + dF then starts a damped oscillation of the piston, x0 + A exp(-t/tau) sin(omega t + phi)
// (eq. 64), whose omega and tau are fitted freely. The artificial visco-elasticity of CD with a fixed
// N_I has stiffness and damping both ~ N_I (eq. 67-68), so omega ~ N_I^(1/2) (as c, eq. 57) and
// tau ~ N_I^(-1) (as 1/D, eq. 60).
//
// The packing is compressed once; the same equilibrium state is then loaded with N_I = 20, 40 and 80,
// so that the packing's structure does not change between the three measurements.
//
// "After a transient period only one standing wave mode survives": right after the step up to 17 %
// of the contacts slide, the packing compacts a little, the piston oscillates slower and friction
// damps it as well. The fit starts once at most 0.5 % of the contacts slide, averaged over two periods
// (analysis::analyzePistonOscillation, the same code as `granular run` and the studio). Fitted from
// the load step instead, tau ~ N_I^(-0.62) (seed 1).
// With the transient left out, the surviving mode also has the dashpot-to-spring ratio of eq. 67-68,
// gamma / kappa = dt, which gives (omega^2 + 1/tau^2) tau = 2 / dt for every mode of the chain
// (eq. 58 and 60); it is printed as a figure of merit for the 2D packing, not checked.
// Without a resolved oscillation (a piston at rest in noise) the window starts where the sliding ends, unaveraged.
#include "BuiltinScenarios.h"
#include "analysis/DampedOscillationFit.h"
#include "analysis/PistonOscillation.h"
#include "analysis/SeriesTable.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"
#include "util/Random.h"

#include "settings/SettingsBinding.h"

#include <QTest>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

using namespace granular;

namespace {

constexpr std::array<std::int64_t, 3> kIterations = {20, 40, 80};

struct Exponents {
    double omega = 0.0;
    double tau = 0.0;
    std::string failure;  ///< empty when every fit describes the piston
};

/// Slope of the least-squares line through (log x, log y).
double logLogSlope(const std::vector<double>& x, const std::vector<double>& y)
{
    double mx = 0.0;
    double my = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        mx += std::log(x[i]);
        my += std::log(y[i]);
    }
    mx /= static_cast<double>(x.size());
    my /= static_cast<double>(x.size());
    double sxy = 0.0;
    double sxx = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
        sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
    }
    return sxy / sxx;
}

/// Compresses `scenario` up to its load-step time, then applies the load step to copies of that
/// state with each N_I and fits eq. 64 to the piston height from the end of the sliding transient
/// to the end of the run.
Exponents measureExponents(const Scenario& scenario)
{
    const double loadStepTime = scenario.real("piston.load_step_time");
    const double dt = scenario.real("solver.dt");
    const auto observedSteps = std::llround((scenario.real("run.time") - loadStepTime) / dt);

    Scenario compression = scenario;
    compression.set("piston.load_step_time", 1e12);
    Simulation prepared(compression);
    while (prepared.world().time < loadStepTime - 0.5 * dt) {
        prepared.step();
    }
    const double restingHeight = prepared.world().piston->plane.point.y();

    std::vector<double> iterations;
    std::vector<double> omegas;
    std::vector<double> taus;
    for (const std::int64_t n : kIterations) {
        Scenario loaded = scenario;
        loaded.set("solver.iterations", n);
        Simulation simulation(loaded, prepared.world());
        SeriesTable series;
        series.columns = {"piston_y", "sliding", "contacts"};
        for (std::int64_t k = 0; k < observedSteps; ++k) {
            simulation.step();
            series.append(simulation.world().time, {simulation.world().piston->plane.point.y(),
                                                    static_cast<double>(simulation.lastStep().slidingContacts),
                                                    static_cast<double>(simulation.lastStep().contacts)});
        }
        analysis::PistonOscillation oscillation;
        try {
            oscillation = analysis::analyzePistonOscillation(parseSettings(loaded), series);
        } catch (const std::invalid_argument& error) {
            return {0.0, 0.0, "N_I = " + std::to_string(n) + ": " + error.what()};
        }
        const auto& fit = oscillation.fit;
        const double start = oscillation.windowStart - loadStepTime;
        const double omega0SquaredTau = (fit.omega * fit.omega + 1.0 / (fit.tau * fit.tau)) * fit.tau;
        std::printf("  seed %lld, N_I = %2lld: sliding stops %.2f s after the step; omega %.4f rad/s, tau %.4f s, "
                    "A %.3g m, x0 - y_rest %.3g m, R^2 %.5f, (omega^2 + 1/tau^2) tau dt = %.3f (chain: 2)\n",
                    static_cast<long long>(scenario.integer("seed")), static_cast<long long>(n), start, fit.omega,
                    fit.tau, fit.amplitude, fit.x0 - restingHeight, fit.r2, omega0SquaredTau * dt);
        // R^2 >= 0.95: at N_I = 80 the window opens ~5 tau after the step, when the piston swings by ~3e-6 m, and a
        // rattler's knock moves it by ~1e-7 m: R^2 then measures the packing's noise (0.958-0.998 over the packings
        // seen; 0.997-0.9998 at N_I = 20 and 40). The exponents below are the physics.
        if (!fit.converged || fit.r2 < 0.95 || fit.x0 >= restingHeight || fit.tau <= 0.0) {
            return {0.0, 0.0,
                    "eq. 64 does not describe the piston after the sliding transient at N_I = " + std::to_string(n) +
                        " (R^2 = " + std::to_string(fit.r2) + ")"};
        }
        iterations.push_back(static_cast<double>(n));
        omegas.push_back(fit.omega);
        taus.push_back(fit.tau);
    }
    const Exponents exponents{logLogSlope(iterations, omegas), logLogSlope(iterations, taus), {}};
    std::printf("  seed %lld: omega ~ N_I^%.3f (theory 0.5), tau ~ N_I^%.3f (theory -1)\n",
                static_cast<long long>(scenario.integer("seed")), exponents.omega, exponents.tau);
    return exponents;
}

// The paper's packing (mu = 0.05), two random packings: omega ~ N_I^(1/2) (eq. 57-58) and
// tau ~ N_I^(-1) (eq. 60), within 0.05 and 0.1.
void checkExponents(std::int64_t seed)
{
    Scenario scenario = resolveScenario("piston2d");
    scenario.set("seed", seed);
    const Exponents exponents = measureExponents(scenario);
    QVERIFY2(exponents.failure.empty(), exponents.failure.c_str());
    QVERIFY2(std::fabs(exponents.omega - 0.5) < 0.05,
             ("omega ~ N_I^(1/2) (eq. 57-58): measured exponent " + std::to_string(exponents.omega)).c_str());
    QVERIFY2(std::fabs(exponents.tau + 1.0) < 0.1,
             ("tau ~ N_I^(-1) (eq. 60): measured exponent " + std::to_string(exponents.tau)).c_str());
}

}  // namespace

class PistonOscillationTest : public QObject {
    Q_OBJECT

private slots:
    void slidingTransientEndsAfterTheLastSlidingSample();
    void noOscillationResolvedStartsTheWindowWhereTheSlidingEnds();
    void exponentsOfThePapersPackingSeed1();
    void exponentsOfThePapersPackingSeed2();
};

// The window rule on a hand-made series: 10 contacts, share 0.1 (one may slide on average).
void PistonOscillationTest::slidingTransientEndsAfterTheLastSlidingSample()
{
    const std::vector<double> t = {0, 1, 2, 3, 4, 5, 6};
    const std::vector<double> contacts(t.size(), 10.0);
    const auto end = [&](const std::vector<double>& sliding, double from, double averaging) {
        return analysis::slidingTransientEnd(t, sliding, contacts, from, 0.1, averaging);
    };
    QCOMPARE(end({5, 3, 2, 1, 0, 1, 0}, 0.0, 0.0), 3.0);  // without averaging: after the last 2
    QCOMPARE(end({1, 1, 0, 0, 0, 0, 0}, 0.0, 0.0), 0.0);  // never more than the share
    QCOMPARE(end({9, 9, 9, 0, 0, 0, 0}, 2.0, 0.0), 3.0);  // samples before `from` do not count
    QCOMPARE(end({0, 0, 0, 0, 0, 0, 2}, 0.0, 0.0), 6.0);  // still sliding at the end
    // Averaged over the samples of the last 2 s: a single 2 among zeros stays at the share, two do not.
    QCOMPARE(end({0, 2, 0, 0, 0, 0, 0}, 0.0, 2.0), 0.0);
    QCOMPARE(end({0, 2, 2, 0, 0, 0, 0}, 0.0, 2.0), 3.0);
    bool refused = false;
    try {
        (void)end({0, 0}, 0.0, 0.0);
    } catch (const std::invalid_argument&) {
        refused = true;
    }
    QVERIFY2(refused, "columns of different lengths must be refused");
}

// A piston at rest in noise (1 mm uniform) after a load step at t = 10 s, 5 of its 10 contacts sliding until t = 11 s:
// the first fit resolves no oscillation, so the window starts right after the sliding, not averaged over the period of
// the noise's largest damped sine (which put the start anywhere between 11.2 and 29.1 s for these ten seeds), and the
// fit from there says that it resolved nothing.
void PistonOscillationTest::noOscillationResolvedStartsTheWindowWhereTheSlidingEnds()
{
    Settings settings;
    settings.piston.loadStepTime = 10.0;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        Random random(seed);
        SeriesTable series;
        series.columns = {"piston_y", "sliding", "contacts"};
        for (int i = 0; i <= 4000; ++i) {
            const double t = 0.01 * i;
            series.append(t, {1.0 + 1e-3 * random.uniform(-1.0, 1.0), t > 10.0 && t < 11.0 ? 5.0 : 0.0, 10.0});
        }
        const double slidingEnd =
            analysis::slidingTransientEnd(series.time, series.column("sliding"), series.column("contacts"), 10.0,
                                          analysis::kSlidingShareAfterTransient, 0.0);
        QVERIFY(slidingEnd > 10.99 && slidingEnd < 11.01);
        QCOMPARE(analysis::pistonFitStart(settings, series), slidingEnd);
        const analysis::PistonOscillation oscillation = analysis::analyzePistonOscillation(settings, series);
        QCOMPARE(oscillation.windowStart, slidingEnd);
        QVERIFY2(!oscillation.fit.resolved, ("seed " + std::to_string(seed)).c_str());
    }
}

void PistonOscillationTest::exponentsOfThePapersPackingSeed1()
{
    checkExponents(1);
}

void PistonOscillationTest::exponentsOfThePapersPackingSeed2()
{
    checkExponents(2);
}

QTEST_APPLESS_MAIN(PistonOscillationTest)
#include "tst_piston_oscillation.moc"
