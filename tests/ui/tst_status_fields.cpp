// The status bar's readouts shown whole or not at all (ui/StatusFields): in a bar too narrow for all of them the
// least important are hidden, never cut; they come back with the room; a transient message keeps its room; a field
// whose text shrinks keeps its widest width (no fields coming and going from one step to the next); the studio's
// presentation mode at a projector's 1280x800 shows whole fields only.
// Needs an X display (xvfb-run).
#include "MainWindow.h"
#include "ScenarioArguments.h"
#include "SimulationController.h"
#include "StatusFields.h"
#include "sim/Simulation.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QStatusBar>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

using granular::ui::StatusFields;

namespace {

constexpr int kTimeout = 20'000;  // ms

/// Whether every shown label of `labels` has the width its text needs (nothing cut).
bool shownWhole(const std::vector<QLabel*>& labels, QString& why)
{
    for (QLabel* label : labels) {
        if (label->isVisible() && label->width() < label->sizeHint().width()) {
            why = QStringLiteral("'%1' is %2 px wide, its text needs %3")
                      .arg(label->text())
                      .arg(label->width())
                      .arg(label->sizeHint().width());
            return false;
        }
    }
    return true;
}

/// The labels of `byImportance` shown, as a string of 1 and 0.
QString shownPattern(const std::vector<QLabel*>& byImportance)
{
    QString pattern;
    for (QLabel* label : byImportance) {
        pattern += label->isVisible() ? QLatin1Char('1') : QLatin1Char('0');
    }
    return pattern;
}

}  // namespace

