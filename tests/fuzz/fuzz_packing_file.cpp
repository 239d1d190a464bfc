// libFuzzer target: the particle-file loader (particles.file: LAMMPS/LIGGGHTS data files and CSV).
// The first byte picks the file's up axis; the rest is the file. The loader either returns grains with finite
// positions, positive finite radii and densities, or throws ScenarioError with one line naming the file;
// anything else is a bug.
#include "scenario/ScenarioError.h"
#include "setup/PackingFile.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0) {
        return 0;
    }
    constexpr granular::Axis kAxes[] = {granular::Axis::X, granular::Axis::Y, granular::Axis::Z};
    const granular::Axis up = kAxes[data[0] % 3];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);  // NOLINT: libFuzzer's bytes
    try {
        const granular::Packing packing = granular::parsePacking(text, "fuzz.data", up, 1000.0);
        for (const auto& grain : packing.grains) {
            if (!grain.position.allFinite() || !grain.velocity.allFinite() || !grain.angularVelocity.allFinite() ||
                !(grain.radius > 0.0) || !std::isfinite(grain.radius) || !(grain.density > 0.0) ||
                !std::isfinite(grain.density)) {
                std::fprintf(stderr, "a grain accepted with a non-finite or non-positive value\n");
                std::abort();
            }
        }
    } catch (const granular::ScenarioError& error) {
        const std::string_view message(error.what());
        if (message.find('\n') != std::string_view::npos || message.rfind("particles.file: fuzz.data:", 0) != 0) {
            std::fprintf(stderr, "a message that is not one line naming the file: %s\n", error.what());
            std::abort();
        }
    }
    return 0;
}
