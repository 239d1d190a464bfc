#include "cli/SweepCommand.h"

#include "RunOutput.h"
#include "ScenarioArguments.h"
#include "analysis/PackingStatistics.h"
#include "cli/Commands.h"
#include "scenario/ScenarioError.h"
#include "scenario/Value.h"
#include "settings/SettingsBinding.h"
#include "settings/SettingsChecks.h"
#include "sim/Run.h"
#include "sim/Simulation.h"

#include <ctime>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace granular::cli {

namespace {

struct SweepRow {
    std::string value;
    double cpuSeconds = 0.0;
    double wallSeconds = 0.0;
    double meanOverlap = 0.0;
    double volumeFraction = 0.0;
    std::int64_t steps = 0;
    bool relaxed = false;
};

/// Processor time of this process, s (the paper's "CPU time").
double cpuSeconds()
{
    return static_cast<double>(std::clock()) / static_cast<double>(CLOCKS_PER_SEC);
}

SweepRow runOne(Simulation& simulation, std::string value)
{
    SweepRow row;
    row.value = std::move(value);
    const double start = cpuSeconds();
    const RunStatistics stats = runToEnd(simulation, [](double, const std::vector<double>&) {});
    row.cpuSeconds = cpuSeconds() - start;
    row.wallSeconds = stats.wallSeconds;
    const auto packing = analysis::packingStatistics(simulation.world());
    row.meanOverlap = packing.meanOverlap;
    row.volumeFraction = packing.volumeFraction;
    row.steps = stats.steps;
    row.relaxed = stats.finished();
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

int sweepScenario(const SweepOptions& options, std::ostream& out, std::ostream& err)
{
    // Check every value and the output directory first: a bad value or --out stops the sweep before any run.
    // Only the scenarios are kept; each run's world is built when its turn comes and freed after it.
    std::vector<std::string> values;
    std::vector<Scenario> scenarios;
    std::unique_ptr<RunOutput> output;
    try {
        if (options.key.empty()) {
            throw std::invalid_argument("--key: empty; accepted: a parameter key such as solver.iterations");
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
            checkSettings(parseSettings(scenario));
            {
                const Simulation trial(scenario);
            }  // the world builds (e.g. the grains fit); freed at once
            scenarios.push_back(std::move(scenario));
        }
        output = std::make_unique<RunOutput>(options.outDirectory);
    } catch (const ScenarioError& error) {
        err << "granular: sweep: " << error.what() << '\n';
        return BadInput;
    } catch (const std::invalid_argument& error) {
        err << "granular: sweep: " << error.what() << '\n';
        return BadInput;
    } catch (const OutputError& error) {
        err << "granular: sweep: " << error.what() << '\n';
        return BadInput;
    }
    try {
        std::vector<SweepRow> rows;
        for (std::size_t k = 0; k < scenarios.size(); ++k) {
            {
                Simulation simulation(scenarios[k]);
                rows.push_back(runOne(simulation, values[k]));
            }
            if (!options.quiet) {
                const SweepRow& row = rows.back();
                out << options.key << " = " << row.value << ": " << row.steps << " steps, " << row.cpuSeconds
                    << " s CPU, mean overlap " << row.meanOverlap << " m, volume fraction " << row.volumeFraction
                    << (row.relaxed ? ", relaxed" : ", not relaxed") << '\n';
            }
        }
        output->write("sweep.csv", [&rows](std::ostream& csv) {
            csv << "value,cpu_time_s,wall_time_s,mean_overlap,volume_fraction,steps,relaxed\n";
            for (const SweepRow& row : rows) {
                csv << row.value << ',' << formatValue(row.cpuSeconds) << ',' << formatValue(row.wallSeconds) << ','
                    << formatValue(row.meanOverlap) << ',' << formatValue(row.volumeFraction) << ',' << row.steps << ','
                    << (row.relaxed ? 1 : 0) << '\n';
            }
        });
        output->commit();
        if (!options.quiet) {
            out << "swept " << options.key << " over " << rows.size() << " values, output in "
                << output->directory().string() << '\n';
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
