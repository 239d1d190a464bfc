#include "cli/RunSession.h"

#include "Checkpoint.h"
#include "CheckpointFrames.h"
#include "CompressionFiles.h"
#include "CsvSeries.h"
#include "JsonText.h"
#include "RunOutput.h"
#include "ScenarioArguments.h"
#include "ScenarioJson.h"
#include "SimulationFile.h"
#include "cli/Commands.h"
#include "cli/Progress.h"
#include "cli/ScenarioSummary.h"
#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"
#include "scenario/Value.h"
#include "settings/Settings.h"
#include "settings/SettingsBinding.h"
#include "settings/SettingsChecks.h"
#include "sim/Run.h"
#include "util/ShownTime.h"
#include "util/StateArchive.h"

#ifdef GRANULAR_WITH_VTK
#include "ParaviewFiles.h"
#endif

#include <nlohmann/json.hpp>

#include <atomic>
#include <cmath>
#include <csignal>
#include <fstream>
#include <iomanip>
#include <new>
#include <ostream>
#include <sstream>
#include <system_error>

namespace granular::cli {

namespace fs = std::filesystem;

namespace {

#ifdef GRANULAR_WITH_VTK
constexpr bool kWritesParaviewFiles = true;
#else
constexpr bool kWritesParaviewFiles = false;
#endif

/// Compression levels per stroke at which the compression setup records its contact forces (0 %, 10 %, ..., 100 %).
constexpr int kCompressionLevels = 10;

/// The signal that asked the running session to stop (0: none). Written by the signal handler, so global.
std::atomic<int> stopSignal{0};  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

extern "C" void askToStop(int signal)
{
    stopSignal = signal;
}

/// `stepsTaken`, `updatesMade`: the steps and contact updates of this call (a resumed run's rates count its own, over
/// its own wall time; the totals are the whole run's).
nlohmann::ordered_json summarize(const Simulation& simulation, const RunStatistics& stats, const SeriesTable& table,
                                 std::int64_t stepsTaken, std::int64_t updatesMade, int threads)
{
    nlohmann::ordered_json summary;
    const Settings& settings = simulation.settings();
    summary["scenario"] = settings.name;
    summary["method"] = std::string(choiceName(settings.solver.method));
    summary["seed"] = settings.seed;
    summary["threads"] = threads;
    summary["steps_on_fewer_threads"] = stats.stepsOnFewerThreads;  // the pace found fewer faster (sim/ThreadPace.h)
    nlohmann::ordered_json onThreads = nlohmann::ordered_json::object();  // threads -> steps, "2": 40
    for (const auto& [count, steps] : stats.stepsOnThreads) {
        onThreads[std::to_string(count)] = steps;
    }
    summary["steps_on_threads"] = onThreads;
    summary["particles"] = simulation.world().particles.size();
    summary["simulated_time_s"] = table.time.empty() ? 0.0 : shownTime(table.time.back());  // the series' digits
    summary["steps"] = stats.steps;
    summary["stopped"] = runEndName(stats.end);
    summary["stopped_early"] = stats.endedEarly(stepsPerRun(settings));  // the stopping rule, a blow-up, an interrupt
    if (!stats.message.empty()) {
        summary["stop_message"] = stats.message;
    }
    summary["wall_time_s"] = stats.wallSeconds;
    const double wall = stats.wallSeconds > 0.0 ? stats.wallSeconds : 1e-12;
    summary["steps_per_s"] = static_cast<double>(stepsTaken) / wall;
    summary["contact_updates"] = stats.contactUpdates;
    summary["contact_updates_per_s"] = static_cast<double>(updatesMade) / wall;
    // The last row: after a blow-up the state itself is broken, the series' last row is the last good one.
    auto& final = summary["final"];
    if (!table.rows.empty()) {
        for (std::size_t i = 0; i < table.columns.size(); ++i) {
            final[table.columns[i]] = table.rows.back()[i];
        }
    }
    auto& units = summary["units"];
    for (const auto& observable : simulation.observables()) {
        units[observable.name] = observable.unit;
    }
    return summary;
}

}  // namespace

int stopRequested()
{
    return stopSignal.load();
}

void installStopHandlers()
{
    // SIG_ERR only for an invalid signal number: SIGINT and SIGTERM are valid.
    (void)std::signal(SIGINT, askToStop);
    (void)std::signal(SIGTERM, askToStop);
}

RunSession::RunSession(std::unique_ptr<Simulation> simulation, SessionOptions options)
    : simulation_(std::move(simulation)), options_(std::move(options))
{
    for (const auto& observable : simulation_->observables()) {
        table_.columns.push_back(observable.name);
    }
    if (simulation_->settings().setup == Setup::Compression) {
        recorder_.emplace(kCompressionLevels, simulation_->settings().forceThreshold);
    }
}

namespace {

/// A resume into DIR that would end before DIR's output does, without a run.time of its own: the checkpoint's run.time
/// is that of the run that wrote it, and a later resume that wrote no checkpoint (`--set run.time=28` past the last
/// one) or was interrupted left DIR further on. Going on would replace DIR's output by less, with exit 0.
void refuseRollBack(const fs::path& directory, const std::vector<std::string>& assignments, const Settings& settings)
{
    if (assignmentOf(assignments, "run.time") != nullptr) {
        return;  // the end is the user's own
    }
    std::ifstream summaryFile(directory / "summary.json");
    const auto summary = nlohmann::json::parse(summaryFile, nullptr, false);
    if (!summary.is_object() || !summary.contains("simulated_time_s") || !summary["simulated_time_s"].is_number()) {
        return;  // no readable output to lose
    }
    const double reached = summary["simulated_time_s"].get<double>();
    if (!(reached > settings.run.time + 0.5 * settings.solver.dt)) {
        return;
    }
    std::string later;
    std::ifstream scenarioFile(directory / "scenario.json");
    const auto scenario = nlohmann::json::parse(scenarioFile, nullptr, false);
    if (scenario.is_object() && scenario.contains("run") && scenario["run"].is_object() &&
        scenario["run"].contains("time") && scenario["run"]["time"].is_number()) {
        later = ", e.g. run.time=" + formatValue(Value(scenario["run"]["time"].get<double>())) + " (" +
                (directory / "scenario.json").string() + ")";
    }
    throw ScenarioError(
        "run.time: this resume would end at the checkpoint's run.time = " + formatValue(Value(settings.run.time)) +
        " s, but " + directory.string() + "'s output already reaches t = " + formatValue(Value(reached)) +
        " s (a resume after the last checkpoint) and would be replaced by less; accepted: --set "
        "run.time=T" +
        later);
}

}  // namespace

RunSession RunSession::resume(const fs::path& directory, const std::vector<std::string>& assignments,
                              SessionOptions options)
{
    const Checkpoint checkpoint = readCheckpoint(directory / "checkpoint.bin");
    Scenario scenario = scenarioFromJson(checkpoint.scenarioJson, (directory / "checkpoint.bin").string());
    const Scenario edited = scenarioWithLiveAssignments(scenario, assignments, "a resumed run");
    // The run's step count, its end (run.time / solver.dt) and its output grid count steps of the saved solver.dt: a
    // resume at another dt ended at the wrong time, with rows off the grid.
    const double savedStep = parseSettings(scenario).solver.dt;
    if (const double step = parseSettings(edited).solver.dt; step != savedStep) {
        throw ScenarioError("solver.dt: " + formatValue(Value(step)) + " s; a resumed run goes on with its step, " +
                            formatValue(Value(savedStep)) + " s (its steps and output grid count in it); accepted: " +
                            formatValue(Value(savedStep)) + " s, or a new run for another step");
    }
    if (checkpoint.session.empty()) {
        throw CheckpointError((directory / "checkpoint.bin").string() +
                              ": holds a state without a run (saved by the studio's File > Save state); granular "
                              "resume needs the checkpoint.bin of a run with --checkpoint-every");
    }
    // The state with the settings it was saved with, then the changes as the studio makes a live edit: the method
    // takes them as it would mid-run (e.g. md remakes its contacts' laws for a new material).
    std::unique_ptr<Simulation> simulation =
        restoreSimulation(checkpoint, std::move(scenario), directory / "checkpoint.bin");
    simulation->applySettings(parseSettings(edited));
    if (stepsPerRun(simulation->settings()) < simulation->world().steps) {
        const std::string checkpointTime = formatValue(Value(simulation->world().time));
        throw ScenarioError("run.time: " + formatValue(Value(simulation->settings().run.time)) +
                            " s ends before the checkpoint, at t = " + checkpointTime +
                            " s; accepted: a run.time of at least " + checkpointTime + " s");
    }
    checkRunCoversAStep(simulation->settings());
    if (!options.outDirectory || *options.outDirectory == directory) {
        refuseRollBack(directory, assignments, simulation->settings());
    }
    if (!options.outDirectory) {
        options.outDirectory = directory;
    }
    RunSession session(std::move(simulation), std::move(options));
    StateReader state(checkpoint.session);
    try {
        session.table_.columns.clear();
        const auto columns = state.get<std::uint64_t>();
        for (std::uint64_t c = 0; c < columns && c < 100000; ++c) {
            session.table_.columns.push_back(state.getString());
        }
        session.table_.time = state.getVector<double>();
        for (std::size_t i = 0; i < session.table_.time.size(); ++i) {
            session.table_.rows.push_back(state.getVector<double>());
            if (session.table_.rows.back().size() != session.table_.columns.size()) {
                throw StateError("a saved row has " + std::to_string(session.table_.rows.back().size()) + " values");
            }
        }
        const auto frames = state.get<std::int64_t>();
        if (frames < 0 || static_cast<std::uint64_t>(frames) > session.table_.time.size()) {
            throw StateError("a frame count of " + std::to_string(frames) + " for " +
                             std::to_string(session.table_.time.size()) + " rows");
        }
        if (state.get<bool>()) {
            if (!session.recorder_) {
                throw StateError("compression levels saved for a run without a driven plate");
            }
            session.recorder_->loadState(state);
        }
        // The checkpoint interval (absent from checkpoints written before it was saved): kept unless
        // --checkpoint-every says otherwise.
        if (!state.atEnd() && state.get<bool>()) {
            const auto every = state.get<double>();
            if (!session.options_.checkpointEvery) {
                session.options_.checkpointEvery = every;
            }
        }
        // Each frame's time and the folder of the frames kept beside the checkpoint (CheckpointFrames); checkpoints
        // written before had neither: a frame per row from the first, kept with the output.
        if (!state.atEnd()) {
            session.frameTimes_ = state.getVector<double>();
            session.checkpointFramesFolder_ = state.getString();
        } else {
            session.frameTimes_.assign(session.table_.time.begin(), session.table_.time.begin() + frames);
        }
        if (session.frameTimes_.size() != static_cast<std::uint64_t>(frames)) {
            throw StateError("the times of " + std::to_string(session.frameTimes_.size()) + " frames for " +
                             std::to_string(frames) + " frames");
        }
        if (!state.atEnd()) {
            throw StateError("bytes left after the run's state");
        }
    } catch (const StateError& error) {
        throw CheckpointError((directory / "checkpoint.bin").string() + ": " + error.what());
    }
    session.resumedFrom_ = directory;
    return session;
}

std::string RunSession::sessionState() const
{
    StateWriter out;
    out.put(static_cast<std::uint64_t>(table_.columns.size()));
    for (const auto& column : table_.columns) {
        out.put(column);
    }
    out.putVector(table_.time);
    for (const auto& row : table_.rows) {
        out.putVector(row);
    }
    out.put(static_cast<std::int64_t>(frameTimes_.size()));
    out.put(recorder_.has_value());
    if (recorder_) {
        recorder_->saveState(out);
    }
    out.put(options_.checkpointEvery.has_value());
    if (options_.checkpointEvery) {
        out.put(*options_.checkpointEvery);
    }
    out.putVector(frameTimes_);
    out.put(checkpointFrames_ ? checkpointFrames_->folder() : std::string());
    return out.bytes();
}

void RunSession::saveCheckpoint(const RunOutput& output)
{
    const fs::path& directory = *options_.outDirectory;
    std::error_code error;
    fs::create_directories(directory, error);
#ifdef GRANULAR_WITH_VTK
    if (!frameTimes_.empty()) {
        // The frames so far beside the checkpoint before it names them; those of the checkpoints before go after it.
        if (!checkpointFrames_) {
            checkpointFrames_.emplace(directory);
        }
        std::vector<std::string> files;
        for (std::size_t k = 0; k < frameTimes_.size(); ++k) {
            const vtkio::FrameFiles names = vtkio::runFrameFiles(static_cast<std::int64_t>(k));
            files.insert(files.end(), {names.particles, names.contacts, names.boundaries});
        }
        checkpointFrames_->keep(output.staging(), files);
    }
#else
    static_cast<void>(output);
#endif
    Checkpoint checkpoint;
    checkpoint.scenarioJson = scenarioToJson(simulation_->scenario());
    StateWriter state;
    simulation_->saveState(state);
    checkpoint.simulation = state.bytes();
    checkpoint.session = sessionState();
    writeCheckpoint(directory / "checkpoint.bin", checkpoint);
    CheckpointFrames::dropAllBut(directory, checkpointFrames_ ? checkpointFrames_->folder() : std::string());
}

#ifdef GRANULAR_WITH_VTK
void RunSession::writeFrameFiles(RunOutput& output, std::int64_t index) const
{
    vtkio::writeFrame(*simulation_->frame(), vtkio::runFrameFiles(index),
                      [&output](const std::string& name, const std::string& content) {
                          output.write(name, [&content](std::ostream& file) { file << content; });
                      });
}

void RunSession::writeFrameCollection(RunOutput& output) const
{
    std::vector<vtkio::CollectionStep> steps;
    for (std::size_t k = 0; k < frameTimes_.size(); ++k) {
        steps.push_back({frameTimes_[k], vtkio::runFrameFiles(static_cast<std::int64_t>(k))});
    }
    output.write("run.pvd", [&steps](std::ostream& file) { vtkio::writeCollection(file, steps); });
}

void RunSession::copyEarlierFrames(const fs::path& from, RunOutput& output) const
{
    for (std::size_t k = 0; k < frameTimes_.size(); ++k) {
        const vtkio::FrameFiles files = vtkio::runFrameFiles(static_cast<std::int64_t>(k));
        for (const std::string* name : {&files.particles, &files.contacts, &files.boundaries}) {
            std::ifstream in(from / *name, std::ios::binary);
            if (!in) {
                throw std::runtime_error((from / *name).string() +
                                         ": a frame written before the checkpoint is missing");
            }
            if (in.peek() == std::ifstream::traits_type::eof()) {
                // Copying nothing would fail as a write of DIR: say which file is at fault.
                throw std::runtime_error((from / *name).string() + ": a frame written before the checkpoint is empty");
            }
            output.write(*name, [&in](std::ostream& file) { file << in.rdbuf(); });
        }
    }
}
#endif

int RunSession::run(std::ostream& out, std::ostream& err)
{
    std::unique_ptr<RunOutput> output;
    if (options_.outDirectory) {
        try {
            output = std::make_unique<RunOutput>(*options_.outDirectory);
        } catch (const OutputError& error) {
            // resume has no --out: its DIR is the output.
            const std::string message = error.what();
            const std::string flag = "--out: ";
            err << "granular: "
                << (resumedFrom_ && message.rfind(flag, 0) == 0 ? "resume: DIR: " + message.substr(flag.size())
                                                                : message)
                << '\n';
            return BadInput;
        }
    }
    const Settings& settings = simulation_->settings();
    if (settings.run.writeVtk && !kWritesParaviewFiles) {
        err << "granular: output.vtk: this granular was built without VTK (a core-only build); accepted: false\n";
        return BadInput;
    }
#ifdef GRANULAR_WITH_VTK
    // The frames of the run resumed go on with it whether or not it writes more: its output holds the run so far, and
    // the checkpoint it carries over names them.
    if (output && resumedFrom_ && !frameTimes_.empty()) {
        try {
            copyEarlierFrames(CheckpointFrames::source(*resumedFrom_, checkpointFramesFolder_), *output);
        } catch (const std::exception& error) {
            // A frame the checkpoint names is missing or unreadable: the checkpoint's folder cannot be resumed (exit 2,
            // as for any unusable checkpoint), DIR as it was.
            err << "granular: resume: " << error.what() << '\n';
            return BadInput;
        }
    }
#else
    frameTimes_.clear();  // a core-only build has no frame files to carry
#endif
    for (const auto& advice : simulation_->advisories()) {
        err << "granular: warning: " << advice << '\n';
    }
    [[maybe_unused]] const bool writeFrames = output && settings.run.writeVtk;
    std::int64_t checkpointSteps = 0;
    if (output && resumedFrom_ && *resumedFrom_ == *options_.outDirectory) {
        output->carryOver("checkpoint.bin");  // the state this run went on from
    }
    if (options_.checkpointEvery && output) {
        // A huge interval is never reached: no checkpoint, as for one longer than the run.
        checkpointSteps = stepsEvery(*options_.checkpointEvery, settings.solver.dt);
    }
    const std::int64_t stepsBefore = simulation_->world().steps;
    const std::int64_t updatesBefore = simulation_->contactUpdates();
    Progress progress("running " + settings.name, !options_.quiet);
    // (stopSignal is not cleared here: a SIGINT while the scenario was built stops the run at its start.)
    RunStatistics stats;
    try {
        stats = runToEnd(
            *simulation_,
            [&](double time, const std::vector<double>& values) {
                if (!table_.time.empty() && table_.time.back() == time) {
                    return;  // a resumed run's last row, saved on the output grid it had then
                }
                table_.append(time, values);
#ifdef GRANULAR_WITH_VTK
                if (writeFrames) {
                    writeFrameFiles(*output, static_cast<std::int64_t>(frameTimes_.size()));
                    frameTimes_.push_back(time);
                }
#endif
            },
            [&](double fraction) { progress.update(fraction); },
            [&](const Simulation& s) {
                if (recorder_) {
                    recorder_->observe(s.world());
                }
                if (checkpointSteps > 0 && s.world().steps % checkpointSteps == 0) {
                    saveCheckpoint(*output);
                    // Kept in the new content of DIR: this run's own checkpoint (one that DIR held from another run
                    // is not, unless this run went on from it, above).
                    output->carryOver("checkpoint.bin");
                }
            },
            [] { return stopSignal != 0; });
    } catch (const std::bad_alloc&) {
        // The series so far is what filled the memory: let it go first, so that the staging folder can be removed.
        table_ = SeriesTable{};
        output.reset();
        throw;
    }
    const int signal = stats.end == RunEnd::Interrupted ? stopSignal.load() : 0;

    auto summary = summarize(*simulation_, stats, table_, stats.steps - stepsBefore,
                             stats.contactUpdates - updatesBefore, options_.threads);
    if (stats.end != RunEnd::BlowUp) {
        addScenarioResults(summary, *simulation_, table_);
    }
    if (recorder_) {
        if (stats.end == RunEnd::StoppingRule) {
            recorder_->finish(simulation_->world());
        }
        addCompressionResults(summary, recorder_->snapshots(), kCompressionLevels);
    }
    if (output) {
        output->write("series.csv", [&](std::ostream& file) {
            CsvSeries series(file, table_.columns);
            for (std::size_t i = 0; i < table_.rows.size(); ++i) {
                series.row(table_.time[i], table_.rows[i]);
            }
        });
        if (recorder_) {
            output->write("levels.csv",
                          [&](std::ostream& file) { writeCompressionLevels(file, recorder_->snapshots()); });
            output->write("contact_forces.csv",
                          [&](std::ostream& file) { writeContactForces(file, recorder_->snapshots()); });
        }
#ifdef GRANULAR_WITH_VTK
        if (!frameTimes_.empty()) {
            writeFrameCollection(*output);
        }
#endif
        output->write("summary.json", [&](std::ostream& file) { file << jsonText(summary) << '\n'; });
        output->write("scenario.json", [&](std::ostream& file) { file << scenarioToJson(simulation_->scenario()); });
        output->commit();
    }
    if (stats.end == RunEnd::BlowUp) {
        err << "granular: " << stats.message << '\n';
        return RuntimeFailure;
    }
    if (signal != 0) {
        err << "granular: interrupted at t = " << simulation_->world().time << " s; "
            << (output ? R"(the output holds the run so far (summary.json: "stopped": "interrupted"))"
                       : "nothing written (no --out)")
            << '\n';
        return 128 + signal;
    }
    if (!options_.quiet) {
        out << "ran " << settings.name << ": " << stats.steps << " steps, " << simulation_->world().time
            << " s simulated in " << stats.wallSeconds << " s"
            << (output ? ", output in " + output->directory().string() : std::string()) << '\n';
    }
    return Success;
}

}  // namespace granular::cli
