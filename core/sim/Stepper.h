#pragma once

#include "sim/StepDiagnostics.h"

#include <string>

namespace granular {

struct World;
class Scenario;

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
    /// Reads the live parameters of the scenario (dt, iterations, gravity, ...) before the next step.
    virtual void configure(const Scenario& scenario) = 0;
    /// Advances the world by one time step and reports what it did.
    virtual StepDiagnostics step(World& world) = 0;
};

}  // namespace granular
