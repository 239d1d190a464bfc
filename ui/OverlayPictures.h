#pragma once

#include "ColourMaps.h"

#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <QList>
#include <QString>
#include <QStringList>

#include <span>
#include <vector>

namespace granular::ui {

/// The values a colour bar labels: round ones (1, 2 or 5 times a power of ten apart, AxisTicks) within [low, high],
/// whole numbers only for a count. They are printed with `decimals` digits after the point, as multiples of
/// 10^`exponent` where the largest is below 1e-3 or at least 1e6 (a speed bar of micrometres per second reads
/// 0.5e-6, 1.0e-6, not 0.0000005, 0.0000010). None for a range that is not finite and open.
struct BarLabels {
    std::vector<double> values;
    int decimals = 0;
    int exponent = 0;
};
[[nodiscard]] BarLabels barLabels(double low, double high, bool wholeNumbers);

/// A label's text: `value` in the labels' notation (0 alone stays "0" when there is an exponent).
[[nodiscard]] QString barLabelText(const BarLabels& labels, double value);

/// What a colour bar shows and how large it is drawn.
struct ColourBarLook {
    std::span<const Rgb> stops;  ///< the colour map, from `low` (bottom) to `high` (top)
    double low = 0.0;
    double high = 1.0;
    bool wholeNumbers = false;
    QString title;
    bool labelsLeft = false;    ///< labels left of the colour ramp (a bar at the view's right edge), else right
    int height = 0;             ///< px, title included
    int rampWidth = 0;          ///< px
    double pixelsPerPoint = 1;  ///< text size: pixels per typographic point
};

/// Where a colour bar's picture puts its parts, px: the title across the top, the ramp and its labels below it.
struct ColourBarLayout {
    int width = 0;        ///< the picture's: the title's or the ramp's and labels', whichever is wider
    int height = 0;       ///< the picture's
    int titleHeight = 0;  ///< the band of the title, from the picture's top to the top label's top
    int columnWidth = 0;  ///< the ramp and its labels beside it
};
[[nodiscard]] ColourBarLayout colourBarLayout(const ColourBarLook& look);

/// A vertical colour bar: its title on top, the ramp below, round values beside it; transparent around them
/// (colourBarLayout's size).
[[nodiscard]] QImage colourBarImage(const ColourBarLook& look);

/// What separates the fields of a caption (time, particles, contacts, ...): a line may break there only.
inline constexpr QLatin1String kCaptionSeparator{"   "};

/// The font of the pictures over the scene (caption, colour bars) at `pixelSize`.
[[nodiscard]] QFont overlayFont(int pixelSize);

/// The lines of a caption in `metrics` at most `maxWidth` pixels wide (no limit where it is 0 or less): broken between
/// whole fields; a field wider than the limit alone (the moving camera's note at a projector's text size) is broken
/// between its words on lines of its own, a word wider than the limit kept whole. `keep`, the fields per line of the
/// caption before, is kept while its lines still fit (same number of fields, none broken between words): a field that
/// moved down does not hop back up and down as a number beside it gains and loses digits from frame to frame.
[[nodiscard]] QStringList captionLines(const QString& text, const QFontMetrics& metrics, int maxWidth,
                                       const QList<qsizetype>& keep = {});

/// The number of fields in each of `lines` (what captionLines' `keep` takes).
[[nodiscard]] QList<qsizetype> fieldsPerLine(const QStringList& lines);

/// Text in the scene's label colour at `pixelSize` on a transparent ground, as wide as its widest line, one line
/// under another (lines as captionLines gives them: one where it fits).
[[nodiscard]] QImage captionImage(const QStringList& lines, int pixelSize);

/// Point sizes of the caption and of the colour bars' titles and labels, and the bars' widest, at text scale 1.
/// The caption is smaller than the titles: in the studio's default layout its usual line (time, particles, contacts,
/// <f_n>, chains) fits piston2d's view in Debian's sans-serif (DejaVu Sans where Arial is not installed).
inline constexpr int kCaptionPoints = 12;
inline constexpr int kBarTitlePoints = 15;
inline constexpr int kBarLabelPoints = 13;
inline constexpr int kBarPixels = 110;

}  // namespace granular::ui