class StatusFieldsTest : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        bar_ = std::make_unique<QStatusBar>();
        bar_->setSizeGripEnabled(false);
        labels_.clear();
        for (const char* text : {"t = 12.5 s (1250 steps)", "F = 20000 N", "1799 contacts", "residual 7.21e-08",
                                 "<overlap> = 0.000573 m", "40 iterations"}) {
            auto* label = new QLabel(QString::fromLatin1(text));
            label->setContentsMargins(6, 0, 6, 0);
            bar_->addPermanentWidget(label);
            labels_.push_back(label);
        }
        fields_ = new StatusFields(bar_.get(), labels_);
        for (QLabel* label : labels_) {
            wholeWidth_ += label->sizeHint().width();
        }
        bar_->resize(wholeWidth_ + 200, 30);
        bar_->show();
        QVERIFY(QTest::qWaitForWindowExposed(bar_.get()));
    }

    void cleanup()
    {
        bar_.reset();
        wholeWidth_ = 0;
    }

    void allFieldsShowWhereThereIsRoom()
    {
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(labels_), QStringLiteral("111111"), kTimeout);
        QString why;
        QVERIFY2(shownWhole(labels_, why), qPrintable(why));
        QVERIFY(fields_->hiddenForRoom().empty());
        QVERIFY(bar_->toolTip().isEmpty());
    }

    void aNarrowBarHidesTheLeastImportantWholeFields()
    {
        // Room for about half of them: the most important first, none cut; the rest named in the tooltip.
        bar_->resize(wholeWidth_ / 2, 30);
        QTRY_VERIFY_WITH_TIMEOUT(!fields_->hiddenForRoom().empty(), kTimeout);
        QTest::qWait(50);  // the layout after the refit
        const QString pattern = shownPattern(labels_);
        QVERIFY2(pattern.startsWith(QLatin1Char('1')) && !pattern.contains(QStringLiteral("01")), qPrintable(pattern));
        QVERIFY2(pattern.count(QLatin1Char('1')) >= 2, qPrintable(pattern));
        QString why;
        QVERIFY2(shownWhole(labels_, why), qPrintable(why));
        QVERIFY2(bar_->toolTip().contains(QStringLiteral("40 iterations")), qPrintable(bar_->toolTip()));

        // Narrower still: fewer; wide again: all, the tooltip empty.
        const int shownAtHalf = static_cast<int>(pattern.count(QLatin1Char('1')));
        bar_->resize(wholeWidth_ / 4, 30);
        QTRY_VERIFY_WITH_TIMEOUT(shownPattern(labels_).count(QLatin1Char('1')) < shownAtHalf, kTimeout);
        QTest::qWait(50);
        QVERIFY2(shownWhole(labels_, why), qPrintable(why));
        bar_->resize(wholeWidth_ + 200, 30);
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(labels_), QStringLiteral("111111"), kTimeout);
        QVERIFY(bar_->toolTip().isEmpty());
    }

    void aFieldNotWantedStaysHiddenAndGivesItsRoom()
    {
        bar_->resize(wholeWidth_ - labels_[1]->sizeHint().width() / 2, 30);
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(labels_), QStringLiteral("111110"), kTimeout);
        // Without the force (no piston), the last field fits again.
        fields_->setWanted(labels_[1], false);
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(labels_), QStringLiteral("101111"), kTimeout);
        QVERIFY(fields_->hiddenForRoom().empty());
        fields_->setWanted(labels_[1], true);
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(labels_), QStringLiteral("111110"), kTimeout);
    }

    void aTransientMessageKeepsItsRoomUntilItGoes()
    {
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(labels_), QStringLiteral("111111"), kTimeout);
        const QString message = QStringLiteral("Saved /tmp/a-state-with-a-long-name.bin");
        bar_->showMessage(message);
        QTRY_VERIFY_WITH_TIMEOUT(!fields_->hiddenForRoom().empty(), kTimeout);
        QTest::qWait(50);
        // The message's text ends left of the first field shown.
        int firstShown = bar_->width();
        for (QLabel* label : labels_) {
            if (label->isVisible()) {
                firstShown = std::min(firstShown, label->x());
            }
        }
        QVERIFY2(bar_->fontMetrics().horizontalAdvance(message) < firstShown,
                 qPrintable(QStringLiteral("message %1 px, first field at %2")
                                .arg(bar_->fontMetrics().horizontalAdvance(message))
                                .arg(firstShown)));
        bar_->clearMessage();
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(labels_), QStringLiteral("111111"), kTimeout);
    }

    void aShrinkingTextKeepsItsWidestWidth()
    {
        // Just room for all: a field whose text grows hides the last; shrinking back does not bring it back at
        // once (the widest text since the last font change counts), a font change does.
        bar_->resize(wholeWidth_ + 40, 30);
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(labels_), QStringLiteral("111111"), kTimeout);
        labels_[2]->setText(QStringLiteral("1799 contacts, and a longer note"));
        fields_->fit();
        QTRY_VERIFY_WITH_TIMEOUT(!fields_->hiddenForRoom().empty(), kTimeout);
        const QString grown = shownPattern(labels_);
        QVERIFY2(grown.startsWith(QStringLiteral("111")) && grown.endsWith(QLatin1Char('0')), qPrintable(grown));
        labels_[2]->setText(QStringLiteral("1799 contacts"));
        fields_->fit();
        QTest::qWait(100);
        QCOMPARE(shownPattern(labels_), grown);
        QFont font = bar_->font();
        font.setPointSizeF(font.pointSizeF() * 0.9);
        bar_->setFont(font);
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(labels_), QStringLiteral("111111"), kTimeout);
    }

    void presentationModeAtAProjectorsWidthShowsWholeFields()
    {
        // The studio at 1280x800 in presentation mode (F5): piston2d's readouts do not all fit; those shown are
        // whole, the simulated time first among them.
        bar_.reset();
        auto controller = std::make_unique<granular::ui::SimulationController>(
            std::make_unique<granular::Simulation>(
                granular::scenarioFromArguments("piston2d", {"studio.start_time=0"})),
            "piston2d");
        granular::ui::MainWindow window(*controller);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.width(), 1280);
        auto* presentation = window.findChild<QAction*>(QStringLiteral("presentationMode"));
        QVERIFY(presentation != nullptr);
        presentation->trigger();
        controller->playSteps(5);
        QTRY_VERIFY_WITH_TIMEOUT(window.status().steps == 5 && !controller->isRunning(), kTimeout);
        window.statusBar()->clearMessage();
        const std::vector<QLabel*> fields{
            window.findChild<QLabel*>(QStringLiteral("statusTime")),
            window.findChild<QLabel*>(QStringLiteral("statusForce")),
            window.findChild<QLabel*>(QStringLiteral("statusContacts")),
            window.findChild<QLabel*>(QStringLiteral("residual")),
            window.findChild<QLabel*>(QStringLiteral("statusOverlap")),
            window.findChild<QLabel*>(QStringLiteral("statusIterations")),
            window.findChild<QLabel*>(QStringLiteral("statusRate")),
            window.findChild<QLabel*>(QStringLiteral("statusFps")),
            window.findChild<QLabel*>(QStringLiteral("solverThreadsLabel")),
        };
        for (QLabel* label : fields) {
            QVERIFY(label != nullptr);
        }
        QTRY_VERIFY_WITH_TIMEOUT(fields.front()->isVisible() && !fields.back()->isVisible(), kTimeout);
        QTest::qWait(200);
        const QString pattern = shownPattern(fields);
        QVERIFY2(pattern.startsWith(QStringLiteral("111")) && !pattern.contains(QStringLiteral("01")),
                 qPrintable(pattern));
        QString why;
        QVERIFY2(shownWhole(fields, why), qPrintable(why));
        QVERIFY2(window.statusBar()->toolTip().contains(fields.back()->text()),
                 qPrintable(window.statusBar()->toolTip()));

        // Back to the usual text size: all nine fit in the same window.
        presentation->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(shownPattern(fields), QStringLiteral("111111111"), kTimeout);
        QTest::qWait(200);
        QVERIFY2(shownWhole(fields, why), qPrintable(why));
    }

private:
    std::unique_ptr<QStatusBar> bar_;
    std::vector<QLabel*> labels_;
    StatusFields* fields_ = nullptr;
    int wholeWidth_ = 0;
};

QTEST_MAIN(StatusFieldsTest)
#include "tst_status_fields.moc"
