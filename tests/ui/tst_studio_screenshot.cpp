// Runs the built granular-studio and checks what it draws, pixel by pixel. Needs an X display
// with OpenGL 3.2 (CTest wraps this test in xvfb-run; Mesa's llvmpipe is enough).
#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cstdlib>
#include <utility>

namespace {

constexpr int studioTimeout =
    600'000;  // ms, the studio's own --screenshot limit: a 3D packing took 30 s alone, more in CI

struct Finished {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out;
    QString err;
};

Finished runStudio(const QStringList& arguments)
{
    QProcess studio;
    auto environment = QProcessEnvironment::systemEnvironment();
    // The offscreen platform has no OpenGL: insist on X even if the caller's environment says otherwise.
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    // Qt warns on stderr when there is no runtime directory (as under xvfb-run in a container),
    // and a successful run must print nothing.
    const QTemporaryDir runtimeDirectory;
    if (environment.value(QStringLiteral("XDG_RUNTIME_DIR")).isEmpty() && runtimeDirectory.isValid()) {
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDirectory.path());
    }
    studio.setProcessEnvironment(environment);
    studio.start(QStringLiteral(GRANULAR_STUDIO_PATH), arguments);
    Finished result;
    if (!studio.waitForFinished(studioTimeout)) {
        studio.kill();
        studio.waitForFinished();
        result.err = QStringLiteral("granular-studio did not finish within %1 ms").arg(studioTimeout);
        return result;
    }
    result.exitCode = studio.exitCode();
    result.status = studio.exitStatus();
    result.out = QString::fromLocal8Bit(studio.readAllStandardOutput());
    result.err = QString::fromLocal8Bit(studio.readAllStandardError());
    return result;
}

/// Runs the built `granular` (the CLI) and waits for it; its exit code (-1 when it did not finish or crashed).
int runCli(const QStringList& arguments)
{
    QProcess cli;
    cli.start(QStringLiteral(GRANULAR_CLI_PATH), arguments);
    if (!cli.waitForFinished(studioTimeout)) {
        cli.kill();
        cli.waitForFinished();
        return -1;
    }
    return cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1;
}

/// The checkpoint of `scenario` run by the CLI to `time` (s) on one thread, in `folder`: a state to open with --state.
QString checkpointOf(const QString& scenario, const QString& time, const QString& folder)
{
    const int exitCode =
        runCli({QStringLiteral("run"), scenario, QStringLiteral("--quiet"), QStringLiteral("--threads"),
                QStringLiteral("1"), QStringLiteral("--set"), QStringLiteral("run.time=") + time,
                QStringLiteral("--checkpoint-every"), time, QStringLiteral("--out"), folder});
    return exitCode == 0 ? QDir(folder).filePath(QStringLiteral("checkpoint.bin")) : QString();
}

/// Height colours of particles (and of the colour bar) are saturated; the background, walls,
/// outline and Qt's widgets are greys or greyish blues.
bool isParticleColoured(QRgb pixel)
{
    const QColor colour(pixel);
    return colour.hsvSaturationF() > 0.45F && colour.valueF() > 0.2F;
}

/// Force chains are drawn from dark red to orange (hues 0 to 40 degrees, ui/ColourMaps.h); nothing
/// else in the window has those hues (the plots and the particle colours avoid them).
bool isChainColoured(QRgb pixel)
{
    const QColor colour(pixel);
    const float hue = colour.hsvHueF() * 360.0F;
    return colour.hsvSaturationF() > 0.6F && colour.valueF() > 0.3F && (hue <= 40.0F || hue >= 350.0F);
}

/// Particles by height: viridis, hues from yellow (about 50 degrees) over green and blue to violet.
bool isViridisColoured(QRgb pixel)
{
    const QColor colour(pixel);
    const float hue = colour.hsvHueF() * 360.0F;
    return colour.hsvSaturationF() > 0.45F && colour.valueF() > 0.2F && hue >= 48.0F && hue <= 300.0F;
}

