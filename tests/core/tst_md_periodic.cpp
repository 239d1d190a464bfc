// The soft-particle method in the fully periodic cell at constant pressure (Shaebani et al. 2009, eq. 17-19, 22, 24
// with MD forces):
// - a dilute gas that never collides: its kinetic energy K stays fixed, P_in = 2K / (D V) (eq. 22), and
//   eq. 19 makes u = ln L a conservative oscillator, M_lambda u'' = 2K / (D V) - P_ext. It oscillates
//   about the ideal-gas volume V* = 2K / (D P_ext), at omega = sqrt(D P_ext / M_lambda) for small
//   amplitudes, and H = M_lambda lambda^2 / 2 + 2K / (D^2 V) + P_ext ln L is conserved;
// - periodic2d with `solver.method = md` relaxes to P_in = P_ext and packs to the volume fraction of the
//   rigid-grain CD packing within a few per cent;
// - with md's stiff CD-equivalent contacts the built-in periodic2d ends by the stopping rule (section 5) at the
//   rounding noise of its coordinates, omega^2 epsilon L, which no threshold of 1e-10 m/s^2 can get under.
#include "BuiltinScenarios.h"
#include "analysis/PackingStatistics.h"
#include "md/SoftParticleStepper.h"
#include "model/World.h"
#include "periodic/Relaxation.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

using namespace granular;

namespace {

constexpr double kInertia = 1.0;  // kg (2D), M_lambda

/// periodic2d with the soft-particle method: k_n = 1e4 N/m, e = 0.5.
Scenario softPeriodic2d()
{
    Scenario scenario = resolveScenario("periodic2d");
    scenario.setFromText("solver.method", "md");
    scenario.set("material.stiffness", 1e4);
    scenario.set("material.restitution", 0.5);
    return scenario;
}

double kineticEnergy(const World& world)
{
    double k = 0.0;
    for (std::size_t i = 0; i < world.particles.size(); ++i) {
        k += 0.5 * world.particles.mass[i] * world.particles.velocity[i].squaredNorm();
    }
    return k;
}

}  // namespace

class MdPeriodicTest : public QObject {
    Q_OBJECT

private slots:
    void gasOscillatesAboutTheIdealGasVolume()
    {
        Scenario scenario = softPeriodic2d();
        scenario.set("particles.count", 20);
        scenario.set("cell.initial_fraction", 0.01);
        scenario.set("pressure.inertia", kInertia);
        scenario.set("solver.substeps", 1);
        // Every grain moves at the same velocity: relative positions only scale, no pair ever meets.
        World state = Simulation(scenario).world();
        for (auto& v : state.particles.velocity) {
            v = Vec3(0.6, 0.8, 0.0);
        }
        const int D = 2;
        const double K = kineticEnergy(state);
        const double V0 = state.cell->volume();
        // P_ext for V* = 0.97 V0: a small oscillation starting at its largest volume.
        const double pressure = 2.0 * K / (D * 0.97 * V0);
        scenario.set("pressure.external", pressure);
        const double idealVolume = 2.0 * K / (D * pressure);
        const double omega = std::sqrt(D * pressure / kInertia);
        const double period = 2.0 * std::numbers::pi / omega;
        const double dt = scenario.real("solver.dt");
        scenario.set("run.time", 1e6);

        Simulation simulation(scenario, state);
        const auto energy = [&](const World& w) {
            const PeriodicCell& c = *w.cell;
            return 0.5 * kInertia * c.dilationRate() * c.dilationRate() + 2.0 * K / (D * D * c.volume()) +
                   pressure * std::log(c.length());
        };
        const double H0 = energy(simulation.world());
        double largestDrift = 0.0;
        std::vector<double> upCrossings;  // t where V crosses V* upwards
        double volumeSum = 0.0;
        std::int64_t samples = 0;
        double previous = simulation.world().cell->volume();
        const auto steps = static_cast<std::int64_t>(std::ceil(3.0 * period / dt));
        for (std::int64_t n = 0; n < steps; ++n) {
            simulation.step();
            const World& w = simulation.world();
            QVERIFY2(w.contacts.empty() || std::all_of(w.contacts.begin(), w.contacts.end(),
                                                       [](const Contact& c) { return c.force.isZero(); }),
                     "grains of the gas touched");
            largestDrift = std::max(largestDrift, std::fabs(energy(w) - H0) / std::fabs(H0));
            const double volume = w.cell->volume();
            if (previous < idealVolume && volume >= idealVolume) {
                upCrossings.push_back(w.time - dt * (volume - idealVolume) / (volume - previous));
            }
            if (!upCrossings.empty()) {
                volumeSum += volume;
                ++samples;
            }
            previous = volume;
        }
        QCOMPARE(kineticEnergy(simulation.world()), K);  // no forces: K is untouched by the cell's dilation
        QVERIFY2(upCrossings.size() >= 3, std::to_string(upCrossings.size()).c_str());
        const double measured =
            (upCrossings.back() - upCrossings.front()) / static_cast<double>(upCrossings.size() - 1);
        std::printf("gas: period %.5f s (theory 2 pi / sqrt(D P_ext / M_lambda) = %.5f s), mean V %.6g m^2 "
                    "(V* = %.6g), H drift %.2e\n",
                    measured, period, volumeSum / static_cast<double>(samples), idealVolume, largestDrift);
        QVERIFY2(std::fabs(measured / period - 1.0) < 1e-3, std::to_string(measured).c_str());
        // The mean from the first up-crossing over whole and part periods: V* to the oscillation's 3 %.
        QVERIFY(std::fabs(volumeSum / static_cast<double>(samples) / idealVolume - 1.0) < 5e-3);
        // Velocity Verlet on lambda with eq. 24's L (1 + lambda dt): measured 2.5e-10 at dt = 0.01 s.
        QVERIFY2(largestDrift < 1e-7, std::to_string(largestDrift).c_str());
    }

