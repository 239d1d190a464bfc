// Runs the built granular-studio and checks what it draws, pixel by pixel. Needs an X display
// with OpenGL 3.2 (CTest wraps this test in xvfb-run; Mesa's llvmpipe is enough).
#include <QColor>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

namespace {

constexpr int studioTimeout = 90'000;  // ms; software rendering of the first frame takes a few seconds

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

/// Height colours of particles (and of the colour bar) are saturated; the background, walls,
/// outline and Qt's widgets are greys or greyish blues.
bool isParticleColoured(QRgb pixel)
{
    const QColor colour(pixel);
    return colour.hsvSaturationF() > 0.45F && colour.valueF() > 0.2F;
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
