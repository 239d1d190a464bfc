#pragma once

#include "model/World.h"

namespace granular {

struct Settings;

/// Builds the initial world of a scenario (its `setup`): particles, walls, piston or drum, gravity.
/// Throws ScenarioError when the parameters are individually valid but do not fit together.
World buildWorld(const Settings& settings);

/// Copies the live parameters that live in the world (gravity, applied forces, drum rotation).
void applyLiveParameters(World& world, const Settings& settings);

}  // namespace granular
