// Throughput of the soft-particle method (solver.method = md): particle-steps (one grain advanced by
// one velocity-Verlet step) per second for a dense 3D packing of ~20,000 spheres settling under
// gravity with Coulomb friction. Not a test: prints and saves the figure.
// Usage: bench_md [OUTPUT.json] [THREADS] [PACE] [GRAINS] (solver threads, default 1; the results are the same for any
//   count) PACE: fixed (default: every step on THREADS threads) or adaptive (as the CLI and the studio run: a step may
//   run on fewer threads where that is faster, sim/ThreadPace.h). GRAINS: the spheres (default 20,000, the peers'
//   system), in a box of square base narrowed to keep the column ~50 layers high: the same packing at another size
//   (e.g. 2,000, whose whole state fits a core's second-level cache: what the memory traffic of 20,000 costs).
#include "BenchUsage.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string>

using namespace granular;

namespace {

/// `grains` spheres (20,000: the peers' system) of radius 0.9-1 m on a cubic lattice of spacing 2 m (the largest
/// touch) in a box 110 m high whose square base holds ceil(sqrt(grains / 50)) lattice sites a side (20,000: 41 x 110 x
/// 41 m) under g = 10 m/s^2; linear law k_n = 1e5 N/m, e = 0.5, mu = 0.3 (29 MD steps per solver.dt = 0.01 s). The
/// first second (100 steps) lets the column settle into a packing.
Scenario packing3d(long long grains)
{
    const auto side = static_cast<long long>(std::ceil(std::sqrt(static_cast<double>(grains) / 50.0)));
    const std::string width = std::to_string(2 * side + 1);
    Scenario s;
    s.setFromText("name", "md_packing3d");
    s.setFromText("world.dimension", "3");
    s.setFromText("solver.method", "md");
    s.setFromText("solver.dt", "0.01");
    s.setFromText("material.law", "linear");
    s.setFromText("material.stiffness", "1e5");
    s.setFromText("material.restitution", "0.5");
    s.setFromText("gravity.y", "-10");
    s.setFromText("contact.friction", "0.3");
    s.setFromText("particles.count", std::to_string(grains));
    s.setFromText("particles.radius_min", "0.9");
    s.setFromText("particles.radius_max", "1");
    s.setFromText("particles.density", "1");
    s.setFromText("particles.gap", "0");
    s.setFromText("particles.jitter", "0");
    s.setFromText("box.width", width);
    s.setFromText("box.depth", width);
    s.setFromText("box.height", "110");
    return s;
}

}  // namespace

