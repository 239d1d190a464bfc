#include "PlotPanel.h"

#include "AxisScale.h"
#include "AxisTicks.h"
#include "SeriesColumns.h"

#include "analysis/PistonOscillation.h"

#include "CsvSeries.h"
#include "PlotDecimation.h"
#include "PressureZoom.h"
#include "SavedFile.h"
#include "ThreadPriority.h"
#include "TimeChartView.h"

#include <QChart>
#include <QCheckBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <limits>
#include <span>
#include <sstream>
#include <utility>

namespace granular::ui {

namespace {

/// Redraws each chart at most this often while rows arrive, ms. The charts take turns: one
/// chart per tick of kRefreshInterval / (number of charts).
constexpr int kRefreshInterval = 500;
/// Fits at most this often while rows arrive, ms.
constexpr qint64 kFitInterval = 1000;
/// Points per drawn curve, whatever the length of the run.
constexpr qsizetype kPointsPerCurve = 800;

// Series colours: none red or orange, so that the scene's force chains keep those hues.
const QColor kFirstColour(31, 111, 208);
const QColor kSecondColour(46, 157, 58);
const QColor kReferenceColour(80, 80, 80);
const QColor kFitColour(20, 20, 20);
const QColor kTheoryColour(155, 48, 208);

struct CurveSpec {
    std::string column;
    QString label;
    QColor colour;
    Qt::PenStyle style = Qt::SolidLine;
    bool rightAxis = false;
};

struct ChartSpec {
    QString title;
    std::vector<CurveSpec> curves;
    bool oscillation = false;
    /// Symbols on the left and right axis titles; empty: the curves' labels.
    QString leftSymbol = QString();
    QString rightSymbol = QString();
    /// Of the steps (the solver's iterations): the run's first row, the state before its first step, is not drawn.
    bool perStep = false;
    /// The inner pressure with P_ext: PressureZoom under it.
    bool pressure = false;
};

QString columnLabel(const std::string& column)
{
    if (column == "external_pressure") {
        return QStringLiteral("P_ext");
    }
    return QString::fromStdString(column);
}

/// The charts of a run's columns, with the solver's chart as its method has it (`solver`).
std::vector<ChartSpec> chartSpecs(const SeriesTable& series, const std::string& oscillationColumn,
                                  PlotPanel::SolverChart solver)
{
    std::vector<ChartSpec> specs;
    const auto has = [&series](const char* column) { return series.has(column); };
    if (!oscillationColumn.empty()) {
        const QString title =
            oscillationColumn == "piston_y" ? QObject::tr("Piston height") : QObject::tr("Probe position");
        specs.push_back({title, {{oscillationColumn, columnLabel(oscillationColumn), kFirstColour}}, true});
    }
    if (has("height") && has("velocity")) {
        specs.push_back({QObject::tr("Upper grain"),
                         {{"height", QStringLiteral("height"), kFirstColour},
                          {"velocity", QStringLiteral("velocity"), kSecondColour, Qt::SolidLine, true}},
                         false,
                         QStringLiteral("y"),
                         QStringLiteral("v_y")});
    }
    if (has("overlap") && has("normal_force")) {
        specs.push_back({QObject::tr("Contact of the pair"),
                         {{"overlap", QStringLiteral("overlap"), kFirstColour},
                          {"normal_force", QStringLiteral("normal_force"), kSecondColour, Qt::SolidLine, true}},
                         false,
                         QStringLiteral("\u03b4"),
                         QStringLiteral("f_n")});
    }
    if (has("pressure")) {
        ChartSpec spec{QObject::tr("Inner pressure"), {{"pressure", QStringLiteral("P_in"), kFirstColour}}};
        spec.leftSymbol = QStringLiteral("P");
        if (has("external_pressure")) {
            spec.curves.push_back({"external_pressure", QStringLiteral("P_ext"), kReferenceColour, Qt::DashLine});
            spec.pressure = true;
        }
        specs.push_back(spec);
    }
    if (has("cell_length") || has("dilation_rate")) {
        ChartSpec spec{QObject::tr("Periodic cell"), {}};
        spec.leftSymbol = QStringLiteral("L");
        spec.rightSymbol = QStringLiteral("\u03bb");
        if (has("cell_length")) {
            spec.curves.push_back({"cell_length", QStringLiteral("cell_length"), kFirstColour});
        }
        if (has("dilation_rate")) {
            spec.curves.push_back(
                {"dilation_rate", QStringLiteral("dilation_rate"), kSecondColour, Qt::SolidLine, has("cell_length")});
        }
        specs.push_back(spec);
    }
    if (has("volume_fraction")) {
        specs.push_back({QObject::tr("Volume fraction"),
                         {{"volume_fraction", QStringLiteral("volume_fraction"), kFirstColour}},
                         false,
                         QStringLiteral("\u03c6")});
    }
    if (has("kinetic_energy")) {
        specs.push_back({QObject::tr("Kinetic energy"),
                         {{"kinetic_energy", QStringLiteral("kinetic_energy"), kFirstColour}},
                         false,
                         QStringLiteral("E_kin")});
    }
    if (solver == PlotPanel::SolverChart::MdSteps && has("iterations")) {
        // Soft particles: the velocity-Verlet steps per solver step (their residual column is 0: no iteration).
        ChartSpec spec{QObject::tr("MD steps per solver step"),
                       {{"iterations", QStringLiteral("MD steps"), kFirstColour}}};
        spec.leftSymbol = QStringLiteral("n_MD");
        spec.perStep = true;
        specs.push_back(spec);
    } else if (solver == PlotPanel::SolverChart::Iterations && has("iterations")) {
        ChartSpec spec{QObject::tr("Solver per step"), {{"iterations", QStringLiteral("iterations"), kFirstColour}}};
        spec.leftSymbol = QStringLiteral("N_I");
        spec.perStep = true;
        // CD: the change of the forces in the last sweep, which tells how converged they are; eq. 35's residual
        // is 1 whenever one contact opened or closed, so it stays in the series and the status bar only.
        if (has("force_change")) {
            spec.rightSymbol = QStringLiteral("|\u0394R|/|R|");
            spec.curves.push_back(
                {"force_change", QStringLiteral("force change |\u0394R|/|R|"), kSecondColour, Qt::SolidLine, true});
        } else if (has("residual")) {
            spec.rightSymbol = QStringLiteral("res");
            spec.curves.push_back({"residual", QStringLiteral("residual"), kSecondColour, Qt::SolidLine, true});
        }
        specs.push_back(spec);
    }
    return specs;
}

QFont smallFont(int points, double scale, bool bold = false)
{
    QFont font;
    font.setPointSizeF(points * scale);
    font.setBold(bold);
    return font;
}

QValueAxis* makeAxis(const QString& title, double fontScale)
{
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setTitleFont(smallFont(8, axisTextScale(fontScale)));
    axis->setLabelsFont(smallFont(7, axisTextScale(fontScale)));
    axis->setLabelFormat(QStringLiteral("%.4g"));
    axis->setTickCount(5);
    return axis;
}

/// The range of the points with a little room above and below; a flat curve gets a unit-free span.
std::pair<double, double> paddedRange(double low, double high)
{
    if (!(low <= high)) {
        return {0.0, 1.0};
    }
    double span = high - low;
    if (span <= 0.0) {
        if (high == 0.0) {
            return {0.0, 1.0};  // a curve at zero so far (no contacts yet): a plain unit axis, not +-1e-12
        }
        span = std::abs(high) * 0.1;
        return {low - span, high + span};
    }
    return {low - 0.06 * span, high + 0.06 * span};
}

QString formatNumber(double x)
{
    return QString::number(x, 'g', 4);
}

/// The points as the axis draws them: (value - offset) / scale.
QList<QPointF> scaled(QList<QPointF> points, const AxisDisplay& display)
{
    if (display.scale != 1.0 || display.offset != 0.0) {
        for (auto& p : points) {
            p.setY((p.y() - display.offset) / display.scale);
        }
    }
    return points;
}

}  // namespace

struct PlotPanel::Plot {
    struct Curve {
        std::string column;
        QLineSeries* series = nullptr;
        bool rightAxis = false;
    };
    TimeChartView* view = nullptr;
    bool perStep = false;  ///< ChartSpec::perStep
    int leastHeight = 0;   ///< px, the view's least height whatever its axis titles
    QChart* chart = nullptr;
    QValueAxis* time = nullptr;
    QValueAxis* left = nullptr;
    QValueAxis* right = nullptr;
    std::vector<Curve> curves;
    QLineSeries* fit = nullptr;     ///< oscillation plot only
    QLineSeries* theory = nullptr;  ///< oscillation plot only
    struct AxisName {
        QString name;
        QString unit;
        AxisDisplay display;  ///< the drawn values are (the series' values - offset) / scale
    };
    AxisName leftName;
    AxisName rightName;
    bool stale = true;  ///< rows or settings changed since it was drawn
};

PlotPanel::PlotPanel(QWidget* parent)
    : QWidget(parent), chartsLayout_(new QVBoxLayout), oscillationControls_(new QWidget(this)),
      oscillationLabel_(new QLabel(this)), automaticWindowButton_(new QPushButton(tr("Fit after sliding stops"), this)),
      zoomToWindowBox_(new QCheckBox(tr("Zoom onto the fit window"), this)), pressureZoom_(new PressureZoom(this)),
      refreshTimer_(new QTimer(this))
{
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(scroll);
    content->setLayout(chartsLayout_);
    chartsLayout_->setContentsMargins(0, 0, 0, 0);
    chartsLayout_->setSpacing(2);
    scroll->setWidget(content);

    oscillationLabel_->setWordWrap(true);
    // Room for the fit, the theory and their ratios on a narrow panel.
    oscillationLabel_->setMinimumHeight(3 * oscillationLabel_->fontMetrics().lineSpacing());
    oscillationLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    oscillationLabel_->setObjectName(QStringLiteral("oscillationSummary"));
    automaticWindowButton_->setToolTip(tr("Fit the oscillation from the automatic start on; drag across the plot to "
                                          "choose a window yourself"));
    connect(automaticWindowButton_, &QPushButton::clicked, this, &PlotPanel::useAutomaticWindow);
    // The button under the summary, not beside it: side by side, their widths at a projector's text size made the
    // panel wider than its dock, and every plot's title, legend and right axis were cut at the dock's edge.
    auto* controls = new QVBoxLayout(oscillationControls_);
    controls->setContentsMargins(4, 0, 4, 0);
    controls->addWidget(oscillationLabel_);
    controls->addWidget(automaticWindowButton_, 0, Qt::AlignLeft);
    // The piston's oscillation after a load step (~2 mm) is lost on an axis that spans its whole fall (~100 m).
    zoomToWindowBox_->setObjectName(QStringLiteral("zoomToFitWindow"));
    zoomToWindowBox_->setToolTip(tr("Show only the fit window (the shaded time), with the value axis (piston height or "
                                    "probe position) fitted to the oscillation in it; untick to see the whole run"));
    connect(zoomToWindowBox_, &QCheckBox::toggled, this, [this] {
        if (oscillationPlot_ != nullptr) {
            refreshPlot(*oscillationPlot_);
        }
    });
    controls->addWidget(zoomToWindowBox_, 0, Qt::AlignLeft);
    pressureZoom_->hide();
    connect(pressureZoom_, &PressureZoom::zoomToggled, this, [this] {
        if (pressurePlot_ != nullptr) {
            refreshPlot(*pressurePlot_);
        }
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    refreshTimer_->setObjectName(QStringLiteral("plotRefreshTimer"));
    refreshTimer_->setInterval(kRefreshInterval);
    connect(refreshTimer_, &QTimer::timeout, this, [this] { refreshNextStalePlot(); });
    refreshTimer_->start();
    sinceFit_.start();
    setMinimumWidth(320);
}

PlotPanel::~PlotPanel()
{
    // The charts outlive plots_ (QWidget deletes its children after the members are gone): no layout of theirs may
    // reach a Plot then.
    for (const auto& plot : plots_) {
        plot->chart->disconnect(this);
    }
}

PlotPanel::SolverChart PlotPanel::solverChartOf(Method method)
{
    switch (method) {
    case Method::Ballistic:
        return SolverChart::None;  // free flight has no solver: its iterations and residual are 0 throughout
    case Method::SoftParticle:
    case Method::MultiContact:
        return SolverChart::MdSteps;
    case Method::ContactDynamics:
    case Method::ConstantPressure:
        break;
    }
    return SolverChart::Iterations;
}

void PlotPanel::startRun(const RunInfo& run)
{
    // A method switch between ballistic flight, soft particles and contact dynamics changes the solver's chart.
    const bool sameCharts = solverChartOf(run.settings.solver.method) == solverChart_;
    const bool sameColumns = run.continued && run.columns == series_.columns && sameCharts;
    settings_ = run.settings;
    if (run.continued && !sameCharts && !series_.time.empty()) {
        // The rows so far are of the other method's solver: cd's N_I = 30 was drawn as 30 MD steps per step.
        solverChartSince_ = series_.time.back();
    } else if (!run.continued) {
        solverChartSince_ = -std::numeric_limits<double>::infinity();
    }
    if (run.continued && !sameColumns) {
        // Another method on the same state (cd's sliding and force_change columns, md's overlaps): the rows so far
        // stay, by column name; a column the earlier rows lack reads NaN there (not drawn).
        SeriesTable kept;
        kept.columns = run.columns;
        const std::vector<std::size_t> sources = columnSources(series_.columns, run.columns);
        for (std::size_t i = 0; i < series_.rows.size(); ++i) {
            kept.append(series_.time[i], remapValues(series_.rows[i], sources));
        }
        series_ = std::move(kept);
        units_ = run.units;
        oscillationColumn_ = analysis::oscillationColumn(run.settings, series_);
        rebuildCharts();
    } else if (!sameColumns) {
        series_ = SeriesTable{};
        series_.columns = run.columns;
        units_ = run.units;
        chosenWindow_.reset();
        oscillation_.reset();
        fittedWindow_.reset();
        oscillationColumn_ = analysis::oscillationColumn(run.settings, series_);
        rebuildCharts();
    }
    ++fitGeneration_;
    markStale();
    fitDirty_ = true;
}

void PlotPanel::appendRows(const std::vector<SeriesRow>& rows)
{
    for (const auto& row : rows) {
        if (row.values.size() == series_.columns.size()) {
            series_.append(row.time, row.values);
        }
    }
    if (!rows.empty()) {
        markStale();
        fitDirty_ = true;
    }
}

void PlotPanel::setSettings(const Settings& settings)
{
    settings_ = settings;
    ++fitGeneration_;
    fitDirty_ = true;
    markStale();
}

void PlotPanel::refreshNow()
{
    ++fitGeneration_;  // the fit made now supersedes one still running
    sinceFit_.invalidate();
    refresh();
}

void PlotPanel::useAutomaticWindow()
{
    chosenWindow_.reset();
    fitDirty_ = true;
    refreshNow();
}

void PlotPanel::setFitWindow(double from, double to)
{
    chosenWindow_ = analysis::FitWindow{from, to};
    fitDirty_ = true;
    refreshNow();
}

void PlotPanel::setZoomToFitWindow(bool on)
{
    zoomToWindowBox_->setChecked(on);
}

void PlotPanel::setScale(double fontScale, double lineScale)
{
    if (fontScale == fontScale_ && lineScale == lineScale_) {
        return;
    }
    fontScale_ = fontScale;
    lineScale_ = lineScale;
    if (!series_.columns.empty()) {
        rebuildCharts();
        refreshNow();
    }
}

void PlotPanel::rebuildCharts()
{
    for (auto& plot : plots_) {
        chartsLayout_->removeWidget(plot->view);
        delete plot->view;  // owns its chart, series and axes
    }
    plots_.clear();
    oscillationPlot_ = nullptr;
    chartsLayout_->removeWidget(oscillationControls_);
    oscillationControls_->hide();
    pressurePlot_ = nullptr;
    chartsLayout_->removeWidget(pressureZoom_);
    pressureZoom_->hide();

    solverChart_ = settings_ ? solverChartOf(settings_->solver.method) : SolverChart::None;
    for (const ChartSpec& spec : chartSpecs(series_, oscillationColumn_, solverChart_)) {
        auto plot = std::make_unique<Plot>();
        plot->perStep = spec.perStep;
        plot->chart = new QChart;
        plot->chart->setTitle(spec.title);
        plot->chart->setTitleFont(smallFont(9, fontScale_, true));
        plot->chart->setMargins(QMargins(2, 2, 2, 2));
        plot->chart->setBackgroundRoundness(0.0);
        plot->chart->legend()->setFont(smallFont(7, fontScale_));
        plot->chart->legend()->setAlignment(Qt::AlignTop);
        plot->time = makeAxis(tr("t (s)"), fontScale_);
        plot->chart->addAxis(plot->time, Qt::AlignBottom);

        const auto axisTitle = [this, &spec](bool right) {
            QStringList names;
            QString unit;
            for (const auto& curve : spec.curves) {
                if (curve.rightAxis == right) {
                    names << curve.label;
                    unit = unitOf(curve.column);
                }
            }
            const QString& symbol = right ? spec.rightSymbol : spec.leftSymbol;
            return Plot::AxisName{symbol.isEmpty() ? names.join(QStringLiteral(", ")) : symbol, unit, AxisDisplay{}};
        };
        plot->leftName = axisTitle(false);
        plot->left = makeAxis(axisTitleText(plot->leftName.name, plot->leftName.unit, 1.0), fontScale_);
        plot->chart->addAxis(plot->left, Qt::AlignLeft);
        const bool hasRight =
            std::any_of(spec.curves.begin(), spec.curves.end(), [](const auto& c) { return c.rightAxis; });
        if (hasRight) {
            plot->rightName = axisTitle(true);
            plot->right = makeAxis(axisTitleText(plot->rightName.name, plot->rightName.unit, 1.0), fontScale_);
            plot->chart->addAxis(plot->right, Qt::AlignRight);
        }
        const auto addSeries = [&plot, this](const QString& name, const QColor& colour, Qt::PenStyle style,
                                             bool right) {
            auto* line = new QLineSeries;
            line->setName(name);
            QPen pen(colour);
            pen.setWidthF((style == Qt::SolidLine ? 1.6 : 1.8) * lineScale_);
            pen.setStyle(style);
            line->setPen(pen);
            plot->chart->addSeries(line);
            line->attachAxis(plot->time);
            line->attachAxis(right ? plot->right : plot->left);
            return line;
        };
        for (const auto& curve : spec.curves) {
            plot->curves.push_back(
                {curve.column, addSeries(curve.label, curve.colour, curve.style, curve.rightAxis), curve.rightAxis});
        }
        if (spec.oscillation) {
            // Short names (the summary under the plot names the paper): at a projector's text size the title and the
            // legend were cut ("Piston height and damped-os...", "fit (Unger & Kertesz 2003, ...").
            plot->fit = addSeries(tr("fit (eq. 64)"), kFitColour, Qt::DashLine, false);
            if (settings_ && settings_->setup == Setup::Chain) {
                plot->theory = addSeries(tr("theory (eq. 58, 60)"), kTheoryColour, Qt::DotLine, false);
            }
        }
        plot->chart->legend()->setVisible(plot->chart->series().size() > 1);

        plot->view = new TimeChartView(plot->chart, this);
        plot->leastHeight = static_cast<int>((spec.oscillation ? 220 : 175) * std::sqrt(fontScale_));
        plot->view->setMinimumHeight(plot->leastHeight);
        // Measured again whenever the chart is laid out anew (the dock resized, the titles changed).
        connect(plot->chart, &QChart::plotAreaChanged, this, [raw = plot.get()] { fitAxisTitles(*raw); });
        if (spec.oscillation) {
            plot->view->setSelectable(true);
            connect(plot->view, &TimeChartView::windowChosen, this, &PlotPanel::setFitWindow);
            connect(plot->view, &TimeChartView::windowCleared, this, &PlotPanel::useAutomaticWindow);
            oscillationPlot_ = plot.get();
        }
        chartsLayout_->addWidget(plot->view, spec.oscillation ? 3 : 2);
        if (spec.oscillation) {
            chartsLayout_->addWidget(oscillationControls_);
            oscillationControls_->show();
            // Short: at a projector's text size the button's width is the panel's least (chain1d's 'Fit 3 periods
            // after the contacts settle' made it wider than its dock); the tooltip says the rest.
            const bool piston = oscillationColumn_ == "piston_y";
            automaticWindowButton_->setText(piston ? tr("Fit after sliding stops") : tr("Fit after contacts settle"));
            automaticWindowButton_->setToolTip(
                piston ? tr("Fit the oscillation from the automatic start on (once no contact slides); drag across the "
                            "plot to choose a window yourself")
                       : tr("Fit the oscillation from 3 periods after the contacts settle on; drag across the plot to "
                            "choose a window yourself"));
        }
        if (spec.pressure) {
            chartsLayout_->addWidget(pressureZoom_);
            pressureZoom_->show();
            pressurePlot_ = plot.get();
        }
        plots_.push_back(std::move(plot));
    }
    oscillationLabel_->clear();
    nextPlot_ = 0;
    refreshTimer_->setInterval(kRefreshInterval / static_cast<int>(std::max<std::size_t>(1, plots_.size())));
}

void PlotPanel::markStale()
{
    for (auto& plot : plots_) {
        plot->stale = true;
    }
}

void PlotPanel::refresh()
{
    for (auto& plot : plots_) {
        refreshPlot(*plot);
    }
}

void PlotPanel::refreshNextStalePlot()
{
    collectOscillationFit();
    startOscillationFit();
    const std::size_t count = plots_.size();
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t i = (nextPlot_ + k) % count;
        if (plots_[i]->stale) {
            refreshPlot(*plots_[i]);
            nextPlot_ = i + 1;
            return;
        }
    }
}

void PlotPanel::refreshPlot(Plot& thePlot)
{
    thePlot.stale = false;
    Plot* const plot = &thePlot;
    if (plot == oscillationPlot_ && fitDirty_ && !sinceFit_.isValid()) {
        updateOscillation();  // refreshNow(): at once
    }
    // Zoomed onto the fit window: its samples only, each curve thinned over the window, not the run.
    const std::optional<analysis::FitWindow> zoom = plot == oscillationPlot_ ? zoomedWindow() : std::nullopt;
    const double everything = std::numeric_limits<double>::infinity();
    const analysis::FitWindow drawn = zoom.value_or(analysis::FitWindow{-everything, everything});
    auto [first, last] = samplesWithin(series_.time, drawn.from, drawn.to);
    if (plot->perStep) {
        first = std::max<std::size_t>(first, 1);  // row 0: the run's state before its first step, no solver ran
        // Rows of another method's solver before a switch (solverChartSince_).
        first = std::max(first, static_cast<std::size_t>(
                                    std::upper_bound(series_.time.begin(), series_.time.end(), solverChartSince_) -
                                    series_.time.begin()));
        last = std::max(first, last);
    }
    const std::span<const double> times = std::span(series_.time).subspan(first, last - first);
    const double t0 = zoom ? drawn.from : series_.time.empty() ? 0.0 : series_.time.front();
    const double t1 = zoom ? drawn.to : series_.time.empty() ? 1.0 : series_.time.back();
    double lowLeft = std::numeric_limits<double>::infinity();
    double highLeft = -lowLeft;
    double lowRight = lowLeft;
    double highRight = highLeft;
    const auto extend = [](const QList<QPointF>& points, double& low, double& high) {
        for (const auto& p : points) {
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
    };
    std::vector<QList<QPointF>> curvePoints;
    curvePoints.reserve(plot->curves.size());
    for (const auto& curve : plot->curves) {
        const auto values = series_.column(curve.column);
        curvePoints.push_back(decimate(times, std::span(values).subspan(first, last - first), kPointsPerCurve));
        extend(curvePoints.back(), curve.rightAxis ? lowRight : lowLeft, curve.rightAxis ? highRight : highLeft);
    }
    QList<QPointF> fitPoints;
    QList<QPointF> theoryPoints;
    // A fit that did not converge, or converged on no resolved oscillation (noise), is not drawn: its curve would look
    // like a result.
    if (plot == oscillationPlot_ && oscillation_ && oscillation_->fit && oscillation_->fit->resolved) {
        const auto shown = [&drawn](double t) { return t >= drawn.from && t <= drawn.to; };
        for (const auto& point : oscillation_->fitCurve) {
            if (shown(point.t)) {
                fitPoints.append(QPointF(point.t, point.x));
            }
        }
        for (const auto& point : oscillation_->theoryCurve) {
            if (shown(point.t)) {
                theoryPoints.append(QPointF(point.t, point.x));
            }
        }
        extend(fitPoints, lowLeft, highLeft);
    }
    if (plot == pressurePlot_) {
        zoomOntoExternalPressure(*plot, curvePoints, highLeft);
    }
    const auto rescale = [](Plot::AxisName& axisName, QValueAxis* axis, double& low, double& high) {
        // A flat curve by the range it is drawn over: md_press's driven velocity, -0.001 m/s throughout, got no
        // scale and its ticks -0.00090 ... -0.00110 read "-0.0..." on a narrow plot.
        const auto [drawnLow, drawnHigh] = low < high ? std::pair(low, high) : paddedRange(low, high);
        const AxisDisplay display = axisDisplay(drawnLow, drawnHigh);
        if (display.scale != axisName.display.scale || display.offset != axisName.display.offset) {
            axisName.display = display;
            axis->setTitleText(axisTitleText(axisName.name, axisName.unit, display));
        }
        low = (low - display.offset) / display.scale;
        high = (high - display.offset) / display.scale;
    };
    rescale(plot->leftName, plot->left, lowLeft, highLeft);
    if (plot->right != nullptr) {
        rescale(plot->rightName, plot->right, lowRight, highRight);
    }
    for (std::size_t i = 0; i < plot->curves.size(); ++i) {
        const auto& curve = plot->curves[i];
        curve.series->replace(
            scaled(std::move(curvePoints[i]), curve.rightAxis ? plot->rightName.display : plot->leftName.display));
    }
    if (plot == oscillationPlot_) {
        plot->fit->replace(scaled(std::move(fitPoints), plot->leftName.display));
        if (plot->theory != nullptr) {
            plot->theory->replace(scaled(std::move(theoryPoints), plot->leftName.display));
        }
    }
    // As few ticks as let their labels fit the plot as it is laid out now (a projector's text on a narrow plot).
    const QRectF area = plot->chart->plotArea();
    const auto [l0, l1] = paddedRange(lowLeft, highLeft);
    setRoundRange(*plot->left, l0, l1, area.height());
    if (plot->right != nullptr) {
        const auto [r0, r1] = paddedRange(lowRight, highRight);
        setRoundRange(*plot->right, r0, r1, area.height());
    }
    setRoundRange(*plot->time, t0, t1 > t0 ? t1 : t0 + 1.0, area.width());
    fitAxisTitles(*plot);
    if (plot == oscillationPlot_) {
        const auto window = chosenWindow_ ? chosenWindow_ : fittedWindow_;
        plot->view->setBand(window ? std::optional(std::pair(window->from, window->to)) : std::nullopt);
    }
}

void PlotPanel::zoomOntoExternalPressure(const Plot& plot, const std::vector<QList<QPointF>>& curvePoints,
                                         double& high) const
{
    double external = 0.0;
    QPointF peak(0.0, -std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < plot.curves.size(); ++i) {
        for (const QPointF& point : curvePoints[i]) {
            if (plot.curves[i].column == "external_pressure") {
                external = std::max(external, point.y());
            } else if (point.y() > peak.y()) {
                peak = point;
            }
        }
    }
    const std::optional<double> top = pressureZoom_->zoomed() ? zoomedPressureTop(high, external) : std::nullopt;
    if (top) {
        high = *top;
    }
    pressureZoom_->showCutPeak(top ? std::optional(peak.y()) : std::nullopt, peak.x(), unitOf("pressure"));
}

QString PlotPanel::unitOf(const std::string& column) const
{
    const auto it = std::find(series_.columns.begin(), series_.columns.end(), column);
    return QString::fromStdString(units_[static_cast<std::size_t>(it - series_.columns.begin())]);
}

void PlotPanel::fitAxisTitles(Plot& plot)
{
    const double plotHeight = plot.chart->plotArea().height();
    if (!(plotHeight > 0.0)) {
        return;  // not laid out yet: the next refresh measures it
    }
    double needed = 0.0;
    for (const QValueAxis* axis : {plot.left, plot.right}) {
        if (axis != nullptr) {
            needed = std::max(needed, QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText()));
        }
    }
    // Around the plot: the chart's title, legend, time axis and margins, which do not grow with the chart.
    const double around = plot.view->height() - plotHeight;
    constexpr double kTitleRoom = 6.0;  // px beyond the title's own length, as Qt Charts leaves at its ends
    const int height = std::max(plot.leastHeight, static_cast<int>(std::ceil(around + needed + kTitleRoom)));
    if (height != plot.view->minimumHeight()) {
        plot.view->setMinimumHeight(height);
    }
}

std::optional<analysis::FitWindow> PlotPanel::zoomedWindow() const
{
    const auto window = chosenWindow_ ? chosenWindow_ : fittedWindow_;
    if (!zoomToWindowBox_->isChecked() || !window || series_.time.empty()) {
        return std::nullopt;
    }
    // Cut to the rows there are: a window chosen past the newest row, or the automatic one open to the run's end.
    const analysis::FitWindow cut{std::max(window->from, series_.time.front()),
                                  std::min(window->to, series_.time.back())};
    const auto [first, last] = samplesWithin(series_.time, cut.from, cut.to);
    if (last < first + 2 || !(cut.to > cut.from)) {
        return std::nullopt;  // nothing to zoom onto yet: the whole run
    }
    return cut;
}

PlotPanel::OscillationFit PlotPanel::fitOscillation(const Settings& settings, const SeriesTable& series,
                                                    const std::string& column,
                                                    std::optional<analysis::FitWindow> chosen, std::uint64_t generation)
{
    OscillationFit fit{generation, chosen ? chosen : analysis::automaticFitWindow(settings, series), std::nullopt};
    if (fit.window) {
        fit.analysis = analysis::analyzeOscillation(settings, series, column, *fit.window);
    }
    return fit;
}

bool PlotPanel::beginFit()
{
    fitDirty_ = false;
    sinceFit_.start();
    if (oscillationColumn_.empty() || !settings_) {
        showOscillation({fitGeneration_, std::nullopt, std::nullopt});
        return false;
    }
    return true;
}

void PlotPanel::updateOscillation()
{
    if (beginFit()) {
        showOscillation(fitOscillation(*settings_, series_, oscillationColumn_, chosenWindow_, fitGeneration_));
    }
}

void PlotPanel::startOscillationFit()
{
    if (!fitDirty_ || pendingFit_.valid() || (sinceFit_.isValid() && sinceFit_.elapsed() < kFitInterval) ||
        !beginFit()) {
        return;
    }
    // The worker has its own copies: the GUI thread goes on appending rows.
    // On idle cores only: the view's drawing and the simulation come first, a fit may come late.
    pendingFit_ = std::async(std::launch::async, [settings = *settings_, series = series_, column = oscillationColumn_,
                                                  window = chosenWindow_, generation = fitGeneration_] {
        runOnIdleCoresOnly();
        return fitOscillation(settings, series, column, window, generation);
    });
}

void PlotPanel::collectOscillationFit()
{
    if (!pendingFit_.valid() || pendingFit_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        return;
    }
    OscillationFit fit = pendingFit_.get();
    if (fit.generation != fitGeneration_) {
        fitDirty_ = true;  // asked for before a new run, settings or window: ask again
        return;
    }
    showOscillation(std::move(fit));
    if (oscillationPlot_ != nullptr) {
        oscillationPlot_->stale = true;  // the fitted curve and the band
    }
}

void PlotPanel::showOscillation(OscillationFit fit)
{
    fittedWindow_ = fit.window;
    oscillation_ = std::move(fit.analysis);
    if (!settings_ || oscillationColumn_.empty()) {
        return;
    }
    if (oscillation_) {
        oscillationLabel_->setText(oscillationSummary());
        return;
    }
    const double loadStep = settings_->piston.loadStepTime;
    if (oscillationColumn_ != "piston_y") {
        oscillationLabel_->setText(tr("Fit: drag across the plot to choose a window"));
    } else if (!series_.time.empty() && series_.time.back() > loadStep) {
        oscillationLabel_->setText(tr("Fit: waits until the grains stop sliding after the load step (at most "
                                      "%1 % of the contacts, over %2 periods), or drag across the plot")
                                       .arg(formatNumber(100.0 * analysis::kSlidingShareAfterTransient),
                                            formatNumber(analysis::kSlidingAveragingPeriods)));
    } else {
        oscillationLabel_->setText(tr("Fit: waits for the load step (piston.load_step_time = %1 s; press Load "
                                      "step, or drag across the plot)")
                                       .arg(formatNumber(loadStep)));
    }
}

QString PlotPanel::oscillationSummary() const
{
    if (!oscillation_) {
        return {};
    }
    const auto& o = *oscillation_;
    QString text = tr("Window %1 - %2 s: ").arg(formatNumber(o.window.from), formatNumber(o.window.to));
    const bool resolved = o.fit && o.fit->resolved;
    if (resolved) {
        text += tr("fit of Unger & Kertesz 2003, eq. 64: \u03c9 = %1 \u00b1 %2 rad/s, \u03c4 = %3 \u00b1 %4 s (R\u00b2 "
                   "= %5)")
                    .arg(formatNumber(o.fit->omega), formatNumber(o.fit->omegaError), formatNumber(o.fit->tau),
                         formatNumber(o.fit->tauError), QString::number(o.fit->r2, 'f', 3));
    } else if (o.fit && o.fit->converged) {
        text += tr("no oscillation resolved in this window (amplitude %1 \u00b1 %2 m; a resolved one has %3 standard "
                   "errors and at least half a period: noise only?)")
                    .arg(formatNumber(o.fit->amplitudeAtStart), formatNumber(o.fit->amplitudeAtStartError),
                         QString::number(analysis::kResolvedAmplitude));
    } else if (o.fit) {
        text += tr("no fit (the damped sine did not converge in this window: no oscillation to fit?)");
    } else {
        text += tr("no fit (%1)").arg(QString::fromStdString(o.error));
    }
    if (!o.theoryNote.empty()) {
        text += tr("; no theory: %1").arg(QString::fromStdString(o.theoryNote));
    }
    if (o.theoryOmega) {
        text += tr("; theory of eq. 58, 60: \u03c9 = %1 rad/s, \u03c4 = %2 s")
                    .arg(formatNumber(*o.theoryOmega), formatNumber(*o.theoryTau));
        if (resolved) {
            text += tr(" (fit/theory %1, %2)")
                        .arg(QString::number(o.fit->omega / *o.theoryOmega, 'f', 2),
                             QString::number(o.fit->tau / *o.theoryTau, 'f', 2));
        }
    }
    return text;
}

QString PlotPanel::writeCsv(const QString& path) const
{
    std::ostringstream text;
    CsvSeries csv(text, series_.columns);
    for (std::size_t i = 0; i < series_.time.size(); ++i) {
        csv.row(series_.time[i], series_.rows[i]);
    }
    const std::string bytes = text.str();
    return saveWhole(path, [&bytes](QIODevice& file) {
        return file.write(bytes.data(), static_cast<qint64>(bytes.size())) == static_cast<qint64>(bytes.size());
    });
}

}  // namespace granular::ui
