// Cost of the multi-contact DEM (Brodu et al. 2015) against the soft-particle method with the same Hertz law
// on the same packing and protocol: steps per second of mcdem_compress with gamma = 1.125 and with
// solver.method = md, over the first down-stroke. Not a test: prints and saves the figures.
// Usage: bench_mcdem PACKING [STEPS] [OUTPUT.json]
//   PACKING: the paper's packing, e.g. LIGGGHTS's hydrogel_multicontact/data/input.data (z up)
#include "BenchUsage.h"
#include "BuiltinScenarios.h"
#include "method/StepDiagnostics.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

using namespace granular;

namespace {

struct Figure {
    double stepsPerSecond = 0.0;
    double meanCandidates = 0.0;
    double meanContacts = 0.0;
    std::array<double, static_cast<int>(StepStage::Count)> stageSeconds{};
    double seconds = 0.0;
};

Figure measure(const std::string& packing, const std::string& method, long steps)
{
    Scenario s = resolveScenario("mcdem_compress");
    s.setFromText("particles.file", packing);
    s.setFromText("particles.file_up_axis", "z");
    s.setFromText("compression.settle_time", "0");
    s.setFromText("solver.method", method);
    Simulation simulation(s);
    Figure f;
    const auto start = std::chrono::steady_clock::now();
    for (long n = 0; n < steps; ++n) {
        simulation.step();
        const StepDiagnostics& d = simulation.lastStep();
        f.meanCandidates += static_cast<double>(d.candidates) / static_cast<double>(steps);
        f.meanContacts += static_cast<double>(d.contacts) / static_cast<double>(steps);
        for (std::size_t stage = 0; stage < f.stageSeconds.size(); ++stage) {
            f.stageSeconds[stage] += d.stageSeconds[stage];
        }
    }
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    f.stepsPerSecond = static_cast<double>(steps) / f.seconds;
    return f;
}

nlohmann::ordered_json toJson(const Figure& f)
{
    nlohmann::ordered_json stages;
    for (std::size_t stage = 0; stage < f.stageSeconds.size(); ++stage) {
        stages[kStepStageNames[stage]] = f.stageSeconds[stage];
    }
    return {{"steps_per_s", f.stepsPerSecond},
            {"wall_time_s", f.seconds},
            {"mean_candidates", f.meanCandidates},
            {"mean_contacts", f.meanContacts},
            {"stage_seconds", stages}};
}

}  // namespace

int main(int argc, char** argv)
{
    if (const int status = granular::bench::usageStatus(
            argc, argv,
            "usage: bench_mcdem PACKING [STEPS] [OUTPUT.json]\n  PACKING: the paper's packing, e.g. LIGGGHTS's "
            "hydrogel_multicontact/data/input.data (z up); STEPS: 30000\n");
        status >= 0) {
        return status;
    }
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_mcdem PACKING [STEPS] [OUTPUT.json]\n");
        return 2;
    }
    const std::string packing = argv[1];
    const std::optional<long long> stepsArgument = bench::wholeArgument(argc, argv, 2, "STEPS", 30000, 1);
    if (!stepsArgument) {
        return 2;
    }
    const auto steps = static_cast<long>(*stepsArgument);
    const Figure md = measure(packing, "md", steps);
    const Figure mcdem = measure(packing, "mcdem", steps);
    std::printf("md (Hertz, independent contacts): %ld steps in %.2f s: %.1f steps/s, %.0f candidates, %.0f contacts\n",
                steps, md.seconds, md.stepsPerSecond, md.meanCandidates, md.meanContacts);
    std::printf("mcdem (gamma 1.125):              %ld steps in %.2f s: %.1f steps/s, %.0f candidates, %.0f contacts\n",
                steps, mcdem.seconds, mcdem.stepsPerSecond, mcdem.meanCandidates, mcdem.meanContacts);
    std::printf("mcdem / md cost per step: %.2f\n", md.stepsPerSecond / mcdem.stepsPerSecond);
    const nlohmann::ordered_json out = {{"case", "mcdem_compress on " + packing},
                                        {"steps", steps},
                                        {"md", toJson(md)},
                                        {"mcdem", toJson(mcdem)},
                                        {"cost_ratio", md.stepsPerSecond / mcdem.stepsPerSecond}};
    const std::string path = argc > 3 ? argv[3] : "bench_mcdem.json";
    std::ofstream(path) << out.dump(2) << '\n';
    std::printf("saved %s\n", path.c_str());
    return 0;
}
