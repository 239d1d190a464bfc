#include "SimulationController.h"

#include "ScenarioArguments.h"
#include "SeriesColumns.h"
#include "SimulationFile.h"
#include "ThreadPriority.h"
#include "ValueText.h"
#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"
#include "scenario/Value.h"
#include "sim/BlowUpGuard.h"
#include "sim/Run.h"
#include "sim/Simulation.h"

#include <QTimer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

namespace granular::ui {

namespace {

using Clock = std::chrono::steady_clock;

/// Longest stretch of stepping between two looks at the event loop while playing, s: queued
/// commands (other than pause, which is seen between any two steps) wait at most this long.
constexpr double kBatchSeconds = 0.015;
/// Window over which steps per second are measured, s.
constexpr double kRateWindowSeconds = 0.5;

double secondsBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double>(to - from).count();
}

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

}  // namespace

/// State both threads touch: the mailbox under its mutex, and the atomics the stepping loop
/// checks between steps.
struct SimulationController::Shared {
    std::mutex mutex;
    SimulationUpdate mailbox;              ///< guarded by mutex
    bool notified = false;                 ///< guarded by mutex: an updateAvailable() is on its way
    std::atomic<bool> wantRunning{false};  ///< the GUI's latest intent: play or pause
    std::atomic<bool> running{false};      ///< whether the worker is stepping on its own
    std::atomic<int> commands{0};          ///< commands queued to the worker, not yet applied
    std::atomic<std::int64_t> steps{0};
};

/// The simulation thread's side: owns the Simulation and steps it. Every member function runs on
/// the simulation thread.
class SimulationController::Worker final : public QObject {
public:
    Worker(SimulationController& controller, std::shared_ptr<Shared> shared, std::unique_ptr<Simulation> simulation,
           std::string origin)
        : controller_(&controller), shared_(std::move(shared)), simulation_(std::move(simulation)),
          origin_(std::move(origin)), timer_(new QTimer(this))
    {
        timer_->setSingleShot(true);
        timer_->setTimerType(Qt::PreciseTimer);
        connect(timer_, &QTimer::timeout, this, [this] { runBatch(); });
    }

    /// Announces the run the worker was built with (first thing on the simulation thread); a scenario built afresh
    /// then plays to its studio.start_time, a saved state opens where it stands.
    void start(SimulationController::Opening opening)
    {
        originIsState_ = opening == SimulationController::Opening::SavedState;
        runBehindTheGui();  // the drawing first where both want a core; the solver's threads inherit it
        announceRun(false);
        if (!originIsState_) {
            prepareStart();
        }
    }

    void shutdown()
    {
        timer_->stop();
        simulation_.reset();
    }

    void play()
    {
        if (!simulation_ || refuseBroken()) {
            return;
        }
        preparing_ = false;
        // Set again here: a halt() of a command posted before this one (a step, a reset) may have cleared the flag
        // that the GUI set when it posted this play; a pause posted after it still wins, in queue order.
        shared_->wantRunning = true;
        const double runTime = simulation_->settings().run.time;
        stopAtTime_ = simulation_->world().time < runTime - halfStep() ? runTime : infinity();
        stopAtSteps_ = -1;
        startRunning();
    }

    void playSteps(std::int64_t count)
    {
        if (refuseBroken()) {
            return;
        }
        preparing_ = false;
        shared_->wantRunning = true;  // as in play()
        stopAtTime_ = infinity();
        stopAtSteps_ = simulation_->world().steps + count;
        startRunning();
    }

    void pause() { stopRunning(); }

    void stepOnce()
    {
        const bool wasRunning = halt();
        if (!refuseBroken()) {
            advance();
            publish(true);
        }
        announceStopped(wasRunning);
    }

    void reset() { (void)rebuild(); }

