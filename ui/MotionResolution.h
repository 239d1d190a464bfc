#pragma once

namespace granular::ui {

/// Level of detail while the camera moves: the view then renders at 1/factor of its width and
/// height and stretches the image to the window, so that turning a large packing stays fluid on a
/// software rasteriser; the first frame after the motion ends is drawn at full resolution again.
///
/// The factor follows the measured cost of the frames: a moving frame dearer than the target raises
/// it by one (up to `largest`), one so cheap that the next finer factor would still meet the target
/// with a margin (cost scaled by the pixel count) lowers it. A motion starts from the factor the last
/// one ended with, or, for the first motion, from the cost of the last full-resolution frame.
class MotionResolution {
public:
    /// `targetMilliseconds`: the wall time a moving frame may take; `largest`: the coarsest factor.
    explicit MotionResolution(double targetMilliseconds = kDefaultTargetMilliseconds, int largest = kLargestFactor);

    static constexpr double kDefaultTargetMilliseconds = 30.0;
    static constexpr int kLargestFactor = 6;

    /// The factor for the next frame: 1 when the camera is still.
    [[nodiscard]] int factor(bool moving) const;
    /// A frame drawn at `factor`, while the camera moved or not, took `milliseconds` (from the start
    /// of rendering to the finished image).
    void record(bool moving, int factor, double milliseconds);
    [[nodiscard]] double targetMilliseconds() const { return target_; }
    void setTargetMilliseconds(double milliseconds) { target_ = milliseconds; }

private:
    double target_;
    int largest_;
    int moving_ = 0;          ///< the factor of moving frames; 0 before the first one
    double stillCost_ = 0.0;  ///< ms, the last full-resolution frame
};

}  // namespace granular::ui
