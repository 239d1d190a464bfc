#pragma once

#include "method/StepDiagnostics.h"
#include "method/Stepper.h"
#include "model/World.h"
#include "observe/Observable.h"
#include "scenario/Scenario.h"
#include "settings/Settings.h"
#include "sim/Frame.h"
#include "sim/ThreadPace.h"
#include "util/StateArchive.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace granular {

/// What a load step changed: the piston force before and after it, N.
struct LoadStepChange {
    double forceBefore = 0.0;              ///< N, applied at the current time before the step
    double forceAfter = 0.0;               ///< N, applied from the next step on
    std::vector<std::string> changedKeys;  ///< the scenario keys it set
};

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

    /// One step of the method. Throws BlowUp (the world is then broken: reset() or stop) when the blow-up guard
    /// finds it unphysical.
    void step();
    /// Rebuilds the world from the scenario (including parameters that apply on reset). Throws
    /// ScenarioError when they do not fit together; nothing changes then.
    void reset();

    /// Changes a parameter by its key (the studio's parameter panel). Live ones take effect before the
    /// next step; the others at reset(). Returns true when the change is live. Throws ScenarioError on an
    /// invalid value or a combination that does not fit; nothing changes then.
    bool setParameter(std::string_view key, const Value& value);
    /// The same for a typed edit: every field of `edited` that differs from settings() is set.
    /// Returns true when every changed key is live.
    bool applySettings(const Settings& edited);
    /// A load step of the piston experiment (Unger & Kertesz 2003, Fig. 8): F -> F + dF from the next
    /// step on. A load step that already acts is folded into F first, so that each call adds dF again.
    /// Throws ScenarioError when there is no piston or dF (piston.load_step) is 0.
    LoadStepChange applyLoadStep();
    /// Sets a parameter for the next reset() only, whatever its kind: what a live change cannot take because the world
    /// in force does not fit it but the scenario with its waiting edits does (a method switch to cd_pressure while
    /// setup = periodic waits for the reset). Throws ScenarioError, changing nothing, when reset() could not build the
    /// scenario with the change.
    void setOnReset(std::string_view key, const Value& value);
    /// A simulation that goes on from the present state (same particles, same clock) with another method.
    /// Throws ScenarioError when the method does not fit the setup.
    [[nodiscard]] std::unique_ptr<Simulation> withMethod(Method method) const;

    /// The scenario with every edit, including those that wait for reset().
    [[nodiscard]] const Scenario& scenario() const { return scenario_; }
    /// The scenario the simulation runs with: scenario() without the edits that wait for reset(). What a method switch
    /// goes on with and what a saved state holds (its settings must be those of the saved world).
    [[nodiscard]] Scenario scenarioInForce() const;
    /// The keys whose edits wait for reset() (their value in scenario() is not the one in force).
    [[nodiscard]] std::vector<std::string> waitingKeys() const;
    /// The scenario that reset() builds: scenario() without what load steps wrote into it (piston.force and
    /// piston.load_step_time act on the running state, like a push; the prepared run starts as it was set). A key the
    /// user set since keeps the user's value.
    [[nodiscard]] Scenario resetScenario() const;
    /// The settings the simulation runs with.
    [[nodiscard]] const Settings& settings() const { return settings_; }
    [[nodiscard]] const World& world() const { return world_; }
    [[nodiscard]] const StepDiagnostics& lastStep() const { return lastStep_; }
    /// The solver threads the last step ran on: those set, or fewer where the pace found fewer faster
    /// (adaptiveSolverThreads, sim/ThreadPace.h).
    [[nodiscard]] int lastStepThreads() const { return lastStepThreads_; }
    [[nodiscard]] const std::vector<Observable>& observables() const { return observables_; }
    /// Current values of the observables, in the order of observables().
    [[nodiscard]] std::vector<double> sample() const;
    [[nodiscard]] std::shared_ptr<const Frame> frame() const { return Frame::capture(world_); }
    /// The method's advice on the current settings (see Stepper::advisories), then what whole steps make of run.time
    /// and output.interval (stepGridAdvisories); empty when none.
    [[nodiscard]] std::vector<std::string> advisories() const;
    /// True once the method's stopping rule holds (see Stepper::finished).
    [[nodiscard]] bool finished() const { return stepper_->finished(world_); }
    /// Whether a saved state ends with the record of what load steps replaced in the scenario (what reset() goes
    /// back to): checkpoint format 2 on; a format 1 state ends without it.
    enum class LoadStepRecord : std::uint8_t { Without, With };
    /// Appends the simulation's whole state (the world, what the method carries between steps, the last step's
    /// diagnostics and, unless told, the record of load steps) to a checkpoint.
    void saveState(StateWriter& out, LoadStepRecord record = LoadStepRecord::With) const;
    /// A simulation of `scenario` (the scenario in force when it was saved) that goes on from a saved state exactly as
    /// the saved one would have; its reset() goes back to what the record of load steps holds (the saved scenario
    /// where the state has none). Throws StateError when the record is not a saved state, ScenarioError when it does
    /// not fit the scenario or a value in its record of load steps is not one its key takes.
    [[nodiscard]] static std::unique_ptr<Simulation> restore(Scenario scenario, StateReader& in,
                                                             LoadStepRecord record = LoadStepRecord::With);

    /// Total one-contact solves since the last reset.
    [[nodiscard]] std::int64_t contactUpdates() const { return contactUpdates_; }

private:
    /// Takes the edited scenario; when every key in `changed` is live, `edited` (the running settings with
    /// the change) reaches the method and the world now, else the change waits in the scenario for reset().
    bool adopt(Scenario next, Settings edited, const std::vector<std::string>& changed);

    Scenario scenario_;
    Settings settings_;
    World world_;
    /// The values in force of the keys edited since the last reset() whose edits wait for it.
    std::map<std::string, Value, std::less<>> waiting_;
    /// The scenario's values of the keys that load steps changed, from before the first of them.
    std::map<std::string, Value, std::less<>> beforeLoadSteps_;
    std::unique_ptr<Stepper> stepper_;
    std::vector<Observable> observables_;
    StepDiagnostics lastStep_;
    std::int64_t contactUpdates_ = 0;
    ThreadPace pace_;
    int lastStepThreads_ = 1;
};

/// The stepper of the method named by the settings (solver.method).
std::unique_ptr<Stepper> makeStepper(const Settings& settings);

}  // namespace granular
