#pragma once

#include "SimulationUpdate.h"

#include <QObject>
#include <QStringList>
#include <QThread>

#include <cstdint>
#include <memory>
#include <string>

namespace granular {
class Simulation;
}

namespace granular::ui {

/// Runs a Simulation on its own thread and takes the studio's commands.
///
/// Threads: this object lives on the GUI thread; its worker (and the Simulation it owns
/// exclusively) lives on the simulation thread that this object starts and joins. Commands are
/// queued to the worker and applied between steps; a running batch ends at the next step boundary
/// when a command is waiting, and pause() is seen before the next step starts. Every signal of
/// this class is emitted on the GUI thread.
///
/// The worker publishes into a mailbox at most ~60 times a second: the newest frame and status
/// replace older ones (latest-wins), series rows accumulate. updateAvailable() fires once per
/// mailbox fill, never piling up; takeUpdate() empties it. Rendering therefore never blocks
/// stepping, and a slow GUI only sees fewer frames.
///
/// A run that is built afresh (start, reset, loadScenario) plays on its own to `studio.start_time` and pauses
/// there (runningChanged(true), then runningChanged(false)): the prepared state a lesson starts from.
class SimulationController final : public QObject {
    Q_OBJECT

public:
    /// What the first run is: a scenario built afresh, which plays on its own to its studio.start_time, or a saved
    /// state, which opens where it stands and paused (as openState()).
    enum class Opening { Scenario, SavedState };

    /// Takes over `simulation` (built on the caller's thread and not touched there again) and
    /// starts the simulation thread. `origin` names the scenario (built-in name or file path) or the state's file.
    SimulationController(std::unique_ptr<Simulation> simulation, std::string origin,
                         Opening opening = Opening::Scenario, QObject* parent = nullptr);
    ~SimulationController() override;
    Q_DISABLE_COPY_MOVE(SimulationController)

    /// Moves out what was published since the last call.
    [[nodiscard]] SimulationUpdate takeUpdate();
    /// Steps since the run was built (any thread; read between steps by the simulation thread).
    [[nodiscard]] std::int64_t steps() const;
    /// Whether the simulation thread is stepping on its own (play) right now.
    [[nodiscard]] bool isRunning() const;
    /// Whether a run built as `simulation` is played to its studio.start_time first (more than half a step ahead).
    [[nodiscard]] static bool preparesStart(const Simulation& simulation);

    /// Frame rate limit of the mailbox, frames per second.
    static constexpr double kMaximumFrameRate = 60.0;

public slots:  // NOLINT(readability-redundant-access-specifiers): moc needs the slots section
    /// Steps until paused; the first play stops at `run.time`, a play after that goes on.
    void play();
    /// Runs `count` more steps as fast as allowed, then pauses (the command line's --after-steps);
    /// neither run.time nor the method's stopping rule ends it earlier.
    void playSteps(qint64 count);
    /// Stops before the next step.
    void pause();
    void togglePlay();
    /// Pauses and advances by exactly one step.
    void stepOnce();
    /// Pauses and rebuilds the world from the scenario, with the parameters that apply on reset.
    void reset();
    /// File > Open packing: sets particles.file to `path` and particles.file_up_axis to `upAxis`, then resets; where
    /// the reset refuses the packing, both keys go back to their values before (commandFailed() says why).
    void openPacking(const QString& path, const QString& upAxis);
    /// Validates `text` for `key` with the schema and applies it (live ones before the next step);
    /// answers parameterAccepted() or parameterRejected(). `solver.method` switches the method.
    void setParameter(const QString& key, const QString& text);
    /// F -> F + dF from the next step on (dF = piston.load_step); each load step adds dF again.
    void applyLoadStep();
    /// Steps per published frame while playing; 0: as many as fit (frames at most 60/s).
    void setStepsPerFrame(int steps);
    /// Switches `solver.method` and goes on from the current state with the new method.
    void changeMethod(const QString& method);
    /// Pauses and replaces the scenario by a built-in or a JSON file, with KEY=VALUE assignments.
    void loadScenario(const QString& nameOrPath, const QStringList& assignments = {});
    /// Writes the scenario and the complete state at the current step to `path` (the checkpoint format, without a
    /// run session); a run that is playing goes on. Answers stateSaved() or commandFailed().
    void saveState(const QString& path);
    /// Pauses and goes on from a state saved by saveState() or a run's checkpoint.bin; a file that cannot be used
    /// leaves the current run as it is and answers commandFailed() with one line naming it.
    void openState(const QString& path);

signals:
    /// The mailbox has something new: call takeUpdate().
    void updateAvailable();
    void runningChanged(bool running);
    /// `live` false: the edit waits for a reset (a key applied on reset, set to other than its value in force).
    void parameterAccepted(const QString& key, const QString& value, bool live);
    /// `message` is the schema's one line naming the key and the accepted range.
    void parameterRejected(const QString& key, const QString& message);
    /// A command that could not be carried out (a reset whose parameters do not fit, ...).
    void commandFailed(const QString& message);
    /// Something the user should know, for the status bar (load step applied, run.time reached).
    void notice(const QString& message);
    /// A notice shown before no longer holds: "Ready at t = ...: press Play to go on" once the run plays.
    void noticeOutdated(const QString& message);
    /// The blow-up guard stopped the run: `message` names the step, the quantity and a likely cause. The run is
    /// paused and refuses to step until it is reset, a state is opened or another scenario is loaded.
    void blownUp(const QString& message);
    /// saveState() wrote `path` at simulated time `time` (s).
    void stateSaved(const QString& path, double time);

private:
    class Worker;
    struct Shared;

    /// Queues `command` to the worker; a running batch ends at the next step boundary.
    template <class Command> void post(Command command);

    std::shared_ptr<Shared> shared_;
    QThread thread_;
    Worker* worker_ = nullptr;  ///< lives on thread_; deleted here after thread_ has stopped
};

}  // namespace granular::ui
