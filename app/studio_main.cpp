// granular-studio: the desktop studio of Granular Studio.
//   granular-studio [SCENARIO] [--set KEY=VALUE]... [--screenshot FILE.png [--after-steps N]]
//   granular-studio --state FILE.bin [--set KEY=VALUE]... [--screenshot FILE.png [--after-steps N]]
// Without SCENARIO it opens on kFirstScenario, the studio's first screen; --state opens a state saved by the studio
// (File > Save state) or a run's checkpoint.bin instead, as File > Open state does.
// Exit codes as for `granular`: 0 success, 1 runtime failure, 2 bad input (one line on stderr).
#include "MainWindow.h"
#include "PlotPanel.h"
#include "ScenarioArguments.h"
#include "SceneView.h"
#include "SimulationController.h"
#include "SimulationFile.h"
#include "scenario/ScenarioError.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QImage>
#include <QTimer>

#include <cstdint>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

enum ExitCode : int { Success = 0, RuntimeFailure = 1, BadInput = 2 };

/// How long --screenshot waits for the frame it wants before giving up (s). Software rendering
/// under Xvfb on a loaded machine takes seconds, and the steps before it are the caller's choice:
/// this only guards against a studio that hangs.
constexpr int screenshotTimeout = 600;

/// The first screen: 1000 disks compressed by a piston, force chains carrying its weight, ready for the load
/// step (its studio.start_time), with its lesson beside it.
constexpr const char* kFirstScenario = "piston2d";

void complain(const QString& message)
{
    std::cerr << "granular-studio: " << message.toStdString() << '\n';
}

/// True when no pixel of `area` is brighter than near-black: the GL view was not captured.
bool isBlack(const QImage& image, const QRect& area)
{
    constexpr int darkest = 12;
    const QRect inside = area.intersected(image.rect());
    for (int y = inside.top(); y <= inside.bottom(); ++y) {
        for (int x = inside.left(); x <= inside.right(); ++x) {
            const QRgb pixel = image.pixel(x, y);
            if (qRed(pixel) > darkest || qGreen(pixel) > darkest || qBlue(pixel) > darkest) {
                return false;
            }
        }
    }
    return true;
}

/// Grabs the whole window with the scene view painted in and writes it as PNG. Returns the exit code.
int saveWindowImage(granular::ui::MainWindow& window, const QString& path)
{
    const QImage image = window.windowImage();
    const auto* view = window.sceneViewContainer();
    const qreal ratio = image.devicePixelRatio();
    const QRect viewArea =
        QRectF(QPointF(view->mapTo(&window, QPoint(0, 0))) * ratio, QSizeF(view->size()) * ratio).toAlignedRect();
    if (isBlack(image, viewArea)) {
        complain(QStringLiteral("the scene view came out black in the screenshot (no OpenGL 3.2 rendering?)"));
        return RuntimeFailure;
    }
    if (!image.save(path, "PNG")) {
        complain(QStringLiteral("cannot write the screenshot to %1").arg(path));
        return RuntimeFailure;
    }
    return Success;
}

/// --screenshot: once the run is ready (a scenario with studio.start_time plays there first) and then the view
/// shows a frame of `afterSteps` more steps, redraws the plots, waits for the view to be composed and saves the
/// window, then exits. Lives on the GUI thread.
class ScreenshotWhenReady final : public QObject {
public:
    /// `preparing`: the run plays to its studio.start_time first (the controller pauses it there).
    ScreenshotWhenReady(granular::ui::MainWindow& window, granular::ui::SimulationController& controller, QString path,
                        std::int64_t afterSteps, bool preparing)
        : window_(window), controller_(controller), path_(std::move(path)), afterSteps_(afterSteps), ready_(!preparing)
    {
        connect(window_.sceneView(), &QOpenGLWindow::frameSwapped, this, &ScreenshotWhenReady::frameShown);
        connect(&controller_, &granular::ui::SimulationController::runningChanged, this, [this](bool running) {
            if (running || failed_) {
                return;
            }
            if (!ready_) {  // the prepared state is reached: the steps asked for count from here
                ready_ = true;
                begin();
            } else if (controller_.steps() < target_) {
                // Why, where the guard said (the CLI's line): "stopped after 0 of 5 steps" alone told nothing.
                fail(QStringLiteral("stopped after %1 of %2 steps").arg(controller_.steps()).arg(target_));
            }
        });
        // A blow-up ends the shot, also one while the run plays to its studio.start_time (whose broken frame was
        // saved, exit 0), and says why, as the CLI does ("stopped after 0 of 5 steps" alone told nothing).
        connect(&controller_, &granular::ui::SimulationController::blownUp, this, [this](const QString& message) {
            fail((ready_ ? QStringLiteral("stopped after %1 of %2 steps").arg(controller_.steps()).arg(target_)
                         : QStringLiteral("stopped while playing to studio.start_time")) +
                 QStringLiteral(": ") + message);
        });
        connect(&controller_, &granular::ui::SimulationController::commandFailed, this, [](const QString& message) {
            complain(message);
            QCoreApplication::exit(RuntimeFailure);
        });
        QTimer::singleShot(screenshotTimeout * 1000, this, [] {
            complain(QStringLiteral("no frame to save within %1 s").arg(screenshotTimeout));
            QCoreApplication::exit(RuntimeFailure);
        });
    }

