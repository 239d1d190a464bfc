#include "OverlayPictures.h"

#include "AxisTicks.h"

#include <QColor>
#include <QFont>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace granular::ui {

namespace {

/// The text's colour over the scene's dark background.
const QColor kLabelColour = QColor::fromRgbF(0.88F, 0.90F, 0.94F);

QFont overlayFont(int pixelSize)
{
    QFont font(QStringLiteral("Arial"));
    font.setStyleHint(QFont::SansSerif);
    font.setPixelSize(std::max(1, pixelSize));
    return font;
}

int pixelsOf(int points, double pixelsPerPoint)
{
    return std::max(1, static_cast<int>(std::lround(points * pixelsPerPoint)));
}

}  // namespace

BarLabels barLabels(double low, double high, bool wholeNumbers)
{
    BarLabels labels;
    if (!std::isfinite(low) || !std::isfinite(high) || !(high > low)) {
        return labels;  // a blow-up's infinite speed: no label loop over [0, inf]
    }
    AxisTicks ticks = roundTicks(low, high, 5);
    if (wholeNumbers && ticks.interval < 1.0) {
        ticks = {std::ceil(low), 1.0, 0};
    }
    labels.decimals = ticks.decimals;
    const double first = ticks.anchor + ticks.interval * std::ceil((low - ticks.anchor) / ticks.interval - 1e-9);
    const double last = high + 1e-9 * ticks.interval;
    constexpr int kMostLabels = 20;  // roundTicks asks for 5
    for (int k = 0; k < kMostLabels && first + k * ticks.interval <= last; ++k) {
        const double x = first + k * ticks.interval;
        labels.values.push_back(std::fabs(x) < 1e-12 * ticks.interval ? 0.0 : x);
    }
    double largest = 0.0;
    for (const double x : labels.values) {
        largest = std::max(largest, std::fabs(x));
    }
    constexpr double kSmallest = 1e-3;  // below: a common exponent
    constexpr double kLargest = 1e6;    // from here: the same
    if (largest > 0.0 && (largest < kSmallest || largest >= kLargest)) {
        labels.exponent = static_cast<int>(std::floor(std::log10(largest) + 1e-9));
        // The interval's places in the mantissa (ticks.decimals stops at 0 for an interval above 1).
        labels.decimals = std::max(0, decimalPlacesOf(ticks.interval) + labels.exponent);
    }
    return labels;
}

QString barLabelText(const BarLabels& labels, double value)
{
    if (labels.exponent == 0) {
        return QString::number(value, 'f', labels.decimals);
    }
    if (value == 0.0) {
        return QStringLiteral("0");
    }
    const double mantissa = value / std::pow(10.0, labels.exponent);
    return QString::number(mantissa, 'f', labels.decimals) + QStringLiteral("e") + QString::number(labels.exponent);
}

QImage colourBarImage(const ColourBarLook& look)
{
    const QFont titleFont = overlayFont(pixelsOf(kBarTitlePoints, look.pixelsPerPoint));
    const QFont labelFont = overlayFont(pixelsOf(kBarLabelPoints, look.pixelsPerPoint));
    const QFontMetrics titleMetrics(titleFont);
    const QFontMetrics labelMetrics(labelFont);
    const BarLabels labels = barLabels(look.low, look.high, look.wholeNumbers);
    std::vector<QString> texts;
    int widest = 0;
    for (const double value : labels.values) {
        texts.push_back(barLabelText(labels, value));
        widest = std::max(widest, labelMetrics.horizontalAdvance(texts.back()));
    }
    const int gap = std::max(2, static_cast<int>(std::lround(4.0 * look.pixelsPerPoint)));
    const int rampWidth = std::max(2, look.rampWidth);
    const int titleWidth = titleMetrics.horizontalAdvance(look.title);
    const int width = std::max(titleWidth, rampWidth + (texts.empty() ? 0 : gap + widest));
    const int rampTop = titleMetrics.height() + gap + labelMetrics.height() / 2;
    const int rampBottom = look.height - labelMetrics.height() / 2;  // exclusive
    const int height = std::max(look.height, rampTop + 2 + labelMetrics.height() / 2);
    const int rampHeight = std::max(2, rampBottom - rampTop);

    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setPen(kLabelColour);
    painter.setFont(titleFont);
    const Qt::Alignment side = look.labelsLeft ? Qt::AlignRight : Qt::AlignLeft;
    painter.drawText(QRect(0, 0, width, titleMetrics.height()), static_cast<int>(side | Qt::AlignVCenter), look.title);

    const int rampLeft = look.labelsLeft ? width - rampWidth : 0;
    for (int row = 0; row < rampHeight; ++row) {
        const double s = 1.0 - (static_cast<double>(row) + 0.5) / rampHeight;
        const Rgb c = colourAt(look.stops, s);
        painter.fillRect(
            QRect(rampLeft, rampTop + row, rampWidth, 1),
            QColor::fromRgbF(static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2])));
    }
    painter.setFont(labelFont);
    const int labelLeft = look.labelsLeft ? 0 : rampWidth + gap;
    const int labelWidth = look.labelsLeft ? width - rampWidth - gap : width - labelLeft;
    for (std::size_t k = 0; k < texts.size(); ++k) {
        const double s = (labels.values[k] - look.low) / (look.high - look.low);
        const int y = rampTop + static_cast<int>(std::lround((1.0 - s) * rampHeight));
        painter.drawText(QRect(labelLeft, y - labelMetrics.height() / 2, labelWidth, labelMetrics.height()),
                         static_cast<int>(side | Qt::AlignVCenter), texts[k]);
    }
    return image;
}

QImage captionImage(const QString& text, int pixelSize)
{
    if (text.isEmpty()) {
        return {};
    }
    const QFont font = overlayFont(pixelSize);
    const QFontMetrics metrics(font);
    QImage image(metrics.horizontalAdvance(text) + 2, metrics.height(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setPen(kLabelColour);
    painter.setFont(font);
    painter.drawText(QPoint(1, metrics.ascent()), text);
    return image;
}

}  // namespace granular::ui