    /// particles.file and its up axis, then a reset; where the reset refuses the packing, both keys go back to what
    /// they were (they stayed set, and every later reset failed on them until the field was cleared by hand).
    void openPacking(const std::string& path, const std::string& upAxis)
    {
        const Value file = simulation_->scenario().get("particles.file");
        const Value axis = simulation_->scenario().get("particles.file_up_axis");
        setParameter("particles.file", path);
        if (simulation_->scenario().get("particles.file") != Value(path)) {
            return;  // the path itself refused (parameterRejected): the run goes on as it was
        }
        setParameter("particles.file_up_axis", upAxis);
        if (rebuild()) {
            return;
        }
        for (const auto& [key, value] :
             {std::pair{"particles.file", file}, std::pair{"particles.file_up_axis", axis}}) {
            try {
                apply(key, value);
            } catch (const std::exception& error) {
                fail(QStringLiteral("Open packing: %1 could not be set back (%2)")
                         .arg(QString::fromUtf8(key), QString::fromUtf8(error.what())));
            }
        }
        publish(true);
    }

    /// Pauses and rebuilds the world from the scenario (reset); returns whether it could.
    bool rebuild()
    {
        announceStopped(halt());
        try {
            auto fresh = std::make_unique<Simulation>(simulation_->resetScenario());
            simulation_ = std::move(fresh);
            forgetRun();
            notice(QStringLiteral("Reset: %1 rebuilt").arg(qs(origin_)));
            prepareStart();
            return true;
        } catch (const std::exception& error) {
            const std::string message = error.what();
            fail(QStringLiteral("Reset failed: %1").arg(QString::fromStdString(message)));
            // A refusal that names a key ("key: ...", e.g. an edit that waited for the reset and does not fit the
            // others) marks that key's field, where it can be changed; the edits keep waiting.
            const std::size_t colon = message.find(':');
            if (colon != std::string::npos && Schema::instance().find(message.substr(0, colon)) != nullptr) {
                const QString key = qs(message.substr(0, colon));
                const QString text = QStringLiteral("The reset refused it: %1").arg(QString::fromStdString(message));
                post([key, text](SimulationController& c) { emit c.parameterRejected(key, text); });
            }
            return false;
        }
    }

    void setParameter(const std::string& key, const std::string& text)
    {
        std::optional<Value> parsed;
        try {
            const Value value = Schema::instance().parse(key, text);
            parsed = value;
            if (key == "solver.method") {  // switches the method on the running state
                changeMethod(std::get<std::string>(value));
                return;
            }
            apply(key, value);
            publish(true);
        } catch (const std::exception& error) {
            std::string refusal = error.what();
            // A rule between two keys names the other one first ("piston.load_step: -10000 N makes the piston's
            // force ..." for piston.force = 5000): say which edit it refuses.
            if (parsed && refusal.rfind(key + ":", 0) != 0) {
                refusal = key + " = " + withUnit(qs(key), displayText(*parsed)).toStdString() +
                          " is refused: " + std::string(error.what());
            }
            const QString message = QString::fromStdString(refusal);
            const QString k = qs(key);
            post([k, message](SimulationController& c) { emit c.parameterRejected(k, message); });
        }
    }

    /// Sets `key` to `value` in the simulation and tells the GUI (parameterAccepted); throws where the simulation
    /// refuses it.
    void apply(const std::string& key, const Value& value)
    {
        const bool live = simulation_->setParameter(key, value);
        // Not live but set back to the value in force: nothing waits (the panel drops its pending mark).
        const auto waiting = simulation_->waitingKeys();
        accepted(key, value, live || std::find(waiting.begin(), waiting.end(), key) == waiting.end());
    }

    /// A method that the world in force cannot take may fit the edits waiting for the reset (cd_pressure while
    /// setup = periodic waits): it then waits for the reset too. Returns whether it does.
    bool waitForReset(const std::string& name)
    {
        if (simulation_->waitingKeys().empty()) {
            return false;
        }
        try {
            simulation_->setOnReset("solver.method", Value(name));
        } catch (const ScenarioError&) {
            return false;
        }
        accepted("solver.method", Value(name), false);
        publish(true);
        return true;
    }

