// How the cost of a step grows with the number of grains n, against seed 000's estimate for force relaxation
// without elasticity artifacts (Unger & Kertesz 2003, eq. 48-50): the iterations a step needs grow as
// N_I > (L/d)^2 ~ n^(2/D), so a CD step costs n^(1 + 2/D): n^2 in 2D, n^(5/3) in 3D, against n for soft DEM.
// The system: equal grains (r = 1 m) on a touching square (2D) or cubic (3D) lattice as tall as it is wide, at
// rest on the floor of a box under gravity: the forces are known (each column carries its weight), and the
// solver must carry them from the top to the floor. For n = 1e3, 4e3, 1.6e4, 6.4e4 (up to MAX_N) in 2D and 3D:
// - cd from zero forces (a cold start: the first step) with the local criterion (eq. 35) at 1e-4: iterations
//   and seconds;
// - cd warm-started (steps 2-4, the previous step's forces): iterations and seconds per step;
// - md (linear law, its automatic substeps): seconds per step (solver.dt = 0.01 s).
// Then the exponents fitted to each (least squares in log-log) beside the estimate. Not a test: prints and saves.
// Usage: bench_cost_growth [OUTPUT.json] [MAX_N_2D] [MAX_N_3D] [THREADS] [SWEEP]
//   (defaults 16000, 64000, 1, random: 64,000 disks need more than 17 minutes for their cold start here)
#include "BenchUsage.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

using namespace granular;

