#include "sim/Simulation.h"

#include "ballistic/BallisticStepper.h"
#include "cd/ContactDynamicsStepper.h"
#include "mcdem/MultiContactDeformation.h"
#include "md/SoftParticleStepper.h"
#include "model/WorldState.h"
#include "periodic/ConstantPressureStepper.h"
#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"
#include "settings/SettingsBinding.h"
#include "settings/SettingsChecks.h"
#include "setup/WorldBuilder.h"
#include "sim/BlowUpGuard.h"
#include "sim/StepGrid.h"
#include "util/Parallel.h"

#include <algorithm>
#include <chrono>
#include <type_traits>
#include <variant>

namespace granular {

std::unique_ptr<Stepper> makeStepper(const Settings& settings)
{
    switch (settings.solver.method) {
    case Method::Ballistic: {
        auto stepper = std::make_unique<BallisticStepper>();
        stepper->configure(settings);
        return stepper;
    }
    case Method::ContactDynamics:
        return std::make_unique<ContactDynamicsStepper>(settings);
    case Method::ConstantPressure:
        return std::make_unique<ConstantPressureStepper>(settings);
    case Method::SoftParticle:
        return std::make_unique<SoftParticleStepper>(md::softParticleSettingsFrom(settings));
    case Method::MultiContact:
        return std::make_unique<SoftParticleStepper>(md::softParticleSettingsFrom(settings),
                                                     std::make_unique<mcdem::MultiContactDeformation>(settings));
    }
    return nullptr;
}

Simulation::Simulation(Scenario scenario) : scenario_(std::move(scenario))
{
    reset();
}

Simulation::Simulation(Scenario scenario, World state)
    : scenario_(std::move(scenario)), settings_(parseSettings(scenario_)), world_(std::move(state))
{
    if (settings_.dimension != world_.dimension) {
        throw ScenarioError("world.dimension: the scenario's is " + std::to_string(settings_.dimension) +
                            "D, the saved state is " + std::to_string(world_.dimension) +
                            "D; accepted: " + std::to_string(world_.dimension));
    }
    const bool plate = settings_.setup == Setup::Piston || settings_.setup == Setup::Compression;
    if (world_.piston.has_value() != plate) {
        throw ScenarioError("setup: the saved state " + std::string(world_.piston ? "has" : "has no") +
                            " piston; accepted: a scenario with the same setup");
    }
    if (world_.cell.has_value() != (settings_.setup == Setup::Periodic)) {
        throw ScenarioError("setup: the saved state " + std::string(world_.cell ? "has" : "has no") +
                            " periodic cell; accepted: a scenario with the same setup");
    }
    checkProbeIndex(settings_, world_.particles.size());  // the probe reads the state's grains, not a built world's
    applyLiveParameters(world_, settings_);
    stepper_ = makeStepper(settings_);
    observables_ = observablesFor(settings_);
}

namespace {

void eraseKey(std::map<std::string, Value, std::less<>>& values, std::string_view key)
{
    if (const auto found = values.find(key); found != values.end()) {
        values.erase(found);
    }
}

/// `scenario` with the values of `values` set again.
Scenario withValues(Scenario scenario, const std::map<std::string, Value, std::less<>>& values)
{
    for (const auto& [key, value] : values) {
        scenario.set(key, value);
    }
    return scenario;
}

}  // namespace

Scenario Simulation::scenarioInForce() const
{
    return withValues(scenario_, waiting_);
}

std::vector<std::string> Simulation::waitingKeys() const
{
    std::vector<std::string> keys;
    for (const auto& [key, value] : waiting_) {
        if (scenario_.get(key) != value) {
            keys.push_back(key);
        }
    }
    return keys;
}

Scenario Simulation::resetScenario() const
{
    return withValues(scenario_, beforeLoadSteps_);
}

void Simulation::reset()
{
    Scenario scenario = resetScenario();
    Settings settings = parseSettings(scenario);  // with the edits that wait for a reset
    World world = buildWorld(settings);
    scenario_ = std::move(scenario);
    beforeLoadSteps_.clear();
    waiting_.clear();
    stepper_ = makeStepper(settings);
    settings_ = std::move(settings);
    world_ = std::move(world);
    observables_ = observablesFor(settings_);
    lastStep_ = {};
    contactUpdates_ = 0;
}

void Simulation::step()
{
    // The threads set, or fewer where that is faster for now: the results are the same on any count.
    const int threads = adaptiveSolverThreads() ? pace_.threadsFor(solverThreadSetting()) : solverThreadSetting();
    if (threads < lastStepThreads_) {
        releaseSolverTeam();  // the threads left out would spin a while beside this step's
    }
    // The step and the blow-up guard's loops over the grains on the same threads (the guard's on every thread set
    // would wait at their barriers for busy cores, as the step's would), and timed together.
    const SolverThreadCap cap(threads);
    const auto start = std::chrono::steady_clock::now();
    lastStep_ = stepper_->step(world_);
    lastStepThreads_ = std::min(threads, solverThreads());
    contactUpdates_ += lastStep_.contactUpdates;
    BlowUpGuard::check(world_, lastStep_, settings_, [this] { return stepper_->advisories(world_); });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The step's work: its contact updates and a move of each grain.
    pace_.record(threads, seconds,
                 static_cast<double>(lastStep_.contactUpdates) + static_cast<double>(world_.particles.size()));
}

bool Simulation::adopt(Scenario next, Settings edited, const std::vector<std::string>& changed)
{
    bool live = true;
    for (const auto& key : changed) {
        live = live && Schema::instance().find(key)->mutability == Mutability::Live;
    }
    if (live) {
        checkSettings(edited);
        stepper_->configure(edited);  // may refuse a combination the method cannot run
        applyLiveParameters(world_, edited);
        settings_ = std::move(edited);
        for (const auto& key : changed) {
            eraseKey(waiting_, key);  // in force now
        }
    } else {
        for (const auto& key : changed) {
            waiting_.try_emplace(key, scenario_.get(key));  // the value in force, from before the first waiting edit
        }
    }
    scenario_ = std::move(next);  // changes that are not live wait in the scenario for reset()
    return live;
}

bool Simulation::setParameter(std::string_view key, const Value& value)
{
    Scenario next = scenario_;
    next.set(key, value);
    Settings edited = settings_;
    assignSetting(edited, key, next.get(key));
    const bool live = adopt(std::move(next), std::move(edited), {std::string(key)});
    eraseKey(beforeLoadSteps_, key);  // the user's value stands at reset
    return live;
}

void Simulation::setOnReset(std::string_view key, const Value& value)
{
    Scenario next = scenario_;
    next.set(key, value);
    (void)parseSettings(withValues(next, beforeLoadSteps_));     // what reset() would build from: throws if it cannot
    waiting_.try_emplace(std::string(key), scenario_.get(key));  // the value in force, from before the first wait
    scenario_ = std::move(next);
    eraseKey(beforeLoadSteps_, key);  // the user's value stands at reset
}

bool Simulation::applySettings(const Settings& edited)
{
    Scenario next = scenario_;
    const auto changed = writeChanges(next, settings_, edited);
    const bool live = adopt(std::move(next), edited, changed);
    for (const auto& key : changed) {
        eraseKey(beforeLoadSteps_, key);
    }
    return live;
}

LoadStepChange Simulation::applyLoadStep()
{
    if (!world_.piston) {
        throw ScenarioError("setup: this scenario has no piston to load; accepted: setup piston");
    }
    if (settings_.piston.loadStep == 0.0) {
        throw ScenarioError("piston.load_step: dF is 0 N; accepted: a non-zero force, set it first");
    }
    LoadStepChange change;
    change.forceBefore = world_.piston->appliedForce(world_.time);
    Settings edited = settings_;
    // An earlier step already acts: fold it into F so that this one adds dF again.
    if (world_.steps > 0 && world_.time >= settings_.piston.loadStepTime) {
        edited.piston.force += settings_.piston.loadStep;
    }
    // The next step integrates to t + dt >= load_step_time: F + dF acts from that step on.
    edited.piston.loadStepTime = world_.time;
    Scenario next = scenario_;
    change.changedKeys = writeChanges(next, settings_, edited);
    std::map<std::string, Value, std::less<>> before = beforeLoadSteps_;
    for (const auto& key : change.changedKeys) {
        before.try_emplace(key, scenario_.get(key));  // the value before the first load step
    }
    adopt(std::move(next), std::move(edited), change.changedKeys);
    beforeLoadSteps_ = std::move(before);
    change.forceAfter = world_.piston->appliedForce(world_.time + 0.5 * settings_.solver.dt);
    return change;
}

std::vector<std::string> Simulation::advisories() const
{
    std::vector<std::string> advice = stepper_->advisories(world_);
    for (auto& line : stepGridAdvisories(settings_)) {
        advice.push_back(std::move(line));
    }
    return advice;
}

std::unique_ptr<Simulation> Simulation::withMethod(Method method) const
{
    Settings edited = settings_;
    edited.solver.method = method;
    // Built with the settings in force (as the world is); the edits that wait for a reset keep waiting.
    Scenario inForce = scenarioInForce();
    writeChanges(inForce, settings_, edited);
    auto continued = std::make_unique<Simulation>(std::move(inForce), world_);
    // The method chosen now is the one a reset builds too: a method that waited for the reset (setOnReset) gives way,
    // also where the method chosen is the one in force.
    continued->scenario_ = scenario_;
    continued->scenario_.set("solver.method", Value(std::string(choiceName(method))));  // the one key edited differs
    continued->waiting_ = waiting_;
    eraseKey(continued->waiting_, "solver.method");
    continued->beforeLoadSteps_ = beforeLoadSteps_;
    // What the state shows until the new method's first step: its contacts and overlaps as the last step left them
    // (the studio read 0 contacts and 0 m beside a view of 130 contacts); nothing of the other solver's own work.
    continued->lastStep_.contacts = lastStep_.contacts;
    continued->lastStep_.slidingContacts = lastStep_.slidingContacts;
    continued->lastStep_.meanOverlap = lastStep_.meanOverlap;
    continued->lastStep_.maxOverlap = lastStep_.maxOverlap;
    return continued;
}

namespace {

// A value's kind in a saved state is its index in Value: saved states depend on this order.
static_assert(std::is_same_v<std::variant_alternative_t<0, Value>, double>);
static_assert(std::is_same_v<std::variant_alternative_t<1, Value>, std::int64_t>);
static_assert(std::is_same_v<std::variant_alternative_t<2, Value>, bool>);
static_assert(std::is_same_v<std::variant_alternative_t<3, Value>, std::string>);

/// The scenario values that load steps replaced (Simulation::beforeLoadSteps_): their keys and values.
void saveValues(StateWriter& out, const std::map<std::string, Value, std::less<>>& values)
{
    out.put(static_cast<std::uint64_t>(values.size()));
    for (const auto& [key, value] : values) {
        out.put(key);
        out.put(static_cast<std::uint8_t>(value.index()));
        std::visit(
            [&out](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, bool>) {
                    out.put(static_cast<std::uint8_t>(v ? 1 : 0));
                } else {
                    out.put(v);
                }
            },
            value);
    }
}

std::map<std::string, Value, std::less<>> loadValues(StateReader& in)
{
    std::map<std::string, Value, std::less<>> values;
    const auto count = in.get<std::uint64_t>();
    for (std::uint64_t n = 0; n < count; ++n) {
        std::string key = in.getString();
        const auto kind = in.get<std::uint8_t>();
        Value value;
        switch (kind) {
        case 0:
            value = in.get<double>();
            break;
        case 1:
            value = in.get<std::int64_t>();
            break;
        case 2:
            value = in.get<std::uint8_t>() != 0;
            break;
        case 3:
            value = in.getString();
            break;
        default:
            throw StateError("the value of " + key + " before the load steps is of kind " + std::to_string(kind) +
                             "; accepted: 0 (a number), 1 (a whole number), 2 (true or false) or 3 (a text)");
        }
        values.emplace(std::move(key), std::move(value));
    }
    return values;
}

}  // namespace

