#pragma once

#include "model/World.h"

#include <cstddef>

namespace granular {

struct Settings;

/// Builds the initial world of a scenario (its `setup`): particles, walls, piston or drum, gravity.
/// Throws ScenarioError when the parameters are individually valid but do not fit together.
World buildWorld(const Settings& settings);

/// Throws ScenarioError unless probe.index names one of `particles` grains (from 0, or back from the last, -1).
void checkProbeIndex(const Settings& settings, std::size_t particles);

/// Copies the live parameters that live in the world (gravity, applied forces, drum rotation).
void applyLiveParameters(World& world, const Settings& settings);

}  // namespace granular
