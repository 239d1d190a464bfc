// The studio's frame pacing (issue 15: piston2d shows at least 30 new frames/s while it plays, the GUI answering
// within 50 ms). The window pulls a new frame every 1.25 frame costs; a frame's cost is the GUI thread's work of the
// pull plus the view's drawing up to the window's composition. Qt delivers a window's update request after a
// short idle time of its own (up to 5 ms, QT_QPA_UPDATE_IDLE_TIME), in which the event loop gathers input: that
// wait is not the frame's cost, and counting it cost piston2d a fifth of its frames (bench_studio, 2026-11-27:
// 21-26 -> 31-35 new frames/s). Here the idle time is made 1 s, so that a cost that included it could not hide
// in a software rasteriser's own time, even on CI's loaded cores (a frame there up to ~15x its 20-25 ms). Needs an X
// display with OpenGL 3.2 (xvfb-run).
#include "MainWindow.h"
#include "ScenarioArguments.h"
#include "SimulationController.h"
#include "sim/Simulation.h"

#include <QElapsedTimer>
#include <QTest>

#include <memory>

using granular::ui::MainWindow;
using granular::ui::SimulationController;

namespace {

constexpr int kTimeout = 60'000;     // ms
constexpr int kUpdateIdleMs = 1000;  // Qt's wait before it delivers an update request, here
constexpr qint64 kLeastFrames = 6;   // frames drawn while playing before the cost is judged

}  // namespace

class FramePacingTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Read by Qt at its first update request, which comes after this.
        qputenv("QT_QPA_UPDATE_IDLE_TIME", QByteArray::number(kUpdateIdleMs));
    }

    void aFramesCostLeavesOutQtsIdleTimeBeforeDrawing()
    {
        SimulationController controller(
            std::make_unique<granular::Simulation>(granular::scenarioFromArguments("piston2d", {})), "piston2d");
        MainWindow window(controller);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.settings().has_value() && window.renderedFrames() > 0, kTimeout);

        // The rate counted from the first frame of the play: the simulation thread's start is not a frame's.
        const qint64 shown = window.renderedFrames();
        controller.playSteps(1'000'000'000);
        QTRY_VERIFY_WITH_TIMEOUT(window.renderedFrames() > shown, kTimeout);
        const qint64 before = window.renderedFrames();
        QElapsedTimer clock;
        clock.start();
        QTRY_VERIFY_WITH_TIMEOUT(window.renderedFrames() - before >= kLeastFrames, kTimeout);
        const double seconds = 1e-9 * static_cast<double>(clock.nsecsElapsed());
        const double cost = window.frameCost();
        controller.pause();
        const double rate = static_cast<double>(window.renderedFrames() - before) / seconds;
        qInfo("with Qt's idle time before an update at %d ms: frame cost %.1f ms, %.1f frames/s", kUpdateIdleMs, cost,
              rate);
        QVERIFY2(cost > 0.0, "no frame cost was measured while playing");
        // Counted with the idle time, a frame would cost at least kUpdateIdleMs.
        QVERIFY2(cost < kUpdateIdleMs,
                 qPrintable(QStringLiteral("a frame's cost (%1 ms) counts Qt's idle time before drawing (%2 ms)")
                                .arg(cost)
                                .arg(kUpdateIdleMs)));
        // Every frame waits the idle time and then costs what it costs: the pulls keep up with that.
        QVERIFY2(rate > 0.5 * 1000.0 / (kUpdateIdleMs + 1.25 * cost),
                 qPrintable(QStringLiteral("%1 frames/s for a cost of %2 ms").arg(rate).arg(cost)));
    }
};

QTEST_MAIN(FramePacingTest)
#include "tst_frame_pacing.moc"
