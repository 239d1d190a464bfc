// Every built-in scenario loads against the schema, builds its world and steps: the values of its
// series stay finite, its name matches its file, and its description is filled in. Scenarios
// whose physics is checked in detail have their own tests; this one catches a broken built-in.
#include "BuiltinScenarios.h"
#include "scenario/Scenario.h"
#include "sim/Run.h"
#include "sim/Simulation.h"

#include <QTest>

#include <cmath>
#include <string>

using namespace granular;

class BuiltinScenariosTest : public QObject {
    Q_OBJECT

private slots:
    void theListIsNotEmpty();
    void everyBuiltInLoadsBuildsAndSteps();
    void everyBuiltInRunsAndSamplesOnWholeSteps();
    void aTimeOffTheStepsIsSaid();
};

void BuiltinScenariosTest::theListIsNotEmpty()
{
    QVERIFY(builtinScenarios().size() >= 6);
}

void BuiltinScenariosTest::everyBuiltInLoadsBuildsAndSteps()
{
    for (const auto& builtin : builtinScenarios()) {
        const Scenario scenario = resolveScenario(builtin.name);
        QVERIFY2(scenario.text("name") == builtin.name,
                 (builtin.name + ": the name key differs from the file").c_str());
        QVERIFY2(!builtin.description.empty(), (builtin.name + ": no description").c_str());
        Simulation simulation(scenario);
        QVERIFY2(simulation.world().particles.size() > 0, (builtin.name + ": no particles").c_str());
        for (int n = 0; n < 3; ++n) {
            simulation.step();
        }
        const auto values = simulation.sample();
        for (std::size_t i = 0; i < values.size(); ++i) {
            QVERIFY2(std::isfinite(values[i]),
                     (builtin.name + ": " + simulation.observables()[i].name + " is not finite after 3 steps").c_str());
        }
    }
}

void BuiltinScenariosTest::everyBuiltInRunsAndSamplesOnWholeSteps()
{
    // run.time and output.interval whole numbers of solver.dt: no warning on a built-in.
    for (const auto& builtin : builtinScenarios()) {
        const Simulation simulation(resolveScenario(builtin.name));
        const auto advice = stepGridAdvisories(simulation.settings());
        QVERIFY2(advice.empty(), (builtin.name + ": " + (advice.empty() ? std::string() : advice.front())).c_str());
    }
}

void BuiltinScenariosTest::aTimeOffTheStepsIsSaid()
{
    // A run of whole steps rounds: an interval of 0.025 s at dt = 0.01 s gave rows every 0.03 s without a word.
    Scenario scenario = resolveScenario("piston2d");
    scenario.setFromText("run.time", "0.1");
    scenario.setFromText("output.interval", "0.025");
    auto advice = stepGridAdvisories(Simulation(scenario).settings());
    QCOMPARE(advice.size(), std::size_t{1});
    QCOMPARE(advice.front(), std::string("output.interval = 0.025 s is no whole number of steps of solver.dt = 0.01 s: "
                                         "the rows come every 3 steps, 0.03 s"));
    scenario.setFromText("run.time", "0.015");
    scenario.setFromText("output.interval", "1");  // longer than the run: its one row at the end, no warning
    advice = stepGridAdvisories(Simulation(scenario).settings());
    QCOMPARE(advice.size(), std::size_t{1});
    QCOMPARE(advice.front(), std::string("run.time = 0.015 s is no whole number of steps of solver.dt = 0.01 s: the "
                                         "run ends after 2 steps, at t = 0.02 s"));
    scenario.setFromText("run.time", "0.3");  // 0.3 / 0.01 = 29.999999999999996: round-off, no warning
    scenario.setFromText("output.interval", "0.07");
    QVERIFY(stepGridAdvisories(Simulation(scenario).settings()).empty());
}

QTEST_APPLESS_MAIN(BuiltinScenariosTest)
#include "tst_builtin_scenarios.moc"
