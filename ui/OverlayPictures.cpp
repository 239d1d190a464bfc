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

namespace {

/// A colour bar's fonts, label texts and sizes (px), as colourBarImage draws them.
struct BarGeometry {
    QFont titleFont;
    QFont labelFont;
    BarLabels labels;
    std::vector<QString> texts;
    int titleHeight = 0;  ///< the title's line
    int labelHeight = 0;  ///< a label's line
    int gap = 0;          ///< between the title and the labels, and between the ramp and its labels
    int rampWidth = 0;
    int columnWidth = 0;  ///< the ramp and its labels
    int width = 0;
    int height = 0;
    int rampTop = 0;
    int rampHeight = 0;
};

BarGeometry barGeometry(const ColourBarLook& look)
{
    BarGeometry g;
    g.titleFont = overlayFont(pixelsOf(kBarTitlePoints, look.pixelsPerPoint));
    g.labelFont = overlayFont(pixelsOf(kBarLabelPoints, look.pixelsPerPoint));
    const QFontMetrics titleMetrics(g.titleFont);
    const QFontMetrics labelMetrics(g.labelFont);
    g.labels = barLabels(look.low, look.high, look.wholeNumbers);
    int widest = 0;
    for (const double value : g.labels.values) {
        g.texts.push_back(barLabelText(g.labels, value));
        widest = std::max(widest, labelMetrics.horizontalAdvance(g.texts.back()));
    }
    g.titleHeight = titleMetrics.height();
    g.labelHeight = labelMetrics.height();
    g.gap = std::max(2, static_cast<int>(std::lround(4.0 * look.pixelsPerPoint)));
    g.rampWidth = std::max(2, look.rampWidth);
    g.columnWidth = g.rampWidth + (g.texts.empty() ? 0 : g.gap + widest);
    g.width = std::max(titleMetrics.horizontalAdvance(look.title), g.columnWidth);
    g.rampTop = g.titleHeight + g.gap + g.labelHeight / 2;
    const int rampBottom = look.height - g.labelHeight / 2;  // exclusive
    g.height = std::max(look.height, g.rampTop + 2 + g.labelHeight / 2);
    g.rampHeight = std::max(2, rampBottom - g.rampTop);
    return g;
}

}  // namespace

ColourBarLayout colourBarLayout(const ColourBarLook& look)
{
    const BarGeometry g = barGeometry(look);
    return {g.width, g.height, g.titleHeight + g.gap, g.columnWidth};
}

QImage colourBarImage(const ColourBarLook& look)
{
    const BarGeometry g = barGeometry(look);
    const BarLabels& labels = g.labels;
    const std::vector<QString>& texts = g.texts;
    const int gap = g.gap;
    const int rampWidth = g.rampWidth;
    const int width = g.width;
    const int height = g.height;
    const int rampTop = g.rampTop;
    const int rampHeight = g.rampHeight;

    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setPen(kLabelColour);
    painter.setFont(g.titleFont);
    const Qt::Alignment side = look.labelsLeft ? Qt::AlignRight : Qt::AlignLeft;
    painter.drawText(QRect(0, 0, width, g.titleHeight), static_cast<int>(side | Qt::AlignVCenter), look.title);

    const int rampLeft = look.labelsLeft ? width - rampWidth : 0;
    for (int row = 0; row < rampHeight; ++row) {
        const double s = 1.0 - (static_cast<double>(row) + 0.5) / rampHeight;
        const Rgb c = colourAt(look.stops, s);
        painter.fillRect(
            QRect(rampLeft, rampTop + row, rampWidth, 1),
            QColor::fromRgbF(static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2])));
    }
    painter.setFont(g.labelFont);
    const int labelLeft = look.labelsLeft ? 0 : rampWidth + gap;
    const int labelWidth = look.labelsLeft ? width - rampWidth - gap : width - labelLeft;
    for (std::size_t k = 0; k < texts.size(); ++k) {
        const double s = (labels.values[k] - look.low) / (look.high - look.low);
        const int y = rampTop + static_cast<int>(std::lround((1.0 - s) * rampHeight));
        painter.drawText(QRect(labelLeft, y - g.labelHeight / 2, labelWidth, g.labelHeight),
                         static_cast<int>(side | Qt::AlignVCenter), texts[k]);
    }
    return image;
}

