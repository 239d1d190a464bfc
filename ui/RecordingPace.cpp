#include "RecordingPace.h"

namespace granular::ui {

void RecordingPace::arrived(qint64 ms)
{
    if (arrivals_ > 0) {
        const qint64 gap = ms - lastMs_;
        if (gap >= 0 && gap <= kLongestGapMs) {
            activeMs_ += gap;
            ++intervals_;
        }
    }
    ++arrivals_;
    lastMs_ = ms;
}

double RecordingPace::framesPerSecond(qint64 kept) const
{
    if (intervals_ == 0 || activeMs_ <= 0) {
        return 0.0;
    }
    // The frames that arrived span arrivals x the mean gap while the view drew; the kept ones play in that time.
    const double meanGapMs = static_cast<double>(activeMs_) / static_cast<double>(intervals_);
    return 1000.0 * static_cast<double>(kept) / (static_cast<double>(arrivals_) * meanGapMs);
}

}  // namespace granular::ui
