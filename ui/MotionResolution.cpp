#include "MotionResolution.h"

#include <algorithm>
#include <cmath>

namespace granular::ui {

namespace {

/// A lower factor must meet the target by this margin before the view refines while moving.
constexpr double kRefineMargin = 0.7;

}  // namespace

MotionResolution::MotionResolution(double targetMilliseconds, int largest)
    : target_(targetMilliseconds), largest_(std::max(1, largest))
{
}

int MotionResolution::factor(bool moving) const
{
    if (!moving) {
        return 1;
    }
    if (moving_ > 0) {
        return moving_;
    }
    // First motion: the pixel count that would bring the last still frame down to the target.
    if (stillCost_ <= target_) {
        return 1;
    }
    if (target_ <= 0.0) {
        return largest_;
    }
    const double fromStill = std::ceil(std::sqrt(stillCost_ / target_));
    return fromStill >= static_cast<double>(largest_) ? largest_ : std::max(1, static_cast<int>(fromStill));
}

void MotionResolution::record(bool moving, int factor, double milliseconds)
{
    if (!moving) {
        stillCost_ = milliseconds;
        return;
    }
    const int current = std::max(1, factor);
    if (milliseconds > target_) {
        moving_ = std::min(current + 1, largest_);
        return;
    }
    if (current > 1) {
        const double ratio = static_cast<double>(current) / static_cast<double>(current - 1);
        moving_ = milliseconds * ratio * ratio < kRefineMargin * target_ ? current - 1 : current;
    } else {
        moving_ = 1;
    }
}

}  // namespace granular::ui
