#include "SimulationFile.h"

#include "ScenarioArguments.h"
#include "ScenarioJson.h"
#include "scenario/ScenarioError.h"
#include "settings/SettingsBinding.h"
#include "sim/Simulation.h"
#include "util/StateArchive.h"

namespace granular {

void saveSimulationFile(const std::filesystem::path& path, const Simulation& simulation)
{
    Checkpoint checkpoint;
    // The settings of the saved world: edits that wait for a reset are not kept (restored, they would act at once).
    checkpoint.scenarioJson = scenarioToJson(simulation.scenarioInForce());
    StateWriter state;
    simulation.saveState(state);
    checkpoint.simulation = state.bytes();
    writeCheckpoint(path, checkpoint);
}

std::unique_ptr<Simulation> restoreSimulation(const Checkpoint& checkpoint, Scenario scenario,
                                              const std::filesystem::path& file)
{
    StateReader in(checkpoint.simulation);
    try {
        const auto record = checkpoint.version >= kLoadStepRecordVersion ? Simulation::LoadStepRecord::With
                                                                         : Simulation::LoadStepRecord::Without;
        auto simulation = Simulation::restore(std::move(scenario), in, record);
        if (!in.atEnd()) {
            throw StateError("bytes left after the simulation's state");
        }
        return simulation;
    } catch (const StateError& error) {
        throw CheckpointError(file.string() + ": " + error.what());
    } catch (const ScenarioError& error) {
        throw CheckpointError(file.string() + ": the state does not fit its scenario: " + error.what());
    }
}

std::unique_ptr<Simulation> openSimulationFile(const std::filesystem::path& path)
{
    const Checkpoint checkpoint = readCheckpoint(path);
    Scenario scenario;
    try {
        scenario = scenarioFromJson(checkpoint.scenarioJson, path.string());
    } catch (const ScenarioError& error) {
        throw CheckpointError(path.string() + ": its scenario does not load: " + error.what());
    }
    return restoreSimulation(checkpoint, std::move(scenario), path);
}

std::unique_ptr<Simulation> openSimulationFile(const std::filesystem::path& path,
                                               const std::vector<std::string>& assignments)
{
    auto simulation = openSimulationFile(path);
    if (!assignments.empty()) {
        const Scenario edited = scenarioWithLiveAssignments(simulation->scenario(), assignments, "an opened state");
        simulation->applySettings(parseSettings(edited));
    }
    return simulation;
}

}  // namespace granular
