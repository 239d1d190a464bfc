#include "cli/SweepCommand.h"

#include "CsvSeries.h"
#include "RunOutput.h"
#include "ScenarioArguments.h"
#include "analysis/PackingStatistics.h"
#include "cli/Commands.h"
#include "cli/JobPool.h"
#include "cli/PoolCommand.h"
#include "cli/RunSession.h"
#include "scenario/ScenarioError.h"
#include "scenario/Value.h"
#include "settings/SettingsBinding.h"
#include "settings/SettingsChecks.h"
#include "sim/Run.h"
#include "sim/Simulation.h"
#include "util/StateArchive.h"

#include <ctime>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace granular::cli {

namespace {

/// One value's run, as it travels from the worker that ran it (a thread or an MPI rank) to the writing process.
struct SweepRow {
    double cpuSeconds = 0.0;  ///< processor time of the thread that ran it
    double wallSeconds = 0.0;
    double meanOverlap = 0.0;
    double volumeFraction = 0.0;
    std::int64_t steps = 0;
    bool relaxed = false;
    std::string failure;  ///< the failure's one line (empty when it finished)

    [[nodiscard]] std::string toBytes() const
    {
        StateWriter out;
        out.put(cpuSeconds);
        out.put(wallSeconds);
        out.put(meanOverlap);
        out.put(volumeFraction);
        out.put(steps);
        out.put(relaxed);
        out.put(failure);
        return out.bytes();
    }
    static SweepRow fromBytes(const std::string& bytes)
    {
        StateReader in(bytes);
        SweepRow row;
        row.cpuSeconds = in.get<double>();
        row.wallSeconds = in.get<double>();
        row.meanOverlap = in.get<double>();
        row.volumeFraction = in.get<double>();
        row.steps = in.get<std::int64_t>();
        row.relaxed = in.get<bool>();
        row.failure = in.getString();
        return row;
    }
};

/// Processor time of the calling thread, s (the paper's "CPU time" of one run, whatever runs beside it).
double threadCpuSeconds()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

SweepRow runOne(const Scenario& scenario)
{
    SweepRow row;
    if (stopRequested() != 0) {
        row.failure = "not run: the sweep was interrupted";
        return row;
    }
    try {
        Simulation simulation(scenario);
        const double start = threadCpuSeconds();
        const RunStatistics stats = runToEnd(
            simulation, [](double, const std::vector<double>&) {}, {}, {}, [] { return stopRequested() != 0; });
        row.cpuSeconds = threadCpuSeconds() - start;
        row.wallSeconds = stats.wallSeconds;
        row.steps = stats.steps;
        if (stats.end == RunEnd::BlowUp) {
            row.failure = stats.message;
            return row;
        }
        if (stats.end == RunEnd::Interrupted) {
            row.failure = "interrupted at t = " + formatValue(simulation.world().time) + " s";
            return row;
        }
        const auto packing = analysis::packingStatistics(simulation.world());
        row.meanOverlap = packing.meanOverlap;
        row.volumeFraction = packing.volumeFraction;
        row.relaxed = stats.finished();
    } catch (const std::bad_alloc&) {
        row.failure = "out of memory while building or running the world";
    } catch (const std::exception& error) {
        row.failure = error.what();
    }
    return row;
}

}  // namespace

std::vector<std::string> splitValues(const std::string& list)
{
    std::vector<std::string> items;
    std::size_t begin = 0;
    while (true) {
        const std::size_t end = list.find(',', begin);
        std::string item = list.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
        const auto first = item.find_first_not_of(" \t");
        const auto last = item.find_last_not_of(" \t");
        if (first == std::string::npos) {
            throw std::invalid_argument("--values: empty item in '" + list +
                                        "'; accepted: a comma-separated list such as 25,50,100");
        }
        items.push_back(item.substr(first, last - first + 1));
        if (end == std::string::npos) {
            break;
        }
        begin = end + 1;
    }
    return items;
}

