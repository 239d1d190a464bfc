// Seed 000 section 3.3.2 (Fig. 5, 8): the built-in `piston2d` (1000 disks, radii in [r_min, 2 r_min],
// mass ~ area, no gravity, mu = 0.05) is compressed by the piston force F to equilibrium; a load step
// F -> F + dF then starts a damped oscillation of the piston, x0 + A exp(-t/tau) sin(omega t + phi)
// (eq. 64), whose omega and tau are fitted freely. The artificial visco-elasticity of CD with a fixed
// N_I has stiffness and damping both ~ N_I (eq. 67-68), so omega ~ N_I^(1/2) (as c, eq. 57) and
// tau ~ N_I^(-1) (as 1/D, eq. 60).
//
// The packing is compressed once; the same equilibrium state is then loaded with N_I = 20, 40 and 80,
// so that the packing's structure does not change between the three measurements.
//
// Measured finding (see the closing note of the CD issue): at the paper's mu = 0.05 the grains and
// the side walls slide during the oscillation and add a rate-independent (Coulomb) loss, 1/tau gains
// a term ~ omega, and tau scales as N_I^(-0.62). The tau law is therefore checked where sliding is
// suppressed (mu = 0.5); omega ~ N_I^(1/2) holds in both.
#include "BuiltinScenarios.h"
#include "analysis/DampedOscillationFit.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <QtTest>

#include <array>
#include <cmath>
#include <cstdio>
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
/// state with each N_I and fits eq. 64 to the piston height from the step to the end of the run.
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
        std::vector<double> t;
        std::vector<double> y;
        for (std::int64_t k = 0; k < observedSteps; ++k) {
            simulation.step();
            t.push_back(simulation.world().time - loadStepTime);  // s since the load step
            y.push_back(simulation.world().piston->plane.point.y());
        }
        const auto fit = analysis::fitDampedOscillation(t, y);
        std::printf("  mu = %.2f, N_I = %2lld: omega %.4f rad/s, tau %.4f s, A %.3g m, x0 - y_rest %.3g m, R^2 %.4f\n",
                    scenario.real("contact.friction"), static_cast<long long>(n), fit.omega, fit.tau, fit.amplitude,
                    fit.x0 - restingHeight, fit.r2);
        if (!fit.converged || fit.r2 < 0.95 || fit.x0 >= restingHeight || fit.tau <= 0.0) {
            return {0.0, 0.0,
                    "eq. 64 does not describe the piston after the load step at N_I = " + std::to_string(n) +
                        " (R^2 = " + std::to_string(fit.r2) + ")"};
        }
        iterations.push_back(static_cast<double>(n));
        omegas.push_back(fit.omega);
        taus.push_back(fit.tau);
    }
    const Exponents exponents{logLogSlope(iterations, omegas), logLogSlope(iterations, taus), {}};
    std::printf("  mu = %.2f: omega ~ N_I^%.3f (theory 0.5), tau ~ N_I^%.3f (theory -1)\n",
                scenario.real("contact.friction"), exponents.omega, exponents.tau);
    return exponents;
}

}  // namespace

class PistonOscillationTest : public QObject {
    Q_OBJECT

private slots:
    void omegaScalesAsSquareRootOfIterations();
    void tauScalesAsInverseIterationsWithoutSliding();
};

// The paper's packing (mu = 0.05): omega ~ N_I^(1/2), eq. 57-58.
void PistonOscillationTest::omegaScalesAsSquareRootOfIterations()
{
    const Exponents exponents = measureExponents(resolveScenario("piston2d"));
    QVERIFY2(exponents.failure.empty(), exponents.failure.c_str());
    QVERIFY2(std::fabs(exponents.omega - 0.5) < 0.05,
             ("omega ~ N_I^(1/2) (eq. 57-58): measured exponent " + std::to_string(exponents.omega)).c_str());
}

// The same packing with mu = 0.5: no sliding, the damping is the artificial viscosity alone,
// omega ~ N_I^(1/2) (eq. 57-58) and tau ~ N_I^(-1) (eq. 60).
void PistonOscillationTest::tauScalesAsInverseIterationsWithoutSliding()
{
    Scenario scenario = resolveScenario("piston2d");
    scenario.set("contact.friction", 0.5);
    const Exponents exponents = measureExponents(scenario);
    QVERIFY2(exponents.failure.empty(), exponents.failure.c_str());
    QVERIFY2(std::fabs(exponents.omega - 0.5) < 0.05,
             ("omega ~ N_I^(1/2) (eq. 57-58): measured exponent " + std::to_string(exponents.omega)).c_str());
    QVERIFY2(std::fabs(exponents.tau + 1.0) < 0.1,
             ("tau ~ N_I^(-1) (eq. 60): measured exponent " + std::to_string(exponents.tau)).c_str());
}

QTEST_APPLESS_MAIN(PistonOscillationTest)
#include "tst_piston_oscillation.moc"
