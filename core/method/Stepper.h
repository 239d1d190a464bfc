#pragma once

#include "method/StepDiagnostics.h"

#include <string>
#include <vector>

namespace granular {

struct World;
struct Settings;
class StateWriter;
class StateReader;

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
    /// Appends what the method carries from one step to the next beyond the world (random generators, contact
    /// histories, ...) to a checkpoint; loadState() restores it, after which the next step is the one the saved
    /// method would have taken, to the last bit.
    virtual void saveState(StateWriter& /*out*/) const {}
    virtual void loadState(StateReader& /*in*/) {}
    /// Throws StateError where the loaded state does not fit the world it was loaded with (its records counted for
    /// other grains or contacts: a damaged file whose checksum was made to match).
    virtual void checkState(const World& /*world*/) const {}
};

}  // namespace granular
