#include "cli/EnsembleCommand.h"

#include "JsonText.h"
#include "RunOutput.h"
#include "ScenarioArguments.h"
#include "cli/Commands.h"
#include "cli/EnsembleTables.h"
#include "cli/JobPool.h"
#include "cli/PoolCommand.h"
#include "cli/RunRecord.h"
#include "cli/RunSession.h"
#include "scenario/ScenarioError.h"
#include "settings/SettingsBinding.h"
#include "settings/SettingsChecks.h"
#include "sim/Simulation.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <new>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace granular::cli {

namespace fs = std::filesystem;

namespace {

/// The largest seed a scenario accepts (2^53 - 1, exact in a double).
constexpr std::int64_t kLargestSeed = 9007199254740991;
/// The most runs one ensemble makes.
constexpr std::int64_t kMostRuns = 100000;

std::int64_t parseSeed(std::string_view text, const std::string& whole)
{
    std::int64_t seed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (error != std::errc() || end != text.data() + text.size() || seed < 0 || seed > kLargestSeed) {
        throw std::invalid_argument("--seeds: '" + whole + "'; accepted: A..B with whole numbers 0 <= A <= B <= " +
                                    std::to_string(kLargestSeed) + ", e.g. 1..8");
    }
    return seed;
}

/// The last non-empty line of `text`, without the program's "granular: " prefix.
std::string lastLine(const std::string& text)
{
    std::string line;
    std::istringstream lines(text);
    for (std::string next; std::getline(lines, next);) {
        if (!next.empty()) {
            line = next;
        }
    }
    const std::string prefix = "granular: ";
    return line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line;
}

/// One run of the ensemble, as `granular run SCENARIO --seed S --out DIR --quiet` makes it, into a scratch
/// directory of this machine, read back into a record and removed.
RunRecord runSeed(const Scenario& base, std::int64_t seed, const fs::path& scratchRoot)
{
    RunRecord record;
    record.seed = seed;
    if (const int signal = stopRequested(); signal != 0) {
        // Interrupted before its turn: not started (the runs under way stop after their step, as granular run does).
        record.exitCode = 128 + signal;
        record.message = "not run: the ensemble was interrupted";
        return record;
    }
    const fs::path scratch =
        scratchRoot / ("granular-ensemble-" + std::to_string(::getpid()) + "-" + std::to_string(seed));
    std::ostringstream out;
    std::ostringstream err;
    try {
        Scenario scenario = base;
        scenario.set("seed", seed);
        RunSession session(std::make_unique<Simulation>(std::move(scenario)),
                           SessionOptions{scratch, std::nullopt, 1, true});
        record.exitCode = session.run(out, err);
        if (fs::exists(scratch)) {
            record.files = readFiles(scratch);
        }
        if (record.failed()) {
            record.message = lastLine(err.str());
        }
    } catch (const std::bad_alloc&) {
        record.exitCode = RuntimeFailure;
        record.message = "out of memory while building or running the world";
    } catch (const std::exception& error) {
        record.exitCode = RuntimeFailure;
        record.message = error.what();
    }
    std::error_code ignored;
    fs::remove_all(scratch, ignored);
    return record;
}

/// Writes a finished run's files into the output's runs/SEED/ as the run arrives, and keeps of them only its summary,
/// what the ensemble's tables read: the runs' series and frames do not pile up in memory until the last run is
/// through (the output stays all-or-nothing: it is staged until commit()).
void storeRun(RunRecord& record, RunOutput& output)
{
    const std::string folder = "runs/" + std::to_string(record.seed) + "/";
    for (const auto& entry : record.files) {  // not bound: clang before 16 does not let a lambda capture a binding
        output.write(folder + entry.first, [&entry](std::ostream& file) { file << entry.second; });
    }
    std::erase_if(record.files, [](const auto& entry) { return entry.first != "summary.json"; });
    record.files.shrink_to_fit();
}

}  // namespace

