// The studio's simulation controller on its own thread: commands, schema validation, the load
// step and pause, observed through its signals (QSignalSpy) and its mailbox. No window needed.
#include "BuiltinScenarios.h"
#include "ScenarioArguments.h"
#include "SimulationController.h"
#include "ThreadPriority.h"
#include "sim/Frame.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

using granular::ui::SimulationController;
using granular::ui::SimulationUpdate;

namespace {

constexpr int kTimeout = 30'000;  // ms

/// A controller for the scenario, which starts at t = 0 (studio.start_time = 0) unless `assignments` say otherwise.
std::unique_ptr<SimulationController> controllerFor(const std::string& name,
                                                    const std::vector<std::string>& assignments = {})
{
    // studio.start_time = 0 unless the test sets its own (a key given twice is refused).
    const bool ownStart = granular::assignmentOf(assignments, "studio.start_time") != nullptr;
    std::vector<std::string> all{ownStart ? std::vector<std::string>{}
                                          : std::vector<std::string>{"studio.start_time=0"}};
    all.insert(all.end(), assignments.begin(), assignments.end());
    auto simulation = std::make_unique<granular::Simulation>(granular::scenarioFromArguments(name, all));
    return std::make_unique<SimulationController>(std::move(simulation), name);
}

/// Whether `notices`, a spy on SimulationController::notice, holds one that starts with `start`.
bool hasNotice(const QSignalSpy& notices, const QString& start)
{
    return std::any_of(notices.cbegin(), notices.cend(),
                       [&start](const QList<QVariant>& n) { return n.at(0).toString().startsWith(start); });
}

/// Waits (kTimeout at most) until hasNotice(notices, start).
bool waitForNotice(const QSignalSpy& notices, const QString& start)
{
    return QTest::qWaitFor([&] { return hasNotice(notices, start); }, kTimeout);
}

/// What the controller published so far, rows gathered over several takes.
struct Published {
    std::optional<granular::ui::RunInfo> run;
    std::vector<granular::ui::SeriesRow> rows;
    std::optional<granular::ui::StepStatus> status;
    std::shared_ptr<const granular::Frame> frame;

    void take(SimulationController& controller)
    {
        SimulationUpdate update = controller.takeUpdate();
        if (update.frame) {
            frame = update.frame;
        }
        if (update.run) {
            run = update.run;
            if (!update.run->continued) {
                rows.clear();
            }
        }
        rows.insert(rows.end(), update.rows.begin(), update.rows.end());
        if (update.status) {
            status = update.status;
        }
    }

    [[nodiscard]] double last(const std::string& column) const
    {
        const auto& columns = run->columns;
        const auto c = static_cast<std::size_t>(std::find(columns.begin(), columns.end(), column) - columns.begin());
        return rows.back().values.at(c);
    }
};

/// Waits until the controller has stepped to `steps` and published a status of that step.
bool waitForStatus(SimulationController& controller, Published& published, std::int64_t steps)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < kTimeout) {
        published.take(controller);
        if (published.status && published.status->steps == steps && !published.status->running) {
            return true;
        }
        QTest::qWait(5);
    }
    return false;
}

/// The niceness of each of this process's threads named `name` (Linux: /proc/self/task; a thread a program starts takes
/// its starter's name, so OpenMP's solver threads are named after the thread that started them).
std::vector<int> nicenessOfThreads(const QString& name)
{
    std::vector<int> niceness;
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString& task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(task + QStringLiteral("/comm")));
        if (!comm.open(QIODevice::ReadOnly) || QString::fromUtf8(comm.readAll()).trimmed() != name) {
            continue;
        }
        errno = 0;
        const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(task.toInt()));
        if (errno == 0) {
            niceness.push_back(nice);
        }
    }
    return niceness;
}

}  // namespace

