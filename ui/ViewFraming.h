#pragma once

#include <array>

namespace granular::ui {

/// A rectangle of a view in VTK's display pixels (x from the left edge, y from the bottom edge).
struct PixelBox {
    double left = 0.0;
    double right = 0.0;
    double bottom = 0.0;
    double top = 0.0;

    [[nodiscard]] double width() const { return right - left; }
    [[nodiscard]] double height() const { return top - bottom; }
    /// True for a box of no width or height (or a NaN side).
    [[nodiscard]] bool isEmpty() const { return !(right > left && top > bottom); }
    /// Whether the two share more than an edge, `slack` pixels of rounding allowed.
    [[nodiscard]] bool overlaps(const PixelBox& other, double slack = 0.0) const
    {
        return !isEmpty() && !other.isEmpty() && left < other.right - slack && other.left < right - slack &&
               bottom < other.top - slack && other.bottom < top - slack;
    }
};

/// Where the overlays of a view stand (empty boxes for those not shown): a colour bar at each side, its ramp and
/// labels in a column with its title above, wider than the column; the caption along the top.
struct OverlayPlaces {
    PixelBox view;
    PixelBox leftColumn;
    PixelBox leftTitle;
    PixelBox rightColumn;
    PixelBox rightTitle;
    PixelBox caption;
};

/// What the room that a view's overlays leave to the scene depends on, besides the view's size and text size: the
/// caption's lines and whether the force bar's room is kept (a bar's labels may widen it by a few pixels; the scene is
/// not framed again for that).
struct OverlayArrangement {
    int captionLines = 0;
    bool forceBarRoom = false;

    bool operator==(const OverlayArrangement&) const = default;
};

/// The two parts of the view that the overlays leave to the scene, `gap` pixels from each: between the bars' columns
/// and below their titles (tall scenes), and between their titles (wide ones); both below the caption.
[[nodiscard]] std::array<PixelBox, 2> freeAreas(const OverlayPlaces& places, double gap);

/// The camera's zoom (vtkCamera::Zoom, at most 1: only ever out) that shrinks `picture`, drawn now, about the view's
/// centre until it fits `free`: 1 where it fits already or where either box is empty.
[[nodiscard]] double fittingZoom(const PixelBox& picture, const PixelBox& free);

/// Of the free areas, the one that `picture` fits with the least zoom out (the first of equals).
[[nodiscard]] PixelBox roomiestArea(const PixelBox& picture, const std::array<PixelBox, 2>& areas);

/// The camera's window centre (vtkCamera::SetWindowCenter, in viewport units: -1 to 1 across the view) that moves
/// `picture`, drawn with a window centre of (0, 0), into `free` in a view of `width` x `height` pixels, as little as
/// that takes along each axis (into its middle where it is the larger): a point's place in those units goes down by
/// the window centre.
[[nodiscard]] std::array<double, 2> windowCentreInto(const PixelBox& picture, const PixelBox& free, int width,
                                                     int height);

}  // namespace granular::ui
