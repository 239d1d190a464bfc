// View > Record (issue 17): a recording of N frames writes N PNGs of the view (an MP4 too where ffmpeg is
// installed), the status bar shows that it records, and the simulation's step rate while recording stays within
// 10 % of its rate without. Needs an X display with OpenGL 3.2 (xvfb-run); CTest runs it alone (RUN_SERIAL), as
// it measures a rate.
#include "FrameRecorder.h"
#include "MainWindow.h"
#include "ScenarioArguments.h"
#include "SceneView.h"
#include "SimulationController.h"
#include "sim/Simulation.h"

#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using granular::ui::FrameRecorder;
using granular::ui::MainWindow;
using granular::ui::SimulationController;

namespace {

constexpr int kTimeout = 60'000;     // ms
constexpr int kWindowMs = 2'500;     // one measuring window
constexpr int kRounds = 2;           // windows without and with recording, taken in turn
constexpr double kLeastRatio = 0.9;  // rate while recording / rate without

/// Steps per second of wall time over `ms` of the event loop running (frames drawn as usual).
double stepRate(const SimulationController& controller, int ms)
{
    QElapsedTimer clock;
    const auto before = controller.steps();
    clock.start();
    QTest::qWait(ms);
    return 1e9 * static_cast<double>(controller.steps() - before) / static_cast<double>(clock.nsecsElapsed());
}

QStringList framesIn(const QString& folder)
{
    return QDir(folder).entryList({QStringLiteral("frame_*.png")}, QDir::Files, QDir::Name);
}

}  // namespace

class RecordingTest : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        // A run whose cost per step hardly changes as it goes: 600 spheres in a slowly rotating drum.
        controller_ = std::make_unique<SimulationController>(
            std::make_unique<granular::Simulation>(granular::scenarioFromArguments("drum3d", {})), "drum3d");
        window_ = std::make_unique<MainWindow>(*controller_);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QTRY_VERIFY_WITH_TIMEOUT(window_->settings().has_value() && window_->renderedFrames() > 0, kTimeout);
    }

    void cleanup()
    {
        window_.reset();
        controller_.reset();
    }

    void recordingWritesEveryFrameWithoutSlowingTheRun()
    {
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        auto* label = window_->statusBar()->findChild<QLabel*>(QStringLiteral("recording"));
        QVERIFY(label != nullptr);
        QVERIFY(label->isHidden());

        controller_->playSteps(1'000'000'000);
        QTest::qWait(1000);
        double without = 0.0;
        double with = 0.0;
        qint64 recorded = 0;
        QStringList folders;
        for (int round = 0; round < kRounds; ++round) {
            without += stepRate(*controller_, kWindowMs);
            const QString folder = directory.filePath(QStringLiteral("take%1").arg(round));
            const QString error = window_->startRecording(folder);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY(window_->recorder()->isRecording());
            with += stepRate(*controller_, kWindowMs);
            QVERIFY(label->isVisible());
            QVERIFY2(label->text().startsWith(QStringLiteral("REC ")), qPrintable(label->text()));
            QSignalSpy encoded(window_->recorder(), &FrameRecorder::videoEncoded);
            const QString summary = window_->stopRecording();
            QVERIFY(!window_->recorder()->isRecording());
            QVERIFY(label->isHidden());
            QVERIFY2(summary.contains(QStringLiteral("Recorded")), qPrintable(summary));
            const qint64 frames = window_->recorder()->recordedFrames();
            QVERIFY2(frames >= 5, qPrintable(summary));
            QCOMPARE(window_->recorder()->writtenFrames(), frames);
            const QStringList pngs = framesIn(folder);
            QCOMPARE(pngs.size(), frames);
            QCOMPARE(pngs.front(), QStringLiteral("frame_000001.png"));
            QImage first(QDir(folder).filePath(pngs.front()));
            QImage last(QDir(folder).filePath(pngs.back()));
            QVERIFY(!first.isNull() && !last.isNull());
            const QSize view = window_->sceneView()->size() * window_->sceneView()->devicePixelRatio();
            QCOMPARE(first.size(), view);
            if (!FrameRecorder::ffmpeg().isEmpty()) {
                QVERIFY(encoded.wait(kTimeout));
                QVERIFY2(encoded.front().at(1).toString().isEmpty(), qPrintable(encoded.front().at(1).toString()));
                const QFileInfo video(QDir(folder).filePath(QStringLiteral("recording.mp4")));
                QVERIFY2(video.exists() && video.size() > 1000, qPrintable(video.filePath()));
            } else {
                qInfo("ffmpeg is not installed: no MP4 to check");
            }
            recorded += frames;
            folders << folder;
        }
        controller_->pause();
        const double ratio = with / without;
        qInfo("step rate without recording %.0f steps/s, while recording %.0f steps/s (ratio %.3f), %lld frames",
              without / kRounds, with / kRounds, ratio, static_cast<long long>(recorded));
        QVERIFY2(ratio >= kLeastRatio,
                 qPrintable(QStringLiteral("recording slowed the run to %1 of its rate").arg(ratio)));

        // A folder that already holds a recording is refused, with the reason.
        const QString again = window_->startRecording(folders.front());
        QVERIFY2(again.contains(QStringLiteral("already holds a recording")), qPrintable(again));
        QVERIFY(!window_->recorder()->isRecording());
    }

private:
    std::unique_ptr<SimulationController> controller_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(RecordingTest)
#include "tst_recording.moc"
