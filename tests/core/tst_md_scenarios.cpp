// The soft-particle method on the built-in scenarios:
// - md_press (MSCM 2024): a grain driven at 1 mm/s into a fixed grain from first touch has, after
//   0.1 s, the overlap delta = v t = 1e-4 m and the normal force F = (k_n / 2) delta = 5e4 N (two
//   grains of k_n = 1e9 N/m in series), within 0.1 %;
// - md_impact (MSCM 2024): at the note's dt = 5e-8 s the collision (t_c = pi / sqrt(k/m*) /
//   sqrt(1 - zeta^2) = 1.65e-7 s) is resolved by ~3 steps: the run warns and suggests dt <= t_c/50;
// - CD-MD equivalence (Unger & Kertesz 2003, eq. 67-68): chain1d with `solver.method = md` alone takes the
//   contact stiffness q m N_I / dt^2 and damping q m N_I / dt from the theory and reproduces the
//   omega and tau of the CD run within 5 %;
// - md runs on the piston, drum and cloud setups of the CD scenarios;
// - after a solver step of many MD steps, world.contacts shows every grain pair as the grains are then.
#include "BuiltinScenarios.h"
#include "analysis/ChainOscillation.h"
#include "analysis/SeriesTable.h"
#include "md/ContactLaw.h"
#include "md/SoftParticleStepper.h"
#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "sim/Run.h"
#include "sim/Simulation.h"
#include "theory/ChainTheory.h"

#include "settings/SettingsBinding.h"

#include <QTest>

#include <cmath>
#include <cstdio>
#include <string>

using namespace granular;

namespace {

SeriesTable runScenario(Simulation& simulation)
{
    SeriesTable series;
    for (const auto& observable : simulation.observables()) {
        series.columns.push_back(observable.name);
    }
    runToEnd(simulation, [&](double t, const std::vector<double>& values) { series.append(t, values); });
    return series;
}

analysis::ChainOscillation runChain(const std::string& method, std::int64_t seed)
{
    Scenario scenario = resolveScenario("chain1d");
    scenario.setFromText("solver.method", method);
    scenario.set("seed", seed);
    Simulation simulation(scenario);
    const SeriesTable series = runScenario(simulation);
    return analysis::analyzeChainOscillation(simulation.settings(), series);
}

bool allFinite(const World& world)
{
    for (std::size_t i = 0; i < world.particles.size(); ++i) {
        if (!world.particles.position[i].allFinite() || !world.particles.velocity[i].allFinite()) {
            return false;
        }
    }
    return true;
}

}  // namespace

class SoftParticleScenarioTest : public QObject {
    Q_OBJECT

private slots:
    void pressReachesTheSeedsForce();
    void impactAtTheSeedsTimeStepWarns();
    void chainSwitchesToMdWithOneFlag();
    void chainOmegaAndTauMatchContactDynamics();
    void mdRunsOnTheCdSetups();
    void rejectedLiveMaterialLeavesTheScenarioAsItWas();
    void contactsAfterAStepAreThoseOfItsLastMdStep();
};

