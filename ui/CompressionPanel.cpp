#include "CompressionPanel.h"

#include "AxisTicks.h"

#include "CsvSeries.h"
#include "sim/Frame.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QFileDialog>
#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace granular::ui {

namespace {

const QColor kLoading(31, 119, 180);
const QColor kUnloading(255, 127, 14);
const QColor kReference(110, 110, 110);
constexpr int kBins = 25;
/// Curve widths (px) at the usual scale.
constexpr double kStrokeWidth = 1.8;
constexpr double kReferenceWidth = 1.4;
constexpr double kHistogramWidth = 1.6;
constexpr qint64 kHistogramInterval = 250;  // ms

QValueAxis* axis(const QString& title)
{
    auto* a = new QValueAxis;
    a->setTitleText(title);
    a->setLabelFormat(QStringLiteral("%.3g"));
    return a;
}

/// `font` with its size times `scale`.
QFont scaledFont(QFont font, double scale)
{
    font.setPointSizeF(font.pointSizeF() * scale);
    return font;
}

/// The line's pen `width` px wide, its colour and dashes kept.
void setPenWidth(QLineSeries& line, double width)
{
    QPen pen = line.pen();
    pen.setWidthF(width);
    line.setPen(pen);
}

}  // namespace

/// The fonts Qt Charts gave the charts: presentation mode scales these.
struct CompressionPanel::BaseFonts {
    QFont title;
    QFont legend;
    QFont axisTitle;
    QFont axisLabels;
};

/// The force-compression curves: one line per stroke (so that strokes are not joined), per run.
struct CompressionPanel::Curves {
    QValueAxis* compression = nullptr;  ///< mm
    QValueAxis* force = nullptr;        ///< N
    std::map<std::int64_t, QLineSeries*> strokes;
    std::map<std::int64_t, QLineSeries*> reference;
    double largestCompression = 1.0;  ///< mm
    double largestForce = 1e-3;       ///< N
};

