#include "cli/Commands.h"

#include "BuiltinScenarios.h"
#include "Checkpoint.h"
#include "ScenarioArguments.h"
#include "ScenarioJson.h"
#include "cli/RunSession.h"
#include "scenario/ScenarioError.h"
#include "settings/SettingsChecks.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <new>
#include <optional>
#include <ostream>

namespace granular::cli {

int listScenarios(std::ostream& out)
{
    for (const auto& builtin : builtinScenarios()) {
        out << builtin.name << " - " << builtin.description << '\n';
    }
    return Success;
}

int showScenario(const std::string& scenario, const std::vector<std::string>& assignments, std::ostream& out,
                 std::ostream& err)
{
    try {
        out << scenarioToJson(scenarioFromArguments(scenario, assignments));
        return Success;
    } catch (const ScenarioError& error) {
        err << "granular: " << error.what() << '\n';
        return BadInput;
    }
}

namespace {

/// Runs the session; what fails while it runs is one line and exit 1.
int runSession(RunSession& session, std::ostream& out, std::ostream& err)
{
    try {
        return session.run(out, err);
    } catch (const std::bad_alloc&) {
        err << "granular: out of memory while running; accepted: a run that fits in memory (fewer particles, a "
               "shorter run.time or a longer output.interval)\n";
        return RuntimeFailure;
    } catch (const std::exception& error) {
        err << "granular: " << error.what() << '\n';
        return RuntimeFailure;
    }
}

}  // namespace

int runScenario(const RunOptions& options, std::ostream& out, std::ostream& err)
{
    if (options.checkpointEvery && !options.outDirectory) {
        err << "granular: --checkpoint-every: writes DIR/checkpoint.bin, and this run has no --out DIR; accepted: "
               "--checkpoint-every with --out\n";
        return BadInput;
    }
    std::unique_ptr<Simulation> simulation;
    try {
        Scenario scenario = scenarioFromArguments(options.scenario, options.assignments);
        if (options.seed) {
            if (const std::string* seed = assignmentOf(options.assignments, "seed")) {
                throw ScenarioError("--seed " + std::to_string(*options.seed) + " and --set " + *seed +
                                    " both set the seed; accepted: one of them");
            }
            scenario.set("seed", *options.seed);
        }
        simulation = std::make_unique<Simulation>(std::move(scenario));
        checkRunCoversAStep(simulation->settings());
    } catch (const ScenarioError& error) {
        err << "granular: " << error.what() << '\n';
        return BadInput;
    }
    setSolverThreads(options.threads);
    setAdaptiveSolverThreads(!options.fixedThreads);
    RunSession session(std::move(simulation),
                       SessionOptions{options.outDirectory, options.checkpointEvery, options.threads, options.quiet});
    return runSession(session, out, err);
}

int resumeRun(const ResumeOptions& options, std::ostream& out, std::ostream& err)
{
    std::optional<RunSession> session;
    setSolverThreads(options.threads);
    setAdaptiveSolverThreads(!options.fixedThreads);
    try {
        session.emplace(
            RunSession::resume(options.directory, options.assignments,
                               SessionOptions{std::nullopt, options.checkpointEvery, options.threads, options.quiet}));
    } catch (const CheckpointError& error) {
        err << "granular: resume: " << error.what() << '\n';
        return BadInput;
    } catch (const ScenarioError& error) {
        err << "granular: resume: " << error.what() << '\n';
        return BadInput;
    }
    return runSession(*session, out, err);
}

}  // namespace granular::cli
