#pragma once

#include "model/World.h"

namespace granular {

class Scenario;

/// Builds the initial world of a scenario (its `setup`): particles, walls, gravity.
/// Throws ScenarioError when the parameters are individually valid but do not fit together.
World buildWorld(const Scenario& scenario);

}  // namespace granular