// The MD steps inside a solver step leave world.contacts' grain pairs alone (SoftParticleStepper::advance); after
// the step every pair must show the geometry of the grains where they are, with the levers to the point midway
// between the surfaces, and the force of that instant: none across a gap, some in an overlap.
void SoftParticleScenarioTest::contactsAfterAStepAreThoseOfItsLastMdStep()
{
    Scenario scenario;
    scenario.setFromText("world.dimension", "3");
    scenario.setFromText("solver.method", "md");
    scenario.setFromText("solver.dt", "0.01");
    scenario.setFromText("material.stiffness", "1e5");
    scenario.setFromText("material.restitution", "0.5");
    scenario.setFromText("gravity.y", "-10");
    scenario.setFromText("contact.friction", "0.3");
    scenario.setFromText("particles.count", "600");
    scenario.setFromText("particles.radius_min", "0.9");
    scenario.setFromText("particles.radius_max", "1");
    scenario.setFromText("particles.density", "1");
    scenario.setFromText("box.width", "17");
    scenario.setFromText("box.depth", "17");
    scenario.setFromText("box.height", "40");
    Simulation simulation(scenario);
    int overlapping = 0;
    int open = 0;
    for (int step = 0; step < 200; ++step) {
        simulation.step();
        QVERIFY2(simulation.lastStep().iterations > 1, "several MD steps per solver step");
    }
    const World& world = simulation.world();
    const Particles& p = world.particles;
    for (const Contact& c : world.contacts) {
        if (c.kind != ContactKind::Particle) {
            continue;
        }
        const auto i = static_cast<std::size_t>(c.partner);
        const auto j = static_cast<std::size_t>(c.particle);
        const Vec3 d = p.position[j] - p.position[i];
        const double distance = d.norm();
        const double gap = distance - p.radius[i] - p.radius[j];
        const Vec3 normal = d / distance;
        QVERIFY2(c.gap == gap && c.normal == normal, "a pair's gap and normal are those of the grains now");
        QVERIFY2(c.lever1 == -(p.radius[j] + 0.5 * gap) * normal && c.lever0 == (p.radius[i] + 0.5 * gap) * normal,
                 "the levers end midway between the surfaces");
        if (gap > 0.0) {
            ++open;
            QVERIFY2(c.force == Vec3::Zero(), "no force across a gap");
        } else {
            ++overlapping;
            QVERIFY2(c.force != Vec3::Zero(), "a force in an overlap");
        }
    }
    std::printf("after 200 steps of %lld MD steps: %d overlapping and %d open grain pairs as the grains are now\n",
                static_cast<long long>(simulation.lastStep().iterations), overlapping, open);
    QVERIFY(overlapping > 100 && open > 10);
}

// MSCM 2024: F = (k_n / 2) v t = 5e4 N and delta = v t = 1e-4 m at t = 0.1 s.
void SoftParticleScenarioTest::pressReachesTheSeedsForce()
{
    Simulation simulation(resolveScenario("md_press"));
    const SeriesTable series = runScenario(simulation);
    QVERIFY(std::fabs(series.time.back() - 0.1) < 1e-12);
    const double force = series.column("normal_force").back();
    const double overlap = series.column("overlap").back();
    const std::string message = "the DEM note of MSCM 2024 constant approach: F(0.1 s) = " + std::to_string(force) +
                                " N (expected 5e4), delta = " + std::to_string(overlap) + " m (expected 1e-4)";
    std::printf("%s\n", message.c_str());
    QVERIFY2(std::fabs(force / 5e4 - 1.0) < 1e-3, message.c_str());
    QVERIFY2(std::fabs(overlap / 1e-4 - 1.0) < 1e-3, message.c_str());
}

// dt = 5e-8 s against t_c = 1.65e-7 s: fewer than 10 steps per contact, a warning with a suggestion.
void SoftParticleScenarioTest::impactAtTheSeedsTimeStepWarns()
{
    Scenario scenario = resolveScenario("md_impact");
    QCOMPARE(scenario.real("solver.dt"), 5e-8);
    const Simulation seeds(scenario);
    const auto advice = seeds.advisories();
    QVERIFY2(advice.size() == 1, "the note's dt must be warned about");
    std::printf("%s\n", advice.front().c_str());
    QVERIFY2(advice.front().find("t_c = 1.65e-07 s") != std::string::npos, advice.front().c_str());
    QVERIFY2(advice.front().find("solver.dt <= 3.21e-09 s") != std::string::npos, advice.front().c_str());
    scenario.set("solver.substeps", std::int64_t{0});
    const Simulation automatic(scenario);
    QVERIFY2(automatic.advisories().empty(), "automatic substeps resolve the contact: no warning");
}

