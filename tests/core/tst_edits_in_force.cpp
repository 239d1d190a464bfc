// Edits and the running state. The piston's load step (Unger & Kertesz 2003, Fig. 8: F -> F + dF from the next step
// on) acts on the running state like a push: reset() rebuilds the run as it was set, while the user's own edits stay.
// The studio's piston2d lesson plays past the scenario's load step, pushes once more and resets: it was rebuilt under
// F + dF with the load step at the push's time, so its next run showed no oscillation. And an edit that waits for the
// reset keeps waiting through a method switch, and is not in a saved state: both built their settings with it.
#include "BuiltinScenarios.h"
#include "Checkpoint.h"
#include "ScenarioJson.h"
#include "SimulationFile.h"
#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "sim/Simulation.h"
#include "util/StateArchive.h"

#include <QTest>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

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

/// The message of the ScenarioError that `call` throws, or "".
template <class Call> std::string messageOf(const Call& call)
{
    try {
        call();
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return {};
}

}  // namespace

class EditsInForceTest : public QObject {
    Q_OBJECT

private slots:
    /// The studio plays on past run.time: a live solver.dt longer than run.time is an edit it takes (only the
    /// command line, whose run is whole steps up to run.time, refuses such a run: checkRunCoversAStep).
    void aStepLongerThanRunTimeIsALiveEdit()
    {
        Scenario scenario = resolveScenario("chain1d");
        scenario.setFromText("run.time", "10");
        Simulation simulation(scenario);
        QVERIFY(simulation.setParameter("solver.dt", Value(20.0)));
        QCOMPARE(simulation.settings().solver.dt, 20.0);
    }

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

    /// A state saved after a load step keeps the record of what the steps replaced: opened again, reset() goes back to
    /// the force and load-step time as set (a version 1 checkpoint had no such record: the opened run reset under
    /// F + dF, with its load step at the push's time).
    void aStateSavedAfterALoadStepResetsAsSet()
    {
        Simulation simulation = pastTheLoadStep();
        const double force = simulation.settings().piston.force;
        const double step = simulation.settings().piston.loadStep;
        simulation.applyLoadStep();
        const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                           ("tst_edits_in_force_load_" + std::to_string(::getpid()) + ".granular");
        saveSimulationFile(file, simulation);
        const auto opened = openSimulationFile(file);
        std::filesystem::remove(file);
        // In force: the pushed force, the push's time.
        QCOMPARE(opened->settings().piston.force, force + step);
        QCOMPARE(opened->settings().piston.loadStepTime, simulation.world().time);
        QCOMPARE(number(opened->resetScenario(), "piston.force"), force);
        QCOMPARE(number(opened->resetScenario(), "piston.load_step_time"), 0.02);
        opened->reset();
        QCOMPARE(opened->settings().piston.force, force);
        QCOMPARE(opened->settings().piston.loadStepTime, 0.02);
        QCOMPARE(opened->world().time, 0.0);
    }

    /// A live edit after a load step may make a scenario that only reset() refuses (dF = -22000 N: F + dF >= 0 under
    /// the pushed force, not under the force as set): the saved state opens all the same, and its reset refuses as the
    /// running simulation's does.
    void aStateWhoseResetWouldBeRefusedOpens()
    {
        Simulation simulation = pastTheLoadStep();
        simulation.applyLoadStep();
        QVERIFY(simulation.setParameter("piston.load_step", Value(-22000.0)));
        QVERIFY(!messageOf([&] { simulation.reset(); }).empty());
        const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                           ("tst_edits_in_force_edit_" + std::to_string(::getpid()) + ".granular");
        saveSimulationFile(file, simulation);
        const auto opened = openSimulationFile(file);
        std::filesystem::remove(file);
        QCOMPARE(opened->settings().piston.loadStep, -22000.0);
        QCOMPARE(messageOf([&] { opened->reset(); }), messageOf([&] { simulation.reset(); }));
    }