    void changeMethod(const std::string& name)
    {
        try {
            const auto method = choiceNamed<Method>(name);
            if (!method) {
                throw ScenarioError("solver.method: \"" + name + "\" is not a known method");
            }
            const std::string previous(choiceName(simulation_->settings().solver.method));
            // The new method continues from the present state: same particles, same clock.
            try {
                simulation_ = simulation_->withMethod(*method);
            } catch (const ScenarioError&) {
                if (!waitForReset(name)) {
                    throw;  // the world in force's reason
                }
                return;
            }
            accepted("solver.method", name, true);
            announceRun(true);
            notice(QStringLiteral("Method %1 -> %2 at t = %3 s")
                       .arg(qs(previous), qs(name))
                       .arg(simulation_->world().time, 0, 'g', 6));
        } catch (const std::exception& error) {
            const QString message = QString::fromUtf8(error.what());
            post([message](SimulationController& c) {
                emit c.parameterRejected(QStringLiteral("solver.method"), message);
            });
        }
    }

    void applyLoadStep()
    {
        const World& world = simulation_->world();
        LoadStepChange change;
        try {
            change = simulation_->applyLoadStep();
        } catch (const std::exception& error) {
            fail(QStringLiteral("Load step: %1").arg(QString::fromUtf8(error.what())));
            return;
        }
        for (const auto& key : change.changedKeys) {
            accepted(key, simulation_->scenario().get(key), true);
        }
        notice(QStringLiteral("Load step at t = %1 s: F = %2 N -> %3 N")
                   .arg(world.time, 0, 'g', 6)
                   .arg(change.forceBefore, 0, 'g', 6)
                   .arg(change.forceAfter, 0, 'g', 6));
        publish(true);
    }

    void setStepsPerFrame(int steps)
    {
        stepsPerFrame_ = std::max(0, steps);
        stepsSinceFrame_ = 0;
    }

    void loadScenario(const std::string& nameOrPath, const std::vector<std::string>& assignments)
    {
        announceStopped(halt());
        try {
            auto fresh = std::make_unique<Simulation>(scenarioFromArguments(nameOrPath, assignments));
            simulation_ = std::move(fresh);
            origin_ = nameOrPath;
            originIsState_ = false;
            forgetRun();
            notice(QStringLiteral("Loaded %1").arg(qs(nameOrPath)));
            prepareStart();
        } catch (const std::exception& error) {
            fail(QString::fromUtf8(error.what()));
        }
    }

    void saveState(const std::string& path)
    {
        try {
            saveSimulationFile(path, *simulation_);
            const QString p = qs(path);
            const double time = simulation_->world().time;
            post([p, time](SimulationController& c) { emit c.stateSaved(p, time); });
        } catch (const std::exception& error) {
            fail(QStringLiteral("Save state: %1").arg(QString::fromUtf8(error.what())));
        }
    }

    void openState(const std::string& path)
    {
        announceStopped(halt());
        try {
            auto restored = openSimulationFile(path);
            simulation_ = std::move(restored);
            origin_ = path;
            originIsState_ = true;
            forgetRun();
            notice(QStringLiteral("Opened the state of %1 at t = %2 s")
                       .arg(qs(path))
                       .arg(simulation_->world().time, 0, 'g', 6));
        } catch (const std::exception& error) {
            fail(QStringLiteral("Open state: %1").arg(QString::fromUtf8(error.what())));
        }
    }

private:
    static double infinity() { return std::numeric_limits<double>::infinity(); }

    /// A new world replaced the run's (reset, load, open): what was said of the old one goes, and the GUI is told of
    /// the new run. Its "press Play" notice is no longer this run's: the new one's notices replace it on the bar, and a
    /// Play of the new run has none of its own to take away.
    void forgetRun()
    {
        blowUp_.clear();
        playHint_.clear();
        announceRun(false);
    }

    /// After a blow-up the world is broken: says so (commandFailed) and returns true.
    bool refuseBroken()
    {
        if (blowUp_.empty()) {
            return false;
        }
        shared_->wantRunning = false;
        fail(QStringLiteral("The run blew up (%1); reset, open a state or load a scenario to go on").arg(qs(blowUp_)));
        post([](SimulationController& c) { emit c.runningChanged(false); });
        return true;
    }

    [[nodiscard]] double halfStep() const { return 0.5 * simulation_->settings().solver.dt; }

