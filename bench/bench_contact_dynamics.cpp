// Throughput of the contact dynamics solver: contact updates (one-contact shock-law solves) per
// second for piston2d and for a 3D packing of ~20,000 spheres. Not a test: prints and saves figures.
// Usage: bench_contact_dynamics [OUTPUT.json] [THREADS] [SWEEP] [CASE] [PACE]
//   THREADS: solver threads (default 1); SWEEP: solver.sweep, random (default, the paper's), coloured or strips;
//   CASE: piston2d or packing3d_20000 alone (default all: both; one alone e.g. under a profiler);
//   PACE: fixed (default: every step on THREADS threads) or adaptive (as the CLI and the studio run: a step may run
//   on fewer threads where that is faster, sim/ThreadPace.h).
#include "BenchUsage.h"
#include "BuiltinScenarios.h"
#include "CdPacking3d.h"
#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

using namespace granular;

namespace {

struct Figure {
    std::string name;
    std::size_t particles = 0;
    std::int64_t steps = 0;
    double seconds = 0.0;
    std::int64_t contactUpdates = 0;
    std::int64_t knownUpdates =
        0;  ///< of these, known without computing them (open contacts whose grains had not moved)
    double meanCandidates = 0.0;
    std::array<double, static_cast<int>(StepStage::Count)> stageSeconds{};  ///< s per stage, summed
    int stepsOnFewer = 0;  ///< timed steps that the pace ran on fewer threads than set
};

/// Runs `warmup` steps untimed, then times `steps` steps.
Figure measure(const std::string& name, Scenario scenario, int warmup, int steps)
{
    Simulation simulation(std::move(scenario));
    for (int n = 0; n < warmup; ++n) {
        simulation.step();
    }
    Figure figure{name, simulation.world().particles.size(), steps, 0.0, 0, 0, 0.0};
    const auto start = std::chrono::steady_clock::now();
    for (int n = 0; n < steps; ++n) {
        simulation.step();
        figure.contactUpdates += simulation.lastStep().contactUpdates;
        figure.knownUpdates += simulation.lastStep().knownUpdates;
        figure.stepsOnFewer += simulation.lastStepThreads() < solverThreads() ? 1 : 0;
        figure.meanCandidates += static_cast<double>(simulation.lastStep().candidates);
        for (std::size_t stage = 0; stage < figure.stageSeconds.size(); ++stage) {
            figure.stageSeconds[stage] += simulation.lastStep().stageSeconds[stage];
        }
    }
    figure.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    figure.meanCandidates /= steps;
    return figure;
}

Scenario withSweep(Scenario scenario, const std::string& sweep)
{
    scenario.setFromText("solver.sweep", sweep);
    return scenario;
}

}  // namespace

int main(int argc, char** argv)
{
    if (const int status = granular::bench::usageStatus(
            argc, argv,
            "usage: bench_contact_dynamics [OUTPUT.json] [THREADS] [SWEEP] [CASE] [PACE]\n  THREADS: solver threads "
            "(default 1); SWEEP: random (default) or coloured; CASE: piston2d, packing3d_20000 or all\n  (default); "
            "PACE: fixed (default) or adaptive\n");
        status >= 0) {
        return status;
    }
    const std::optional<long long> threadsArgument = bench::wholeArgument(argc, argv, 2, "THREADS", 1, 1);
    if (!threadsArgument) {
        return 2;
    }
    const auto threads = static_cast<int>(*threadsArgument);
    const std::string sweep = argc > 3 ? argv[3] : "random";
    const std::string only = argc > 4 && std::string(argv[4]) != "all" ? argv[4] : "";
    const std::string pace = argc > 5 ? argv[5] : "fixed";
    if (pace != "fixed" && pace != "adaptive") {
        std::fprintf(stderr, "bench_contact_dynamics: PACE must be fixed or adaptive, got '%s'\n", pace.c_str());
        return 2;
    }
    setAdaptiveSolverThreads(pace == "adaptive");
    setSolverThreads(threads);
    if (!only.empty() && only != "piston2d" && only != "packing3d_20000") {
        std::fprintf(stderr, "bench_contact_dynamics: CASE must be piston2d, packing3d_20000 or all, got '%s'\n",
                     only.c_str());
        return 2;
    }
    try {
        static_cast<void>(withSweep(Scenario{}, sweep));
    } catch (const ScenarioError& error) {
        std::fprintf(stderr, "bench_contact_dynamics: SWEEP: %s\n", error.what());
        return 2;
    }
    std::printf("solver threads: %d (%s), solver.sweep = %s\n", solverThreads(), pace.c_str(), sweep.c_str());
    std::vector<Figure> figures;
    if (only.empty() || only == "piston2d") {
        figures.push_back(measure("piston2d", withSweep(resolveScenario("piston2d"), sweep), 2500, 500));
    }
    if (only.empty() || only == "packing3d_20000") {
        figures.push_back(measure("packing3d_20000", withSweep(bench::cdPacking3d(), sweep), 100, 50));
    }
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    std::printf("%-18s %10s %8s %12s %14s %18s\n", "case", "particles", "steps", "candidates", "wall time (s)",
                "contact updates/s");
    for (const auto& f : figures) {
        const double rate = static_cast<double>(f.contactUpdates) / f.seconds;
        std::printf("%-18s %10zu %8lld %12.0f %14.3f %18.3e\n", f.name.c_str(), f.particles,
                    static_cast<long long>(f.steps), f.meanCandidates, f.seconds, rate);
        nlohmann::ordered_json stages;
        std::printf("%-18s stage share:", "");
        for (std::size_t stage = 0; stage < f.stageSeconds.size(); ++stage) {
            stages[kStepStageNames[stage]] = f.stageSeconds[stage];
            std::printf(" %s %.1f %%", kStepStageNames[stage], 100.0 * f.stageSeconds[stage] / f.seconds);
        }
        std::printf("\n%-18s updates known without computing them (open contacts whose grains had not moved): "
                    "%.1f %%\n",
                    "", 100.0 * static_cast<double>(f.knownUpdates) / static_cast<double>(f.contactUpdates));
        out.push_back({{"case", f.name},
                       {"stage_seconds", stages},
                       {"particles", f.particles},
                       {"steps", f.steps},
                       {"mean_candidates", f.meanCandidates},
                       {"wall_time_s", f.seconds},
                       {"contact_updates", f.contactUpdates},
                       {"known_updates", f.knownUpdates},
                       {"contact_updates_per_s", rate},
                       {"threads", solverThreads()},
                       {"pace", pace},
                       {"steps_on_fewer_threads", f.stepsOnFewer},
                       {"sweep", sweep}});
    }
    const std::string path = argc > 1 ? argv[1] : "bench_contact_dynamics.json";
    std::ofstream(path) << out.dump(2) << '\n';
    std::printf("saved %s\n", path.c_str());
    return 0;
}