    /// A version 1 checkpoint (no record of load steps at the end of its state) still opens and goes on as the saved
    /// run does; its reset builds the scenario it was saved with, the pushed force and the push's time, as version 1
    /// builds did. Versions outside [1, 2] are refused, naming the file and the versions read.
    void aVersionOneCheckpointOpensAndResetsAsSaved()
    {
        Simulation simulation = pastTheLoadStep();
        const double force = simulation.settings().piston.force;
        const double step = simulation.settings().piston.loadStep;
        simulation.applyLoadStep();
        const double pushed = simulation.world().time;
        Checkpoint checkpoint;
        checkpoint.scenarioJson = scenarioToJson(simulation.scenarioInForce());
        StateWriter state;
        simulation.saveState(state, Simulation::LoadStepRecord::Without);
        checkpoint.simulation = state.bytes();
        checkpoint.version = 1;
        const std::filesystem::path file =
            std::filesystem::temp_directory_path() / ("tst_edits_in_force_v1_" + std::to_string(::getpid()) + ".bin");
        writeCheckpoint(file, checkpoint);
        const auto opened = openSimulationFile(file);
        simulation.step();
        opened->step();
        QCOMPARE(opened->world().particles.position, simulation.world().particles.position);
        QCOMPARE(number(opened->resetScenario(), "piston.force"), force + step);
        QCOMPARE(number(opened->resetScenario(), "piston.load_step_time"), pushed);
        checkpoint.version = 3;
        writeCheckpoint(file, checkpoint);
        std::string refused;
        try {
            (void)openSimulationFile(file);
        } catch (const CheckpointError& error) {
            refused = error.what();
        }
        std::filesystem::remove(file);
        QCOMPARE(refused, file.string() + ": version 3 is not read by this granular; accepted: 1 to 2");
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

    void aMethodSwitchKeepsWhatTheStateShows()
    {
        // The contacts and overlaps of the state carry over until the new method's first step (the studio's status
        // read 0 contacts and 0 m after a switch while paused); the other solver's iterations do not.
        Simulation simulation(resolveScenario("chain1d"));
        for (int k = 0; k < 60; ++k) {
            simulation.step();
        }
        const StepDiagnostics before = simulation.lastStep();
        QVERIFY(before.contacts > 0 && before.meanOverlap > 0.0 && before.iterations > 0);
        const auto switched = simulation.withMethod(Method::SoftParticle);
        QCOMPARE(switched->lastStep().contacts, before.contacts);
        QVERIFY(switched->lastStep().meanOverlap == before.meanOverlap);
        QVERIFY(switched->lastStep().maxOverlap == before.maxOverlap);
        QCOMPARE(switched->lastStep().iterations, std::int64_t{0});
        QVERIFY(switched->lastStep().residual == 0.0);
    }

    void anEditWaitingForTheResetKeepsWaitingThroughAMethodSwitch()
    {
        Scenario scenario = resolveScenario("chain1d");
        Simulation simulation(scenario);
        simulation.step();
        const double mass = simulation.settings().chain.mass;
        QVERIFY(!simulation.setParameter("chain.mass", Value(4.0 * mass)));  // waits for the reset
        QCOMPARE(simulation.waitingKeys(), std::vector<std::string>{"chain.mass"});
        QCOMPARE(number(simulation.scenarioInForce(), "chain.mass"), mass);
        const auto switched = simulation.withMethod(Method::SoftParticle);
        QCOMPARE(switched->settings().chain.mass, mass);  // the world's disks are still of this mass
        QCOMPARE(number(switched->scenario(), "chain.mass"), 4.0 * mass);
        QCOMPARE(switched->waitingKeys(), std::vector<std::string>{"chain.mass"});
        switched->reset();
        QCOMPARE(switched->settings().chain.mass, 4.0 * mass);
        QVERIFY(switched->waitingKeys().empty());
        // A saved state holds the settings of its world: opened, the edit is gone rather than acting at once.
        const std::filesystem::path file =
            std::filesystem::temp_directory_path() / ("tst_edits_in_force_" + std::to_string(::getpid()) + ".granular");
        saveSimulationFile(file, simulation);
        const auto opened = openSimulationFile(file);
        std::filesystem::remove(file);
        QCOMPARE(opened->settings().chain.mass, mass);
        QCOMPARE(number(opened->scenario(), "chain.mass"), mass);
        // Set back to the value in force: nothing waits.
        simulation.setParameter("chain.mass", Value(mass));
        QVERIFY(simulation.waitingKeys().empty());
    }

    /// A method that only the setup waiting for the reset can run (cd_pressure needs the periodic cell of setup =
    /// periodic) waits with it: each alone was refused, the method because the world in force has no cell, the reset
    /// with the method in force because cd does not hold a pressure.
    void aMethodThatOnlyTheWaitingSetupFitsWaitsForTheResetToo()
    {
        Simulation simulation(resolveScenario("piston2d"));
        simulation.step();
        QVERIFY(!simulation.setParameter("setup", Value(std::string("periodic"))));
        QVERIFY(messageOf([&] {
                    (void)simulation.withMethod(Method::ConstantPressure);
                }).starts_with("solver.method: cd_pressure needs a periodic cell"));
        // Not a combination reset() could build: refused, nothing changes.
        QVERIFY(messageOf([&] {
                    simulation.setOnReset("solver.method", Value(std::string("ballistic")));
                }).starts_with("solver.method: setup periodic needs a method that holds the pressure"));
        QCOMPARE(simulation.waitingKeys(), std::vector<std::string>{"setup"});
        simulation.setOnReset("solver.method", Value(std::string("cd_pressure")));
        QCOMPARE(simulation.waitingKeys(), (std::vector<std::string>{"setup", "solver.method"}));
        QVERIFY(simulation.settings().solver.method == Method::ContactDynamics);  // the world in force runs on
        QCOMPARE(simulation.world().steps, std::int64_t(1));
        simulation.step();
        simulation.reset();
        QVERIFY(simulation.settings().solver.method == Method::ConstantPressure);
        QVERIFY(simulation.settings().setup == Setup::Periodic);
        QVERIFY(simulation.world().cell.has_value());
        QVERIFY(simulation.waitingKeys().empty());
        simulation.step();
    }

    /// A method chosen live after one waited is the one a reset builds, also where it is the method in force: the
    /// waiting method stayed waiting (a state saved then was labelled with it and did not open), and choosing the
    /// method in force again did not withdraw it.
    void aMethodChosenLiveReplacesAWaitingOne()
    {
        Simulation simulation(resolveScenario("piston2d"));
        simulation.setParameter("setup", Value(std::string("periodic")));
        simulation.setOnReset("solver.method", Value(std::string("cd_pressure")));
        const auto switched = simulation.withMethod(Method::SoftParticle);
        QCOMPARE(switched->waitingKeys(), std::vector<std::string>{"setup"});
        QCOMPARE(switched->scenarioInForce().text("solver.method"), std::string("md"));
        QCOMPARE(switched->scenario().text("solver.method"), std::string("md"));
        // The same method as in force: the waiting one is withdrawn, and a reset without the setup builds cd again.
        const auto again = simulation.withMethod(Method::ContactDynamics);
        QCOMPARE(again->waitingKeys(), std::vector<std::string>{"setup"});
        again->setParameter("setup", Value(std::string("piston")));
        QVERIFY(again->waitingKeys().empty());
        again->reset();
        QVERIFY(again->settings().solver.method == Method::ContactDynamics);
    }
};

QTEST_APPLESS_MAIN(EditsInForceTest)
#include "tst_edits_in_force.moc"