    /// A freshly built run plays on its own to studio.start_time and pauses there: the state a lesson starts
    /// from (piston2d: the packing compressed, before the load step). The frames and rows on the way are shown
    /// as in any play; pause stops it, play goes on from wherever it is.
    void prepareStart()
    {
        if (!SimulationController::preparesStart(*simulation_)) {
            return;
        }
        const double start = simulation_->settings().studioStartTime;
        shared_->wantRunning = true;
        stopAtTime_ = start;
        stopAtSteps_ = -1;
        preparing_ = true;
        notice(QStringLiteral("Preparing the run: playing to t = %1 s (studio.start_time)").arg(start, 0, 'g', 6));
        startRunning();
    }

    /// Queues `signal` to be emitted by the controller on the GUI thread. A controller that is gone
    /// drops it with its other posted events.
    template <class Emit> void post(Emit emitter)
    {
        QMetaObject::invokeMethod(
            controller_, [c = controller_, emitter = std::move(emitter)] { emitter(*c); }, Qt::QueuedConnection);
    }

    void notice(const QString& message)
    {
        post([message](SimulationController& c) { emit c.notice(message); });
    }

    void fail(const QString& message)
    {
        post([message](SimulationController& c) { emit c.commandFailed(message); });
    }

    void accepted(const std::string& key, const Value& value, bool live)
    {
        const QString k = qs(key);
        const QString v = displayText(value);
        post([k, v, live](SimulationController& c) { emit c.parameterAccepted(k, v, live); });
        // A run announced but not taken yet was described before this edit: the GUI would show its values over the
        // edit's. It now describes the settings in force and the edits waiting.
        const std::scoped_lock lock(shared_->mutex);
        if (auto& run = shared_->mailbox.run) {
            run->scenario = simulation_->scenario();
            run->settings = simulation_->settings();
            run->waiting = simulation_->waitingKeys();
        }
    }

    void startRunning()
    {
        if (!playHint_.isEmpty()) {
            post(
                [hint = std::exchange(playHint_, QString())](SimulationController& c) { emit c.noticeOutdated(hint); });
        }
        if (!shared_->running.exchange(true)) {
            post([](SimulationController& c) { emit c.runningChanged(true); });
        }
        stepsSinceFrame_ = 0;
        rateWindowStart_ = Clock::now();
        rateWindowSteps_ = 0;
        rateWindowThreads_.clear();
        timer_->start(0);
    }

    /// Stops stepping on its own; returns whether it was.
    bool halt()
    {
        preparing_ = false;
        shared_->wantRunning = false;
        timer_->stop();
        return shared_->running.exchange(false);
    }

    /// After halt(): tells the GUI, once the mailbox holds the last state.
    void announceStopped(bool wasRunning)
    {
        if (wasRunning) {
            post([](SimulationController& c) { emit c.runningChanged(false); });
        }
    }

    void stopRunning()
    {
        const bool wasRunning = halt();
        publish(true);
        announceStopped(wasRunning);
    }

    /// One step, and a series row when the step lands on the output interval.
    void advance()
    {
        if (const auto& piston = simulation_->world().piston) {
            // The force the solver will use: it integrates to t + dt.
            lastPistonForce_ = piston->appliedForce(simulation_->world().time + simulation_->settings().solver.dt);
        }
        try {
            simulation_->step();
        } catch (const BlowUp& error) {
            shared_->wantRunning = false;
            blowUp_ = error.what();
            const QString message = QString::fromUtf8(error.what());
            post([message](SimulationController& c) { emit c.blownUp(message); });
            return;
        } catch (const std::exception& error) {
            shared_->wantRunning = false;
            fail(QStringLiteral("Step failed: %1").arg(QString::fromUtf8(error.what())));
            return;
        }
        const World& world = simulation_->world();
        shared_->steps = world.steps;
        ++rateWindowSteps_;
        ++rateWindowThreads_[simulation_->lastStepThreads()];
        if (world.steps % stepsPerRow(simulation_->settings()) == 0) {
            rows_.push_back(row());
        }
    }

    [[nodiscard]] SeriesRow row() const { return {simulation_->world().time, simulation_->sample()}; }

