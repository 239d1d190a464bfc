// The studio window in-process: a value typed into the parameter panel reaches the simulation
// thread, a refused one is explained in the panel and the status bar, the plots carry axis
// titles with units, and a load step typed as a key press changes the piston force.
// Needs an X display with OpenGL 3.2 (xvfb-run).
#include "BuiltinScenarios.h"
#include "LessonPanel.h"
#include "MainWindow.h"
#include "ParameterPanel.h"
#include "ParticleInspector.h"
#include "PlotPanel.h"
#include "ScenarioArguments.h"
#include "ScenarioJson.h"
#include "SceneView.h"
#include "SimulationController.h"
#include "SolverThreadsText.h"
#include "sim/Frame.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <QAbstractAxis>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <tuple>
#include <vector>

using granular::ui::MainWindow;
using granular::ui::SimulationController;

namespace {

constexpr int kTimeout = 20'000;  // ms

/// Types `text` over a field's value and presses Enter, as a user does.
void typeAndEnter(QLineEdit* field, const QString& text)
{
    field->setFocus();
    field->selectAll();
    QTest::keyClicks(field, text);
    QTest::keyClick(field, Qt::Key_Return);
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        // piston2d from t = 0 (its studio.start_time would play it to 25 s first).
        controller_ = std::make_unique<SimulationController>(
            std::make_unique<granular::Simulation>(
                granular::scenarioFromArguments("piston2d", {"studio.start_time=0"})),
            "piston2d");
        window_ = std::make_unique<MainWindow>(*controller_);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        // Window shortcuts need the active window (there is no window manager under Xvfb).
        QApplication::setActiveWindow(window_.get());
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
        QTRY_VERIFY_WITH_TIMEOUT(window_->settings().has_value() && window_->renderedFrames() > 0, kTimeout);
    }

    void cleanup()
    {
        window_.reset();
        controller_.reset();
    }

