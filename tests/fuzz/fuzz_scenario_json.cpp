// libFuzzer target: the scenario loader (scenario files and the studio's Open scenario).
// Whatever the bytes, the loader either accepts a scenario whose settings read back, or throws ScenarioError
// with one line; anything else (another exception, a crash, a sanitizer finding) is a bug. What it accepts
// also survives a round trip through scenarioToJson unchanged.
#include "ScenarioJson.h"
#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "settings/SettingsBinding.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view json(reinterpret_cast<const char*>(data), size);  // NOLINT: libFuzzer's bytes
    std::string written;
    try {
        const granular::Scenario scenario = granular::scenarioFromJson(json, "fuzz.json");
        (void)granular::parseSettings(scenario);
        written = granular::scenarioToJson(scenario);
    } catch (const granular::ScenarioError& error) {
        if (std::string_view(error.what()).find('\n') != std::string_view::npos) {
            std::fprintf(stderr, "a message of more than one line: %s\n", error.what());
            std::abort();
        }
        return 0;
    }
    const granular::Scenario reread = granular::scenarioFromJson(written, "round-trip.json");
    if (granular::scenarioToJson(reread) != written) {
        std::fprintf(stderr, "the scenario changed on a round trip:\n%s\n", written.c_str());
        std::abort();
    }
    return 0;
}
