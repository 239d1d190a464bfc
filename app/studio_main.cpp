// granular-studio: the desktop studio of Granular Studio.
//   granular-studio [SCENARIO] [--set KEY=VALUE]... [--screenshot FILE.png]
// Exit codes as for `granular`: 0 success, 1 runtime failure, 2 bad input (one line on stderr).
#include "MainWindow.h"
#include "ScenarioArguments.h"
#include "SceneView.h"
#include "scenario/ScenarioError.h"
#include "sim/Simulation.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QImage>
#include <QTimer>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

enum ExitCode : int { Success = 0, RuntimeFailure = 1, BadInput = 2 };

/// How long --screenshot waits for the first rendered frame before giving up (s). Software
/// rendering under Xvfb on a loaded machine takes seconds, never this long.
constexpr int firstFrameTimeout = 60;

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

/// Grabs the whole window (Qt 6 includes the GL view) and writes it as PNG. Returns the exit code.
int saveWindowImage(granular::ui::MainWindow& window, const QString& path)
{
    const QImage image = window.grab().toImage();
    const auto* view = window.sceneView();
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
                                 QStringLiteral("built-in name or path to a JSON file (default: freefall3d)"),
                                 QStringLiteral("[SCENARIO]"));
    const QCommandLineOption set(QStringLiteral("set"), QStringLiteral("override a parameter (repeatable)"),
                                 QStringLiteral("KEY=VALUE"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("save an image of the window once it has rendered, then exit"),
                                        QStringLiteral("FILE.png"));
    parser.addOption(set);
    parser.addOption(screenshot);

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
    const std::string scenarioName = positional.isEmpty() ? "freefall3d" : positional.front().toStdString();

    // The world is built here, before any window, so that parameters that do not fit together are
    // reported like other bad input. Its initial state is what the studio shows.
    std::shared_ptr<const granular::Frame> initialFrame;
    QString title;
    try {
        const granular::Simulation simulation(granular::scenarioFromArguments(scenarioName, [&] {
            std::vector<std::string> assignments;
            for (const auto& assignment : parser.values(set)) {
                assignments.push_back(assignment.toStdString());
            }
            return assignments;
        }()));
        initialFrame = simulation.frame();
        title = QString::fromStdString(simulation.scenario().text("name"));
    } catch (const granular::ScenarioError& error) {
        complain(QString::fromStdString(error.what()));
        return BadInput;
    }

    // VTK needs an OpenGL 3.2 core context; the default format must be set before QApplication exists.
    QSurfaceFormat::setDefaultFormat(granular::ui::SceneView::requiredFormat());
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Granular Studio"));

    // Widgets and the VTK objects inside them live on this (GUI) thread.
    granular::ui::MainWindow window(title);
    window.showFrame(initialFrame);
    window.show();

    if (parser.isSet(screenshot)) {
        const QString path = parser.value(screenshot);
        // frameSwapped: the view has rendered and Qt has composed it; grab on the next loop turn.
        QObject::connect(
            window.sceneView(), &QOpenGLWidget::frameSwapped, &app,
            [&app, &window, path] {
                QTimer::singleShot(0, &app, [&window, path] { QCoreApplication::exit(saveWindowImage(window, path)); });
            },
            Qt::SingleShotConnection);
        QTimer::singleShot(firstFrameTimeout * 1000, &app, [] {
            complain(QStringLiteral("the scene view did not render within %1 s").arg(firstFrameTimeout));
            QCoreApplication::exit(RuntimeFailure);
        });
    }
    return QApplication::exec();
}
