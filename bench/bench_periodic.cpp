// Fully (eq. 27) vs partially (eq. 32) implicit constant-pressure CD (Shaebani et al. 2009, section 4; the paper found
// the partial variant ~25% faster). Two measurements on the reference system (built-in `periodic2d`), CPU time:
// - per step on the same state: the packing compacted for 1500 steps (fully implicit), then 1000 more steps
//   with each variant from that identical state; the step cost differs only by the P_in* bookkeeping;
// - to relax: each variant from the dilute start until the stopping rule holds, over several seeds (the
//   two variants follow different trajectories, so the number of steps differs too).
// The per-step figure is also taken with `pressure.cell_shape = free` (a strain-rate tensor instead of the
// paper's scalar dilation rate): what the tensor bookkeeping costs per step.
// Not a test: prints and saves figures. Usage: bench_periodic [OUTPUT.json]
#include "BenchUsage.h"
#include "BuiltinScenarios.h"
#include "analysis/PackingStatistics.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>

using namespace granular;

namespace {

constexpr int kSeeds = 5;
constexpr std::int64_t kMaxSteps = 40000;

double cpuSeconds()
{
    return static_cast<double>(std::clock()) / static_cast<double>(CLOCKS_PER_SEC);
}

Scenario reference(std::int64_t seed, const std::string& variant, const std::string& shape = "fixed")
{
    Scenario scenario = resolveScenario("periodic2d");
    scenario.set("seed", seed);
    scenario.setFromText("pressure.variant", variant);
    scenario.setFromText("pressure.cell_shape", shape);
    return scenario;
}

struct PerStep {
    double seconds = 0.0;
    std::int64_t steps = 0;
    std::int64_t contactUpdates = 0;
};

PerStep timeSteps(const Scenario& scenario, const World& state, std::int64_t steps)
{
    Simulation simulation(scenario, state);
    PerStep figure;
    const double start = cpuSeconds();
    for (std::int64_t n = 0; n < steps; ++n) {
        simulation.step();
        figure.contactUpdates += simulation.lastStep().contactUpdates;
    }
    figure.seconds = cpuSeconds() - start;
    figure.steps = steps;
    return figure;
}

struct ToRelax {
    double seconds = 0.0;
    std::int64_t steps = 0;
    bool relaxed = false;
    double volumeFraction = 0.0;
    double meanOverlap = 0.0;
};

ToRelax timeRelaxation(const Scenario& scenario)
{
    Simulation simulation(scenario);
    ToRelax figure;
    const double start = cpuSeconds();
    while (figure.steps < kMaxSteps && !figure.relaxed) {
        simulation.step();
        ++figure.steps;
        figure.relaxed = simulation.finished();
    }
    figure.seconds = cpuSeconds() - start;
    const auto packing = analysis::packingStatistics(simulation.world());
    figure.volumeFraction = packing.volumeFraction;
    figure.meanOverlap = packing.meanOverlap;
    return figure;
}

}  // namespace

int main(int argc, char** argv)
{
    if (const int status = granular::bench::usageStatus(argc, argv, "usage: bench_periodic [OUTPUT.json]\n");
        status >= 0) {
        return status;
    }
    nlohmann::ordered_json out;
    const char* variants[] = {"full", "partial"};

    // Per step, same state.
    Simulation compaction(reference(1, "full"));
    for (int n = 0; n < 1500; ++n) {
        compaction.step();
    }
    std::printf("per step from the same compacted state (seed 1, 1500 steps in), 1000 steps each:\n");
    double perStep[2][2] = {};
    const char* shapes[] = {"fixed", "free"};
    for (int shape = 0; shape < 2; ++shape) {
        for (int v = 0; v < 2; ++v) {
            const PerStep f = timeSteps(reference(1, variants[v], shapes[shape]), compaction.world(), 1000);
            perStep[shape][v] = f.seconds / static_cast<double>(f.steps);
            std::printf("  %-8s %-5s cell: %8.3f ms CPU per step, %8.1f ns per contact update\n", variants[v],
                        shapes[shape], 1e3 * perStep[shape][v],
                        1e9 * f.seconds / static_cast<double>(f.contactUpdates));
            const std::string key = shape == 0 ? std::string(variants[v]) : std::string("free_") + variants[v];
            out["per_step"][key] = {{"cpu_time_s", f.seconds},
                                    {"steps", f.steps},
                                    {"contact_updates", f.contactUpdates},
                                    {"cpu_time_per_step_s", perStep[shape][v]}};
        }
    }
    out["per_step"]["partial_saving"] = 1.0 - perStep[0][1] / perStep[0][0];
    out["per_step"]["free_shape_cost_ratio"] = perStep[1][0] / perStep[0][0];
    std::printf("  partial saves %.1f %% per step (paper: ~25 %% overall)\n",
                100.0 * (1.0 - perStep[0][1] / perStep[0][0]));
    std::printf("  a free cell shape costs %.2fx (full) and %.2fx (partial) the square cell's step\n",
                perStep[1][0] / perStep[0][0], perStep[1][1] / perStep[0][1]);

    // To relax, several seeds.
    std::printf("to relax from the dilute start (CPU s / steps / volume fraction / mean overlap m):\n");
    std::printf("%6s %36s %36s\n", "seed", "full", "partial");
    double total[2] = {};
    std::int64_t totalSteps[2] = {};
    for (int seed = 1; seed <= kSeeds; ++seed) {
        ToRelax f[2];
        for (int v = 0; v < 2; ++v) {
            f[v] = timeRelaxation(reference(seed, variants[v]));
            total[v] += f[v].seconds;
            totalSteps[v] += f[v].steps;
            out["to_relax"][variants[v]].push_back({{"seed", seed},
                                                    {"cpu_time_s", f[v].seconds},
                                                    {"steps", f[v].steps},
                                                    {"relaxed", f[v].relaxed},
                                                    {"volume_fraction", f[v].volumeFraction},
                                                    {"mean_overlap", f[v].meanOverlap}});
        }
        std::printf("%6d %8.2f %6lld %8.5f %9.2e%s %8.2f %6lld %8.5f %9.2e%s\n", seed, f[0].seconds,
                    static_cast<long long>(f[0].steps), f[0].volumeFraction, f[0].meanOverlap, f[0].relaxed ? " " : "*",
                    f[1].seconds, static_cast<long long>(f[1].steps), f[1].volumeFraction, f[1].meanOverlap,
                    f[1].relaxed ? " " : "*");
    }
    out["to_relax"]["total_cpu_time_s"] = {{"full", total[0]}, {"partial", total[1]}};
    out["to_relax"]["total_steps"] = {{"full", totalSteps[0]}, {"partial", totalSteps[1]}};
    out["to_relax"]["partial_saving"] = 1.0 - total[1] / total[0];
    std::printf("total over %d seeds: full %.2f s (%lld steps), partial %.2f s (%lld steps): partial saves %.1f %%\n",
                kSeeds, total[0], static_cast<long long>(totalSteps[0]), total[1],
                static_cast<long long>(totalSteps[1]), 100.0 * (1.0 - total[1] / total[0]));
    std::printf("(* = not relaxed in %lld steps)\n", static_cast<long long>(kMaxSteps));

    const std::string path = argc > 1 ? argv[1] : "bench_periodic.json";
    std::ofstream(path) << out.dump(2) << '\n';
    std::printf("saved %s\n", path.c_str());
    return 0;
}
