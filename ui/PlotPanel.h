#pragma once

#include "SimulationUpdate.h"
#include "analysis/OscillationAnalysis.h"
#include "analysis/SeriesTable.h"

#include <QElapsedTimer>
#include <QList>
#include <QPointF>
#include <QWidget>

#include <cstdint>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QLabel;
class QPushButton;
class QTimer;
class QVBoxLayout;

namespace granular::ui {

class PressureZoom;
class TimeChartView;

/// The live plots of a run (Qt Charts): the piston's height or the chain's probe with the fitted
/// damped oscillation and, for the chain, the theory's curve; the inner pressure with P_ext; the
/// periodic cell's length and dilation rate; the kinetic energy; iterations and residual per step.
/// Only the charts whose columns the run has are shown. Axis titles carry units.
///
/// Keeps every row of the run (for the fit and the CSV export) and redraws at most a few times a
/// second, each curve thinned to what the chart can show. While the run plays, the oscillation's fit (the
/// automatic window's own period estimate and the fit: 0.3-1.5 s for piston2d runs of 6,000-60,000 rows) runs on a
/// worker thread from a copy of the rows, at most once a second, and shown when it is done; refreshNow() and a
/// chosen window fit at once. Lives on the GUI thread.
class PlotPanel final : public QWidget {
    Q_OBJECT

public:
    /// What the solver's chart shows: nothing (ballistic flight), the velocity-Verlet steps per solver step (md,
    /// mcdem), or the iterations and convergence per step (contact dynamics).
    enum class SolverChart { None, MdSteps, Iterations };
    [[nodiscard]] static SolverChart solverChartOf(Method method);

    explicit PlotPanel(QWidget* parent = nullptr);
    ~PlotPanel() override;
    Q_DISABLE_COPY_MOVE(PlotPanel)

    /// A new run: charts for its columns; rows are kept when the run continues (method switch).
    void startRun(const RunInfo& run);
    void appendRows(const std::vector<SeriesRow>& rows);
    /// The scenario's current values (load step time and N_I move the fit window and the theory).
    void setSettings(const Settings& settings);
    /// Redraws now instead of at the next refresh tick (before a screenshot).
    void refreshNow();
    /// Presentation mode: chart text `fontScale` and curves `lineScale` times their usual size (1, 1: usual).
    void setScale(double fontScale, double lineScale);
    /// Ticks or unticks "Zoom onto the fit window" (view.fit_zoom), as a user's click does.
    void setZoomToFitWindow(bool on);

    [[nodiscard]] const SeriesTable& series() const { return series_; }
    [[nodiscard]] const std::optional<analysis::OscillationAnalysis>& oscillation() const { return oscillation_; }
    /// "fit: omega = ..., tau = ... | theory: ..." as shown under the oscillation plot.
    [[nodiscard]] QString oscillationSummary() const;
    /// Writes the rows as CSV in the layout of `granular run`'s series.csv (header `t` and the
    /// column names), so that `granular fit` reads it. Returns an error message, empty on success.
    [[nodiscard]] QString writeCsv(const QString& path) const;

public slots:  // NOLINT(readability-redundant-access-specifiers): moc needs the slots section
    /// Fits from the load step on (piston) or three periods after the chain's contacts settled, as the run goes.
    void useAutomaticWindow();
    /// Fits over [from, to] (s).
    void setFitWindow(double from, double to);

private:
    struct Plot;

    void rebuildCharts();
    /// Redraws every chart.
    void refresh();
    /// Redraws the next chart with new rows (one per tick, so that one tick's repaint stays short).
    void refreshNextStalePlot();
    void refreshPlot(Plot& plot);
    /// Makes the chart at least as tall as its vertical axes' titles need (Qt Charts cuts a title longer than its
    /// plot is tall, e.g. "y \u2212 0.002 m (\u00b5m)" at a projector's text size): the panel scrolls instead.
    static void fitAxisTitles(Plot& plot);
    /// The inner pressure's chart zoomed onto P_ext (PressureZoom): `high`, the top of its curves, cut to the zoom's
    /// reach where they rise above it, and the peak left out shown under the chart.
    void zoomOntoExternalPressure(const Plot& plot, const std::vector<QList<QPointF>>& curvePoints, double& high) const;
    /// The unit of one of the run's columns.
    [[nodiscard]] QString unitOf(const std::string& column) const;
    /// The window the oscillation plot zooms onto (the chosen or fitted one, cut to the rows there are) while
    /// "Zoom onto the fit window" is ticked and it holds two rows at least; nullopt: the whole run.
    [[nodiscard]] std::optional<analysis::FitWindow> zoomedWindow() const;
    void markStale();
    /// What a fit of the oscillation found: the window (none yet: the reason is in the label) and the analysis.
    struct OscillationFit {
        std::uint64_t generation = 0;  ///< fitGeneration_ when it was asked for
        std::optional<analysis::FitWindow> window;
        std::optional<analysis::OscillationAnalysis> analysis;
    };
    /// A fit is made now: no other is due until kFitInterval has passed. False (and nothing to fit shown) without
    /// an oscillation column or settings.
    [[nodiscard]] bool beginFit();
    /// Fits now, on the GUI thread.
    void updateOscillation();
    /// Starts a fit on a worker thread when one is due and none runs.
    void startOscillationFit();
    /// Shows the worker's fit once it is done (and not made obsolete meanwhile).
    void collectOscillationFit();
    void showOscillation(OscillationFit fit);
    /// The window (chosen, or found by the automatic rule) and the fit over it; any thread.
    [[nodiscard]] static OscillationFit fitOscillation(const Settings& settings, const SeriesTable& series,
                                                       const std::string& column,
                                                       std::optional<analysis::FitWindow> chosen,
                                                       std::uint64_t generation);

    SeriesTable series_;
    std::vector<std::string> units_;
    std::optional<Settings> settings_;
    std::string oscillationColumn_;
    SolverChart solverChart_ = SolverChart::None;  ///< the solver's chart of the charts shown
    /// s, the solver's chart shows rows after this time only: a switch to a method whose chart reads the same columns
    /// otherwise (cd's iterations per step as md's MD steps per step) starts it afresh.
    double solverChartSince_ = -std::numeric_limits<double>::infinity();
    std::optional<analysis::FitWindow> chosenWindow_;  ///< set by dragging; nullopt: automatic
    std::optional<analysis::OscillationAnalysis> oscillation_;
    std::optional<analysis::FitWindow> fittedWindow_;  ///< the window of the last fit shown (the plot's band)
    std::future<OscillationFit> pendingFit_;           ///< the worker's fit, while one is asked for
    std::uint64_t fitGeneration_ = 0;                  ///< raised when a new run, settings or window make fits obsolete

    std::vector<std::unique_ptr<Plot>> plots_;
    Plot* oscillationPlot_ = nullptr;
    QVBoxLayout* chartsLayout_;
    QWidget* oscillationControls_;
    QLabel* oscillationLabel_;
    QPushButton* automaticWindowButton_;
    QCheckBox* zoomToWindowBox_;
    Plot* pressurePlot_ = nullptr;  ///< the inner pressure's chart where the run has P_ext
    PressureZoom* pressureZoom_;
    QTimer* refreshTimer_;
    QElapsedTimer sinceFit_;
    std::size_t nextPlot_ = 0;  ///< where refreshNextStalePlot() looks first
    bool fitDirty_ = false;
    double fontScale_ = 1.0;
    double lineScale_ = 1.0;
};

}  // namespace granular::ui
