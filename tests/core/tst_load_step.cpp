// The piston's load step (Unger & Kertesz 2003, Fig. 8: F -> F + dF from the next step on) acts on the running state
// like a push: reset() rebuilds the run as it was set, while the user's own edits stay. The studio's piston2d lesson
// plays past the scenario's load step, pushes once more and resets: it was rebuilt under F + dF with the load step at
// the push's time, so its next run showed no oscillation.
#include "BuiltinScenarios.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <QTest>

#include <string>

using namespace granular;

namespace {

double number(const Scenario& scenario, const char* key)
{
    return std::get<double>(scenario.get(key));
}

/// piston2d with its load step at 0.02 s, run past it (three steps of 0.01 s).
Simulation pastTheLoadStep()
{
    Scenario scenario = resolveScenario("piston2d");
    scenario.setFromText("piston.load_step_time", "0.02");
    Simulation simulation(scenario);
    for (int n = 0; n < 3; ++n) {
        simulation.step();
    }
    return simulation;
}

}  // namespace

class LoadStepTest : public QObject {
    Q_OBJECT

private slots:
    void resetRebuildsTheRunAsSet()
    {
        Simulation simulation = pastTheLoadStep();
        const double force = simulation.settings().piston.force;
        const double step = simulation.settings().piston.loadStep;
        const LoadStepChange change = simulation.applyLoadStep();
        QCOMPARE(change.forceAfter, force + 2.0 * step);  // the earlier step folded into F, dF added again
        QCOMPARE(number(simulation.scenario(), "piston.force"), force + step);
        QCOMPARE(number(simulation.scenario(), "piston.load_step_time"), simulation.world().time);
        simulation.setParameter("solver.iterations", Value(std::int64_t{80}));  // waits for the reset
        const Scenario rebuilt = simulation.resetScenario();
        QCOMPARE(number(rebuilt, "piston.force"), force);
        QCOMPARE(number(rebuilt, "piston.load_step_time"), 0.02);
        QCOMPARE(std::get<std::int64_t>(rebuilt.get("solver.iterations")), std::int64_t{80});
        simulation.reset();
        QCOMPARE(simulation.settings().piston.force, force);
        QCOMPARE(simulation.settings().piston.loadStepTime, 0.02);
        QCOMPARE(simulation.settings().solver.iterations, std::int64_t{80});
        QCOMPARE(number(simulation.scenario(), "piston.force"), force);
        QCOMPARE(simulation.world().time, 0.0);
    }

    void theUsersForceStaysAndAMethodSwitchKeepsTheRecord()
    {
        Simulation simulation = pastTheLoadStep();
        const double force = simulation.settings().piston.force;
        simulation.applyLoadStep();
        const auto switched = simulation.withMethod(Method::SoftParticle);
        QCOMPARE(number(switched->resetScenario(), "piston.force"), force);
        QCOMPARE(number(switched->resetScenario(), "piston.load_step_time"), 0.02);
        // The user's own force after the push is the user's: reset keeps it (the load step's time goes back).
        simulation.setParameter("piston.force", Value(5000.0));
        QCOMPARE(number(simulation.resetScenario(), "piston.force"), 5000.0);
        QCOMPARE(number(simulation.resetScenario(), "piston.load_step_time"), 0.02);
    }
};

QTEST_APPLESS_MAIN(LoadStepTest)
#include "tst_load_step.moc"