    /// Steps while playing, for at most kBatchSeconds or until a command is waiting, then hands
    /// the thread back to its event loop.
    void runBatch()
    {
        if (!shared_->wantRunning || !simulation_) {
            stopRunning();
            return;
        }
        const auto start = Clock::now();
        QString stopReason;
        bool stop = false;
        while (shared_->wantRunning && shared_->commands == 0) {
            if (stepsPerFrame_ > 0 && stepsSinceFrame_ >= stepsPerFrame_) {
                break;
            }
            advance();
            ++stepsSinceFrame_;
            const World& world = simulation_->world();
            if (stopAtSteps_ >= 0 && world.steps >= stopAtSteps_) {
                stop = true;
            } else if (world.time >= stopAtTime_ - halfStep()) {
                stop = true;
                stopReason = preparing_
                                 ? QStringLiteral("Ready at t = %1 s (studio.start_time): press Play to go on")
                                       .arg(world.time, 0, 'g', 6)
                                 : QStringLiteral("Reached run.time = %1 s; play goes on").arg(world.time, 0, 'g', 6);
                playHint_ = preparing_ ? stopReason : QString();
            } else if (stopAtSteps_ < 0 && simulation_->finished()) {
                // (A counted run, playSteps(), does all its steps: the caller asked for them.)
                stop = true;
                stopReason = QStringLiteral("The method's stopping rule holds at t = %1 s").arg(world.time, 0, 'g', 6);
            }
            if (stop || secondsBetween(start, Clock::now()) > kBatchSeconds) {
                break;
            }
        }
        const auto now = Clock::now();
        // A run that stops before a full window still reports its rate (short --after-steps runs), and the threads
        // of its steps however few. Under 50 ms its rate is noisy: kept only where no rate was known yet (a run over
        // within 50 ms of a new world, chain1d's 600 steps, read "0 steps/s").
        const bool stopping = stop || !shared_->wantRunning;
        const double minimumWindow = stopping ? 0.05 : kRateWindowSeconds;
        if (const double window = secondsBetween(rateWindowStart_, now);
            window >= minimumWindow || (stopping && rateWindowSteps_ > 0)) {
            threads_ = solverThreadsShare(solverThreadsSet(), rateWindowThreads_);
            if (window >= minimumWindow || (stepsPerSecond_ == 0.0 && window > 0.0)) {
                stepsPerSecond_ = static_cast<double>(rateWindowSteps_) / window;
            }
            rateWindowStart_ = now;
            rateWindowSteps_ = 0;
            rateWindowThreads_.clear();
        }
        if (stopping) {
            if (!stopReason.isEmpty()) {
                notice(stopReason);
            }
            stopRunning();
            return;
        }
        if (stepsPerFrame_ > 0 && stepsSinceFrame_ >= stepsPerFrame_) {
            // Throttled: exactly stepsPerFrame_ steps per frame, frames at most kMaximumFrameRate.
            const double wait = 1.0 / kMaximumFrameRate - secondsBetween(lastPublish_, now);
            if (wait > 0.0) {
                timer_->start(static_cast<int>(std::ceil(wait * 1000.0)));
                return;
            }
            publish(true);
            stepsSinceFrame_ = 0;
        } else if (stepsPerFrame_ == 0) {
            publish(false);
        }
        timer_->start(0);
    }

    [[nodiscard]] StepStatus status() const
    {
        StepStatus s;
        const World& world = simulation_->world();
        s.time = world.time;
        s.steps = world.steps;
        s.stepsPerSecond = stepsPerSecond_;
        s.diagnostics = simulation_->lastStep();
        if (world.piston) {
            s.appliedPistonForce = lastPistonForce_;
        }
        s.advisories = simulation_->advisories();
        s.running = shared_->running;
        // A count set since the stretch has no steps yet.
        s.threads = threads_.set == solverThreadsSet() ? threads_ : SolverThreadsShare{solverThreadsSet(), 0, 0, 0};
        return s;
    }

