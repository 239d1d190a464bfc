#include "sim/Simulation.h"

#include "cd/ContactDynamicsStepper.h"
#include "md/SoftParticleStepper.h"
#include "periodic/ConstantPressureStepper.h"
#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"
#include "sim/BallisticStepper.h"
#include "sim/WorldBuilder.h"

#include <stdexcept>

namespace granular {

std::unique_ptr<Stepper> makeStepper(const Scenario& scenario)
{
    const std::string& method = scenario.text("solver.method");
    if (method == "ballistic") {
        return std::make_unique<BallisticStepper>();
    }
    if (method == "cd") {
        return std::make_unique<ContactDynamicsStepper>(solverSettingsFrom(scenario),
                                                        static_cast<std::uint64_t>(scenario.integer("seed")));
    }
    if (method == "cd_pressure") {
        if (scenario.text("setup") != "periodic") {
            throw ScenarioError("solver.method: cd_pressure needs a periodic cell; accepted: with setup periodic");
        }
        return std::make_unique<ConstantPressureStepper>(static_cast<std::uint64_t>(scenario.integer("seed")));
    }
    if (method == "md") {
        return std::make_unique<SoftParticleStepper>(md::softParticleSettingsFrom(scenario));
    }
    throw std::logic_error("solver.method '" + method + "' is in the schema but has no stepper");
}

Simulation::Simulation(Scenario scenario) : scenario_(std::move(scenario))
{
    reset();
}

Simulation::Simulation(Scenario scenario, World state) : scenario_(std::move(scenario)), world_(std::move(state))
{
    const auto dimension = scenario_.integer("world.dimension");
    if (dimension != world_.dimension) {
        throw ScenarioError("world.dimension: the saved state is " + std::to_string(world_.dimension) +
                            "D; accepted: " + std::to_string(world_.dimension));
    }
    if (world_.piston.has_value() != (scenario_.text("setup") == "piston")) {
        throw ScenarioError("setup: the saved state " + std::string(world_.piston ? "has" : "has no") +
                            " piston; accepted: a scenario with the same setup");
    }
    if (world_.cell.has_value() != (scenario_.text("setup") == "periodic")) {
        throw ScenarioError("setup: the saved state " + std::string(world_.cell ? "has" : "has no") +
                            " periodic cell; accepted: a scenario with the same setup");
    }
    applyLiveParameters(world_, scenario_);
    stepper_ = makeStepper(scenario_);
    stepper_->configure(scenario_);
    observables_ = observablesFor(scenario_);
}

void Simulation::reset()
{
    world_ = buildWorld(scenario_);
    stepper_ = makeStepper(scenario_);
    stepper_->configure(scenario_);
    observables_ = observablesFor(scenario_);
    lastStep_ = {};
    contactUpdates_ = 0;
}

void Simulation::step()
{
    lastStep_ = stepper_->step(world_);
    contactUpdates_ += lastStep_.contactUpdates;
}

bool Simulation::setParameter(std::string_view key, const Value& value)
{
    const Value previous = scenario_.get(key);
    scenario_.set(key, value);
    const bool live = Schema::instance().find(key)->mutability == Mutability::Live;
    if (live) {
        try {
            stepper_->configure(scenario_);  // may reject a combination (e.g. md material keys)
        } catch (const ScenarioError&) {
            scenario_.set(key, previous);
            throw;
        }
        applyLiveParameters(world_, scenario_);
    }
    return live;
}

std::vector<double> Simulation::sample() const
{
    std::vector<double> row;
    row.reserve(observables_.size());
    for (const auto& observable : observables_) {
        row.push_back(observable.measure(world_, lastStep_));
    }
    return row;
}

}  // namespace granular
