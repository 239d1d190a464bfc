#pragma once

#include "model/World.h"
#include "scenario/Scenario.h"
#include "sim/Frame.h"
#include "sim/Observable.h"
#include "sim/StepDiagnostics.h"
#include "sim/Stepper.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace granular {

/// A scenario brought to life: the world, its method and its observables.
/// Not thread-safe: one owner at a time (the CLI's main thread or the studio's simulation thread).
class Simulation {
public:
    /// Builds the world; throws ScenarioError if the scenario's parameters do not fit together.
    explicit Simulation(Scenario scenario);
    /// Continues from a saved state (e.g. a packing prepared once and loaded differently several
    /// times): the method is built from the scenario, the world is taken as it is.
    /// Throws ScenarioError when the state does not fit the scenario (dimension, setup).
    Simulation(Scenario scenario, World state);

    void step();
    /// Rebuilds the world from the scenario (including parameters that apply on reset).
    void reset();

    /// Changes a parameter. Live ones take effect before the next step; the others at reset().
    /// Returns true when the change is live. Throws ScenarioError on an invalid value.
    bool setParameter(std::string_view key, const Value& value);

    [[nodiscard]] const Scenario& scenario() const { return scenario_; }
    [[nodiscard]] const World& world() const { return world_; }
    [[nodiscard]] const StepDiagnostics& lastStep() const { return lastStep_; }
    [[nodiscard]] const std::vector<Observable>& observables() const { return observables_; }
    /// Current values of the observables, in the order of observables().
    [[nodiscard]] std::vector<double> sample() const;
    [[nodiscard]] std::shared_ptr<const Frame> frame() const { return Frame::capture(world_); }
    /// The method's advice on the current settings (see Stepper::advisories); empty when none.
    [[nodiscard]] std::vector<std::string> advisories() const { return stepper_->advisories(world_); }
    /// True once the method's stopping rule holds (see Stepper::finished).
    [[nodiscard]] bool finished() const { return stepper_->finished(world_); }
    /// Total one-contact solves since the last reset.
    [[nodiscard]] std::int64_t contactUpdates() const { return contactUpdates_; }

private:
    Scenario scenario_;
    World world_;
    std::unique_ptr<Stepper> stepper_;
    std::vector<Observable> observables_;
    StepDiagnostics lastStep_;
    std::int64_t contactUpdates_ = 0;
};

/// The method named by `solver.method`.
std::unique_ptr<Stepper> makeStepper(const Scenario& scenario);

}  // namespace granular