CompressionPanel::CompressionPanel(QWidget* parent)
    : QWidget(parent), curves_(std::make_unique<Curves>()), forceChart_(new QChart), histogramChart_(new QChart),
      histogram_(new QLineSeries), histogramForce_(axis(tr("f_n (N)"))), histogramShare_(axis(tr("share (1)"))),
      referenceLabel_(new QLabel(tr("no reference run"), this)), pendingTimer_(new QTimer(this))
{
    pendingTimer_->setSingleShot(true);
    connect(pendingTimer_, &QTimer::timeout, this, [this] {
        if (auto frame = std::move(pendingFrame_)) {
            showFrame(frame);
        }
    });
    forceChart_->setTitle(tr("Top force against compression"));
    curves_->compression = axis(tr("compression (mm)"));
    curves_->force = axis(tr("F_top (N)"));
    forceChart_->addAxis(curves_->compression, Qt::AlignBottom);
    forceChart_->addAxis(curves_->force, Qt::AlignLeft);
    forceChart_->legend()->setAlignment(Qt::AlignTop);
    auto* forceView = new QChartView(forceChart_, this);
    forceView->setObjectName(QStringLiteral("topForceChart"));
    forceView->setMinimumHeight(240);

    // Short enough for a projector's text on the narrow panel ("..., newest frame" was cut); the tooltip says which.
    histogramChart_->setTitle(tr("Grain-grain normal forces"));
    histogramChart_->addAxis(histogramForce_, Qt::AlignBottom);
    histogramChart_->addAxis(histogramShare_, Qt::AlignLeft);
    histogramChart_->addSeries(histogram_);
    histogram_->attachAxis(histogramForce_);
    histogram_->attachAxis(histogramShare_);
    histogram_->setColor(kLoading);
    setPenWidth(*histogram_, kHistogramWidth);
    histogramChart_->legend()->hide();
    auto* histogramView = new QChartView(histogramChart_, this);
    histogramView->setObjectName(QStringLiteral("forceHistogram"));
    histogramView->setToolTip(tr("The normal forces of the grain-grain contacts in the newest frame drawn"));
    histogramView->setMinimumHeight(200);

    auto* choose = new QPushButton(tr("Reference run..."), this);
    choose->setToolTip(
        tr("Draw the top force of another run's output directory (e.g. gamma = 0) dashed beside this one"));
    connect(choose, &QPushButton::clicked, this, &CompressionPanel::chooseReference);
    referenceLabel_->setObjectName(QStringLiteral("referenceLabel"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(choose);
    controls->addWidget(referenceLabel_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // Even heights: at 3 to 2 the histogram's axis title was cut at a projector's text size.
    layout->addWidget(forceView, 1);
    layout->addLayout(controls);
    layout->addWidget(histogramView, 1);
    baseFonts_ = std::make_unique<BaseFonts>(BaseFonts{forceChart_->titleFont(), forceChart_->legend()->font(),
                                                       histogramForce_->titleFont(), histogramForce_->labelsFont()});
}

void CompressionPanel::setScale(double fontScale, double lineScale)
{
    lineScale_ = lineScale;
    for (QChart* chart : {forceChart_, histogramChart_}) {
        chart->setTitleFont(scaledFont(baseFonts_->title, fontScale));
        chart->legend()->setFont(scaledFont(baseFonts_->legend, fontScale));
        for (auto* axis : chart->axes()) {
            axis->setTitleFont(scaledFont(baseFonts_->axisTitle, axisTextScale(fontScale)));
            axis->setLabelsFont(scaledFont(baseFonts_->axisLabels, axisTextScale(fontScale)));
        }
    }
    for (const auto& [stroke, line] : curves_->strokes) {
        setPenWidth(*line, kStrokeWidth * lineScale);
    }
    for (const auto& [stroke, line] : curves_->reference) {
        setPenWidth(*line, kReferenceWidth * lineScale);
    }
    setPenWidth(*histogram_, kHistogramWidth * lineScale);
}

CompressionPanel::~CompressionPanel() = default;

void CompressionPanel::clearCurves()
{
    for (auto& [stroke, line] : curves_->strokes) {
        forceChart_->removeSeries(line);
        delete line;
    }
    curves_->strokes.clear();
}

void CompressionPanel::fitCurveAxes()
{
    const QRectF area = forceChart_->plotArea();
    setRoundRange(*curves_->compression, 0.0, 1.05 * curves_->largestCompression, area.width());
    setRoundRange(*curves_->force, 0.0, 1.08 * curves_->largestForce, area.height());
}

void CompressionPanel::startRun(const RunInfo& run)
{
    const auto index = [&run](const char* name) {
        const auto it = std::find(run.columns.begin(), run.columns.end(), name);
        return it == run.columns.end() ? std::ptrdiff_t{-1} : it - run.columns.begin();
    };
    compressionColumn_ = index("compression");
    strokeColumn_ = index("stroke");
    topForceColumn_ = index("top_force");
    if (!run.continued) {
        // A new run (a reset, another scenario): none of the last run's curves, scale or histogram stays.
        clearCurves();
        curves_->largestCompression = Curves{}.largestCompression;
        curves_->largestForce = Curves{}.largestForce;
        for (const auto& [stroke, line] : curves_->reference) {
            for (const QPointF& p : line->points()) {
                curves_->largestCompression = std::max(curves_->largestCompression, p.x());
                curves_->largestForce = std::max(curves_->largestForce, p.y());
            }
        }
        fitCurveAxes();
        histogram_->clear();
        histogramContacts_ = 0;
        lastHistogram_ = 0;
        pendingFrame_.reset();
        pendingTimer_->stop();
    }
}

void CompressionPanel::appendRows(const std::vector<SeriesRow>& rows)
{
    if (compressionColumn_ < 0 || strokeColumn_ < 0 || topForceColumn_ < 0) {
        return;
    }
    std::map<QLineSeries*, QList<QPointF>> added;
    for (const auto& row : rows) {
        const auto at = [&row](std::ptrdiff_t c) { return row.values[static_cast<std::size_t>(c)]; };
        const auto stroke = static_cast<std::int64_t>(std::lround(at(strokeColumn_)));
        if (stroke < 1) {
            continue;  // the grains are settling
        }
        QLineSeries*& line = curves_->strokes[stroke];
        if (line == nullptr) {
            line = new QLineSeries;
            const bool loading = stroke % 2 == 1;
            QPen pen(loading ? kLoading : kUnloading);
            pen.setWidthF(kStrokeWidth * lineScale_);
            line->setPen(pen);
            line->setName(loading ? tr("loading") : tr("unloading"));
            forceChart_->addSeries(line);
            line->attachAxis(curves_->compression);
            line->attachAxis(curves_->force);
            if (stroke > 2) {
                // One legend entry per kind of stroke.
                for (auto* marker : forceChart_->legend()->markers(line)) {
                    marker->setVisible(false);
                }
            }
        }
        const double x = 1e3 * at(compressionColumn_);
        const double y = at(topForceColumn_);
        added[line].append(QPointF(x, y));
        curves_->largestCompression = std::max(curves_->largestCompression, x);
        curves_->largestForce = std::max(curves_->largestForce, y);
    }
    for (auto& [line, points] : added) {
        line->append(points);
    }
    fitCurveAxes();
}

void CompressionPanel::showFrame(const std::shared_ptr<const Frame>& frame)
{
    if (!frame) {
        return;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now - lastHistogram_ < kHistogramInterval) {
        // Too soon: the newest frame is drawn when the interval is up (the frame of a pause, a step or a reset is
        // often the last one, and was dropped).
        pendingFrame_ = frame;
        if (!pendingTimer_->isActive()) {
            pendingTimer_->start(static_cast<int>(kHistogramInterval - (now - lastHistogram_)));
        }
        return;
    }
    pendingFrame_.reset();
    pendingTimer_->stop();
    lastHistogram_ = now;
    double largest = 0.0;
    std::size_t count = 0;
    for (const auto& c : frame->contacts) {
        if (c.normalForce > 0.0F) {
            largest = std::max(largest, static_cast<double>(c.normalForce));
            ++count;
        }
    }
    histogramContacts_ = count;
    if (count == 0) {
        histogram_->clear();
        return;
    }
    std::vector<double> share(kBins, 0.0);
    for (const auto& c : frame->contacts) {
        if (c.normalForce > 0.0F) {
            const auto bin =
                std::min(kBins - 1, static_cast<int>(static_cast<double>(c.normalForce) / largest * kBins));
            share[static_cast<std::size_t>(bin)] += 1.0 / static_cast<double>(count);
        }
    }
    // Hydrogel contacts carry millinewtons: "0 2 4 6 mN" fits a narrow panel where "0.000 0.002 ..." was cut.
    const double unit = largest < 1.0 ? 1e-3 : 1.0;  // N
    const QString title = unit < 1.0 ? tr("f_n (mN)") : tr("f_n (N)");
    if (histogramForce_->titleText() != title) {
        histogramForce_->setTitleText(title);
    }
    largest /= unit;
    QList<QPointF> steps;
    const double width = largest / kBins;
    double highest = 0.0;
    for (int b = 0; b < kBins; ++b) {
        const double y = share[static_cast<std::size_t>(b)];
        steps.append(QPointF(b * width, y));
        steps.append(QPointF((b + 1) * width, y));
        highest = std::max(highest, y);
    }
    histogram_->replace(steps);
    const QRectF area = histogramChart_->plotArea();
    setRoundRange(*histogramForce_, 0.0, largest, area.width());
    setRoundRange(*histogramShare_, 0.0, 1.1 * highest, area.height());
}

QString CompressionPanel::loadReference(const QString& directory)
{
    CsvTable table;
    const QString series = directory + QStringLiteral("/series.csv");
    try {
        table = readCsv(series.toStdString());
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    for (const char* column : {"compression", "stroke", "top_force"}) {
        if (std::find(table.columns.begin(), table.columns.end(), column) == table.columns.end()) {
            return tr("%1: no column '%2'; accepted: the output directory of a run with setup compression")
                .arg(series, QString::fromLatin1(column));
        }
    }
    for (auto& [stroke, line] : curves_->reference) {
        forceChart_->removeSeries(line);
        delete line;
    }
    curves_->reference.clear();
    const std::size_t c = table.column("compression");
    const std::size_t s = table.column("stroke");
    const std::size_t f = table.column("top_force");
    std::map<std::int64_t, QList<QPointF>> points;
    for (const auto& row : table.rows) {
        const auto stroke = static_cast<std::int64_t>(std::lround(row[s]));
        if (stroke >= 1) {
            points[stroke].append(QPointF(1e3 * row[c], row[f]));
            curves_->largestCompression = std::max(curves_->largestCompression, 1e3 * row[c]);
            curves_->largestForce = std::max(curves_->largestForce, row[f]);
        }
    }
    for (auto& [stroke, list] : points) {
        auto* line = new QLineSeries;
        QPen pen(kReference);
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(kReferenceWidth * lineScale_);
        line->setPen(pen);
        line->setName(tr("reference"));
        line->append(list);
        forceChart_->addSeries(line);
        line->attachAxis(curves_->compression);
        line->attachAxis(curves_->force);
        if (stroke != points.begin()->first) {
            for (auto* marker : forceChart_->legend()->markers(line)) {
                marker->setVisible(false);
            }
        }
        curves_->reference[stroke] = line;
    }
    fitCurveAxes();
    reference_ = directory;
    referenceLabel_->setText(tr("reference: %1").arg(directory));
    return {};
}

void CompressionPanel::chooseReference()
{
    const QString directory =
        QFileDialog::getExistingDirectory(this, tr("Reference run (output directory of granular run)"));
    if (directory.isEmpty()) {
        return;
    }
    const QString error = loadReference(directory);
    if (!error.isEmpty()) {
        // The reference before stays drawn: the label says which it is.
        referenceLabel_->setText(reference_.isEmpty()
                                     ? tr("not loaded: %1").arg(error)
                                     : tr("not loaded: %1; the reference drawn is still %2").arg(error, reference_));
    }
}

std::size_t CompressionPanel::loadingPoints() const
{
    std::size_t n = 0;
    for (const auto& [stroke, line] : curves_->strokes) {
        n += stroke % 2 == 1 ? static_cast<std::size_t>(line->count()) : 0;
    }
    return n;
}

std::size_t CompressionPanel::unloadingPoints() const
{
    std::size_t n = 0;
    for (const auto& [stroke, line] : curves_->strokes) {
        n += stroke % 2 == 0 ? static_cast<std::size_t>(line->count()) : 0;
    }
    return n;
}

std::size_t CompressionPanel::referencePoints() const
{
    std::size_t n = 0;
    for (const auto& [stroke, line] : curves_->reference) {
        n += static_cast<std::size_t>(line->count());
    }
    return n;
}

}  // namespace granular::ui