    void lessonStepAppliesItsChange()
    {
        // piston2d carries a lesson: the Lesson tab is on show, Next/Back walk it, and the step that suggests
        // N_I = 80 and a reset applies both through the controller.
        auto* lesson = window_->lessonPanel();
        QVERIFY(window_->sideTabs()->isTabVisible(window_->sideTabs()->indexOf(lesson)));
        QCOMPARE(window_->sideTabs()->currentWidget(), lesson);
        QCOMPARE(lesson->step(), 0);
        auto* next = lesson->findChild<QPushButton*>(QStringLiteral("lessonNext"));
        auto* back = lesson->findChild<QPushButton*>(QStringLiteral("lessonBack"));
        auto* apply = lesson->findChild<QPushButton*>(QStringLiteral("lessonApply"));
        auto* text = lesson->findChild<QLabel*>(QStringLiteral("lessonText"));
        QVERIFY(next != nullptr && back != nullptr && apply != nullptr && text != nullptr);
        QVERIFY(!back->isEnabled());
        QVERIFY(text->text().contains(QStringLiteral("force chains")));
        QVERIFY(apply->isHidden());  // the first step only explains

        int step = 0;
        while (lesson->lesson()[static_cast<std::size_t>(step)].changes.empty()) {
            QTest::mouseClick(next, Qt::LeftButton);
            ++step;
            QCOMPARE(lesson->step(), step);
        }
        QTest::mouseClick(back, Qt::LeftButton);
        QCOMPARE(lesson->step(), step - 1);
        QTest::mouseClick(next, Qt::LeftButton);
        QVERIFY(apply->isVisible());
        QVERIFY2(apply->text().contains(QStringLiteral("solver.iterations = 80")), qPrintable(apply->text()));
        QVERIFY2(apply->text().contains(QStringLiteral("Reset")), qPrintable(apply->text()));
        // The action on its own line: the button no longer widens the dock (presentation mode).
        QVERIFY2(apply->text().contains(QStringLiteral(",\nthen Reset")), qPrintable(apply->text()));
        QVERIFY2(!apply->toolTip().contains(QLatin1Char('\n')), qPrintable(apply->toolTip()));
        QCOMPARE(window_->settings()->solver.iterations, std::int64_t{40});
        // A change of a key with a unit says it (periodic2d's "pressure.external = 4" read without its Pa).
        granular::LessonStep pressure;
        pressure.changes.push_back(granular::checkedLessonChange("pressure.external", granular::Value(4.0)));
        pressure.action = granular::LessonAction::Play;
        QCOMPARE(granular::ui::LessonPanel::suggestion(pressure),
                 QStringLiteral("Set pressure.external = 4 Pa, then Play"));

        QTest::mouseClick(next, Qt::LeftButton);  // a step further and back: the button applies the step on show
        QTest::mouseClick(back, Qt::LeftButton);
        controller_->playSteps(20);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 20 && !window_->status().running, kTimeout);
        QTest::mouseClick(apply, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window_->settings()->solver.iterations == 80, kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 0, kTimeout);  // the reset rebuilt the run
        QCOMPARE(lesson->step(), step);  // the same lesson after the reset: the step stays
        QVERIFY2(window_->parameterPanel()->findChild<QLineEdit*>(QStringLiteral("solver.iterations"))->text() ==
                     QStringLiteral("80"),
                 "the parameter panel shows N_I = 80");
    }

    void refusedValueIsExplainedInPanelAndStatusBar()
    {
        auto* dt = window_->parameterPanel()->findChild<QLineEdit*>(QStringLiteral("solver.dt"));
        QVERIFY(dt != nullptr);
        QCOMPARE(window_->parameterPanel()->mutabilityText(QStringLiteral("solver.dt")), QStringLiteral("live"));
        QSignalSpy rejected(controller_.get(), &SimulationController::parameterRejected);
        typeAndEnter(dt, QStringLiteral("-1"));
        QVERIFY(rejected.wait(kTimeout));
        QTRY_VERIFY_WITH_TIMEOUT(window_->parameterPanel()->errorText().contains(QStringLiteral("solver.dt")),
                                 kTimeout);
        QVERIFY2(window_->statusBar()->currentMessage().contains(QStringLiteral("solver.dt")),
                 qPrintable(window_->statusBar()->currentMessage()));

        // Typing the value in force back withdraws the refusal (nothing is sent: it is in force already).
        const QString inForce = QString::number(window_->settings()->solver.dt);
        dt->selectAll();
        QTest::keyClicks(dt, inForce);
        QTest::keyClick(dt, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(window_->parameterPanel()->errorText().isEmpty(), kTimeout);
        QVERIFY(!dt->property("refused").toBool());
        typeAndEnter(dt, QStringLiteral("-1"));
        QTRY_VERIFY_WITH_TIMEOUT(window_->parameterPanel()->errorText().contains(QStringLiteral("solver.dt")),
                                 kTimeout);

        // A good value clears the error; an on-reset key says it waits for the reset.
        dt->selectAll();
        QTest::keyClicks(dt, QStringLiteral("0.005"));
        QTest::keyClick(dt, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(window_->settings()->solver.dt, 0.005, kTimeout);
        QVERIFY2(window_->parameterPanel()->errorText().isEmpty(), qPrintable(window_->parameterPanel()->errorText()));
        QTRY_COMPARE_WITH_TIMEOUT(window_->statusBar()->currentMessage(), QStringLiteral("solver.dt = 0.005 s"),
                                  kTimeout);  // with its unit
        auto* count = window_->parameterPanel()->findChild<QLineEdit*>(QStringLiteral("particles.count"));
        QVERIFY(count != nullptr);
        typeAndEnter(count, QStringLiteral("500"));
        QTRY_COMPARE_WITH_TIMEOUT(window_->parameterPanel()->mutabilityText(QStringLiteral("particles.count")),
                                  QStringLiteral("pending reset"), kTimeout);
    }

    /// Edits made right after a reset, before the GUI took the new run: the panel and the window's settings show
    /// them once the run is taken (it was described before the edits and overwrote them).
    void editsRightAfterAResetStayShown()
    {
        auto* panel = window_->parameterPanel();
        for (int trial = 0; trial < 3; ++trial) {
            const QString count = QString::number(300 + trial);
            const std::int64_t iterations = 50 + trial;
            controller_->reset();
            controller_->setParameter(QStringLiteral("particles.count"), count);
            controller_->setParameter(QStringLiteral("solver.iterations"), QString::number(iterations));
            QTRY_VERIFY_WITH_TIMEOUT(window_->settings() && window_->settings()->solver.iterations == iterations,
                                     kTimeout);
            QTest::qWait(700);  // longer than the slowest pull of a run (kMinimumFrameRate)
            QCOMPARE(window_->settings()->solver.iterations, iterations);
            QCOMPARE(panel->editorText(QStringLiteral("solver.iterations")), QString::number(iterations));
            QCOMPARE(panel->editorText(QStringLiteral("particles.count")), count);
            QCOMPARE(panel->mutabilityText(QStringLiteral("particles.count")), QStringLiteral("pending reset"));
        }
    }

    /// A scenario file picked again from the picker after it stopped loading: the picker goes back to the scenario
    /// that runs (it kept showing the file).
    void thePickerShowsTheScenarioThatRunsAfterAFailedLoad()
    {
        auto* picker = window_->parameterPanel()->findChild<QComboBox*>(QStringLiteral("scenarioPicker"));
        QVERIFY(picker != nullptr);
        const QString path = QDir::temp().filePath(
            QStringLiteral("tst_main_window_picked_%1.json").arg(QCoreApplication::applicationPid()));
        const auto removeFile = qScopeGuard([&] { QFile::remove(path); });
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(granular::scenarioToJson(granular::resolveScenario("chain1d")).c_str());
        }
        controller_->loadScenario(path);
        QTRY_VERIFY_WITH_TIMEOUT(window_->settings() && window_->settings()->setup == granular::Setup::Chain, kTimeout);
        const int fileItem = picker->findData(path);
        QVERIFY(fileItem >= 0);
        controller_->loadScenario(QStringLiteral("piston2d"));
        QTRY_COMPARE_WITH_TIMEOUT(picker->currentText(), QStringLiteral("piston2d"), kTimeout);
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write("{ not json");
        }
        QSignalSpy failed(controller_.get(), &granular::ui::SimulationController::commandFailed);
        picker->setCurrentIndex(fileItem);
        emit picker->activated(fileItem);
        QVERIFY(failed.wait(kTimeout));
        QCOMPARE(picker->currentText(), QStringLiteral("piston2d"));
        QCOMPARE(window_->settings()->name, std::string("piston2d"));
    }

    /// A saved state in the picker: listed as a state, and picking it opens the state again (it was loaded as a
    /// scenario's JSON: "malformed JSON ... last read: 'G'").
    void aSavedStateInThePickerOpensAsAState()
    {
        auto* picker = window_->parameterPanel()->findChild<QComboBox*>(QStringLiteral("scenarioPicker"));
        QVERIFY(picker != nullptr);
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const QString path = directory.filePath(QStringLiteral("five.granular"));
        controller_->playSteps(5);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 5 && !window_->status().running, kTimeout);
        QSignalSpy saved(controller_.get(), &SimulationController::stateSaved);
        controller_->saveState(path);
        QVERIFY(saved.wait(kTimeout));
        controller_->openState(path);
        QTRY_COMPARE_WITH_TIMEOUT(picker->currentText(), QStringLiteral("state: five.granular"), kTimeout);
        const int stateItem = picker->findData(path);
        QVERIFY(stateItem >= 0);
        controller_->loadScenario(QStringLiteral("chain1d"), {QStringLiteral("studio.start_time=0")});
        QTRY_VERIFY_WITH_TIMEOUT(window_->settings() && window_->settings()->setup == granular::Setup::Chain, kTimeout);
        QSignalSpy failed(controller_.get(), &SimulationController::commandFailed);
        picker->setCurrentIndex(stateItem);
        emit picker->activated(stateItem);
        QTRY_VERIFY_WITH_TIMEOUT(window_->settings()->name == "piston2d" && window_->status().steps == 5, kTimeout);
        QCOMPARE(picker->currentText(), QStringLiteral("state: five.granular"));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
    }

    /// An edit that waits for the reset and does not fit the other keys: the failed reset marks its field with the
    /// reason (it said so only in the status bar, for seconds); the edit keeps waiting and can be changed.
    void aResetRefusingAWaitingEditMarksItsField()
    {
        auto* panel = window_->parameterPanel();
        const QString key = QStringLiteral("particles.radius_min");
        controller_->setParameter(key, QStringLiteral("100"));
        QTRY_COMPARE_WITH_TIMEOUT(panel->mutabilityText(key), QStringLiteral("pending reset"), kTimeout);
        QVERIFY(panel->errorText().isEmpty());
        QSignalSpy rejected(controller_.get(), &granular::ui::SimulationController::parameterRejected);
        controller_->reset();
        QVERIFY(rejected.wait(kTimeout));
        QCOMPARE(rejected.front().front().toString(), key);
        QVERIFY2(panel->errorText().contains(QStringLiteral("reset refused")) && panel->errorText().contains(key),
                 qPrintable(panel->errorText()));
        QCOMPARE(panel->mutabilityText(key), QStringLiteral("pending reset"));
        // Leaving the field as it is (focus passing through) keeps the mark: the value the reset refused still waits.
        auto* field = panel->findChild<QLineEdit*>(key);
        QVERIFY(field != nullptr);
        emit field->editingFinished();
        QVERIFY2(panel->errorText().contains(QStringLiteral("reset refused")), qPrintable(panel->errorText()));
        const QString inForce = QString::number(window_->settings()->particles.radiusMin);
        controller_->setParameter(key, inForce);  // back: nothing waits, the reset builds again
        QTRY_VERIFY_WITH_TIMEOUT(panel->errorText().isEmpty(), kTimeout);
    }

    void aWaitingEditStaysMarkedThroughAMethodSwitch()
    {
        // The switch built the new method with the waiting edit (the world kept its grains) and the panel showed it
        // as in force.
        auto* count = window_->parameterPanel()->findChild<QLineEdit*>(QStringLiteral("particles.count"));
        QVERIFY(count != nullptr);
        typeAndEnter(count, QStringLiteral("500"));
        const QString key = QStringLiteral("particles.count");
        QTRY_COMPARE_WITH_TIMEOUT(window_->parameterPanel()->mutabilityText(key), QStringLiteral("pending reset"),
                                  kTimeout);
        const std::int64_t inForce = window_->settings()->particles.count;
        controller_->changeMethod(QStringLiteral("md"));
        QTRY_VERIFY_WITH_TIMEOUT(window_->settings()->solver.method == granular::Method::SoftParticle, kTimeout);
        QCOMPARE(window_->settings()->particles.count, inForce);
        QCOMPARE(window_->parameterPanel()->mutabilityText(key), QStringLiteral("pending reset"));
        QCOMPARE(window_->parameterPanel()->editorText(key), QStringLiteral("500"));
        // Set back to the value in force: nothing waits, no mark.
        typeAndEnter(count, QString::number(inForce));
        QTRY_COMPARE_WITH_TIMEOUT(window_->parameterPanel()->mutabilityText(key), QStringLiteral("on reset"), kTimeout);
    }

    void theMethodBoxShowsTheMethodThatRuns()
    {
        // A method picked in the toolbar that waits for the reset (cd_pressure while setup = periodic waits): the box
        // kept its name while cd ran on; the panel marks the waiting one.
        auto* method = window_->findChild<QComboBox*>(QStringLiteral("method"));
        QVERIFY(method != nullptr);
        QCOMPARE(method->currentText(), QStringLiteral("cd"));
        QSignalSpy accepted(controller_.get(), &SimulationController::parameterAccepted);
        controller_->setParameter(QStringLiteral("setup"), QStringLiteral("periodic"));
        method->setCurrentText(QStringLiteral("cd_pressure"));  // as the user's pick leaves it, then its command
        controller_->changeMethod(QStringLiteral("cd_pressure"));
        QTRY_COMPARE_WITH_TIMEOUT(accepted.size(), 2, kTimeout);
        QVERIFY(!accepted.at(1).at(2).toBool());  // waits for the reset
        QCOMPARE(method->currentText(), QStringLiteral("cd"));
        QCOMPARE(window_->parameterPanel()->mutabilityText(QStringLiteral("solver.method")),
                 QStringLiteral("pending reset"));
    }

    void aValueTypedWithoutEnterGoesIntoTheReset()
    {
        // Typed, then Ctrl+R with the focus still in the field: the reset rebuilt the run without it, and the field
        // showed the old value again with no message.
        auto* iterations = window_->parameterPanel()->findChild<QLineEdit*>(QStringLiteral("solver.iterations"));
        QVERIFY(iterations != nullptr);
        const std::int64_t before = window_->settings()->solver.iterations;
        const std::int64_t typed = before + 7;
        iterations->setFocus();
        iterations->selectAll();
        QTest::keyClicks(iterations, QString::number(typed));
        QTest::keyClick(window_.get(), Qt::Key_R, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(window_->settings()->solver.iterations, typed, kTimeout);
        QTRY_COMPARE_WITH_TIMEOUT(iterations->text(), QString::number(typed), kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 0 && !window_->status().running, kTimeout);
    }

    void aRefusedValueTypedBeforeAResetStaysWithItsMessage()
    {
        // Typed without Enter, then Ctrl+R: the value was sent and refused, and the rebuilt run then wrote the value in
        // force over the field and cleared the message (the status bar's "Reset: ... rebuilt" replaced its own).
        auto* panel = window_->parameterPanel();
        auto* dt = panel->findChild<QLineEdit*>(QStringLiteral("solver.dt"));
        QVERIFY(dt != nullptr);
        const double inForce = window_->settings()->solver.dt;
        QSignalSpy rejected(controller_.get(), &SimulationController::parameterRejected);
        dt->setFocus();
        dt->selectAll();
        QTest::keyClicks(dt, QStringLiteral("-1"));
        QTest::keyClick(window_.get(), Qt::Key_R, Qt::ControlModifier);
        QVERIFY(rejected.wait(kTimeout));
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 0 && !window_->status().running, kTimeout);
        QTest::qWait(700);  // longer than the slowest pull of a run (kMinimumFrameRate): the rebuilt run is taken
        QCOMPARE(window_->settings()->solver.dt, inForce);
        QCOMPARE(dt->text(), QStringLiteral("-1"));
        QVERIFY2(panel->errorText().contains(QStringLiteral("solver.dt")), qPrintable(panel->errorText()));
        QVERIFY(dt->property("refused").toBool());  // still marked
        {
            // A marked field grows with the rest in presentation mode (a style sheet can keep a widget's font).
            const double usual = dt->font().pointSizeF();
            auto* presentation = window_->findChild<QAction*>(QStringLiteral("presentationMode"));
            presentation->trigger();
            const double big = dt->font().pointSizeF();
            presentation->trigger();
            QVERIFY2(big >= 1.5 * usual, qPrintable(QStringLiteral("%1 pt -> %2 pt").arg(usual).arg(big)));
        }

        // Text being typed when a run arrives stays too (it was overwritten with the focus still in the field).
        auto* iterations = panel->findChild<QLineEdit*>(QStringLiteral("solver.iterations"));
        QVERIFY(iterations != nullptr);
        iterations->setFocus();
        iterations->selectAll();
        QTest::keyClicks(iterations, QStringLiteral("12"));
        controller_->reset();
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 0 && !window_->status().running, kTimeout);
        QTest::qWait(700);
        QCOMPARE(iterations->text(), QStringLiteral("12"));
        QTest::keyClicks(iterations, QStringLiteral("3"));
        QTest::keyClick(iterations, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(window_->settings()->solver.iterations, std::int64_t{123}, kTimeout);
    }

    void parameterPanelShowsTheRunsKeysFirst()
    {
        // piston2d is CD with the fixed criterion: N_I acts, the tolerance does not (greyed with the reason,
        // after the used keys of its group); the chain's group is folded away until opened.
        auto* panel = window_->parameterPanel();
        QVERIFY(panel->unusedText(QStringLiteral("solver.iterations")).isEmpty());
        QVERIFY2(panel->unusedText(QStringLiteral("solver.tolerance")).contains(QStringLiteral("fixed")),
                 qPrintable(panel->unusedText(QStringLiteral("solver.tolerance"))));
        QVERIFY(panel->unusedText(QStringLiteral("gravity.z")).contains(QStringLiteral("2D")));
        const QStringList solver = panel->groupOrder(QStringLiteral("solver"));
        QVERIFY(solver.indexOf(QStringLiteral("solver.iterations")) <
                solver.indexOf(QStringLiteral("solver.tolerance")));
        QVERIFY(panel->rowShown(QStringLiteral("solver.tolerance")));
        QVERIFY(panel->rowShown(QStringLiteral("piston.force")));
        QVERIFY(!panel->rowShown(QStringLiteral("chain.count")));
        QVERIFY(!panel->rowShown(QStringLiteral("material.stiffness")));
        auto* unused = panel->findChild<QToolButton*>(QStringLiteral("unusedGroups"));
        QVERIFY(unused != nullptr && unused->isVisibleTo(panel));
        unused->click();
        QVERIFY(panel->rowShown(QStringLiteral("chain.count")));
        QVERIFY(panel->unusedText(QStringLiteral("chain.count")).contains(QStringLiteral("setup chain")));

        // The local criterion: the tolerance acts and N_I is the one greyed.
        controller_->setParameter(QStringLiteral("solver.criterion"), QStringLiteral("local"));
        QTRY_VERIFY_WITH_TIMEOUT(panel->unusedText(QStringLiteral("solver.tolerance")).isEmpty(), kTimeout);
        QVERIFY(panel->unusedText(QStringLiteral("solver.iterations")).contains(QStringLiteral("local")));
    }

    void residualSaysWhatItMeasures()
    {
        // Contact dynamics: the force change of the last sweep, with eq. 35 beside it; the tooltip explains both.
        auto* residual = window_->findChild<QLabel*>(QStringLiteral("residual"));
        QVERIFY(residual != nullptr);
        controller_->play();
        QTRY_VERIFY_WITH_TIMEOUT(residual->text().contains(QStringLiteral("eq. 35")), kTimeout);
        controller_->pause();
        QVERIFY2(residual->text().contains(QString::fromUtf8("|\u0394R|/|R|")), qPrintable(residual->text()));
        QVERIFY(residual->toolTip().contains(QStringLiteral("opened or closed")));
    }

    void softParticlesShowTheirStepsAndLargestOverlap()
    {
        // md (and mcdem) have no iteration and no residual: the status bar read "1 iterations  residual 0". It now
        // says their velocity-Verlet steps per solver step and the largest overlap, each with a tooltip saying so.
        auto* iterations = window_->findChild<QLabel*>(QStringLiteral("statusIterations"));
        auto* residual = window_->findChild<QLabel*>(QStringLiteral("residual"));
        QVERIFY(iterations != nullptr && residual != nullptr);
        QSignalSpy accepted(controller_.get(), &SimulationController::parameterAccepted);
        controller_->changeMethod(QStringLiteral("md"));
        QTRY_COMPARE_WITH_TIMEOUT(accepted.size(), 1, kTimeout);
        QVERIFY(accepted.at(0).at(2).toBool());  // md runs on at once from piston2d's state
        const auto before = window_->status().steps;
        controller_->playSteps(2);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == before + 2 && !controller_->isRunning(), kTimeout);
        QVERIFY2(iterations->text() == QStringLiteral("1 MD step") ||
                     iterations->text().endsWith(QStringLiteral(" MD steps")),
                 qPrintable(iterations->text()));
        const QStringList parts = iterations->text().split(QLatin1Char(' '));
        QVERIFY2(parts.front().toInt() >= 1, qPrintable(iterations->text()));
        QVERIFY2(residual->text().startsWith(QStringLiteral("max overlap = ")) &&
                     residual->text().endsWith(QStringLiteral(" m")),
                 qPrintable(residual->text()));
        QVERIFY(iterations->toolTip().contains(QStringLiteral("velocity-Verlet")));
        QVERIFY(residual->toolTip().contains(QStringLiteral("largest overlap")));
    }

    void ballisticFlightShowsNoSolverFields()
    {
        // Ballistic flight solves no contact: its status bar read "0 contacts  0 iterations  residual 0  <overlap> =
        // 0 m" whatever the grains did. Those fields go while it runs and come back with a method that solves; so
        // do the force chains' controls, with no chains to draw.
        const std::vector<QLabel*> fields{window_->findChild<QLabel*>(QStringLiteral("statusContacts")),
                                          window_->findChild<QLabel*>(QStringLiteral("statusIterations")),
                                          window_->findChild<QLabel*>(QStringLiteral("residual")),
                                          window_->findChild<QLabel*>(QStringLiteral("statusOverlap"))};
        const auto shown = [&fields] {
            return std::count_if(fields.begin(), fields.end(), [](const QLabel* label) { return label->isVisible(); });
        };
        QTRY_COMPARE_WITH_TIMEOUT(shown(), std::ptrdiff_t{4}, kTimeout);
        QSignalSpy accepted(controller_.get(), &SimulationController::parameterAccepted);
        controller_->changeMethod(QStringLiteral("ballistic"));
        QTRY_COMPARE_WITH_TIMEOUT(accepted.size(), 1, kTimeout);
        QVERIFY(accepted.at(0).at(2).toBool());
        QTRY_COMPARE_WITH_TIMEOUT(shown(), std::ptrdiff_t{0}, kTimeout);
        QVERIFY(window_->findChild<QLabel*>(QStringLiteral("statusTime"))->isVisible());
        auto* chains = window_->findChild<QCheckBox*>(QStringLiteral("forceChains"));
        QVERIFY(chains != nullptr && !chains->isEnabled() && chains->isChecked());
        QVERIFY(chains->toolTip().contains(QStringLiteral("no contact forces")));
        controller_->changeMethod(QStringLiteral("cd"));
        QTRY_COMPARE_WITH_TIMEOUT(shown(), std::ptrdiff_t{4}, kTimeout);
        QVERIFY(chains->isEnabled() && chains->isChecked());
    }

    void scenarioPicksItsView()
    {
        // piston2d (2D, gravity): height colours, full-size disks, no periodic images to offer.
        auto* colour = window_->findChild<QComboBox*>(QStringLiteral("colourField"));
        auto* size = window_->findChild<QSlider*>(QStringLiteral("particleSize"));
        auto* images = window_->findChild<QCheckBox*>(QStringLiteral("periodicImages"));
        // The checkbox's place in the display bar (on a small screen the bar may fold it into its extension menu).
        auto* offered = window_->findChild<QAction*>(QStringLiteral("periodicImagesAction"));
        QVERIFY(colour != nullptr && size != nullptr && images != nullptr && offered != nullptr);
        QCOMPARE(colour->currentText(), QStringLiteral("height"));
        QCOMPARE(size->value(), 100);
        QVERIFY(!offered->isVisible());

        // periodic2d: no gravity, so coordination, and the cell's neighbouring images.
        controller_->loadScenario(QStringLiteral("periodic2d"), {QStringLiteral("studio.start_time=0")});
        QTRY_VERIFY_WITH_TIMEOUT(window_->settings() && window_->settings()->name == "periodic2d", kTimeout);
        QCOMPARE(colour->currentText(), QStringLiteral("coordination number"));
        QVERIFY(offered->isVisible());
        QVERIFY(images->isChecked());
        QVERIFY(window_->sceneView()->options().periodicImages);

        // view.* keys are live: the display follows them at once.
        controller_->setParameter(QStringLiteral("view.colour"), QStringLiteral("speed"));
        QTRY_COMPARE_WITH_TIMEOUT(colour->currentText(), QStringLiteral("speed"), kTimeout);
        controller_->setParameter(QStringLiteral("view.grain_size"), QStringLiteral("0.05"));
        QTRY_COMPARE_WITH_TIMEOUT(size->value(), 5, kTimeout);  // the slider's 10 % floor drew it at 0.1
        controller_->setParameter(QStringLiteral("view.grain_size"), QStringLiteral("0.4"));
        QTRY_COMPARE_WITH_TIMEOUT(size->value(), 40, kTimeout);
        // An edit of one view.* key leaves the other display choices where the user put them.
        size->setValue(70);
        controller_->setParameter(QStringLiteral("view.colour"), QStringLiteral("height"));
        QTRY_COMPARE_WITH_TIMEOUT(colour->currentText(), QStringLiteral("height"), kTimeout);
        QCOMPARE(size->value(), 70);

        // A 3D scene with contacts and automatic size: half-size grains, so the chains inside show.
        controller_->loadScenario(QStringLiteral("piston3d"));
        QTRY_VERIFY_WITH_TIMEOUT(window_->settings() && window_->settings()->name == "piston3d", kTimeout);
        QCOMPARE(size->value(), 50);
        QVERIFY(!offered->isVisible());
    }

    void solverThreadsMenuSetsTheThreadCount()
    {
        // Simulation > Solver threads: one entry per core, the current count checked; picking one sets the
        // process-wide solver thread count (the simulation thread reads it at its next parallel loop).
        auto* menu = window_->findChild<QMenu*>(QStringLiteral("solverThreadsMenu"));
        QVERIFY(menu != nullptr);
        QList<QAction*> entries;  // the counts (the menu's end: a separator, Adapt to busy cores)
        for (QAction* action : menu->actions()) {
            if (action->objectName().startsWith(QStringLiteral("solverThreads"))) {
                entries << action;
            }
        }
        const int cores = granular::parallelBuild() ? granular::availableCores() : 1;
        QCOMPARE(entries.size(), std::max(cores, granular::solverThreads()));
        const int before = granular::solverThreads();
        QVERIFY(entries.at(before - 1)->isChecked());
        entries.back()->trigger();
        QCOMPARE(granular::solverThreads(), static_cast<int>(entries.size()));
        QVERIFY(entries.back()->isChecked() && (entries.size() == 1 || !entries.front()->isChecked()));
        entries.front()->trigger();
        QCOMPARE(granular::solverThreads(), 1);
        granular::setSolverThreads(before);
    }

    void statusBarSaysWhatThreadsTheStepsRanOn()
    {
        // The status bar names the solver threads set and, in its tooltip, how many of the last stretch's steps the
        // pace ran on fewer threads (sim/ThreadPace.h); "M of N threads" where most ran on M. Simulation > Solver
        // threads > Adapt to busy cores turns the pace off.
        if (!granular::parallelBuild()) {
            QSKIP("a build without OpenMP runs every step on one thread");
        }
        auto* label = window_->findChild<QLabel*>(QStringLiteral("solverThreadsLabel"));
        auto* adapt = window_->findChild<QAction*>(QStringLiteral("adaptiveSolverThreads"));
        QVERIFY(label != nullptr && adapt != nullptr);
        QVERIFY(adapt->isChecked() && granular::adaptiveSolverThreads());
        const int before = granular::solverThreadSetting();
        const auto restore = qScopeGuard([before] {
            granular::setSolverThreads(before);
            granular::setAdaptiveSolverThreads(true);
        });
        granular::setSolverThreads(2);  // whatever the cores: the pace works on the count set

        // A new count starts the pace afresh: three steps on the team, then a probe on one thread (at the latest the
        // fourth step; a slow step on the team brings it forward).
        controller_->playSteps(4);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 4 && !window_->status().running, kTimeout);
        // The status covers the steps since the rate's window last closed: all four, unless they took over its
        // 0.5 s (a loaded machine, as CI's), when it holds the last of them, with the same words for what it holds.
        granular::ui::SolverThreadsShare share = window_->status().threads;
        QCOMPARE(share.set, 2);
        QVERIFY2(share.steps >= 1 && share.steps <= 4, qPrintable(QString::number(share.steps)));
        QVERIFY2(share.stepsOnFewer >= (share.steps == 4 ? 1 : 0) &&
                     share.stepsOnFewer <= std::min<qint64>(3, share.steps),
                 qPrintable(QString::number(share.stepsOnFewer)));
        QCOMPARE(share.usual, 2 * share.stepsOnFewer > share.steps ? 1 : 2);
        QCOMPARE(label->text(), granular::ui::solverThreadsText(share));
        QCOMPARE(label->toolTip(), granular::ui::solverThreadsTip(share));
        if (share.steps == 4) {
            QVERIFY2(label->toolTip().contains(
                         QStringLiteral("%1 of the last 4 steps ran on fewer threads").arg(share.stepsOnFewer)),
                     qPrintable(label->toolTip()));
        }

        // Off: every step on the two threads.
        adapt->trigger();
        QVERIFY(!adapt->isChecked() && !granular::adaptiveSolverThreads());
        controller_->playSteps(5);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 9 && !window_->status().running, kTimeout);
        share = window_->status().threads;
        QVERIFY2(share.steps >= 1 && share.steps <= 5, qPrintable(QString::number(share.steps)));
        QCOMPARE(share.stepsOnFewer, std::int64_t{0});
        QCOMPARE(label->text(), QStringLiteral("2 threads"));
        QCOMPARE(label->toolTip(), granular::ui::solverThreadsTip(share));
        if (share.steps == 5) {
            QVERIFY2(label->toolTip().contains(QStringLiteral("The last 5 steps all ran on them")),
                     qPrintable(label->toolTip()));
        }

        // One thread set: nothing to adapt.
        adapt->trigger();
        granular::setSolverThreads(1);
        controller_->playSteps(1);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 10 && !window_->status().running, kTimeout);
        QCOMPARE(label->text(), QStringLiteral("1 thread"));
        QVERIFY(granular::adaptiveSolverThreads());

        // The words where most of a stretch ran on fewer threads, and where none did; the share of a stretch.
        QCOMPARE(granular::ui::solverThreadsText({2, 10, 6, 1}), QStringLiteral("1 of 2 threads"));
        QCOMPARE(granular::ui::solverThreadsText({16, 10, 9, 8}), QStringLiteral("8 of 16 threads"));
        QCOMPARE(granular::ui::solverThreadsText({4, 10, 5, 4}), QStringLiteral("4 threads"));
        QCOMPARE(granular::ui::solverThreadsText({3, 0, 0, 0}), QStringLiteral("3 threads"));
        const granular::ui::SolverThreadsShare mixed = granular::ui::solverThreadsShare(16, {{1, 1}, {8, 7}, {16, 2}});
        QCOMPARE(mixed.steps, std::int64_t{10});
        QCOMPARE(mixed.stepsOnFewer, std::int64_t{8});
        QCOMPARE(mixed.usual, 8);
        QCOMPARE(granular::ui::solverThreadsShare(2, {{1, 2}, {2, 2}}).usual, 2);  // a tie: the threads set
    }

    void presentationModeEnlargesTextAndLines()
    {
        // View > Presentation mode (F5): the window's text, the plots' text and curves, the view's captions and
        // outlines grow; a second toggle brings every size back.
        auto* action = window_->findChild<QAction*>(QStringLiteral("presentationMode"));
        QVERIFY(action != nullptr && action->isCheckable());
        auto* timeLabel = window_->findChild<QLabel*>(QStringLiteral("residual"));
        QVERIFY(timeLabel != nullptr);
        const auto measure = [this, timeLabel] {
            QChart* chart = nullptr;
            for (auto* view : window_->findChild<granular::ui::PlotPanel*>()->findChildren<QChartView*>()) {
                if (chart == nullptr && !view->chart()->series().isEmpty()) {
                    chart = view->chart();
                }
            }
            const auto* line = qobject_cast<QLineSeries*>(chart->series().front());
            // The Compression tab's charts too (they kept their size until 2026-12-02).
            const auto* histogram = window_->findChild<QChartView*>(QStringLiteral("forceHistogram"))->chart();
            const auto* bar = qobject_cast<QLineSeries*>(histogram->series().front());
            return std::tuple(timeLabel->font().pointSizeF(),
                              chart->axes(Qt::Horizontal).front()->labelsFont().pointSizeF(), line->pen().widthF(),
                              window_->sceneView()->options().textScale, window_->sceneView()->options().lineScale,
                              histogram->titleFont().pointSizeF(), bar->pen().widthF());
        };
        const auto [text, axisLabels, pen, sceneText, sceneLines, compressionText, compressionPen] = measure();
        QCOMPARE(sceneText, 1.0);
        action->trigger();
        const auto [bigText, bigAxisLabels, bigPen, bigSceneText, bigSceneLines, bigCompressionText,
                    bigCompressionPen] = measure();
        qInfo("presentation mode: status text %.1f -> %.1f pt, axis labels %.1f -> %.1f pt, curves %.1f -> %.1f px",
              text, bigText, axisLabels, bigAxisLabels, pen, bigPen);
        QVERIFY(bigText >= 1.5 * text);
        // The coloured labels too: their style sheets kept them at the usual size (the advice, a blow-up, REC).
        for (const char* name : {"advisory", "blowUp", "recording"}) {
            auto* label = window_->findChild<QLabel*>(QString::fromLatin1(name));
            QVERIFY2(
                label != nullptr && label->font().pointSizeF() >= 1.5 * text,
                qPrintable(QStringLiteral("%1: %2 pt").arg(QString::fromLatin1(name)).arg(label->font().pointSizeF())));
        }
        QVERIFY(bigAxisLabels >= 1.25 * axisLabels);  // axisTextScale: Qt Charts cuts labels of wide vertical axes
        QVERIFY(bigPen >= 2.0 * pen);
        QVERIFY(bigSceneText >= 1.5 && bigSceneLines >= 2.0);
        QVERIFY(bigCompressionText >= 1.5 * compressionText);
        QVERIFY(bigCompressionPen >= 2.0 * compressionPen);
        action->trigger();
        const auto [backText, backAxisLabels, backPen, backSceneText, backSceneLines, backCompressionText,
                    backCompressionPen] = measure();
        QCOMPARE(backText, text);
        QCOMPARE(backAxisLabels, axisLabels);
        QCOMPARE(backPen, pen);
        QCOMPARE(backSceneText, 1.0);
        QCOMPARE(backSceneLines, 1.0);
        QCOMPARE(backCompressionText, compressionText);
        QCOMPARE(backCompressionPen, compressionPen);
    }

    void plotsHaveAxisTitlesWithUnits()
    {
        const auto views = window_->plotPanel()->findChildren<QChartView*>();
        QVERIFY(views.size() >= 3);
        QStringList titles;
        for (const auto* view : views) {
            for (const auto* axis : view->chart()->axes()) {
                titles << axis->titleText();
            }
        }
        QVERIFY2(titles.contains(QStringLiteral("t (s)")), qPrintable(titles.join(QStringLiteral(" | "))));
        QVERIFY2(titles.contains(QStringLiteral("piston_y (m)")), qPrintable(titles.join(QStringLiteral(" | "))));
        QVERIFY2(titles.contains(QStringLiteral("P (Pa)")), qPrintable(titles.join(QStringLiteral(" | "))));
        QVERIFY2(titles.contains(QStringLiteral("E_kin (J)")), qPrintable(titles.join(QStringLiteral(" | "))));
    }

    void plotDataIsSavedAsTheRunsCsv()
    {
        controller_->playSteps(20);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 20 && !window_->status().running, kTimeout);
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const QString path = directory.filePath(QStringLiteral("series.csv"));
        const QString error = window_->plotPanel()->writeCsv(path);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n'));
        // Header as in `granular run`'s series.csv, then one row per step (output.interval = dt)
        // from t = 0 on.
        QVERIFY2(lines.front().startsWith(QStringLiteral("t,")), qPrintable(lines.front()));
        QVERIFY(lines.front().contains(QStringLiteral("piston_y")));
        QVERIFY(lines.front().contains(QStringLiteral("external_pressure")));
        QCOMPARE(lines.size(), 1 + 21);
        file.close();

        // A failed export says which file and why in one line, and leaves what was there (the export is written
        // beside the file and renamed over it: a full disk no longer leaves it cut short, which this test cannot make).
        const QString blocked = directory.filePath(QStringLiteral("series.csv/inner.csv"));
        const QString refused = window_->plotPanel()->writeCsv(blocked);
        QVERIFY2(refused.contains(QDir::toNativeSeparators(blocked)) && !refused.contains(QLatin1Char('\n')),
                 qPrintable(refused));
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        QCOMPARE(QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n')).size(), 1 + 21);
    }

    void keyPressesDriveTheRun()
    {
        // L applies the load step: F + dF acts from the next step on, which S runs.
        const double force = window_->settings()->piston.force;
        const double loadStep = window_->settings()->piston.loadStep;
        window_->sceneViewContainer()->setFocus();
        QTest::keyClick(window_.get(), Qt::Key_L);
        QTest::keyClick(window_.get(), Qt::Key_S);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 1, kTimeout);
        QCOMPARE(window_->status().appliedPistonForce, force + loadStep);
        // Space plays, Space again pauses.
        QSignalSpy running(controller_.get(), &SimulationController::runningChanged);
        QTest::keyClick(window_.get(), Qt::Key_Space);
        QVERIFY(running.wait(kTimeout));
        QTRY_VERIFY_WITH_TIMEOUT(controller_->steps() > 3, kTimeout);
        QTest::keyClick(window_.get(), Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(!controller_->isRunning(), kTimeout);
    }

    void clickingAParticleShowsItInTheInspector()
    {
        auto* view = window_->sceneView();
        // A point of the view over a particle: the packing fills the lower part of the container.
        QPoint onParticle;
        int expected = -1;
        for (int y = view->height() - 1; y > 0 && expected < 0; y -= 7) {
            for (int x = 1; x < view->width() && expected < 0; x += 7) {
                expected = view->particleAt(QPoint(x, y));
                onParticle = QPoint(x, y);
            }
        }
        QVERIFY2(expected >= 0, "no particle under any point of the view");
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, onParticle);
        QTRY_COMPARE_WITH_TIMEOUT(window_->particleInspector()->particle(), expected, kTimeout);
        const QString text = window_->particleInspector()->text();
        QVERIFY2(text.contains(QStringLiteral("radius")) && text.contains(QStringLiteral(" m/s")), qPrintable(text));
    }

    void timeStepAdviceShowsInTheStatusBar()
    {
        // md_impact keeps the note's dt = 5e-8 s: 3.3 steps per contact (MSCM 2024); the studio says so.
        controller_->loadScenario(QStringLiteral("md_impact"));
        auto* advisory = window_->findChild<QLabel*>(QStringLiteral("advisory"));
        QVERIFY(advisory != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(advisory->isVisible(), kTimeout);
        QVERIFY2(advisory->toolTip().contains(QStringLiteral("solver.dt")), qPrintable(advisory->toolTip()));
        // The advice is cut to the room the readouts leave: whole, it filled the bar and every readout was hidden
        // (its end cut mid-word in a narrower window).
        for (const int width : {1600, 1000}) {
            window_->resize(width, window_->height());
            auto* time = window_->findChild<QLabel*>(QStringLiteral("statusTime"));
            auto* contacts = window_->findChild<QLabel*>(QStringLiteral("statusContacts"));
            QTRY_VERIFY_WITH_TIMEOUT(time->isVisible() && contacts->isVisible(), kTimeout);
            QVERIFY(advisory->isVisible());
            QVERIFY2(advisory->fontMetrics().horizontalAdvance(advisory->text()) <= advisory->contentsRect().width(),
                     qPrintable(advisory->text()));
            QVERIFY2(advisory->text().endsWith(QChar(0x2026)), qPrintable(advisory->text()));  // cut, and says so
        }
        // A transient message ("Saved ...") has the bar's room while it lasts: the advice steps aside, also through
        // the status of new steps, and comes back when the message goes.
        window_->statusBar()->showMessage(QStringLiteral("a transient message"));
        QVERIFY(!advisory->isVisible());
        const qint64 steps = window_->status().steps;
        controller_->playSteps(3);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps >= steps + 3 && !controller_->isRunning(), kTimeout);
        QVERIFY2(!advisory->isVisible(), "the advice was shown again over a transient message");
        window_->statusBar()->clearMessage();
        QVERIFY(advisory->isVisible());
        // A dt that resolves the contact clears it.
        controller_->setParameter(QStringLiteral("solver.dt"), QStringLiteral("3e-9"));
        QTRY_VERIFY_WITH_TIMEOUT(!advisory->isVisible(), kTimeout);
    }

    void theWheelOverAChoiceDoesNotChangeIt()
    {
        // Scrolling the Parameters panel with the wheel: a box that came under the pointer took the notches and
        // changed solver.sweep and solver.criterion of the playing run (applied at once). Without the keyboard focus a
        // box now passes the wheel on; with it (a click, Tab), the wheel changes it as usual.
        auto* sweep = window_->parameterPanel()->findChild<QComboBox*>(QStringLiteral("solver.sweep"));
        QVERIFY(sweep != nullptr);
        const QString before = sweep->currentText();
        const auto sweepInForce = window_->settings()->solver.sweep;
        QSignalSpy accepted(controller_.get(), &SimulationController::parameterAccepted);
        const auto wheel = [sweep] {
            const QPointF at(sweep->width() / 2.0, sweep->height() / 2.0);
            QWheelEvent event(at, sweep->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(sweep, &event);
        };
        sweep->clearFocus();
        for (int notch = 0; notch < 3; ++notch) {
            wheel();
        }
        QTest::qWait(200);
        QCOMPARE(sweep->currentText(), before);
        QCOMPARE(accepted.size(), 0);
        QVERIFY(window_->settings()->solver.sweep == sweepInForce);
        QCOMPARE(sweep->focusPolicy(), Qt::StrongFocus);  // the wheel does not give it the focus either
    }

    void thePlayHintGoesWhenTheRunPlays()
    {
        // A fresh run plays to studio.start_time and says "press Play to go on"; the hint stayed its 8 s once the run
        // played (and in --screenshot images of later times).
        controller_->loadScenario(QStringLiteral("chain1d"),
                                  {QStringLiteral("studio.start_time=3"), QStringLiteral("run.time=1e6")});
        QTRY_VERIFY_WITH_TIMEOUT(window_->statusBar()->currentMessage().contains(QStringLiteral("press Play")),
                                 kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(!controller_->isRunning(), kTimeout);
        controller_->play();
        QTRY_VERIFY_WITH_TIMEOUT(!window_->statusBar()->currentMessage().contains(QStringLiteral("press Play")), 2000);
        QVERIFY(window_->status().steps > 3 || controller_->isRunning());
        controller_->pause();
    }

    void shortcutsReachTheWindowFromTheSceneView()
    {
        // The scene view is a native window of its own: once it has the keyboard (a click there,
        // here asked for directly: Xvfb has no window manager), the window's shortcuts must still
        // answer.
        auto* view = window_->sceneView();
        view->requestActivate();
        QTRY_VERIFY_WITH_TIMEOUT(QGuiApplication::focusWindow() == view, kTimeout);
        QTest::keyClick(view, Qt::Key_S);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 1, kTimeout);
    }

    void blowUpShowsInTheWindowAndPauses()
    {
        // Issue 18: a blow-up pauses the studio and says what broke; the label goes when a new run starts.
        controller_->loadScenario(QStringLiteral("piston2d"),
                                  {QStringLiteral("piston.force=1e12"), QStringLiteral("studio.start_time=0")});
        QTRY_COMPARE_WITH_TIMEOUT(window_->settings()->piston.force, 1e12, kTimeout);
        auto* label = window_->findChild<QLabel*>(QStringLiteral("blowUp"));
        QVERIFY(label != nullptr);
        QVERIFY(!label->isVisible());
        QSignalSpy blownUp(controller_.get(), &SimulationController::blownUp);
        QTest::keyClick(window_.get(), Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(blownUp.count() > 0, kTimeout);
        // What broke shows at once (a transient message beside it hid it for 12 s before 2026-12-02).
        QTRY_VERIFY_WITH_TIMEOUT(label->isVisible(), 1000);
        QVERIFY2(label->text().startsWith(QStringLiteral("Blow-up (paused): blow-up at step ")),
                 qPrintable(label->text()));
        QVERIFY2(window_->blowUpMessage().contains(QStringLiteral("piston")), qPrintable(window_->blowUpMessage()));
        QTRY_VERIFY_WITH_TIMEOUT(!controller_->isRunning(), kTimeout);
        QAction* play = nullptr;
        for (auto* action : window_->findChildren<QAction*>()) {
            if (action->text() == QStringLiteral("Play") || action->text() == QStringLiteral("Pause")) {
                play = action;
            }
        }
        QVERIFY(play != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!play->isChecked(), kTimeout);
        // At most half the window's width, the rest of the message in the tooltip: the readouts keep their room.
        QVERIFY2(label->width() <= std::max(window_->width() / 2, 160), qPrintable(label->text()));
        // Cut within the label's own box, with "..." (it was cut to half the window without the label's margins
        // and padding: its end ran past the window's edge, mid-number).
        QVERIFY2(label->fontMetrics().horizontalAdvance(label->text()) <= label->contentsRect().width() &&
                     label->text().endsWith(QChar(0x2026)),
                 qPrintable(label->text()));
        QVERIFY(label->geometry().right() < window_->statusBar()->width());
        QCOMPARE(label->toolTip(), blownUp.front().front().toString());  // the guard's whole message

        // A transient message (Play refused on the broken world, 12 s) shows beside the label, not over it: the label
        // was a normal status bar widget before 2026-12-02's evening, which QStatusBar hides while a message shows.
        QTest::keyClick(window_.get(), Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(window_->statusBar()->currentMessage().startsWith(QStringLiteral("The run blew up")),
                                 kTimeout);
        QVERIFY(label->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!play->isChecked(), kTimeout);

        controller_->loadScenario(QStringLiteral("piston2d"), {QStringLiteral("studio.start_time=0")});
        QTRY_VERIFY_WITH_TIMEOUT(!label->isVisible(), kTimeout);
        QVERIFY(window_->blowUpMessage().isEmpty());
    }

    void exportedFrameHoldsTheShownParticles()
    {
        controller_->playSteps(20);
        QTRY_VERIFY_WITH_TIMEOUT(window_->status().steps == 20 && !controller_->isRunning(), kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(window_->sceneView()->frame()->time == window_->status().time, kTimeout);
        const QTemporaryDir dir;
        const QString pvd = dir.filePath(QStringLiteral("shown.pvd"));
        QCOMPARE(window_->exportFrame(pvd), QString());
        QFile collection(pvd);
        QVERIFY(collection.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(collection.readAll());
        for (const char* part : {"shown_particles.vtp", "shown_contacts.vtp", "shown_boundaries.vtp"}) {
            QVERIFY2(text.contains(QLatin1String(part)), part);
            QVERIFY(QFile::exists(dir.filePath(QLatin1String(part))));
        }
        // Twelve significant digits, as the series' t (util/ShownTime.h).
        QVERIFY2(text.contains(QStringLiteral("timestep=\"%1\"").arg(window_->status().time, 0, 'g', 12)),
                 qPrintable(text));
        QFile particles(dir.filePath(QStringLiteral("shown_particles.vtp")));
        QVERIFY(particles.open(QIODevice::ReadOnly));
        const QString header = QString::fromLatin1(particles.read(4096));
        const auto count = static_cast<qsizetype>(window_->sceneView()->frame()->position.size());
        QVERIFY2(header.contains(QStringLiteral("NumberOfPoints=\"%1\"").arg(count)), qPrintable(header));

        // A folder that does not exist: the message names the file, nothing is written.
        const QString missing = dir.filePath(QStringLiteral("no/such/folder/f.pvd"));
        const QString error = window_->exportFrame(missing);
        QVERIFY2(error.contains(QStringLiteral("f_particles.vtp")), qPrintable(error));
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 4);
    }

private:
    std::unique_ptr<SimulationController> controller_;
    std::unique_ptr<MainWindow> window_;
};

int main(int argc, char** argv)
{
    QSurfaceFormat::setDefaultFormat(granular::ui::SceneView::requiredFormat());
    QApplication app(argc, argv);
    MainWindowTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_main_window.moc"
