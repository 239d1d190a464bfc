#pragma once
// What the ensemble tests (tst_cli_ensemble, tst_cli_mpi) check in an ensemble's output.
#include "CliProcess.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>

namespace granular::clitest {

/// The seeds ensemble.json records as failed.
inline std::set<std::int64_t> failedSeeds(const std::filesystem::path& directory)
{
    std::set<std::int64_t> seeds;
    const auto ensemble = nlohmann::json::parse(slurp(directory / "ensemble.json"));
    for (const auto& failure : ensemble["failed"]) {
        seeds.insert(failure["seed"].get<std::int64_t>());
    }
    return seeds;
}

/// Whether two files hold the same bytes (both must exist).
inline bool sameBytes(const std::filesystem::path& a, const std::filesystem::path& b)
{
    return std::filesystem::exists(a) && std::filesystem::exists(b) && slurp(a) == slurp(b);
}

/// The arguments of an ensemble of periodic2d in which some packings blow up: with grains down to 1 mm in a
/// cell of 0.8-1.2 m grains and dt = 0.02 s (twice the paper's), a packing whose smallest grain is overrun when
/// it jams blows up (overlap > smallest radius, ~9 s), one whose smallest grain is larger survives; which ones,
/// depends on the seed.
inline std::string blowingUpEnsemble(const std::string& seeds)
{
    return "ensemble periodic2d --quiet --seeds " + seeds +
           " --set solver.dt=0.02 --set particles.radius_min=0.001 --set run.time=10";
}

}  // namespace granular::clitest