std::vector<std::int64_t> parseSeeds(const std::string& text)
{
    const auto dots = text.find("..");
    const std::int64_t first = parseSeed(std::string_view(text).substr(0, dots), text);
    const std::int64_t last =
        dots == std::string::npos ? first : parseSeed(std::string_view(text).substr(dots + 2), text);
    if (last < first) {
        throw std::invalid_argument("--seeds: '" + text + "' counts down; accepted: A..B with A <= B, e.g. 1..8");
    }
    if (last - first >= kMostRuns) {
        throw std::invalid_argument("--seeds: '" + text + "' is " + std::to_string(last - first + 1) +
                                    " runs; accepted: at most " + std::to_string(kMostRuns));
    }
    std::vector<std::int64_t> seeds;
    for (std::int64_t s = first; s <= last; ++s) {
        seeds.push_back(s);
    }
    return seeds;
}

int ensembleScenario(const EnsembleOptions& options, std::ostream& userOut, std::ostream& userErr)
{
    PoolCommand command("ensemble", options.jobs, userOut, userErr);
    if (!command.started()) {
        return BadInput;
    }
    JobPool& pool = command.pool();
    std::ostream& out = command.out();
    std::ostream& err = command.err();

    std::vector<std::int64_t> seeds;
    Scenario scenario;
    std::unique_ptr<RunOutput> output;
    fs::path scratchRoot;
    std::vector<std::string> advisories;
    const bool ready = command.checkInput([&] {
        seeds = parseSeeds(options.seeds);
        for (const std::string& assignment : options.assignments) {
            // Every run's seed is one of --seeds: a --set seed=S would have been dropped without a word (and kept in
            // ensemble.json's record of the command's settings).
            if (assignment.starts_with("seed=")) {
                const std::string value = assignment.substr(5);
                const bool whole = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
                    return std::isdigit(static_cast<unsigned char>(c)) != 0;
                });
                std::string message = "--set " + assignment;
                message += ": an ensemble runs one seed after another; accepted: the seeds as --seeds A..B";
                if (whole) {
                    message += " (e.g. --seeds ";
                    message += value;
                    message += "..";
                    message += value;
                    message += " for that one alone)";
                }
                throw std::invalid_argument(message);
            }
        }
        scenario = scenarioFromArguments(options.scenario, options.assignments);
        scenario.set("seed", seeds.front());
        checkRunCoversAStep(parseSettings(scenario));
        {
            const Simulation trial(scenario);
            advisories = trial.advisories();
        }  // the first seed's world builds (e.g. the grains fit); freed at once
        // Each seed runs into a scratch folder of this machine first (TMPDIR, else /tmp): one that is missing stops
        // the ensemble here, not every seed's run.
        std::error_code error;
        scratchRoot = fs::temp_directory_path(error);
        const bool directory = !error && fs::is_directory(scratchRoot, error);
        // Writable: a folder made there and removed (permissions alone say nothing of /proc or a read-only mount).
        const fs::path probe = scratchRoot / ("granular-probe-" + std::to_string(::getpid()));
        const bool writable = directory && fs::create_directory(probe, error) && !error;
        if (writable) {
            fs::remove(probe, error);
        }
        if (!writable) {
            const char* named = std::getenv("TMPDIR");  // NOLINT(concurrency-mt-unsafe): read before any thread
            throw std::invalid_argument("TMPDIR: '" + std::string(named != nullptr ? named : "/tmp") + "' is " +
                                        (directory ? "a directory that cannot be written" : "not a directory") +
                                        " (each seed's run is written there first); accepted: an existing, writable "
                                        "directory, or TMPDIR unset (/tmp)");
        }
        if (pool.isRoot()) {
            output = std::make_unique<RunOutput>(options.outDirectory);
        }
    });
    if (!ready) {
        return BadInput;
    }

    if (pool.isRoot()) {
        for (const auto& advice : advisories) {
            err << "granular: warning: " << advice << " (seed " << seeds.front() << ")\n";
        }
    }
    if (!options.quiet) {
        out << "ensemble of " << seeds.size() << " runs of " << scenario.text("name") << " on " << pool.description()
            << '\n';
    }
    const auto start = std::chrono::steady_clock::now();
    std::size_t finishedCount = 0;
    std::vector<RunRecord> records(seeds.size());
    // The first run whose files could not be written: told once every run is through (the ranks of an MPI job wait
    // for the root to take their results, so the root goes on taking them).
    bool writeFailed = false;
    std::string writeFailure;  // its message; empty for a lack of memory (named without allocating in the callback)
    try {
        pool.run(
            seeds.size(), [&](std::size_t index) { return runSeed(scenario, seeds[index], scratchRoot).toBytes(); },
            [&](std::size_t index, std::string&& result, const std::string& worker) {
                ++finishedCount;
                records[index] = RunRecord::fromBytes(result);
                std::string().swap(result);
                try {
                    if (!writeFailed) {
                        storeRun(records[index], *output);
                    }
                } catch (const std::bad_alloc&) {
                    writeFailed = true;
                } catch (const std::exception& error) {
                    writeFailed = true;
                    try {
                        writeFailure = error.what();
                    } catch (const std::bad_alloc&) {  // NOLINT(bugprone-empty-catch): told as a lack of memory
                    }
                }
                if (writeFailed) {
                    records[index].files.clear();  // after a failure nothing is written: nothing to keep either
                }
                if (options.quiet) {
                    return;
                }
                const RunRecord& record = records[index];
                out << "[" << finishedCount << "/" << seeds.size() << "] seed " << seeds[index] << " on " << worker
                    << (record.failed() ? ": failed: " + record.message : std::string(": finished")) << '\n'
                    << std::flush;
            });
    } catch (const std::exception& error) {
        err << "granular: ensemble: " << error.what() << '\n';
        return RuntimeFailure;
    }
    if (!pool.isRoot()) {
        return Success;  // rank 0 writes and reports
    }
    if (writeFailed) {
        err << "granular: ensemble: "
            << (writeFailure.empty() ? "out of memory while writing the output" : writeFailure) << '\n';
        return RuntimeFailure;  // the output is not committed: DIR stays as it was
    }

    try {
        const EnsembleRequest request{scenario.text("name"), options.assignments};
        const int signal = stopRequested();
        output->write("ensemble.json", [&](std::ostream& file) {
            auto json = ensembleJson(request, records);
            if (signal != 0) {
                json["stopped"] = "interrupted";  // the runs that finished before, the others listed as failed
            }
            file << jsonText(json) << '\n';
        });
        output->write("ensemble.csv", [&](std::ostream& file) { writeEnsembleCsv(file, records); });
        output->commit();
        if (signal != 0) {
            const auto finished =
                std::count_if(records.begin(), records.end(), [](const RunRecord& record) { return !record.failed(); });
            err << "granular: ensemble: interrupted: " << finished << " of " << records.size()
                << R"( runs finished; the output holds them (ensemble.json: "stopped": "interrupted"))" << '\n';
            return 128 + signal;
        }

        std::string failed;
        for (const RunRecord& record : records) {
            if (record.failed()) {
                failed += (failed.empty() ? "" : ", ") + std::to_string(record.seed);
            }
        }
        const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
        if (!options.quiet) {
            out << "ensemble of " << records.size() << " runs in " << wall.count() << " s, output in "
                << output->directory().string() << '\n';
        }
        if (!failed.empty()) {
            err << "granular: ensemble: failed runs: seeds " << failed
                << " (their messages are in ensemble.json and ensemble.csv, their output in runs/SEED/)\n";
            return RuntimeFailure;
        }
        return Success;
    } catch (const std::bad_alloc&) {
        err << "granular: ensemble: out of memory while writing the output\n";
        return RuntimeFailure;
    } catch (const std::exception& error) {
        err << "granular: ensemble: " << error.what() << '\n';
        return RuntimeFailure;
    }
}

}  // namespace granular::cli