// Unger & Kertesz 2003, eq. 67-68: without material.stiffness and material.restitution the chain's contact gets
// kappa = q m N_I / dt^2 and gamma = q m N_I / dt.
void SoftParticleScenarioTest::chainSwitchesToMdWithOneFlag()
{
    Scenario scenario = resolveScenario("chain1d");
    scenario.setFromText("solver.method", "md");
    const auto settings = md::softParticleSettingsFrom(parseSettings(scenario));
    QVERIFY(settings.material.cdEquivalentStiffness());
    QVERIFY(settings.material.cdEquivalentDamping());
    const theory::ChainParameters chain = analysis::chainParametersFrom(parseSettings(scenario));
    Contact c;
    c.kind = ContactKind::Particle;
    c.normalMass = 0.5 * chain.mass;
    c.tangentialMass = chain.mass / 6.0;
    const md::PairLaw law = md::pairLawFor(settings.material, c, 0.5, 0.5, 0.0);
    QVERIFY2(std::fabs(law.stiffness / theory::equivalentStiffness(chain) - 1.0) < 1e-12, "eq. 67 kappa");
    QVERIFY2(std::fabs(law.damping / theory::equivalentDamping(chain) - 1.0) < 1e-12, "eq. 68 gamma");
    const double q = theory::randomSweepRelaxation();
    QVERIFY(std::fabs(law.stiffness - q * chain.mass * 40.0 / (chain.timeStep * chain.timeStep)) < 1e-12);
}

// Unger & Kertesz 2003, eq. 67-68: the MD chain oscillates with the CD chain's omega and tau (within 5 %). CD's
// random sweep order scatters a single run's tau by a few %, so CD is averaged over four seeds.
void SoftParticleScenarioTest::chainOmegaAndTauMatchContactDynamics()
{
    constexpr int kSeeds = 4;
    double cdOmega = 0.0;
    double cdTau = 0.0;
    for (int seed = 1; seed <= kSeeds; ++seed) {
        const auto cd = runChain("cd", seed);
        QVERIFY(cd.fit.converged);
        cdOmega += cd.fit.omega / kSeeds;
        cdTau += cd.fit.tau / kSeeds;
    }
    const auto md = runChain("md", 1);
    QVERIFY2(md.fit.converged, "the damped-oscillation fit of the MD chain did not converge");
    const std::string message =
        "CD-MD equivalence (Unger & Kertesz 2003, eq. 67-68): omega MD " + std::to_string(md.fit.omega) + " vs CD " +
        std::to_string(cdOmega) + " rad/s, tau MD " + std::to_string(md.fit.tau) + " vs CD " + std::to_string(cdTau) +
        " s; theory (eq. 58, 60) " + std::to_string(md.theoryOmega) + " rad/s, " + std::to_string(md.theoryTau) + " s";
    std::printf("%s\n", message.c_str());
    QVERIFY2(std::fabs(md.fit.omega / cdOmega - 1.0) < 0.05, message.c_str());
    QVERIFY2(std::fabs(md.fit.tau / cdTau - 1.0) < 0.05, message.c_str());
}

// solver.method = md on the CD scenarios: steps without NaN, grains stay in their container.
void SoftParticleScenarioTest::mdRunsOnTheCdSetups()
{
    for (const char* name : {"piston2d", "drum3d", "freefall2d"}) {
        Scenario scenario = resolveScenario(name);
        scenario.setFromText("solver.method", "md");
        Simulation simulation(scenario);
        for (int n = 0; n < 20; ++n) {
            simulation.step();
        }
        QVERIFY2(allFinite(simulation.world()), name);
    }
}

// Hertz has no CD-equivalent damping (material.restitution = -1): the live change is refused with
// ScenarioError and the scenario keeps its law.
void SoftParticleScenarioTest::rejectedLiveMaterialLeavesTheScenarioAsItWas()
{
    // A 3D scenario (2D grains refuse Hertz for their dimension: SettingsChecks).
    Scenario scenario = resolveScenario("freefall3d");
    scenario.setFromText("solver.method", "md");
    QCOMPARE(scenario.real("material.restitution"), -1.0);
    Simulation simulation(scenario);
    std::string refusal;
    try {
        simulation.setParameter("material.law", std::string("hertz"));
    } catch (const ScenarioError& error) {
        refusal = error.what();
    }
    QVERIFY2(refusal.rfind("material.restitution", 0) == 0, refusal.c_str());
    QCOMPARE(simulation.scenario().text("material.law"), std::string("linear"));
    simulation.step();
    QVERIFY(allFinite(simulation.world()));
}

QTEST_APPLESS_MAIN(SoftParticleScenarioTest)
#include "tst_md_scenarios.moc"
