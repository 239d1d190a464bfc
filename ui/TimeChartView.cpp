#include "TimeChartView.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QGraphicsRectItem>
#include <QMouseEvent>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace granular::ui {

namespace {

/// Pixels a press must travel to count as a drag rather than a click.
constexpr double kDragThreshold = 5.0;

QValueAxis* timeAxis(const QChart& chart)
{
    const auto axes = chart.axes(Qt::Horizontal);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.front());
}

}  // namespace

TimeChartView::TimeChartView(QChart* chart, QWidget* parent)
    : QChartView(chart, parent), bandItem_(new QGraphicsRectItem(chart))
{
    setRenderHint(QPainter::Antialiasing, true);
    setRubberBand(QChartView::NoRubberBand);
    bandItem_->setBrush(QColor(90, 140, 230, 45));
    bandItem_->setPen(QPen(QColor(90, 140, 230, 140), 1.0));
    bandItem_->setZValue(-1.0);
    bandItem_->hide();
    connect(chart, &QChart::plotAreaChanged, this, [this] { updateBand(); });
}

void TimeChartView::setSelectable(bool selectable)
{
    selectable_ = selectable;
    setCursor(selectable ? Qt::IBeamCursor : Qt::ArrowCursor);
    setToolTip(selectable
                   ? tr("Drag across the plot to fit over that time window; double-click for the automatic window")
                   : QString());
}

void TimeChartView::setBand(std::optional<std::pair<double, double>> band)
{
    band_ = band;
    updateBand();
}

void TimeChartView::updateBand()
{
    if (!band_ || dragStart_) {
        if (!dragStart_) {
            bandItem_->hide();
        }
        return;
    }
    placeBand(band_->first, band_->second);
}

void TimeChartView::placeBand(double from, double to)
{
    const auto* axis = timeAxis(*chart());
    if (axis == nullptr || chart()->series().isEmpty()) {
        bandItem_->hide();
        return;
    }
    const QRectF area = chart()->plotArea();
    auto* series = chart()->series().front();
    const double low = std::clamp(std::min(from, to), axis->min(), axis->max());
    const double high = std::clamp(std::max(from, to), axis->min(), axis->max());
    const double left = chart()->mapToPosition(QPointF(low, 0.0), series).x();
    const double right = chart()->mapToPosition(QPointF(high, 0.0), series).x();
    bandItem_->setRect(QRectF(QPointF(left, area.top()), QPointF(right, area.bottom())));
    bandItem_->show();
}

std::optional<double> TimeChartView::timeAt(QPointF position) const
{
    if (chart()->series().isEmpty() || timeAxis(*chart()) == nullptr) {
        return std::nullopt;
    }
    const QPointF inChart = chart()->mapFromScene(mapToScene(position.toPoint()));
    if (!chart()->plotArea().contains(inChart)) {
        return std::nullopt;
    }
    return chart()->mapToValue(inChart, chart()->series().front()).x();
}

void TimeChartView::mousePressEvent(QMouseEvent* event)
{
    if (selectable_ && event->button() == Qt::LeftButton) {
        if (const auto t = timeAt(event->position())) {
            dragStart_ = *t;
            pressPosition_ = event->position();
            event->accept();
            return;
        }
    }
    QChartView::mousePressEvent(event);
}

void TimeChartView::mouseMoveEvent(QMouseEvent* event)
{
    if (dragStart_) {
        const QRectF area = chart()->plotArea();
        const QPointF inChart = chart()->mapFromScene(mapToScene(event->position().toPoint()));
        const QPointF clamped(std::clamp(inChart.x(), area.left(), area.right()), area.center().y());
        const double t = chart()->mapToValue(clamped, chart()->series().front()).x();
        placeBand(*dragStart_, t);
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void TimeChartView::mouseReleaseEvent(QMouseEvent* event)
{
    if (dragStart_ && event->button() == Qt::LeftButton) {
        const double start = *dragStart_;
        dragStart_.reset();
        const QRectF area = chart()->plotArea();
        const QPointF inChart = chart()->mapFromScene(mapToScene(event->position().toPoint()));
        const QPointF clamped(std::clamp(inChart.x(), area.left(), area.right()), area.center().y());
        const double end = chart()->mapToValue(clamped, chart()->series().front()).x();
        if (std::abs(event->position().x() - pressPosition_.x()) >= kDragThreshold) {
            emit windowChosen(std::min(start, end), std::max(start, end));
        } else {
            updateBand();
        }
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void TimeChartView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (selectable_ && event->button() == Qt::LeftButton) {
        dragStart_.reset();
        emit windowCleared();
        event->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(event);
}

void TimeChartView::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    updateBand();
}

}  // namespace granular::ui