class SimulationControllerTest : public QObject {
    Q_OBJECT

private slots:
    void theSimulationGivesWayToTheGui()
    {
        // The simulation thread and the solver threads it starts run at niceness kSimulationNice (or more, where the
        // process had more), so that the GUI and the renderer get a core first where both want it; the GUI thread
        // keeps its own.
        errno = 0;
        const int gui = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
        QCOMPARE(errno, 0);
        const int before = granular::solverThreadSetting();
        const auto restore = qScopeGuard([before] { granular::setSolverThreads(before); });
        granular::setSolverThreads(2);  // a team of solver threads, started from the simulation thread
        auto controller = controllerFor("md_press");
        Published published;
        controller->playSteps(3);
        QVERIFY(waitForStatus(*controller, published, 3));
        const std::vector<int> simulation = nicenessOfThreads(QStringLiteral("simulation"));
        // The simulation thread and, where the build has OpenMP, the solver thread that md_press's loops started.
        QVERIFY2(simulation.size() >= (granular::parallelBuild() ? 2U : 1U),
                 qPrintable(QString::number(simulation.size())));
        for (const int nice : simulation) {
            QCOMPARE(nice, std::max(granular::ui::kSimulationNice, gui));
        }
        errno = 0;
        QCOMPARE(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), gui);
    }

    void aFreshRunPlaysToItsStartTimeAndPauses()
    {
        // studio.start_time: the run plays on its own to t = 0.5 s (50 steps of 0.01 s) and pauses there; a reset
        // prepares it again. The rows on the way are kept (the plots show how the state was prepared).
        auto controller = controllerFor("piston2d", {"studio.start_time=0.5"});
        QSignalSpy running(controller.get(), &SimulationController::runningChanged);
        Published published;
        QVERIFY(waitForStatus(*controller, published, 50));
        QCOMPARE(controller->steps(), std::int64_t{50});
        QVERIFY(std::abs(published.status->time - 0.5) < 1e-9);
        QTRY_VERIFY_WITH_TIMEOUT(running.size() >= 2, kTimeout);
        QCOMPARE(running.front().front().toBool(), true);
        QCOMPARE(running.back().front().toBool(), false);
        QVERIFY2(published.rows.size() >= 50, qPrintable(QString::number(published.rows.size())));
        QTest::qWait(200);
        QCOMPARE(controller->steps(), std::int64_t{50});  // paused there

        controller->stepOnce();
        QVERIFY(waitForStatus(*controller, published, 51));
        controller->reset();
        QVERIFY(waitForStatus(*controller, published, 50));
        QVERIFY(std::abs(published.status->time - 0.5) < 1e-9);
    }

    void aSavedStateOpensWhereItStands()
    {
        // Opening::SavedState (granular-studio --state): the run opens paused where it stands, even before its
        // studio.start_time, as File > Open state does; play goes on from there.
        auto simulation = std::make_unique<granular::Simulation>(
            granular::scenarioFromArguments("piston2d", {"studio.start_time=0.5"}));
        auto controller = std::make_unique<SimulationController>(std::move(simulation), "piston2d.bin",
                                                                 SimulationController::Opening::SavedState);
        Published published;
        QVERIFY(waitForStatus(*controller, published, 0));
        QTest::qWait(300);
        QCOMPARE(controller->steps(), std::int64_t{0});
        QVERIFY(!controller->isRunning());
        controller->stepOnce();
        QVERIFY(waitForStatus(*controller, published, 1));
    }

    void aPressPlayNoticeGoesWithItsRun()
    {
        // The pause at studio.start_time says "press Play to go on"; the first Play takes that notice off the bar
        // (noticeOutdated). A run loaded in its place has nothing of the old one to take away: the old notice was kept
        // and taken away at the new run's Play (where a notice of the same words would have gone too).
        auto controller = controllerFor("piston2d", {"studio.start_time=0.2"});
        QSignalSpy notices(controller.get(), &SimulationController::notice);
        QSignalSpy outdated(controller.get(), &SimulationController::noticeOutdated);
        Published published;
        QVERIFY(waitForStatus(*controller, published, 20));
        QTRY_VERIFY_WITH_TIMEOUT(!controller->isRunning(), kTimeout);
        QVERIFY(waitForNotice(notices, QStringLiteral("Ready at t = 0.2 s (studio.start_time): press Play to go on")));
        controller->loadScenario(QStringLiteral("chain1d"), {QStringLiteral("studio.start_time=0")});
        QVERIFY(waitForNotice(notices, QStringLiteral("Loaded chain1d")));
        // The run's stop is announced (runningChanged(false)) after anything its start posted, in queue order.
        QSignalSpy running(controller.get(), &SimulationController::runningChanged);
        controller->playSteps(3);
        QTRY_VERIFY_WITH_TIMEOUT(!running.isEmpty() && !running.back().front().toBool(), kTimeout);
        QCOMPARE(controller->steps(), std::int64_t{3});
        QVERIFY2(outdated.isEmpty(), qPrintable(outdated.isEmpty() ? QString() : outdated.front().front().toString()));

        // Within its own run the notice still goes at the first Play.
        auto again = controllerFor("piston2d", {"studio.start_time=0.2"});
        QSignalSpy againOutdated(again.get(), &SimulationController::noticeOutdated);
        Published againPublished;
        QVERIFY(waitForStatus(*again, againPublished, 20));
        QTRY_VERIFY_WITH_TIMEOUT(!again->isRunning(), kTimeout);
        again->playSteps(2);
        QTRY_COMPARE_WITH_TIMEOUT(againOutdated.size(), 1, kTimeout);
        QVERIFY(againOutdated.front().front().toString().contains(QStringLiteral("press Play to go on")));
    }

    void aPackingTheResetRefusesLeavesTheScenarioAsItWas()
    {
        // File > Open packing set particles.file and its axis, then reset: a file the reset refused stayed set, and
        // every later reset failed on it until the field was cleared by hand.
        auto controller = controllerFor("piston2d");
        Published published;
        QVERIFY(waitForStatus(*controller, published, 0));
        const QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        {
            QFile file(bad);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("x,y,z,radius\n1,1,0,-1\n");
        }
        QSignalSpy failed(controller.get(), &SimulationController::commandFailed);
        QSignalSpy notices(controller.get(), &SimulationController::notice);
        controller->openPacking(bad, QStringLiteral("z"));
        QVERIFY(failed.wait(kTimeout));
        QVERIFY2(failed.front().front().toString().contains(QStringLiteral("particles.file")),
                 qPrintable(failed.front().front().toString()));
        controller->reset();
        QVERIFY(waitForNotice(notices, QStringLiteral("Reset: piston2d rebuilt")));
        const auto restored = [&] {
            published.take(*controller);
            return published.run.has_value() && published.run->waiting.empty() &&
                   published.run->scenario.text("particles.file").empty();
        };
        QVERIFY(QTest::qWaitFor(restored, kTimeout));
    }

    void parametersAreCheckedByTheSchema()
    {
        auto controller = controllerFor("piston2d");
        QSignalSpy accepted(controller.get(), &SimulationController::parameterAccepted);
        QSignalSpy rejected(controller.get(), &SimulationController::parameterRejected);

        // Out of range: one line naming the key and the accepted range, nothing changes.
        controller->setParameter(QStringLiteral("solver.dt"), QStringLiteral("-1"));
        QVERIFY(rejected.wait(kTimeout));
        QCOMPARE(rejected.at(0).at(0).toString(), QStringLiteral("solver.dt"));
        const QString message = rejected.at(0).at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("solver.dt")) && message.contains(QStringLiteral("accepted")),
                 qPrintable(message));
        QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));

        // Not a number, and an unknown key.
        controller->setParameter(QStringLiteral("solver.iterations"), QStringLiteral("forty"));
        QVERIFY(rejected.wait(kTimeout));
        QCOMPARE(rejected.at(1).at(0).toString(), QStringLiteral("solver.iterations"));
        controller->setParameter(QStringLiteral("no.such.key"), QStringLiteral("1"));
        QVERIFY(rejected.wait(kTimeout));
        QVERIFY(rejected.at(2).at(1).toString().contains(QStringLiteral("no.such.key")));
        // A rule between two keys names the edit it refuses first, then the other key's rule (it began with
        // "piston.load_step: ..." for an edit of piston.force). Both keys are live: a negative load step, then a
        // force that the step would turn into a pull.
        controller->setParameter(QStringLiteral("piston.load_step"), QStringLiteral("-10000"));
        QVERIFY(accepted.wait(kTimeout));
        controller->setParameter(QStringLiteral("piston.force"), QStringLiteral("5000"));
        QVERIFY(rejected.wait(kTimeout));
        QCOMPARE(rejected.at(3).at(0).toString(), QStringLiteral("piston.force"));
        QVERIFY2(rejected.at(3).at(1).toString().startsWith(
                     QStringLiteral("piston.force = 5000 N is refused: piston.load_step: ")),
                 qPrintable(rejected.at(3).at(1).toString()));
        controller->setParameter(QStringLiteral("piston.load_step"), QStringLiteral("4000"));
        QVERIFY(accepted.wait(kTimeout));
        accepted.clear();
        QCOMPARE(accepted.size(), 0);

        // A live key takes effect at once, an on-reset key says so.
        controller->setParameter(QStringLiteral("solver.iterations"), QStringLiteral(" 80 "));
        QVERIFY(accepted.wait(kTimeout));
        QCOMPARE(accepted.at(0).at(0).toString(), QStringLiteral("solver.iterations"));
        QCOMPARE(accepted.at(0).at(1).toString(), QStringLiteral("80"));
        QCOMPARE(accepted.at(0).at(2).toBool(), true);
        controller->setParameter(QStringLiteral("particles.count"), QStringLiteral("300"));
        QVERIFY(accepted.wait(kTimeout));
        QCOMPARE(accepted.at(1).at(0).toString(), QStringLiteral("particles.count"));
        QCOMPARE(accepted.at(1).at(2).toBool(), false);
        QCOMPARE(rejected.size(), 4);

        // The reset builds the world with the new count and keeps the live value.
        Published published;
        published.take(*controller);
        QCOMPARE(published.run->particles, qint64(1000));
        controller->reset();
        QTRY_VERIFY_WITH_TIMEOUT((published.take(*controller), published.run->particles == 300), kTimeout);
        QCOMPARE(published.run->settings.solver.iterations, std::int64_t(80));
        QCOMPARE(published.run->continued, false);
    }

    void pauseStopsWithinOneStep()
    {
        auto controller = controllerFor("piston2d");
        QSignalSpy running(controller.get(), &SimulationController::runningChanged);
        controller->play();
        QVERIFY(running.wait(kTimeout));
        QCOMPARE(running.at(0).at(0).toBool(), true);
        QTRY_VERIFY_WITH_TIMEOUT(controller->steps() >= 20, kTimeout);

        controller->pause();
        const std::int64_t atPause = controller->steps();
        QVERIFY(running.wait(kTimeout));
        QCOMPARE(running.at(1).at(0).toBool(), false);
        QVERIFY2(controller->steps() <= atPause + 1,
                 qPrintable(QStringLiteral("%1 steps after pause()").arg(controller->steps() - atPause)));
        const std::int64_t paused = controller->steps();
        QTest::qWait(300);
        QCOMPARE(controller->steps(), paused);
        QVERIFY(!controller->isRunning());

        // A single step advances by exactly one.
        Published published;
        controller->stepOnce();
        QVERIFY(waitForStatus(*controller, published, paused + 1));
        QCOMPARE(controller->steps(), paused + 1);
    }

    void aRunOverWithinItsFirstRateWindowReportsItsRate()
    {
        // Five steps of chain1d's 50 disks take a few ms, below the 50 ms that a stopping run's rate otherwise needs:
        // with no rate known yet, the status read 0 steps/s after steps had run.
        auto controller = controllerFor("chain1d");
        Published published;
        controller->playSteps(5);
        QVERIFY(waitForStatus(*controller, published, 5));
        QVERIFY2(published.status->stepsPerSecond > 0.0 && std::isfinite(published.status->stepsPerSecond),
                 qPrintable(QStringLiteral("%1 steps/s after 5 steps").arg(published.status->stepsPerSecond)));
    }

    void playRightAfterAStepOrAResetPlays()
    {
        // The worker's halt() of the step or the reset, run after the GUI had posted the play, cleared the flag that
        // play() had set: runningChanged(true) and at once (false), and the play was lost.
        auto controller = controllerFor("piston2d");
        for (int round = 0; round < 2; ++round) {
            const std::int64_t before = controller->steps();
            QSignalSpy notices(controller.get(), &SimulationController::notice);
            if (round == 0) {
                controller->stepOnce();
            } else {
                controller->reset();
            }
            controller->play();
            // Playing: 20 steps past the step (round 0), or 20 steps into the rebuilt run (round 1: its "Reset:"
            // notice seen, not a step count below the earlier one, which a busy GUI thread can poll too late for).
            // A play that ran on to run.time and stopped there was played too; a lost play sits still.
            bool playing = false;
            QElapsedTimer clock;
            clock.start();
            while (!playing && clock.elapsed() < kTimeout) {
                const bool rebuilt = round == 0 || hasNotice(notices, QStringLiteral("Reset:"));
                const std::int64_t steps = controller->steps();
                playing = rebuilt && ((controller->isRunning() && steps >= (round == 0 ? before : 0) + 20) ||
                                      hasNotice(notices, QStringLiteral("Reached run.time")));
                QTest::qWait(2);
            }
            QVERIFY2(playing, qPrintable(QStringLiteral("round %1: %2 steps, %3")
                                             .arg(round)
                                             .arg(controller->steps())
                                             .arg(controller->isRunning() ? "running" : "not running")));
            controller->pause();  // (a run stopped at run.time is paused already)
            QTRY_VERIFY_WITH_TIMEOUT(!controller->isRunning(), kTimeout);
        }
    }

    void loadStepChangesThePistonForceAtTheNextStep()
    {
        // Two identical runs (same scenario and seed: bit-identical) stepped to the same state;
        // one gets the load step. Before the packing touches the piston, only the applied force
        // moves it: the next step's semi-implicit Euler update (v += dt F/m, y -= dt v) puts the
        // loaded piston lower by dt^2 dF / m.
        auto plain = controllerFor("piston2d");
        auto loaded = controllerFor("piston2d");
        Published a;
        Published b;
        constexpr std::int64_t before = 10;
        plain->playSteps(before);
        loaded->playSteps(before);
        QVERIFY(waitForStatus(*plain, a, before));
        QVERIFY(waitForStatus(*loaded, b, before));
        QCOMPARE(a.last("piston_y"), b.last("piston_y"));
        const granular::Settings& settings = a.run->settings;
        const double force = settings.piston.force;
        const double loadStep = settings.piston.loadStep;
        const double mass = settings.piston.mass;
        const double dt = settings.solver.dt;
        QVERIFY(loadStep != 0.0);
        QCOMPARE(b.status->appliedPistonForce, force);

        QSignalSpy notice(loaded.get(), &SimulationController::notice);
        loaded->applyLoadStep();
        QVERIFY(notice.wait(kTimeout));
        QVERIFY2(notice.at(0).at(0).toString().contains(QStringLiteral("Load step")),
                 qPrintable(notice.at(0).at(0).toString()));
        plain->stepOnce();
        loaded->stepOnce();
        QVERIFY(waitForStatus(*plain, a, before + 1));
        QVERIFY(waitForStatus(*loaded, b, before + 1));
        QCOMPARE(a.status->appliedPistonForce, force);
        QCOMPARE(b.status->appliedPistonForce, force + loadStep);
        QCOMPARE(a.status->diagnostics.contacts, std::int64_t(0));
        const double drop = a.last("piston_y") - b.last("piston_y");
        const double expected = dt * dt * loadStep / mass;
        QVERIFY2(std::abs(drop - expected) <= 1e-6 * expected,
                 qPrintable(QStringLiteral("piston lower by %1 m, expected dt^2 dF/m = %2 m").arg(drop).arg(expected)));
        QCOMPARE(b.last("external_pressure"), (force + loadStep) / settings.box.width);
    }

    void aMethodSwitchRightAfterAResetKeepsTheRunNew()
    {
        // The switch replaced the reset's run info before the GUI took it, as "continued": the GUI kept the old run's
        // rows (time running backwards in the plots), its camera and its blow-up label.
        auto controller = controllerFor("piston2d");
        Published published;
        controller->playSteps(5);
        QVERIFY(waitForStatus(*controller, published, 5));
        QSignalSpy notices(controller.get(), &SimulationController::notice);
        controller->reset();
        controller->changeMethod(QStringLiteral("md"));
        // The switch's notice comes after it announced its run: the mailbox holds it now.
        QVERIFY(waitForNotice(notices, QStringLiteral("Method ")));
        QCOMPARE(controller->steps(), std::int64_t{0});
        const SimulationUpdate update = controller->takeUpdate();
        QVERIFY(update.run.has_value());
        QVERIFY(update.run->settings.solver.method == granular::Method::SoftParticle);
        QVERIFY(!update.run->continued);
        // The new run's first row, in its own columns (it kept the reset's cd row, two columns wider).
        QVERIFY(!update.rows.empty());
        QCOMPARE(update.rows.front().time, 0.0);
        for (const auto& row : update.rows) {
            QCOMPARE(row.values.size(), update.run->columns.size());
        }
    }

    void rowsSampledBeforeAMethodSwitchArriveInTheNewColumns()
    {
        // Rows of cd (sliding, force_change) still in the mailbox when md took over were dropped by the plots (another
        // width): a gap in the curves at the switch.
        auto controller = controllerFor("piston2d");
        Published published;
        controller->playSteps(30);
        QVERIFY(waitForStatus(*controller, published, 30));
        controller->playSteps(30);
        QVERIFY(QTest::qWaitFor([&] { return controller->steps() >= 40; }, kTimeout));
        QSignalSpy notices(controller.get(), &SimulationController::notice);
        controller->changeMethod(QStringLiteral("md"));
        QVERIFY(waitForNotice(notices, QStringLiteral("Method ")));
        const SimulationUpdate update = controller->takeUpdate();
        QVERIFY(update.run.has_value() && update.run->continued);
        QVERIFY(!update.rows.empty());
        for (const auto& row : update.rows) {
            QCOMPARE(row.values.size(), update.run->columns.size());
        }
    }

    void methodSwitchGoesOnFromTheState()
    {
        auto controller = controllerFor("piston2d");
        Published published;
        controller->playSteps(5);
        QVERIFY(waitForStatus(*controller, published, 5));
        QSignalSpy accepted(controller.get(), &SimulationController::parameterAccepted);
        controller->changeMethod(QStringLiteral("ballistic"));
        QVERIFY(accepted.wait(kTimeout));
        QCOMPARE(accepted.at(0).at(0).toString(), QStringLiteral("solver.method"));
        QCOMPARE(accepted.at(0).at(1).toString(), QStringLiteral("ballistic"));
        QTRY_VERIFY_WITH_TIMEOUT((published.take(*controller), published.run->continued), kTimeout);
        QVERIFY(published.run->settings.solver.method == granular::Method::Ballistic);
        QCOMPARE(controller->steps(), std::int64_t(5));

        QSignalSpy rejected(controller.get(), &SimulationController::parameterRejected);
        controller->changeMethod(QStringLiteral("no-such-method"));
        QVERIFY(rejected.wait(kTimeout));
        QVERIFY(rejected.at(0).at(1).toString().contains(QStringLiteral("solver.method")));
    }

    void aMethodThatOnlyTheWaitingSetupFitsWaitsForTheReset()
    {
        // piston2d to the periodic cell in the studio: setup = periodic waits for the reset, cd_pressure was refused
        // ("needs a periodic cell": the world in force has none) and the reset with cd was refused too.
        auto controller = controllerFor("piston2d");
        Published published;
        controller->playSteps(2);
        QVERIFY(waitForStatus(*controller, published, 2));
        QSignalSpy accepted(controller.get(), &SimulationController::parameterAccepted);
        QSignalSpy rejected(controller.get(), &SimulationController::parameterRejected);
        controller->setParameter(QStringLiteral("setup"), QStringLiteral("periodic"));
        controller->changeMethod(QStringLiteral("cd_pressure"));
        QTRY_COMPARE_WITH_TIMEOUT(accepted.size(), 2, kTimeout);
        QVERIFY(rejected.isEmpty());
        QCOMPARE(accepted.at(1).at(0).toString(), QStringLiteral("solver.method"));
        QCOMPARE(accepted.at(1).at(1).toString(), QStringLiteral("cd_pressure"));
        QVERIFY(!accepted.at(1).at(2).toBool());  // waits for the reset
        QCOMPARE(controller->steps(), std::int64_t{2});
        controller->reset();
        QTRY_VERIFY_WITH_TIMEOUT(
            (published.take(*controller),
             published.run && !published.run->continued && published.run->settings.setup == granular::Setup::Periodic),
            kTimeout);
        QVERIFY(published.run->settings.solver.method == granular::Method::ConstantPressure);
        // A method that fits neither the world in force nor the waiting edits is refused with the world's reason.
        controller->setParameter(QStringLiteral("setup"), QStringLiteral("compression"));
        controller->changeMethod(QStringLiteral("cd"));
        QVERIFY(rejected.wait(kTimeout));
        QCOMPARE(rejected.at(0).at(0).toString(), QStringLiteral("solver.method"));
        QVERIFY(rejected.at(0).at(1).toString().startsWith(QStringLiteral("solver.method: setup periodic")));
    }

    // Issue 18, defects 8 and 9 in the studio: a blow-up pauses the run and says why; the broken world does not
    // step again until it is reset.
    void blowUpPausesAndSaysWhy_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("quantity");
        QTest::newRow("piston driven through the floor") << "piston2d"
                                                         << "piston.force=1e12"
                                                         << "piston";
        QTest::newRow("non-finite chain") << "chain1d"
                                          << "chain.mass=1e-310"
                                          << "non-finite";
    }

    void blowUpPausesAndSaysWhy()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, assignment);
        QFETCH(QString, quantity);
        auto controller = controllerFor(scenario.toStdString(), {assignment.toStdString()});
        QSignalSpy blownUp(controller.get(), &SimulationController::blownUp);
        QSignalSpy failed(controller.get(), &SimulationController::commandFailed);
        controller->play();
        QVERIFY(blownUp.wait(kTimeout));
        const QString message = blownUp.at(0).at(0).toString();
        QVERIFY2(message.startsWith(QStringLiteral("blow-up at step ")), qPrintable(message));
        QVERIFY2(message.contains(quantity), qPrintable(message));
        QTRY_VERIFY_WITH_TIMEOUT(!controller->isRunning(), kTimeout);
        const std::int64_t stopped = controller->steps();
        QVERIFY2(stopped <= 10, qPrintable(QStringLiteral("%1 steps").arg(stopped)));

        controller->play();
        QVERIFY(failed.wait(kTimeout));
        QVERIFY2(failed.last().at(0).toString().contains(QStringLiteral("blew up")),
                 qPrintable(failed.last().at(0).toString()));
        controller->stepOnce();
        QVERIFY(failed.wait(kTimeout));
        QTest::qWait(100);
        QCOMPARE(controller->steps(), stopped);
        QVERIFY(!controller->isRunning());
        QCOMPARE(blownUp.count(), 1);

        // A reset rebuilds a sound world that steps again.
        Published published;
        controller->reset();
        QVERIFY(waitForStatus(*controller, published, 0));
        controller->stepOnce();
        QVERIFY(waitForStatus(*controller, published, 1));
    }

    // File > Save state / Open state: the reopened state goes on bit-identically to the run it was saved from.
    void savedStateGoesOnExactly()
    {
        const QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("piston.granular"));
        auto controller = controllerFor("piston2d");
        Published published;
        constexpr std::int64_t saved = 40;
        constexpr std::int64_t more = 60;
        controller->playSteps(saved);
        QVERIFY(waitForStatus(*controller, published, saved));
        QSignalSpy stateSaved(controller.get(), &SimulationController::stateSaved);
        controller->saveState(path);
        QVERIFY(stateSaved.wait(kTimeout));
        QCOMPARE(stateSaved.at(0).at(0).toString(), path);
        QCOMPARE(stateSaved.at(0).at(1).toDouble(), published.status->time);
        controller->playSteps(more);
        QVERIFY(waitForStatus(*controller, published, saved + more));
        const auto straight = published.frame;
        const auto straightRow = published.rows.back();

        controller->openState(path);
        QVERIFY(waitForStatus(*controller, published, saved));
        QVERIFY(!published.run->continued);
        controller->playSteps(more);
        QVERIFY(waitForStatus(*controller, published, saved + more));
        const auto resumed = published.frame;
        QCOMPARE(resumed->time, straight->time);
        QCOMPARE(resumed->position.size(), straight->position.size());
        for (std::size_t i = 0; i < straight->position.size(); ++i) {
            QVERIFY(resumed->position[i] == straight->position[i]);
            QVERIFY(resumed->velocity[i] == straight->velocity[i]);
        }
        QCOMPARE(published.rows.back().time, straightRow.time);
        QVERIFY(published.rows.back().values == straightRow.values);

        // A damaged file is refused with one line naming it; the run stays as it was.
        const QString damaged = dir.filePath(QStringLiteral("damaged.granular"));
        {
            QFile in(path);
            QVERIFY(in.open(QIODevice::ReadOnly));
            QByteArray bytes = in.readAll();
            bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);
            QFile out(damaged);
            QVERIFY(out.open(QIODevice::WriteOnly));
            QCOMPARE(out.write(bytes), bytes.size());
        }
        QSignalSpy failed(controller.get(), &SimulationController::commandFailed);
        controller->openState(damaged);
        QVERIFY(failed.wait(kTimeout));
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(damaged) && !message.contains(QLatin1Char('\n')), qPrintable(message));
        QCOMPARE(controller->steps(), saved + more);
    }
};

QTEST_GUILESS_MAIN(SimulationControllerTest)
#include "tst_simulation_controller.moc"
