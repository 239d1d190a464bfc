// The compression panel (setup compression, Brodu et al. 2015): loading and unloading strokes become separate
// curves of top force against compression, a reference run's series.csv is drawn beside them, the histogram
// counts the frame's grain-grain contacts, and the axes carry units. Needs an X display (xvfb-run).
#include "BuiltinScenarios.h"
#include "CompressionPanel.h"
#include "SimulationUpdate.h"
#include "settings/SettingsBinding.h"
#include "sim/Frame.h"

#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QFontMetricsF>
#include <QTemporaryDir>
#include <QTextStream>
#include <QValueAxis>

#include <QTest>

#include <cmath>

using granular::ui::CompressionPanel;
using granular::ui::RunInfo;
using granular::ui::SeriesRow;

namespace {

RunInfo compressionRun()
{
    RunInfo run;
    run.scenario = granular::resolveScenario("mcdem_compress");
    run.settings = granular::parseSettings(run.scenario);
    run.origin = "mcdem_compress";
    run.columns = {"kinetic_energy", "top_force", "compression", "stroke"};
    run.units = {"J", "N", "m", "1"};
    run.particles = 514;
    return run;
}

/// A settling row, then strokes 1 (down) and 2 (up) of 30 mm, F = 10 N (x / 30 mm)^2.
std::vector<SeriesRow> strokeRows()
{
    std::vector<SeriesRow> rows{{0.0, {0.1, 0.0, 0.0, 0.0}}};
    for (int stroke = 1; stroke <= 2; ++stroke) {
        for (int i = 0; i <= 30; ++i) {
            const double x = stroke == 1 ? 1e-3 * i : 3e-2 - 1e-3 * i;
            rows.push_back({0.01 * i + 0.3 * stroke, {0.0, 10.0 * (x / 3e-2) * (x / 3e-2), x, double(stroke)}});
        }
    }
    return rows;
}

}  // namespace