    /// Puts the newest frame and status and the new rows into the mailbox. Unless forced, at most
    /// kMaximumFrameRate times a second.
    void publish(bool force)
    {
        if (!simulation_) {
            return;
        }
        const auto now = Clock::now();
        if (!force && secondsBetween(lastPublish_, now) < 1.0 / kMaximumFrameRate) {
            return;
        }
        lastPublish_ = now;
        auto frame = simulation_->frame();
        auto s = status();
        bool notify = false;
        {
            const std::scoped_lock lock(shared_->mutex);
            auto& box = shared_->mailbox;
            box.rows.insert(box.rows.end(), std::make_move_iterator(rows_.begin()),
                            std::make_move_iterator(rows_.end()));
            box.frame = std::move(frame);
            box.status = std::move(s);
            notify = !std::exchange(shared_->notified, true);
        }
        rows_.clear();
        if (notify) {
            post([](SimulationController& c) { emit c.updateAvailable(); });
        }
    }

    /// Tells the GUI about the (new or continued) run and publishes its state.
    void announceRun(bool continued)
    {
        const World& world = simulation_->world();
        if (world.piston) {
            lastPistonForce_ = world.piston->appliedForce(world.time);
        }
        RunInfo info;
        info.scenario = simulation_->scenario();
        info.settings = simulation_->settings();
        info.origin = origin_;
        info.fromSavedState = originIsState_;
        info.particles = static_cast<std::int64_t>(simulation_->world().particles.size());
        info.continued = continued;
        info.waiting = simulation_->waitingKeys();
        for (const auto& observable : simulation_->observables()) {
            info.columns.push_back(observable.name);
            info.units.push_back(observable.unit);
        }
        shared_->steps = world.steps;
        stepsSinceFrame_ = 0;
        stepsPerSecond_ = 0.0;
        bool notify = false;
        {
            const std::scoped_lock lock(shared_->mutex);
            // A new run the GUI has not taken yet stays new: a method switch right after a reset continues that run,
            // not the one the GUI shows (whose rows, camera and blow-up label the new run must not keep).
            if (shared_->mailbox.run && !shared_->mailbox.run->continued) {
                info.continued = false;
            }
            if (!info.continued) {
                rows_.clear();
                rows_.push_back(row());
                shared_->mailbox.rows.clear();
                // The last run's frame, not taken yet, must not come with the new run (the camera would be framed
                // to it): the new run's own follows at once (publish below).
                shared_->mailbox.frame = nullptr;
            } else if (info.columns != columns_) {
                // Rows sampled before a switch to a method with other columns, not yet taken: in the new layout, as
                // the plots carry theirs (the GUI takes the run first, then these rows).
                const std::vector<std::size_t> sources = columnSources(columns_, info.columns);
                for (auto* rows : {&rows_, &shared_->mailbox.rows}) {
                    for (SeriesRow& r : *rows) {
                        r.values = remapValues(r.values, sources);
                    }
                }
            }
            columns_ = info.columns;
            shared_->mailbox.run = std::move(info);
            notify = !std::exchange(shared_->notified, true);
        }
        publish(true);
        if (notify) {
            post([](SimulationController& c) { emit c.updateAvailable(); });
        }
    }

    SimulationController* controller_;
    std::shared_ptr<Shared> shared_;
    std::unique_ptr<Simulation> simulation_;
    std::string origin_;
    bool originIsState_ = false;  ///< origin_ is a saved state's file, not a scenario
    std::string blowUp_;          ///< what the blow-up guard said; empty while the world is sound
    QTimer* timer_;

    std::vector<SeriesRow> rows_;       ///< sampled since the last publish
    std::vector<std::string> columns_;  ///< the columns of the run announced last
    int stepsPerFrame_ = 0;
    int stepsSinceFrame_ = 0;
    std::int64_t stopAtSteps_ = -1;
    double stopAtTime_ = std::numeric_limits<double>::infinity();
    bool preparing_ = false;  ///< playing to studio.start_time (prepareStart)
    QString playHint_;        ///< the notice that asked to press Play, until the run plays
    Clock::time_point lastPublish_{};
    Clock::time_point rateWindowStart_{};
    std::int64_t rateWindowSteps_ = 0;
    std::map<int, std::int64_t> rateWindowThreads_;  ///< threads -> steps of those (Simulation::lastStepThreads)
    SolverThreadsShare threads_;                     ///< the last rate window's (or the stopped run's)
    double stepsPerSecond_ = 0.0;
    double lastPistonForce_ = std::numeric_limits<double>::quiet_NaN();  ///< N, used by the last step
};

