#include "ViewFraming.h"

#include <algorithm>

namespace granular::ui {

namespace {

/// The lowest bottom of the boxes that are not empty, or `top`.
double below(double top, const PixelBox& a, const PixelBox& b)
{
    for (const PixelBox* box : {&a, &b}) {
        if (!box->isEmpty()) {
            top = std::min(top, box->bottom);
        }
    }
    return top;
}

/// How far an interval [low, high] moves, as little as it takes, into [from, to] (their middles meet where it is
/// the longer).
double shiftInto(double low, double high, double from, double to)
{
    if (high - low > to - from) {
        return 0.5 * (from + to) - 0.5 * (low + high);
    }
    return std::max(0.0, from - low) + std::min(0.0, to - high);
}

}  // namespace

std::array<PixelBox, 2> freeAreas(const OverlayPlaces& places, double gap)
{
    const PixelBox& view = places.view;
    const double captionBottom = places.caption.isEmpty() ? view.top : places.caption.bottom;
    const double left = [&] {
        double edge = view.left;
        for (const PixelBox* box : {&places.leftColumn, &places.leftTitle}) {
            edge = box->isEmpty() ? edge : std::max(edge, box->right + gap);
        }
        return edge;
    }();
    const double right = [&] {
        double edge = view.right;
        for (const PixelBox* box : {&places.rightColumn, &places.rightTitle}) {
            edge = box->isEmpty() ? edge : std::min(edge, box->left - gap);
        }
        return edge;
    }();
    PixelBox betweenColumns{view.left, view.right, view.bottom + gap,
                            below(captionBottom, places.leftTitle, places.rightTitle) - gap};
    if (!places.leftColumn.isEmpty()) {
        betweenColumns.left = places.leftColumn.right + gap;
    }
    if (!places.rightColumn.isEmpty()) {
        betweenColumns.right = places.rightColumn.left - gap;
    }
    const PixelBox betweenTitles{left, right, view.bottom + gap, captionBottom - gap};
    return {betweenColumns, betweenTitles};
}

double fittingZoom(const PixelBox& picture, const PixelBox& free)
{
    if (picture.isEmpty() || free.isEmpty()) {
        return 1.0;
    }
    return std::min({1.0, free.width() / picture.width(), free.height() / picture.height()});
}

PixelBox roomiestArea(const PixelBox& picture, const std::array<PixelBox, 2>& areas)
{
    return fittingZoom(picture, areas[1]) > fittingZoom(picture, areas[0]) ? areas[1] : areas[0];
}

std::array<double, 2> windowCentreInto(const PixelBox& picture, const PixelBox& free, int width, int height)
{
    if (picture.isEmpty() || free.isEmpty() || width < 1 || height < 1) {
        return {0.0, 0.0};
    }
    const double dx = shiftInto(picture.left, picture.right, free.left, free.right);
    const double dy = shiftInto(picture.bottom, picture.top, free.bottom, free.top);
    // Viewport units span 2 over the view's width (height): a shift of dx pixels is 2 dx / width of them.
    return {-2.0 * dx / width, -2.0 * dy / height};
}

}  // namespace granular::ui