class CompressionPanelTest : public QObject {
    Q_OBJECT

private slots:
    void strokesBecomeLoadingAndUnloadingCurves()
    {
        CompressionPanel panel;
        panel.resize(500, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.startRun(compressionRun());
        panel.appendRows(strokeRows());
        QCOMPARE(panel.loadingPoints(), std::size_t{31});
        QCOMPARE(panel.unloadingPoints(), std::size_t{31});
        QStringList titles;
        for (auto* view : panel.findChildren<QChartView*>()) {
            for (auto* axis : view->chart()->axes()) {
                titles << axis->titleText();
            }
        }
        QVERIFY2(titles.contains(QStringLiteral("compression (mm)")), qPrintable(titles.join(QStringLiteral("; "))));
        QVERIFY(titles.contains(QStringLiteral("F_top (N)")));
        QVERIFY(titles.contains(QStringLiteral("f_n (N)")));

        // A new run (a reset, another scenario) starts from a fresh scale: the axes kept the last run's largest force.
        const auto forceAxisMax = [&panel] {
            for (auto* view : panel.findChildren<QChartView*>()) {
                for (auto* axis : view->chart()->axes()) {
                    if (axis->titleText() == QStringLiteral("F_top (N)")) {
                        return qobject_cast<QValueAxis*>(axis)->max();
                    }
                }
            }
            return -1.0;
        };
        QVERIFY(forceAxisMax() >= 10.0);
        panel.startRun(compressionRun());
        QVERIFY2(forceAxisMax() > 0.0 && forceAxisMax() < 1.0, qPrintable(QString::number(forceAxisMax())));
    }

    void referenceRunIsDrawnBeside()
    {
        CompressionPanel panel;
        panel.startRun(compressionRun());
        QTemporaryDir dir;
        QFile csv(dir.filePath(QStringLiteral("series.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        QTextStream(&csv) << "t,top_force,compression,stroke\n0,0,0,0\n0.1,1,0.01,1\n0.2,4,0.02,1\n0.3,2,0.01,2\n";
        csv.close();
        QCOMPARE(panel.loadReference(dir.path()), QString());
        QCOMPARE(panel.referencePoints(), std::size_t{3});
        QVERIFY(!panel.loadReference(QDir(dir.path()).filePath(QStringLiteral("nothing"))).isEmpty());
        QCOMPARE(panel.referencePoints(), std::size_t{3});  // a failed load keeps the old reference
        // The output of a run of another setup: the file and the missing column named, not a CLI flag ("--column").
        QTemporaryDir other;
        QFile plain(other.filePath(QStringLiteral("series.csv")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        QTextStream(&plain) << "t,kinetic_energy\n0,1\n";
        plain.close();
        const QString refused = panel.loadReference(other.path());
        QVERIFY2(refused.endsWith(QStringLiteral("series.csv: no column 'compression'; accepted: the output directory "
                                                 "of a run with setup compression")) &&
                     !refused.contains(QStringLiteral("--column")),
                 qPrintable(refused));
        QCOMPARE(panel.referencePoints(), std::size_t{3});
    }

    void histogramCountsTheGrainContacts()
    {
        CompressionPanel panel;
        auto frame = std::make_shared<granular::Frame>();
        frame->position.assign(4, Eigen::Vector3f::Zero());
        frame->radius.assign(4, 0.01F);
        frame->contacts = {{0, 1, 0.5F, false}, {1, 2, 0.25F, true}, {2, 3, 0.0F, false}};
        panel.showFrame(frame);
        QCOMPARE(panel.histogramContacts(), std::size_t{2});

        // A frame within the redraw interval (the one of a pause, a step, a reset) was dropped for good: it is drawn
        // when the interval is up.
        auto later = std::make_shared<granular::Frame>(*frame);
        later->contacts.push_back({0, 3, 1.0F, false});
        panel.showFrame(later);
        QCOMPARE(panel.histogramContacts(), std::size_t{2});
        QTRY_COMPARE_WITH_TIMEOUT(panel.histogramContacts(), std::size_t{3}, 5000);

        // A new run (a reset) keeps none of the last run's histogram ("newest frame" of the run before).
        panel.startRun(compressionRun());
        QCOMPARE(panel.histogramContacts(), std::size_t{0});
    }

    /// At a projector's text size (presentation mode) on the studio's narrow panel, the histogram's force labels were
    /// cut to "0.…": six labels of "0.000" did not fit side by side. The forces are now in mN (mcdem_compress's
    /// contacts carry some 0.01 N) and there are as few ticks as let the labels fit.
    void histogramLabelsFitANarrowPanelInPresentationMode()
    {
        CompressionPanel panel;
        panel.resize(360, 600);
        panel.setScale(1.6, 2.2);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.startRun(compressionRun());
        auto frame = std::make_shared<granular::Frame>();
        frame->position.assign(40, Eigen::Vector3f::Zero());
        frame->radius.assign(40, 0.01F);
        for (int i = 0; i + 1 < 40; ++i) {
            frame->contacts.push_back({i, i + 1, 1e-3F * static_cast<float>(i % 13), false});
        }
        panel.showFrame(frame);
        QChart* histogram = nullptr;
        for (auto* view : panel.findChildren<QChartView*>()) {
            if (view->objectName() == QStringLiteral("forceHistogram")) {
                histogram = view->chart();
            }
        }
        QVERIFY(histogram != nullptr);
        QTRY_VERIFY(histogram->plotArea().width() > 0.0);
        panel.showFrame(
            std::make_shared<granular::Frame>(*frame));  // laid out now: drawn again when the interval is up
        QTest::qWait(400);
        auto* force = qobject_cast<QValueAxis*>(histogram->axes(Qt::Horizontal).front());
        QCOMPARE(force->titleText(), QStringLiteral("f_n (mN)"));
        QVERIFY2(std::abs(force->max() - 12.0) < 1e-4, qPrintable(QString::number(force->max())));
        // Every label (in the axis' format) is narrower than the spacing of the ticks it stands between.
        const QFontMetricsF metrics(force->labelsFont());
        const int decimals = force->labelFormat().mid(2, force->labelFormat().size() - 3).toInt();
        const double spacing = force->tickInterval() / (force->max() - force->min()) * histogram->plotArea().width();
        int labels = 0;
        for (double tick = force->tickAnchor(); tick <= force->max() + 1e-9; tick += force->tickInterval()) {
            const QString label = QString::number(tick, 'f', decimals);
            QVERIFY2(metrics.horizontalAdvance(label) < spacing,
                     qPrintable(QStringLiteral("label %1 is %2 px, the ticks %3 px apart")
                                    .arg(label)
                                    .arg(metrics.horizontalAdvance(label))
                                    .arg(spacing)));
            ++labels;
        }
        QVERIFY2(labels >= 2, qPrintable(QString::number(labels)));
    }
};

QTEST_MAIN(CompressionPanelTest)
#include "tst_compression_panel.moc"