SimulationController::SimulationController(std::unique_ptr<Simulation> simulation, std::string origin, Opening opening,
                                           QObject* parent)
    : QObject(parent), shared_(std::make_shared<Shared>())
{
    if (!simulation) {
        throw std::invalid_argument("SimulationController needs a simulation");
    }
    shared_->steps = simulation->world().steps;
    worker_ = new Worker(*this, shared_, std::move(simulation), std::move(origin));
    worker_->moveToThread(&thread_);
    thread_.setObjectName(QStringLiteral("simulation"));
    thread_.start();
    post([opening](Worker& w) { w.start(opening); });
}

SimulationController::~SimulationController()
{
    shared_->wantRunning = false;
    // The worker stops its timer and drops the Simulation on its own thread, then the thread ends.
    ++shared_->commands;
    QMetaObject::invokeMethod(
        worker_,
        [w = worker_, s = shared_] {
            --s->commands;
            w->shutdown();
        },
        Qt::BlockingQueuedConnection);
    thread_.quit();
    thread_.wait();
    delete worker_;
}

template <class Command> void SimulationController::post(Command command)
{
    ++shared_->commands;
    QMetaObject::invokeMethod(
        worker_,
        [w = worker_, s = shared_, command = std::move(command)]() mutable {
            --s->commands;
            command(*w);
        },
        Qt::QueuedConnection);
}

SimulationUpdate SimulationController::takeUpdate()
{
    const std::scoped_lock lock(shared_->mutex);
    shared_->notified = false;
    return std::exchange(shared_->mailbox, SimulationUpdate{});
}

bool SimulationController::preparesStart(const Simulation& simulation)
{
    return simulation.settings().studioStartTime > simulation.world().time + 0.5 * simulation.settings().solver.dt;
}

std::int64_t SimulationController::steps() const
{
    return shared_->steps;
}

bool SimulationController::isRunning() const
{
    return shared_->running;
}

void SimulationController::play()
{
    shared_->wantRunning = true;
    post([](Worker& w) { w.play(); });
}

void SimulationController::playSteps(qint64 count)
{
    shared_->wantRunning = true;
    post([count](Worker& w) { w.playSteps(count); });
}

void SimulationController::pause()
{
    shared_->wantRunning = false;
    post([](Worker& w) { w.pause(); });
}

void SimulationController::togglePlay()
{
    if (shared_->wantRunning) {
        pause();
    } else {
        play();
    }
}

void SimulationController::stepOnce()
{
    shared_->wantRunning = false;
    post([](Worker& w) { w.stepOnce(); });
}

void SimulationController::reset()
{
    shared_->wantRunning = false;
    post([](Worker& w) { w.reset(); });
}

void SimulationController::openPacking(const QString& path, const QString& upAxis)
{
    shared_->wantRunning = false;
    post([p = path.toStdString(), a = upAxis.toStdString()](Worker& w) { w.openPacking(p, a); });
}

void SimulationController::setParameter(const QString& key, const QString& text)
{
    post([k = key.toStdString(), t = text.trimmed().toStdString()](Worker& w) { w.setParameter(k, t); });
}

void SimulationController::applyLoadStep()
{
    post([](Worker& w) { w.applyLoadStep(); });
}

void SimulationController::setStepsPerFrame(int steps)
{
    post([steps](Worker& w) { w.setStepsPerFrame(steps); });
}

void SimulationController::changeMethod(const QString& method)
{
    post([m = method.toStdString()](Worker& w) { w.changeMethod(m); });
}

void SimulationController::loadScenario(const QString& nameOrPath, const QStringList& assignments)
{
    std::vector<std::string> sets;
    for (const auto& assignment : assignments) {
        sets.push_back(assignment.toStdString());
    }
    shared_->wantRunning = false;
    post([n = nameOrPath.toStdString(), sets = std::move(sets)](Worker& w) { w.loadScenario(n, sets); });
}

void SimulationController::saveState(const QString& path)
{
    post([p = path.toStdString()](Worker& w) { w.saveState(p); });
}

void SimulationController::openState(const QString& path)
{
    shared_->wantRunning = false;
    post([p = path.toStdString()](Worker& w) { w.openState(p); });
}

}  // namespace granular::ui