/// The first curve of every plot (ui/PlotPanel.cpp), within a small tolerance for antialiasing.
bool isPlotBlue(QRgb pixel)
{
    return std::abs(qRed(pixel) - 31) <= 24 && std::abs(qGreen(pixel) - 111) <= 24 &&
           std::abs(qBlue(pixel) - 208) <= 24;
}

}  // namespace

class StudioScreenshotTest : public QObject {
    Q_OBJECT

private slots:
    void screenshotShowsParticles_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<double>("minimumParticleFraction");
        // 1000 spheres seen obliquely cover several percent of the scene.
        QTest::newRow("freefall3d") << QStringLiteral("freefall3d") << 0.02;
        // 300 small disks in a large, mostly empty 2D box cover less.
        QTest::newRow("freefall2d") << QStringLiteral("freefall2d") << 0.01;
    }

    void screenshotShowsParticles()
    {
        QFETCH(QString, scenario);
        QFETCH(double, minimumParticleFraction);
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const QString path = directory.filePath(QStringLiteral("shot.png"));

        const auto run = runStudio({scenario, QStringLiteral("--screenshot"), path});
        QVERIFY2(run.status == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));

        QImage image;
        QVERIFY2(image.load(path), "the screenshot is not a readable PNG");
        // The window's default size is 1280x800; only a window manager could change it, a little.
        QVERIFY2(image.width() >= 1000 && image.width() <= 1700, qPrintable(QString::number(image.width())));
        QVERIFY2(image.height() >= 600 && image.height() <= 1100, qPrintable(QString::number(image.height())));

        // The scene: below the menu and toolbar, above the status bar, left of the colour bar.
        const QRect scene(0, image.height() / 10, image.width() * 85 / 100, image.height() * 8 / 10);
        qint64 particlePixels = 0;
        QSet<QRgb> colours;
        for (int y = scene.top(); y <= scene.bottom(); ++y) {
            for (int x = scene.left(); x <= scene.right(); ++x) {
                const QRgb pixel = image.pixel(x, y) & 0xFFFFFFU;
                colours.insert(pixel);
                if (isParticleColoured(pixel)) {
                    ++particlePixels;
                }
            }
        }
        const double fraction =
            static_cast<double>(particlePixels) / (static_cast<double>(scene.width()) * scene.height());
        qInfo("%s: %.2f %% of the scene has particle colours, %lld distinct colours", qPrintable(scenario),
              100.0 * fraction, static_cast<long long>(colours.size()));
        QVERIFY2(fraction > minimumParticleFraction,
                 qPrintable(QStringLiteral("only %1 % of the scene has particle colours").arg(100.0 * fraction)));
        // Shaded spheres over a gradient give thousands of colours; a black or blank view gives a handful.
        QVERIFY2(colours.size() > 500, qPrintable(QStringLiteral("only %1 distinct colours").arg(colours.size())));
    }

    void firstScreenShowsChainsAndPlots()
    {
        // The studio without arguments opens on piston2d prepared to its studio.start_time (t = 25 s): the piston
        // has compressed the 1000 disks and the force chains carry its load (Unger & Kertesz 2003, Fig. 5); the
        // plots hold the 25 s of compression and the lesson's first step is on show.
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const QString path = directory.filePath(QStringLiteral("first.png"));
        const auto run = runStudio({QStringLiteral("--screenshot"), path});
        QVERIFY2(run.status == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        QImage image;
        QVERIFY2(image.load(path), "the screenshot is not a readable PNG");

        qint64 chain = 0;
        qint64 particle = 0;
        qint64 plotRight = 0;  // plot curves in the right third, where the plots are
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QRgb pixel = image.pixel(x, y);
                chain += isChainColoured(pixel) ? 1 : 0;
                particle += isViridisColoured(pixel) ? 1 : 0;
                plotRight += x > image.width() * 2 / 3 && isPlotBlue(pixel) ? 1 : 0;
            }
        }
        const double area = static_cast<double>(image.width()) * image.height();
        qInfo("first screen (piston2d at t = 25 s): chain colours %.2f %%, particle colours %.2f %%, plot curve "
              "pixels %lld",
              100.0 * static_cast<double>(chain) / area, 100.0 * static_cast<double>(particle) / area,
              static_cast<long long>(plotRight));
        // The colour bar of f_n and the few short chains of step 1500 (still in rebound) cover
        // 1.2 % of the window; the compressed packing's network at step 2500 about 2.5 %.
        QVERIFY2(static_cast<double>(chain) / area > 0.018,
                 qPrintable(
                     QStringLiteral("only %1 % chain-coloured pixels").arg(100.0 * static_cast<double>(chain) / area)));
        QVERIFY2(static_cast<double>(particle) / area > 0.03,
                 qPrintable(QStringLiteral("only %1 % particle-coloured pixels")
                                .arg(100.0 * static_cast<double>(particle) / area)));
        QVERIFY2(plotRight > 400, qPrintable(QStringLiteral("only %1 plot-curve pixels").arg(plotRight)));
    }

    void chainsShowInside3dPackings()
    {
        // piston3d compressed (t = 29 s): its scenario leaves view.grain_size automatic, so the studio draws the
        // spheres at half their radius and the force network inside the packing is what one sees; at full size
        // (view.grain_size = 1) only the chains at the surface show. Both windows hold the same f_n colour bar.
        // The compressed state is the CLI's checkpoint, opened twice with --state (the studio stepping there itself
        // drew every frame on the way: 2 x ~55 CPU-s of software rendering in CI).
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const QString state =
            checkpointOf(QStringLiteral("piston3d"), QStringLiteral("29"), directory.filePath(QStringLiteral("run")));
        QVERIFY2(!state.isEmpty(), "granular run piston3d --checkpoint-every 29 failed");
        std::array<double, 2> chainFraction{};
        for (int k = 0; k < 2; ++k) {
            const QString path = directory.filePath(QStringLiteral("piston3d_%1.png").arg(k));
            QStringList arguments{QStringLiteral("--state"), state, QStringLiteral("--screenshot"), path};
            if (k == 1) {
                arguments << QStringLiteral("--set") << QStringLiteral("view.grain_size=1");
            }
            const auto run = runStudio(arguments);
            QVERIFY2(run.status == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
            QImage image;
            QVERIFY2(image.load(path), "the screenshot is not a readable PNG");
            qint64 chain = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    chain += isChainColoured(image.pixel(x, y)) ? 1 : 0;
                }
            }
            chainFraction[static_cast<std::size_t>(k)] =
                static_cast<double>(chain) / (static_cast<double>(image.width()) * image.height());
        }
        qInfo("piston3d at t = 29 s: chain colours %.2f %% of the window with automatic grain size, %.2f %% at full "
              "size",
              100.0 * chainFraction[0], 100.0 * chainFraction[1]);
        // 3.78 % with the camera framing the whole view; 2.75 % since it frames the container beside the colour bar
        // (2026-12-01), the packing drawn ~15 % smaller across.
        QVERIFY2(chainFraction[0] > 0.02, qPrintable(QString::number(100.0 * chainFraction[0])));
        QVERIFY(chainFraction[0] > 2.0 * chainFraction[1]);
    }

    void recordOptionRecordsFromTheStart()
    {
        // granular-studio --record FOLDER starts View > Record at once: the screenshot shows the REC label, the
        // folder holds the frames the view drew, and closing the studio finishes the MP4 (where ffmpeg exists).
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        // (A % in the folder's name went into ffmpeg's input pattern: no video.)
        const QString folder = directory.filePath(QStringLiteral("take 5%d"));
        const QString shot = directory.filePath(QStringLiteral("shot.png"));
        const auto run =
            runStudio({QStringLiteral("drum3d"), QStringLiteral("--record"), folder, QStringLiteral("--screenshot"),
                       shot, QStringLiteral("--after-steps"), QStringLiteral("100")});
        QVERIFY2(run.status == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
        const QStringList frames = QDir(folder).entryList({QStringLiteral("frame_*.png")}, QDir::Files);
        qInfo("--record: %lld frames", static_cast<long long>(frames.size()));
        QVERIFY(!frames.isEmpty());
        QImage frame;
        QVERIFY(frame.load(QDir(folder).filePath(frames.front())));
        QVERIFY(frame.width() > 100 && frame.height() > 100);
        if (!QStandardPaths::findExecutable(QStringLiteral("ffmpeg")).isEmpty()) {
            QVERIFY(QFileInfo(QDir(folder).filePath(QStringLiteral("recording.mp4"))).size() > 0);
        }

        // A folder that holds a recording already is refused with one line naming the option.
        const auto again = runStudio(
            {QStringLiteral("drum3d"), QStringLiteral("--record"), folder, QStringLiteral("--screenshot"), shot});
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.startsWith(QStringLiteral("granular-studio: --record: ")), qPrintable(again.err));
        QCOMPARE(again.err.trimmed().count(QLatin1Char('\n')), 0);
    }

    void afterStepsNeedsScreenshot()
    {
        const auto run = runStudio({QStringLiteral("piston2d"), QStringLiteral("--after-steps"), QStringLiteral("5")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--screenshot")), qPrintable(run.err));
    }

    void aBlowUpBeforeTheShotSaysWhy()
    {
        // The run blows up at its first step: the shot is not taken (exit 1), and the one line says why, as the CLI
        // does (it said "stopped after 0 of 5 steps" alone).
        const QString shot = QDir(QDir::tempPath()).filePath(QStringLiteral("granular-blow-up-shot.png"));
        QFile::remove(shot);
        const auto run =
            runStudio({QStringLiteral("piston2d"), QStringLiteral("--set"), QStringLiteral("piston.force=1e12"),
                       QStringLiteral("--set"), QStringLiteral("studio.start_time=0"), QStringLiteral("--after-steps"),
                       QStringLiteral("5"), QStringLiteral("--screenshot"), shot});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(
            run.err.startsWith(QStringLiteral("granular-studio: stopped after 0 of 5 steps: blow-up at step 1 ")) &&
                run.err.contains(QStringLiteral("likely cause")),
            qPrintable(run.err));
        QCOMPARE(run.err.trimmed().count(QLatin1Char('\n')), 0);
        QVERIFY(!QFile::exists(shot));
        // A blow-up while the run plays to its studio.start_time (piston2d's 25 s) and no steps asked for after it:
        // the broken frame was saved, exit 0, without a word.
        const auto preparing = runStudio({QStringLiteral("piston2d"), QStringLiteral("--set"),
                                          QStringLiteral("piston.force=1e12"), QStringLiteral("--screenshot"), shot});
        QCOMPARE(preparing.exitCode, 1);
        QVERIFY2(preparing.err.startsWith(
                     QStringLiteral("granular-studio: stopped while playing to studio.start_time: blow-up at step ")),
                 qPrintable(preparing.err));
        QCOMPARE(preparing.err.trimmed().count(QLatin1Char('\n')), 0);
        QVERIFY(!QFile::exists(shot));
    }

    void badParameterExitsWithTwo()
    {
        const auto run =
            runStudio({QStringLiteral("freefall3d"), QStringLiteral("--set"), QStringLiteral("solver.dt=-1")});
        QCOMPARE(run.status, QProcess::NormalExit);
        QCOMPARE(run.exitCode, 2);
        const QStringList lines = run.err.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.front().startsWith(QStringLiteral("granular-studio: ")), qPrintable(lines.front()));
        QVERIFY2(lines.front().contains(QStringLiteral("solver.dt")), qPrintable(lines.front()));
        QVERIFY(run.out.isEmpty());
    }

    void threadOptionsAreChecked()
    {
        // --threads N: a whole number in [1, 256], else one line naming the option and the range, exit 2, nothing
        // drawn; with --fixed-threads (the thread pace off) the studio runs as usual.
        const QTemporaryDir folder;
        QVERIFY(folder.isValid());
        for (const QString& bad : {QStringLiteral("0"), QStringLiteral("257"), QStringLiteral("two")}) {
            const QString shot = folder.filePath(QStringLiteral("bad.png"));
            const auto run = runStudio(
                {QStringLiteral("piston2d"), QStringLiteral("--threads"), bad, QStringLiteral("--screenshot"), shot});
            QCOMPARE(run.exitCode, 2);
            const QStringList lines = run.err.trimmed().split(QLatin1Char('\n'));
            QCOMPARE(lines.size(), 1);
            QVERIFY2(lines.front().contains(QStringLiteral("--threads")) &&
                         lines.front().contains(QStringLiteral("[1, 256]")),
                     qPrintable(lines.front()));
            QVERIFY(!QFile::exists(shot));
        }
        const QString shot = folder.filePath(QStringLiteral("fixed.png"));
        // (freefall2d: piston2d would first play to its studio.start_time, ~10 CPU-s of frames.)
        const auto run = runStudio({QStringLiteral("freefall2d"), QStringLiteral("--threads"), QStringLiteral("2"),
                                    QStringLiteral("--fixed-threads"), QStringLiteral("--screenshot"), shot,
                                    QStringLiteral("--after-steps"), QStringLiteral("5")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        QVERIFY(!QImage(shot).isNull());
    }

    void stateOptionIsChecked()
    {
        // --state FILE.bin: a file that is not a readable state, a SCENARIO beside it or a --set of a key that only
        // applies when a world is built: exit 2 with one line naming the option (and the file or key), nothing drawn.
        const QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const QString shot = folder.filePath(QStringLiteral("state.png"));
        const QString missing = folder.filePath(QStringLiteral("missing.bin"));
        const QString state =
            checkpointOf(QStringLiteral("freefall2d"), QStringLiteral("0.01"), folder.filePath(QStringLiteral("run")));
        QVERIFY2(!state.isEmpty(), "granular run freefall2d --checkpoint-every 0.01 failed");
        const std::array<std::pair<QStringList, QString>, 3> cases{{
            {{QStringLiteral("--state"), missing}, QStringLiteral("--state: ") + missing},
            {{QStringLiteral("piston2d"), QStringLiteral("--state"), state}, QStringLiteral("--state")},
            {{QStringLiteral("--state"), state, QStringLiteral("--set"), QStringLiteral("particles.count=5")},
             QStringLiteral("particles.count: applies when a world is built")},
        }};
        for (const auto& [arguments, expected] : cases) {
            const auto run = runStudio(arguments + QStringList{QStringLiteral("--screenshot"), shot});
            QCOMPARE(run.exitCode, 2);
            QCOMPARE(run.err.trimmed().count(QLatin1Char('\n')), 0);
            QVERIFY2(run.err.startsWith(QStringLiteral("granular-studio: ")) && run.err.contains(expected),
                     qPrintable(run.err));
            QVERIFY(!QFile::exists(shot));
        }
        // A live key goes with the state: the studio opens it and draws.
        const auto run = runStudio({QStringLiteral("--state"), state, QStringLiteral("--set"),
                                    QStringLiteral("run.time=1"), QStringLiteral("--screenshot"), shot});
        QVERIFY2(run.status == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        QVERIFY(!QImage(shot).isNull());
    }

    void unknownScenarioExitsWithTwo()
    {
        const auto run = runStudio({QStringLiteral("no-such-scenario")});
        QCOMPARE(run.exitCode, 2);
        const QStringList lines = run.err.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.front().contains(QStringLiteral("no-such-scenario")), qPrintable(lines.front()));
    }
};

QTEST_GUILESS_MAIN(StudioScreenshotTest)
#include "tst_studio_screenshot.moc"
