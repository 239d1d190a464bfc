// How large a packing one machine handles: time per step and memory against the number of grains, for soft
// DEM (md, 25 velocity-Verlet steps per solver.dt) and contact dynamics (cd, 20 Gauss-Seidel sweeps per step), on
// dense 3D lattice packings of 5,000 to 320,000 spheres in contact from the start; then, from the measured cost
// per grain, the largest packing at 10 and 1 steps/s and the largest that fits in this machine's memory. Feeds
// docs/SCALING.md (when distributing one packing over machines becomes necessary). Not a test: prints and saves
// the figures. Usage: bench_scale [OUTPUT.json]
#include "BenchUsage.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

using namespace granular;

namespace {

/// Spheres of radius 0.9-1 m on a touching cubic lattice (spacing 2 m), 50 layers high, under gravity; the
/// box's base grows with the count.
Scenario packing(const std::string& method, std::int64_t count)
{
    const double side = std::ceil(2.0 * std::sqrt(static_cast<double>(count) / 50.0)) + 1.0;
    Scenario s;
    s.setFromText("name", method + "_scale");
    s.setFromText("world.dimension", "3");
    s.setFromText("solver.method", method);
    s.setFromText("solver.dt", "0.01");
    s.setFromText("solver.iterations", "20");
    if (method == "md") {
        s.setFromText("material.law", "linear");
        s.setFromText("material.stiffness", "1e5");
        s.setFromText("material.restitution", "0.5");
    }
    s.setFromText("gravity.y", "-10");
    s.setFromText("contact.friction", "0.3");
    s.set("particles.count", count);
    s.setFromText("particles.radius_min", "0.9");
    s.setFromText("particles.radius_max", "1");
    s.setFromText("particles.density", "1");
    s.setFromText("particles.gap", "0");
    s.setFromText("particles.jitter", "0");
    s.set("box.width", side);
    s.set("box.depth", side);
    s.setFromText("box.height", "110");
    return s;
}

/// The peak resident memory of this process so far, bytes (VmHWM).
double peakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("VmHWM:", 0) == 0) {
            std::istringstream fields(line.substr(6));
            double kib = 0.0;
            fields >> kib;
            return kib * 1024.0;
        }
    }
    return 0.0;
}

struct Figure {
    std::int64_t particles = 0;
    double secondsPerStep = 0.0;
    double peakBytes = 0.0;
};

Figure measure(const std::string& method, std::int64_t count, int warmup, int steps)
{
    std::ofstream("/proc/self/clear_refs") << "5";  // the peak resident memory starts again from the current
    Simulation simulation(packing(method, count));
    for (int n = 0; n < warmup; ++n) {
        simulation.step();
    }
    const auto start = std::chrono::steady_clock::now();
    for (int n = 0; n < steps; ++n) {
        simulation.step();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {static_cast<std::int64_t>(simulation.world().particles.size()), seconds / steps, peakResidentBytes()};
}

}  // namespace

int main(int argc, char** argv)
{
    if (const int status = granular::bench::usageStatus(argc, argv, "usage: bench_scale [OUTPUT.json]\n");
        status >= 0) {
        return status;
    }
    const double memory = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE));
    nlohmann::ordered_json out;
    out["machine_memory_bytes"] = memory;
    for (const std::string method : {"md", "cd"}) {
        std::printf("%s: %10s %16s %22s %16s\n", method.c_str(), "grains", "s per step", "grain-steps/s",
                    "peak RSS (MiB)");
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        Figure previous;
        Figure last;
        for (const std::int64_t count : {5000, 20000, 80000, 320000}) {
            last = measure(method, count, 10, 5);
            const double rate = static_cast<double>(last.particles) / last.secondsPerStep;
            std::printf("%s: %10lld %16.4f %22.4e %16.1f\n", method.c_str(), static_cast<long long>(last.particles),
                        last.secondsPerStep, rate, last.peakBytes / 1048576.0);
            rows.push_back({{"particles", last.particles},
                            {"seconds_per_step", last.secondsPerStep},
                            {"grain_steps_per_s", rate},
                            {"peak_resident_bytes", last.peakBytes}});
            if (count == 80000) {
                previous = last;
            }
        }
        // Cost per grain and step from the largest packing, memory per grain from the two largest (the fixed part
        // gone).
        const double perGrain = last.secondsPerStep / static_cast<double>(last.particles);
        const double bytesPerGrain =
            (last.peakBytes - previous.peakBytes) / static_cast<double>(last.particles - previous.particles);
        const double fitsInMemory = 0.8 * memory / bytesPerGrain;
        std::printf("%s: %.3e s per grain and step, %.0f bytes per grain; largest packing at 10 steps/s: %.3g grains, "
                    "at 1 step/s: %.3g, in 80 %% of memory: %.3g (%.3g s per step)\n",
                    method.c_str(), perGrain, bytesPerGrain, 0.1 / perGrain, 1.0 / perGrain, fitsInMemory,
                    fitsInMemory * perGrain);
        out[method] = {{"sizes", rows},
                       {"seconds_per_grain_step", perGrain},
                       {"bytes_per_grain", bytesPerGrain},
                       {"largest_at_10_steps_per_s", 0.1 / perGrain},
                       {"largest_at_1_step_per_s", 1.0 / perGrain},
                       {"largest_in_memory", fitsInMemory},
                       {"seconds_per_step_largest_in_memory", fitsInMemory * perGrain}};
    }
    const std::string path = argc > 1 ? argv[1] : "bench_scale.json";
    std::ofstream(path) << out.dump(2) << '\n';
    std::printf("saved %s\n", path.c_str());
    return 0;
}