int main(int argc, char** argv)
{
    if (const int status = granular::bench::usageStatus(
            argc, argv,
            "usage: bench_md [OUTPUT.json] [THREADS] [PACE] [GRAINS]\n  THREADS: solver threads "
            "(default 1); PACE: fixed (default) or adaptive; GRAINS: spheres, 100 to "
            "200000 (default 20000)\n");
        status >= 0) {
        return status;
    }
    const std::optional<long long> threadsArgument = bench::wholeArgument(argc, argv, 2, "THREADS", 1, 1);
    if (!threadsArgument) {
        return 2;
    }
    const auto threads = static_cast<int>(*threadsArgument);
    const std::optional<long long> grains =
        argc > 4 ? bench::wholeValue(argv[0], "GRAINS", argv[4], 100, 200000) : std::optional<long long>(20000);
    if (!grains) {
        return 2;
    }
    const std::string pace = argc > 3 ? argv[3] : "fixed";
    if (pace != "fixed" && pace != "adaptive") {
        std::fprintf(stderr, "bench_md: PACE must be fixed or adaptive, got '%s'\n", pace.c_str());
        return 2;
    }
    setSolverThreads(threads);
    setAdaptiveSolverThreads(pace == "adaptive");
    constexpr int kWarmup = 100;
    constexpr int kSteps = 20;
    // A smaller system is timed over as many runs (each from a fresh build of the same packing, the same steps) as make
    // up about the particle-steps of 20,000 spheres, at most ten: 20 steps of 2,000 spheres take ~0.07 s, within this
    // machine's noise. The figures are the runs' sums.
    const auto runs = static_cast<int>(std::clamp(20000 / *grains, 1LL, 10LL));
    std::int64_t particles = 0;
    std::int64_t mdSteps = 0;
    std::int64_t particleSteps = 0;
    int stepsOnFewer = 0;               // solver steps that the pace ran on fewer threads than set
    std::map<int, int> stepsOnThreads;  // threads -> solver steps run on them
    double candidates = 0.0;
    double contacts = 0.0;
    std::array<double, static_cast<int>(StepStage::Count)> stageSeconds{};
    double seconds = 0.0;
    for (int run = 0; run < runs; ++run) {
        Simulation simulation(packing3d(*grains));
        for (int n = 0; n < kWarmup; ++n) {
            simulation.step();
        }
        particles = static_cast<std::int64_t>(simulation.world().particles.size());
        std::int64_t runSteps = 0;
        const auto start = std::chrono::steady_clock::now();
        for (int n = 0; n < kSteps; ++n) {
            simulation.step();
            const StepDiagnostics& d = simulation.lastStep();
            runSteps += d.iterations;  // velocity-Verlet steps in this solver.dt
            stepsOnFewer += simulation.lastStepThreads() < solverThreads() ? 1 : 0;
            ++stepsOnThreads[simulation.lastStepThreads()];
            candidates += static_cast<double>(d.candidates) / (kSteps * runs);
            contacts += static_cast<double>(d.contacts) / (kSteps * runs);
            for (std::size_t stage = 0; stage < stageSeconds.size(); ++stage) {
                stageSeconds[stage] += d.stageSeconds[stage];
            }
        }
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        mdSteps += runSteps;
        particleSteps += particles * runSteps;
    }
    const double rate = static_cast<double>(particleSteps) / seconds;
    std::printf("md_packing3d: %lld spheres, %d solver threads, %lld MD steps in %.3f s (%d run%s), %.0f candidates, "
                "%.0f contacts: %.3e particle-steps/s\n",
                static_cast<long long>(particles), solverThreads(), static_cast<long long>(mdSteps), seconds, runs,
                runs == 1 ? "" : "s", candidates, contacts, rate);
    nlohmann::ordered_json stages;
    std::printf("stage share:");
    for (std::size_t stage = 0; stage < stageSeconds.size(); ++stage) {
        stages[kStepStageNames[stage]] = stageSeconds[stage];
        std::printf(" %s %.1f %%", kStepStageNames[stage], 100.0 * stageSeconds[stage] / seconds);
    }
    std::printf("\n");
    if (pace == "adaptive") {
        std::printf("adaptive pace: %d of %d solver steps on fewer threads; threads: steps", stepsOnFewer,
                    kSteps * runs);
        for (const auto& [count, steps] : stepsOnThreads) {
            std::printf(" %d: %d", count, steps);
        }
        std::printf("\n");
    }
    const nlohmann::ordered_json out = {{"case", "md_packing3d_" + std::to_string(*grains)},
                                        {"particles", particles},
                                        {"threads", solverThreads()},
                                        {"runs", runs},
                                        {"md_steps", mdSteps},
                                        {"wall_time_s", seconds},
                                        {"mean_candidates", candidates},
                                        {"mean_contacts", contacts},
                                        {"stage_seconds", stages},
                                        {"particle_steps_per_s", rate},
                                        {"pace", pace},
                                        {"solver_steps_on_fewer_threads", stepsOnFewer}};
    const std::string path = argc > 1 ? argv[1] : "bench_md.json";
    std::ofstream(path) << out.dump(2) << '\n';
    std::printf("saved %s\n", path.c_str());
    return 0;
}