int sweepScenario(const SweepOptions& options, std::ostream& userOut, std::ostream& userErr)
{
    PoolCommand command("sweep", options.jobs, userOut, userErr);
    if (!command.started()) {
        return BadInput;
    }
    JobPool& pool = command.pool();
    std::ostream& out = command.out();
    std::ostream& err = command.err();

    // Check every value and the output directory first: a bad value or --out stops the sweep before any run.
    // Only the scenarios are kept; each run's world is built when its turn comes and freed after it.
    std::vector<std::string> values;
    std::vector<Scenario> scenarios;
    std::vector<std::string> advisories;  ///< "KEY = VALUE: advice"
    std::unique_ptr<RunOutput> output;
    const bool ready = command.checkInput([&] {
        if (options.key.empty()) {
            throw std::invalid_argument("--key: empty; accepted: a parameter key such as solver.iterations");
        }
        if (const std::string* swept = assignmentOf(options.assignments, options.key)) {
            // The swept values would replace it without a word.
            throw std::invalid_argument(
                "--set " + *swept + " sets the key that --key sweeps; accepted: " + options.key + " in --key alone");
        }
        values = splitValues(options.values);
        for (const auto& value : values) {
            std::vector<std::string> assignments = options.assignments;
            Scenario scenario = scenarioFromArguments(options.scenario, assignments);
            try {
                scenario.setFromText(options.key, value);
            } catch (const ScenarioError& error) {
                throw ScenarioError(std::string("--key ") + options.key + ": " + error.what());
            }
            checkRunCoversAStep(parseSettings(scenario));
            {
                const Simulation trial(scenario);
                for (const auto& advice : trial.advisories()) {
                    std::string line = options.key;
                    line.append(" = ").append(value).append(": ").append(advice);
                    advisories.push_back(std::move(line));
                }
            }  // the world builds (e.g. the grains fit); freed at once
            scenarios.push_back(std::move(scenario));
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
            err << "granular: warning: " << advice << '\n';
        }
    }
    try {
        std::vector<SweepRow> rows(scenarios.size());
        pool.run(
            scenarios.size(), [&](std::size_t k) { return runOne(scenarios[k]).toBytes(); },
            [&](std::size_t k, std::string&& result, const std::string& worker) {
                rows[k] = SweepRow::fromBytes(result);
                if (options.quiet) {
                    return;
                }
                const SweepRow& row = rows[k];
                out << options.key << " = " << values[k] << " on " << worker << ": ";
                if (!row.failure.empty()) {
                    out << "failed: " << row.failure << '\n';
                    return;
                }
                out << row.steps << " steps, " << row.cpuSeconds << " s CPU, mean overlap " << row.meanOverlap
                    << " m, volume fraction " << row.volumeFraction << (row.relaxed ? ", relaxed" : ", not relaxed")
                    << '\n'
                    << std::flush;
            });
        if (!pool.isRoot()) {
            return Success;  // rank 0 writes and reports
        }
        output->write("sweep.csv", [&](std::ostream& csv) {
            csv << "value,mean_overlap,volume_fraction,steps,relaxed,failure\n";
            for (std::size_t k = 0; k < rows.size(); ++k) {
                const SweepRow& row = rows[k];
                csv << csvField(values[k]) << ',';
                if (row.failure.empty()) {
                    csv << formatValue(row.meanOverlap) << ',' << formatValue(row.volumeFraction);
                } else {
                    csv << ',';
                }
                csv << ',' << row.steps << ',' << (row.relaxed ? 1 : 0) << ',' << csvField(row.failure) << '\n';
            }
        });
        // The timings differ from machine to machine and run to run: apart, so that sweep.csv does not.
        output->write("sweep_timing.csv", [&](std::ostream& csv) {
            csv << "value,cpu_time_s,wall_time_s\n";
            for (std::size_t k = 0; k < rows.size(); ++k) {
                csv << csvField(values[k]) << ',' << formatValue(rows[k].cpuSeconds) << ','
                    << formatValue(rows[k].wallSeconds) << '\n';
            }
        });
        output->commit();
        if (const int signal = stopRequested(); signal != 0) {
            err << "granular: sweep: interrupted; sweep.csv holds the runs that finished, the others with their "
                   "failure (interrupted, or not run)\n";
            return 128 + signal;
        }
        std::string failed;
        for (std::size_t k = 0; k < rows.size(); ++k) {
            if (!rows[k].failure.empty()) {
                failed += (failed.empty() ? "" : ", ") + values[k];
            }
        }
        if (!options.quiet) {
            out << "swept " << options.key << " over " << rows.size() << " values on " << pool.description()
                << ", output in " << output->directory().string() << '\n';
        }
        if (!failed.empty()) {
            err << "granular: sweep: failed runs: " << options.key << " = " << failed
                << " (their messages are in sweep.csv)\n";
            return RuntimeFailure;
        }
        return Success;
    } catch (const std::bad_alloc&) {
        err << "granular: sweep: out of memory while building or running a world\n";
        return RuntimeFailure;
    } catch (const std::exception& error) {
        err << "granular: sweep: " << error.what() << '\n';
        return RuntimeFailure;
    }
}

}  // namespace granular::cli
