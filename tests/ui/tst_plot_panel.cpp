// The plot panel on its own: axis titles carry the unit, and series whose values Qt Charts cannot
// label (~1e-9 J of a millimetre grain) are drawn scaled by a power of ten named in the title.
// Needs an X display (xvfb-run) like the other GUI tests.
#include "BuiltinScenarios.h"
#include "PlotPanel.h"
#include "SimulationUpdate.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QValueAxis>
#include <QtTest>

#include <algorithm>

using granular::ui::PlotPanel;
using granular::ui::RunInfo;
using granular::ui::SeriesRow;

namespace {

/// The chart titled `title` in the panel, or nullptr.
QChart* chartTitled(const PlotPanel& panel, const QString& title)
{
    for (auto* view : panel.findChildren<QChartView*>()) {
        if (view->chart()->title() == title) {
            return view->chart();
        }
    }
    return nullptr;
}

QValueAxis* leftAxis(QChart* chart)
{
    const auto axes = chart->axes(Qt::Vertical);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.front());
}

/// Kinetic energy rising as amplitude * t^2 over 100 rows.
std::vector<SeriesRow> energyRows(double amplitude)
{
    std::vector<SeriesRow> rows;
    for (int i = 0; i <= 100; ++i) {
        const double t = 1e-4 * i;
        rows.push_back({t, {amplitude * (t / 1e-2) * (t / 1e-2)}});
    }
    return rows;
}

}  // namespace

class PlotPanelTest : public QObject {
    Q_OBJECT

private slots:
    void tinyValuesAreDrawnScaledWithTheFactorInTheTitle()
    {
        PlotPanel panel;
        RunInfo run{granular::resolveScenario("md_impact"), "md_impact", {"kinetic_energy"}, {"J"}, 2, false};
        panel.startRun(run);
        panel.appendRows(energyRows(6e-9));
        panel.refreshNow();

        auto* chart = chartTitled(panel, QStringLiteral("Kinetic energy"));
        QVERIFY(chart != nullptr);
        auto* axis = leftAxis(chart);
        QVERIFY(axis != nullptr);
        QCOMPARE(axis->titleText(), QStringLiteral("E_kin (1e-09 J)"));
        // Drawn values are J / 1e-9: the last point is 6, the axis spans it with some padding.
        const auto* line = qobject_cast<QLineSeries*>(chart->series().front());
        QVERIFY(line != nullptr);
        QVERIFY(!line->points().isEmpty());
        QCOMPARE(line->points().back().y(), 6.0);
        QVERIFY2(axis->max() > 6.0 && axis->max() < 7.0, qPrintable(QString::number(axis->max())));
        // The panel's own table keeps the values in J (CSV export, fits).
        QCOMPARE(panel.series().column("kinetic_energy").back(), 6e-9);
    }

    void ordinaryValuesAreDrawnAsTheyAre()
    {
        PlotPanel panel;
        RunInfo run{granular::resolveScenario("md_impact"), "md_impact", {"kinetic_energy"}, {"J"}, 2, false};
        panel.startRun(run);
        panel.appendRows(energyRows(6.0));
        panel.refreshNow();

        auto* chart = chartTitled(panel, QStringLiteral("Kinetic energy"));
        QVERIFY(chart != nullptr);
        QCOMPARE(leftAxis(chart)->titleText(), QStringLiteral("E_kin (J)"));
        const auto* line = qobject_cast<QLineSeries*>(chart->series().front());
        QCOMPARE(line->points().back().y(), 6.0);
    }
};

QTEST_MAIN(PlotPanelTest)
#include "tst_plot_panel.moc"