    void packingRelaxesAtTheExternalPressure()
    {
        Scenario soft = softPeriodic2d();
        soft.set("pressure.relax_threshold", 1e-5);
        soft.set("run.time", 1000.0);
        Simulation md(soft);
        while (!md.finished() && md.world().time < soft.real("run.time")) {
            md.step();
        }
        QVERIFY2(md.finished(), "the soft packing did not relax");
        const double pIn = md.world().cell->innerPressure;
        const double pExt = soft.real("pressure.external");

        Simulation cd(resolveScenario("periodic2d"));
        while (!cd.finished() && cd.world().steps < 20000) {
            cd.step();
        }
        QVERIFY(cd.finished());
        const double phiMd = analysis::volumeFraction(md.world());
        const double phiCd = analysis::volumeFraction(cd.world());
        std::printf("periodic2d md (k_n = 1e4 N/m, e = 0.5): %lld steps, P_in = %.7f, phi = %.4f; cd: phi = %.4f\n",
                    static_cast<long long>(md.world().steps), pIn, phiMd, phiCd);
        QVERIFY2(std::fabs(pIn / pExt - 1.0) < 1e-3, std::to_string(pIn).c_str());
        // Soft grains overlap by ~P d / k_n ~ 1e-3 of a diameter and pack from other dynamics: a few per
        // cent apart at most.
        QVERIFY2(std::fabs(phiMd / phiCd - 1.0) < 0.04,
                 (std::to_string(phiMd) + " vs " + std::to_string(phiCd)).c_str());
    }

    /// periodic2d as built in (relax_threshold 1e-10 m/s, m/s^2) with md's CD-equivalent contacts (omega ~1.6e4 rad/s):
    /// Shaebani et al.'s stopping rule (section 5) against what rounding leaves. Coordinates up to L are known to
    /// epsilon L, so a packing at rest keeps mean accelerations of order omega^2 epsilon L (~1e-6 m/s^2) for ever; the
    /// run has to end at RelaxationFloor (10 times that noise) instead of running to run.time.
    void builtInPeriodic2dRelaxesAboveTheRoundingNoise()
    {
        Scenario scenario = resolveScenario("periodic2d");
        scenario.setFromText("solver.method", "md");
        const double threshold = scenario.real("pressure.relax_threshold");
        Simulation md(scenario);
        const std::vector<std::string> advice = md.advisories();
        QVERIFY2(
            std::any_of(advice.begin(), advice.end(),
                        [](const std::string& a) { return a.find("pressure.relax_threshold") != std::string::npos; }),
            "no advice on the threshold");
        while (!md.finished() && md.world().time < 200.0) {
            md.step();
        }
        QVERIFY2(md.finished(), "periodic2d with md did not relax in 200 s");
        const double relaxedAt = md.world().time;
        const PressureSettings& coupling = md.settings().pressure;
        // The cell's floor: L |P_in - P_ext| / M_lambda below 10 L dP / M_lambda, ~1.6e-7 m/s^2 here (dP ~8e-8 Pa).
        const double pressureError = std::fabs(md.world().cell->innerPressure / coupling.externalPressure - 1.0);
        QVERIFY2(pressureError < 1e-6, std::to_string(pressureError).c_str());

        // Going on, the packing stays where it ended (rattlers still knock on the network now and then), and its
        // quietest mean acceleration stays on the noise that the floor names, far above the threshold. (A stepper
        // without the run's contact memory: the same time scale for the linear law.)
        const double relaxedFraction = analysis::volumeFraction(md.world());
        const SoftParticleStepper probe(md::softParticleSettingsFrom(md.settings()));
        const RelaxationFloor floor = probe.relaxationFloor(md.world());
        const double noise = floor.acceleration / RelaxationFloor::kMargin;  // omega^2 epsilon L
        double quietest = std::numeric_limits<double>::infinity();
        for (int n = 0; n < 300; ++n) {
            md.step();
            quietest = std::min(quietest, measureRelaxation(md.world(), coupling).meanAcceleration);
        }
        const double laterFraction = analysis::volumeFraction(md.world());
        std::printf("periodic2d md, CD-equivalent contacts: relaxed at t = %.2f s, phi = %.6f (%.6f 3 s later); the "
                    "quietest mean acceleration since %.3g m/s^2 against omega^2 epsilon L = %.3g m/s^2 (threshold "
                    "%.3g)\n",
                    relaxedAt, relaxedFraction, laterFraction, quietest, noise, threshold);
        QVERIFY2(std::fabs(laterFraction / relaxedFraction - 1.0) < 1e-4, std::to_string(laterFraction).c_str());
        QVERIFY2(quietest > 0.05 * noise, std::to_string(quietest).c_str());
        QVERIFY(quietest > 1e3 * threshold);
    }
};

QTEST_APPLESS_MAIN(MdPeriodicTest)
#include "tst_md_periodic.moc"