QFont overlayFont(int pixelSize)
{
    QFont font(QStringLiteral("Arial"));
    font.setStyleHint(QFont::SansSerif);
    font.setPixelSize(std::max(1, pixelSize));
    return font;
}

namespace {

/// `parts` joined by `separator` into lines at most `maxWidth` pixels wide, as many parts to a line as fit (a part
/// wider than that alone on its line, whole); none for no parts.
QStringList fillLines(const QStringList& parts, const QString& separator, const QFontMetrics& metrics, int maxWidth)
{
    QStringList lines;
    QString line;
    for (const QString& part : parts) {
        const QString longer = line.isEmpty() ? part : line + separator + part;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > maxWidth) {
            lines << line;
            line = part;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty()) {
        lines << line;
    }
    return lines;
}

}  // namespace

QStringList captionLines(const QString& text, const QFontMetrics& metrics, int maxWidth, const QList<qsizetype>& keep)
{
    if (maxWidth <= 0) {
        return {text};
    }
    const QStringList fields = text.split(kCaptionSeparator);
    qsizetype kept = 0;
    for (const qsizetype count : keep) {
        kept += count;
    }
    const bool wideField = std::any_of(fields.begin(), fields.end(), [&](const QString& field) {
        return metrics.horizontalAdvance(field) > maxWidth;
    });
    // (Lines of a field broken between its words count as fields of their own: the fields per line of such a
    // caption are not kept.)
    if (!wideField && keep.size() > 1 && kept == fields.size()) {
        QStringList lines;
        qsizetype first = 0;
        bool fits = true;
        for (const qsizetype count : keep) {
            lines << fields.mid(first, count).join(kCaptionSeparator);
            fits = fits && metrics.horizontalAdvance(lines.back()) <= maxWidth;
            first += count;
        }
        if (fits) {
            return lines;
        }
    }
    if (metrics.horizontalAdvance(text) <= maxWidth) {
        return {text};
    }
    // Fields that fit a line filled in as they come; one that does not, broken between its words on lines of its own.
    QStringList lines;
    QStringList narrow;
    for (const QString& field : fields) {
        if (metrics.horizontalAdvance(field) <= maxWidth) {
            narrow << field;
            continue;
        }
        lines << fillLines(narrow, kCaptionSeparator, metrics, maxWidth);
        narrow.clear();
        lines << fillLines(field.split(QLatin1Char(' '), Qt::SkipEmptyParts), QStringLiteral(" "), metrics, maxWidth);
    }
    lines << fillLines(narrow, kCaptionSeparator, metrics, maxWidth);
    return lines;
}

QList<qsizetype> fieldsPerLine(const QStringList& lines)
{
    QList<qsizetype> counts;
    for (const QString& line : lines) {
        counts << line.count(kCaptionSeparator) + 1;
    }
    return counts;
}

QImage captionImage(const QStringList& lines, int pixelSize)
{
    if (lines.isEmpty() || (lines.size() == 1 && lines.front().isEmpty())) {
        return {};
    }
    const QFont font = overlayFont(pixelSize);
    const QFontMetrics metrics(font);
    int widest = 0;
    for (const QString& line : lines) {
        widest = std::max(widest, metrics.horizontalAdvance(line));
    }
    const auto count = static_cast<int>(lines.size());
    QImage image(widest + 2, metrics.height() + (count - 1) * metrics.lineSpacing(),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setPen(kLabelColour);
    painter.setFont(font);
    for (int i = 0; i < count; ++i) {
        painter.drawText(QPoint(1, metrics.ascent() + i * metrics.lineSpacing()), lines[i]);
    }
    return image;
}

}  // namespace granular::ui
