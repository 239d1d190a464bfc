#pragma once

#include "method/StepDiagnostics.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace granular {

struct World;
struct Settings;

/// A simulation that has blown up: the message is one line naming the step, the quantity and a likely cause.
class BlowUp : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Cheap checks after every step that the world is still physical, whatever the method (O(grains x walls)):
/// - every position, velocity and angular velocity is finite, and so are the piston and the periodic cell;
/// - no grain moved further in one step than the container is long (the bounds' diagonal): energy from
///   nowhere, e.g. a time step far too long for a stiff contact;
/// - no grain's centre is beyond a wall, the piston or the drum by more than its radius, and the piston is
///   not beyond a wall: out of its container;
/// - no overlap exceeds the smallest grain radius.
class BlowUpGuard {
public:
    /// `advice`: the method's advice on its settings (e.g. the time step), asked only when the guard trips.
    using Advice = std::function<std::vector<std::string>()>;

    /// Throws BlowUp when the world after a step is broken.
    static void check(const World& world, const StepDiagnostics& step, const Settings& settings, const Advice& advice);
};

}  // namespace granular