    /// Says why the shot failed (once) and exits with RuntimeFailure.
    void fail(const QString& why)
    {
        if (failed_) {
            return;
        }
        failed_ = true;
        complain(why);
        QCoreApplication::exit(RuntimeFailure);
    }

    /// Starts the steps (if any) unless the run is still being prepared; the controller publishes its first
    /// frame by itself.
    void start()
    {
        if (ready_) {
            begin();
        }
    }

private:
    void begin()
    {
        target_ = controller_.steps() + afterSteps_;
        if (afterSteps_ > 0) {
            controller_.playSteps(afterSteps_);
        }
    }

    /// The view has drawn a frame: the first one of enough steps arms the shot (plots redrawn,
    /// the view drawn once more); the frame after it is saved on the next turn of the loop.
    void frameShown()
    {
        const auto& frame = window_.sceneView()->frame();
        if (saving_ || failed_ || !ready_ || !frame || frame->steps < target_) {
            return;
        }
        if (!armed_) {
            armed_ = true;
            window_.plotPanel()->refreshNow();
            window_.sceneView()->update();
            return;
        }
        saving_ = true;
        QTimer::singleShot(0, this, [this] { QCoreApplication::exit(saveWindowImage(window_, path_)); });
    }

    granular::ui::MainWindow& window_;
    granular::ui::SimulationController& controller_;
    QString path_;
    std::int64_t afterSteps_;
    bool ready_;
    std::int64_t target_ = 0;  ///< steps of the frame to save
    bool armed_ = false;
    bool saving_ = false;
    bool failed_ = false;  ///< the shot failed: said once, the application exiting
};

}  // namespace

