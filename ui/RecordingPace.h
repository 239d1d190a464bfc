#pragma once

#include <QtGlobal>

namespace granular::ui {

/// The rate at which a recording's frames play back as they were seen: from the times the frames arrived, leaving out
/// the stretches without a frame for longer than kLongestGapMs (a pause, or a still view that draws nothing), which the
/// video skips. (The rate from the recording's whole wall time played the motion slower by as much as it had been
/// paused: 10 s of motion at 30 frames/s and a 50 s pause gave a video at 5 frames/s.)
class RecordingPace {
public:
    static constexpr qint64 kLongestGapMs = 1000;

    /// A frame arrived at `ms` (any monotonic clock, in ms), whether the recording kept or skipped it.
    void arrived(qint64 ms);
    /// Frames per second of the `kept` frames of those that arrived; 0 when fewer than two frames arrived apart.
    [[nodiscard]] double framesPerSecond(qint64 kept) const;

private:
    qint64 arrivals_ = 0;
    qint64 lastMs_ = 0;
    qint64 activeMs_ = 0;   ///< summed gaps between frames, those over kLongestGapMs left out
    qint64 intervals_ = 0;  ///< gaps summed in activeMs_
};

}  // namespace granular::ui
