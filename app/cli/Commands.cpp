#include "cli/Commands.h"

#include "BuiltinScenarios.h"
#include "CompressionFiles.h"
#include "CsvSeries.h"
#include "RunOutput.h"
#include "ScenarioArguments.h"
#include "ScenarioJson.h"
#include "VtpWriter.h"
#include "analysis/SeriesTable.h"
#include "cli/Progress.h"
#include "cli/ScenarioSummary.h"
#include "scenario/ScenarioError.h"
#include "sim/Run.h"
#include "sim/Simulation.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace granular::cli {

namespace {

/// Compression levels per stroke at which the compression setup records its contact forces (0 %, 10 %, ..., 100 %).
constexpr int kCompressionLevels = 10;

std::string frameName(std::int64_t index)
{
    std::ostringstream name;
    name << "frames/frame_" << std::setw(6) << std::setfill('0') << index << ".vtp";
    return name.str();
}

nlohmann::ordered_json summarize(const Simulation& simulation, const RunStatistics& stats, int threads)
{
    nlohmann::ordered_json summary;
    const Settings& settings = simulation.settings();
    summary["scenario"] = settings.name;
    summary["method"] = std::string(choiceName(settings.solver.method));
    summary["seed"] = settings.seed;
    summary["threads"] = threads;
    summary["particles"] = simulation.world().particles.size();
    summary["simulated_time_s"] = simulation.world().time;
    summary["steps"] = stats.steps;
    summary["stopped_early"] = stats.finished;
    summary["wall_time_s"] = stats.wallSeconds;
    const double wall = stats.wallSeconds > 0.0 ? stats.wallSeconds : 1e-12;
    summary["steps_per_s"] = static_cast<double>(stats.steps) / wall;
    summary["contact_updates"] = stats.contactUpdates;
    summary["contact_updates_per_s"] = static_cast<double>(stats.contactUpdates) / wall;
    auto& final = summary["final"];
    const auto values = simulation.sample();
    for (std::size_t i = 0; i < values.size(); ++i) {
        final[simulation.observables()[i].name] = values[i];
    }
    auto& units = summary["units"];
    for (const auto& observable : simulation.observables()) {
        units[observable.name] = observable.unit;
    }
    return summary;
}

}  // namespace

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

int runScenario(const RunOptions& options, std::ostream& out, std::ostream& err)
{
    std::unique_ptr<Simulation> simulation;
    try {
        Scenario scenario = scenarioFromArguments(options.scenario, options.assignments);
        if (options.seed) {
            scenario.set("seed", *options.seed);
        }
        simulation = std::make_unique<Simulation>(std::move(scenario));
    } catch (const ScenarioError& error) {
        err << "granular: " << error.what() << '\n';
        return BadInput;
    }
    try {
        std::unique_ptr<RunOutput> output;
        std::ostream* seriesStream = nullptr;
        std::ostringstream discarded;
        if (options.outDirectory) {
            output = std::make_unique<RunOutput>(*options.outDirectory);
            seriesStream = &output->open("series.csv");
        } else {
            seriesStream = &discarded;
        }
        std::vector<std::string> columns;
        for (const auto& observable : simulation->observables()) {
            columns.push_back(observable.name);
        }
        for (const auto& advice : simulation->advisories()) {
            err << "granular: warning: " << advice << '\n';
        }
        CsvSeries series(*seriesStream, columns);
        SeriesTable table;
        table.columns = columns;
        const bool writeFrames = output && simulation->settings().run.writeVtk;
        std::int64_t frameIndex = 0;
        Progress progress("running " + simulation->settings().name, !options.quiet);
        std::optional<analysis::CompressionRecorder> recorder;
        if (simulation->settings().setup == Setup::Compression) {
            recorder.emplace(kCompressionLevels, simulation->settings().forceThreshold);
        }
        const RunStatistics stats = runToEnd(
            *simulation,
            [&](double time, const std::vector<double>& values) {
                series.row(time, values);
                table.append(time, values);
                if (writeFrames) {
                    writeVtp(output->open(frameName(frameIndex++)), *simulation->frame());
                }
            },
            [&](double fraction) { progress.update(fraction); },
            [&](const Simulation& s) {
                if (recorder) {
                    recorder->observe(s.world());
                }
            });

        auto summary = summarize(*simulation, stats, options.threads);
        addScenarioResults(summary, *simulation, table);
        if (recorder) {
            addCompressionResults(summary, recorder->snapshots());
            if (output) {
                writeCompressionLevels(output->open("levels.csv"), recorder->snapshots());
                writeContactForces(output->open("contact_forces.csv"), recorder->snapshots());
            }
        }
        if (output) {
            output->open("summary.json") << summary.dump(2) << '\n';
            output->open("scenario.json") << scenarioToJson(simulation->scenario());
            output->commit();
        }
        if (!options.quiet) {
            out << "ran " << simulation->settings().name << ": " << stats.steps << " steps, "
                << simulation->world().time << " s simulated in " << stats.wallSeconds << " s"
                << (output ? ", output in " + output->directory().string() : std::string()) << '\n';
        }
        return Success;
    } catch (const std::exception& error) {
        err << "granular: " << error.what() << '\n';
        return RuntimeFailure;
    }
}

}  // namespace granular::cli