int main(int argc, char** argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i) {
        arguments << QString::fromLocal8Bit(argv[i]);
    }
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Granular Studio: watch a granular scenario in 3D."));
    // Our own --help: Qt's addHelpOption() also offers --help-all, listing Qt options that the
    // parse below (done before QApplication exists) would reject.
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("show this help"));
    parser.addOption(help);
    parser.addPositionalArgument(QStringLiteral("SCENARIO"),
                                 QStringLiteral("built-in name or path to a JSON file (default: piston2d)"),
                                 QStringLiteral("[SCENARIO]"));
    const QCommandLineOption set(QStringLiteral("set"), QStringLiteral("override a parameter (repeatable)"),
                                 QStringLiteral("KEY=VALUE"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("save an image of the window once it has rendered, then exit"),
                                        QStringLiteral("FILE.png"));
    const QCommandLineOption afterSteps(QStringLiteral("after-steps"),
                                        QStringLiteral("with --screenshot: run N steps first, after the scenario's "
                                                       "studio.start_time (default 0)"),
                                        QStringLiteral("N"));
    const QCommandLineOption presentation(
        QStringLiteral("presentation"),
        QStringLiteral("start in presentation mode: larger text and thicker lines for a projector (F5 toggles it)"));
    parser.addOption(set);
    parser.addOption(screenshot);
    parser.addOption(afterSteps);
    const QCommandLineOption record(QStringLiteral("record"),
                                    QStringLiteral("record the view from the start (View > Record) into FOLDER: PNG "
                                                   "frames, and recording.mp4 when the studio closes if ffmpeg is "
                                                   "installed"),
                                    QStringLiteral("FOLDER"));
    const QCommandLineOption threads(QStringLiteral("threads"),
                                     QStringLiteral("solver threads for md, mcdem and cd (default: OMP_NUM_THREADS if "
                                                    "set, else every core the process may run on; "
                                                    "results do not depend on them)"),
                                     QStringLiteral("N"));
    const QCommandLineOption fixedThreads(
        QStringLiteral("fixed-threads"),
        QStringLiteral("run every step on the solver threads set, even where one thread is faster while other "
                       "programs take the cores (Simulation > Solver threads > Adapt to busy cores, on by default)"));
    const QCommandLineOption state(QStringLiteral("state"),
                                   QStringLiteral("open a state saved by the studio (File > Save state) or a run's "
                                                  "checkpoint.bin instead of a scenario; it goes on exactly as the "
                                                  "saved run would have"),
                                   QStringLiteral("FILE.bin"));
    parser.addOption(state);
    parser.addOption(presentation);
    parser.addOption(record);
    parser.addOption(threads);
    parser.addOption(fixedThreads);

    // Arguments are checked before any window system connection, so bad input fails fast and
    // without a display.
    if (!parser.parse(arguments)) {
        complain(parser.errorText() + QStringLiteral(" (see granular-studio --help)"));
        return BadInput;
    }
    if (parser.isSet(help)) {
        // The usage line names the program through the application object; a core one needs no display.
        const QCoreApplication core(argc, argv);
        std::cout << parser.helpText().toStdString();
        return Success;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        complain(QStringLiteral("expected at most one SCENARIO, got %1 (see granular-studio --help)")
                     .arg(positional.join(QLatin1Char(' '))));
        return BadInput;
    }
    if (parser.isSet(state) && !positional.isEmpty()) {
        complain(QStringLiteral("--state: the state holds its scenario; give no SCENARIO with it, got %1")
                     .arg(positional.front()));
        return BadInput;
    }
    std::int64_t stepsBeforeScreenshot = 0;
    if (parser.isSet(afterSteps)) {
        bool ok = false;
        stepsBeforeScreenshot = parser.value(afterSteps).toLongLong(&ok);
        if (!ok || stepsBeforeScreenshot < 0) {
            complain(
                QStringLiteral("--after-steps: expected an integer >= 0, got \"%1\"").arg(parser.value(afterSteps)));
            return BadInput;
        }
        if (!parser.isSet(screenshot)) {
            complain(QStringLiteral("--after-steps needs --screenshot FILE.png"));
            return BadInput;
        }
    }
    int solverThreads = granular::defaultSolverThreads();
    if (!parser.isSet(threads)) {
        if (const std::string problem = granular::solverThreadsSettingProblem(); !problem.empty()) {
            complain(QStringLiteral("warning: %1").arg(QString::fromStdString(problem)));
        }
    }
    if (parser.isSet(threads)) {
        bool ok = false;
        solverThreads = parser.value(threads).toInt(&ok);
        if (!ok || solverThreads < 1 || solverThreads > 256) {
            complain(
                QStringLiteral("--threads: expected an integer in [1, 256], got \"%1\"").arg(parser.value(threads)));
            return BadInput;
        }
    }
    granular::setSolverThreads(solverThreads);
    granular::setAdaptiveSolverThreads(!parser.isSet(fixedThreads));
    const std::string scenarioName = positional.isEmpty() ? kFirstScenario : positional.front().toStdString();

    // The world is built here, before any window, so that parameters that do not fit together are
    // reported like other bad input. It is then handed to the simulation thread.
    std::unique_ptr<granular::Simulation> simulation;
    std::string origin = scenarioName;
    std::vector<std::string> assignments;
    for (const auto& assignment : parser.values(set)) {
        assignments.push_back(assignment.toStdString());
    }
    try {
        if (parser.isSet(state)) {
            // A saved state with --set: only live keys change (those the studio edits mid-run, e.g. view.grain_size).
            origin = parser.value(state).toStdString();
            simulation = granular::openSimulationFile(origin, assignments);
        } else {
            simulation =
                std::make_unique<granular::Simulation>(granular::scenarioFromArguments(scenarioName, assignments));
        }
    } catch (const granular::ScenarioError& error) {
        complain(QString::fromStdString(error.what()));
        return BadInput;
    } catch (const granular::CheckpointError& error) {  // one line naming the file
        complain(QStringLiteral("--state: ") + QString::fromStdString(error.what()));
        return BadInput;
    }

    // VTK needs an OpenGL 3.2 core context; the default format must be set before QApplication exists.
    QSurfaceFormat::setDefaultFormat(granular::ui::SceneView::requiredFormat());
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Granular Studio"));

    // Threads: the controller object, the window, its widgets and every VTK object live on this
    // (GUI) thread; the Simulation lives on the controller's simulation thread from here on.
    // The window is declared after the controller, so it is destroyed first.
    // A saved state opens where it stands, as File > Open state does; a scenario plays to its studio.start_time.
    using Opening = granular::ui::SimulationController::Opening;
    const Opening opening = parser.isSet(state) ? Opening::SavedState : Opening::Scenario;
    const bool preparing =
        opening == Opening::Scenario && granular::ui::SimulationController::preparesStart(*simulation);
    granular::ui::SimulationController controller(std::move(simulation), origin, opening);
    granular::ui::MainWindow window(controller);
    window.setPresentation(parser.isSet(presentation));
    window.show();
    if (parser.isSet(record)) {
        if (const QString error = window.startRecording(parser.value(record)); !error.isEmpty()) {
            complain(QStringLiteral("--record: ") + error);
            return BadInput;
        }
    }

    std::unique_ptr<ScreenshotWhenReady> shot;
    if (parser.isSet(screenshot)) {
        shot = std::make_unique<ScreenshotWhenReady>(window, controller, parser.value(screenshot),
                                                     stepsBeforeScreenshot, preparing);
        shot->start();
    }
    return QApplication::exec();
}
