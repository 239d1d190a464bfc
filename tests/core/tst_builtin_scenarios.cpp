// Every built-in scenario loads against the schema, builds its world and steps: the values of its
// series stay finite, its name matches its file, and its description is filled in. Scenarios
// whose physics is checked in detail have their own tests; this one catches a broken built-in.
#include "BuiltinScenarios.h"
#include "scenario/Scenario.h"
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

QTEST_APPLESS_MAIN(BuiltinScenariosTest)
#include "tst_builtin_scenarios.moc"