void Simulation::saveState(StateWriter& out, LoadStepRecord record) const
{
    saveWorld(out, world_);
    // The stages' wall times are of the machine, not of the state: without them a state saved twice from the same run
    // is the same bytes (two checkpoints of one resume differed in them and in their checksums).
    StepDiagnostics lastStep = lastStep_;
    lastStep.stageSeconds.fill(0.0);
    out.put(lastStep);
    out.put(contactUpdates_);
    stepper_->saveState(out);
    if (record == LoadStepRecord::With) {
        saveValues(out, beforeLoadSteps_);
    }
}

std::unique_ptr<Simulation> Simulation::restore(Scenario scenario, StateReader& in, LoadStepRecord record)
{
    World world = loadWorld(in);
    auto simulation = std::make_unique<Simulation>(std::move(scenario), std::move(world));
    simulation->lastStep_ = in.get<StepDiagnostics>();
    simulation->contactUpdates_ = in.get<std::int64_t>();
    simulation->stepper_->loadState(in);
    simulation->stepper_->checkState(simulation->world_);
    if (record == LoadStepRecord::With) {
        simulation->beforeLoadSteps_ = loadValues(in);
        // Each value must be one its key takes (Scenario::set); whether they fit together with the other keys is
        // reset()'s to say, as it is in a running simulation (a live edit after a load step may make a combination
        // that only reset() refuses).
        (void)simulation->resetScenario();
    }
    return simulation;
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
