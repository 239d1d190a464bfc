#pragma once

#include "method/StepDiagnostics.h"

#include <string>
#include <vector>

namespace granular {

struct World;
struct Settings;

/// One simulation method (CD, CD at constant pressure, soft DEM, ...) behind a common interface.
class Stepper {
public:
    Stepper() = default;
    Stepper(const Stepper&) = delete;
    Stepper& operator=(const Stepper&) = delete;
    Stepper(Stepper&&) = delete;
    Stepper& operator=(Stepper&&) = delete;
    virtual ~Stepper() = default;

    [[nodiscard]] virtual std::string name() const = 0;
    /// Takes the live settings (dt, iterations, friction, ...) before the next step; throws ScenarioError
    /// when they do not fit this method.
    virtual void configure(const Settings& settings) = 0;
    /// Advances the world by one time step and reports what it did.
    virtual StepDiagnostics step(World& world) = 0;
    /// Advice for the user on the current settings (e.g. a time step too long for the contact
    /// duration), one sentence each with units; empty when all is well.
    [[nodiscard]] virtual std::vector<std::string> advisories(const World& /*world*/) const { return {}; }
    /// True once the method's own stopping rule holds (e.g. a relaxed packing): runs end early then.
    [[nodiscard]] virtual bool finished(const World& /*world*/) const { return false; }
};

}  // namespace granular