namespace {

/// n grains of radius 1 m on a touching lattice, a square (cube) of ~n^(1/D) grains a side, in a box.
Scenario lattice(int dimension, std::int64_t n, const std::string& method, const std::string& sweep)
{
    const double across = std::ceil(std::pow(static_cast<double>(n), 1.0 / dimension));
    Scenario s;
    s.setFromText("name", "cost_growth");
    s.set("world.dimension", static_cast<std::int64_t>(dimension));
    s.setFromText("solver.method", method);
    s.setFromText("solver.dt", "0.01");
    if (method == "cd") {
        s.setFromText("solver.criterion", "local");
        s.setFromText("solver.tolerance", "1e-4");
        s.setFromText("solver.max_iterations", "1000000");
        s.setFromText("solver.force_cutoff", "0.01");  // N: ~1e-3 of a grain's weight (the resting side contacts)
        s.setFromText("solver.sweep", sweep);
    } else {
        s.setFromText("material.law", "linear");
        s.setFromText("material.stiffness", "1e5");
        s.setFromText("material.restitution", "0.5");
    }
    s.setFromText("gravity.y", "-10");
    s.setFromText("contact.friction", "0.3");
    s.set("particles.count", n);
    s.setFromText("particles.radius_min", "1");
    s.setFromText("particles.radius_max", "1");
    s.setFromText("particles.density", "1");
    s.setFromText("particles.gap", "0");
    s.setFromText("particles.jitter", "0");
    s.set("box.width", 2.0 * across + 0.5);
    s.set("box.depth", 2.0 * across + 0.5);
    s.set("box.height", 2.0 * across + 4.0);
    s.setFromText("box.walls", "open");
    return s;
}

struct Row {
    int dimension = 0;
    std::int64_t grains = 0;
    double coldIterations = 0.0;
    double coldSeconds = 0.0;
    double warmIterations = 0.0;
    double warmSeconds = 0.0;  ///< per step
    double mdSeconds = 0.0;    ///< per step
};

double secondsOf(Simulation& simulation)
{
    const auto start = std::chrono::steady_clock::now();
    simulation.step();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Row measure(int dimension, std::int64_t n, const std::string& sweep)
{
    Row row{dimension, 0, 0.0, 0.0, 0.0, 0.0, 0.0};
    {
        Simulation cd(lattice(dimension, n, "cd", sweep));
        row.grains = static_cast<std::int64_t>(cd.world().particles.size());
        row.coldSeconds = secondsOf(cd);
        row.coldIterations = static_cast<double>(cd.lastStep().iterations);
        constexpr int kWarmSteps = 3;
        for (int k = 0; k < kWarmSteps; ++k) {
            row.warmSeconds += secondsOf(cd) / kWarmSteps;
            row.warmIterations += static_cast<double>(cd.lastStep().iterations) / kWarmSteps;
        }
    }
    Simulation md(lattice(dimension, n, "md", sweep));
    md.step();  // the first step sizes the lists
    constexpr int kMdSteps = 3;
    for (int k = 0; k < kMdSteps; ++k) {
        row.mdSeconds += secondsOf(md) / kMdSteps;
    }
    return row;
}

/// Slope of log(y) against log(x), least squares.
double exponent(const std::vector<double>& x, const std::vector<double>& y)
{
    double mx = 0.0;
    double my = 0.0;
    for (std::size_t k = 0; k < x.size(); ++k) {
        mx += std::log(x[k]) / static_cast<double>(x.size());
        my += std::log(y[k]) / static_cast<double>(x.size());
    }
    double sxy = 0.0;
    double sxx = 0.0;
    for (std::size_t k = 0; k < x.size(); ++k) {
        sxy += (std::log(x[k]) - mx) * (std::log(y[k]) - my);
        sxx += (std::log(x[k]) - mx) * (std::log(x[k]) - mx);
    }
    return sxx > 0.0 ? sxy / sxx : 0.0;
}

}  // namespace

int main(int argc, char** argv)
{
    if (const int status =
            granular::bench::usageStatus(argc, argv,
                                         "usage: bench_cost_growth [OUTPUT.json] [MAX_N_2D] [MAX_N_3D] [THREADS] "
                                         "[SWEEP]\n  (defaults bench_cost_growth.json, 16000, 64000, 1, random)\n");
        status >= 0) {
        return status;
    }
    const std::string path = argc > 1 ? argv[1] : "bench_cost_growth.json";
    const std::optional<long long> maxN2dArgument = bench::wholeArgument(argc, argv, 2, "MAX_N_2D", 16000, 1);
    const std::optional<long long> maxN3dArgument = bench::wholeArgument(argc, argv, 3, "MAX_N_3D", 64000, 1);
    const std::optional<long long> threadsArgument = bench::wholeArgument(argc, argv, 4, "THREADS", 1, 1);
    if (!maxN2dArgument || !maxN3dArgument || !threadsArgument) {
        return 2;
    }
    const long long maxN2d = *maxN2dArgument;
    const long long maxN3d = *maxN3dArgument;
    const auto threads = static_cast<int>(*threadsArgument);
    const std::string sweep = argc > 5 ? argv[5] : "random";
    setSolverThreads(threads);
    std::printf("solver threads: %d, solver.sweep = %s, cd: local criterion (eq. 35) at 1e-4\n", solverThreads(),
                sweep.c_str());
    std::printf("%3s %8s %14s %14s %14s %14s %14s\n", "D", "grains", "cold N_I", "cold s", "warm N_I", "warm s/step",
                "md s/step");
    nlohmann::ordered_json out;
    out["threads"] = solverThreads();
    out["sweep"] = sweep;
    for (const int dimension : {2, 3}) {
        std::vector<double> n;
        std::vector<double> coldIterations;
        std::vector<double> coldSeconds;
        std::vector<double> warmSeconds;
        std::vector<double> mdSeconds;
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const long long count : {1000LL, 4000LL, 16000LL, 64000LL}) {
            if (count > (dimension == 2 ? maxN2d : maxN3d)) {
                break;
            }
            const Row r = measure(dimension, count, sweep);
            std::printf("%3d %8lld %14.0f %14.3f %14.1f %14.4f %14.4f\n", r.dimension, static_cast<long long>(r.grains),
                        r.coldIterations, r.coldSeconds, r.warmIterations, r.warmSeconds, r.mdSeconds);
            std::fflush(stdout);
            n.push_back(static_cast<double>(r.grains));
            coldIterations.push_back(r.coldIterations);
            coldSeconds.push_back(r.coldSeconds);
            warmSeconds.push_back(r.warmSeconds);
            mdSeconds.push_back(r.mdSeconds);
            rows.push_back({{"grains", r.grains},
                            {"cold_iterations", r.coldIterations},
                            {"cold_seconds", r.coldSeconds},
                            {"warm_iterations", r.warmIterations},
                            {"warm_seconds_per_step", r.warmSeconds},
                            {"md_seconds_per_step", r.mdSeconds}});
        }
        const double d = dimension;
        const double estimateIterations = 2.0 / d;  // eq. 48-50: N_I ~ (L/d)^2 ~ n^(2/D)
        const double estimateCost = 1.0 + 2.0 / d;
        nlohmann::ordered_json exponents = {{"cd_cold_iterations", exponent(n, coldIterations)},
                                            {"cd_cold_seconds", exponent(n, coldSeconds)},
                                            {"cd_warm_seconds_per_step", exponent(n, warmSeconds)},
                                            {"md_seconds_per_step", exponent(n, mdSeconds)},
                                            {"estimate_iterations", estimateIterations},
                                            {"estimate_cd_cost", estimateCost},
                                            {"estimate_md_cost", 1.0}};
        std::printf("%dD exponents of n: cd cold start: N_I %.2f (estimate %.2f), time %.2f (estimate %.2f); cd warm "
                    "step: time %.2f; md step: time %.2f (estimate 1)\n",
                    dimension, exponents["cd_cold_iterations"].get<double>(), estimateIterations,
                    exponents["cd_cold_seconds"].get<double>(), estimateCost,
                    exponents["cd_warm_seconds_per_step"].get<double>(),
                    exponents["md_seconds_per_step"].get<double>());
        out[std::to_string(dimension) + "d"] = {{"sizes", rows}, {"exponents", exponents}};
    }
    std::ofstream(path) << out.dump(2) << '\n';
    std::printf("saved %s\n", path.c_str());
    return 0;
}
