#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace granular {

/// The prescribed motion of a rigid plate (setup compression, Brodu et al. 2015): from `approachFrom` down to
/// `top` at the stroke speed, a wait of `settleTime` there, then `strokes` strokes of `strokeTime` each between
/// `top` and `bottom` at constant speed (down, up, down, ...). After the last stroke it stays where that ended.
/// Heights are along +y.
struct PlateDrive {
    double approachFrom = 0.0;  ///< m, the height it starts at (>= top)
    double top = 0.0;           ///< m, where a down-stroke starts
    double bottom = 0.0;        ///< m, where a down-stroke ends (< top)
    double strokeTime = 1.0;    ///< s
    std::int64_t strokes = 0;
    double settleTime = 0.0;  ///< s

    /// m/s, the speed of every stroke and of the approach.
    [[nodiscard]] double speed() const { return (top - bottom) / strokeTime; }
    /// s, when the first stroke starts.
    [[nodiscard]] double protocolStart() const { return (approachFrom - top) / speed() + settleTime; }

    /// 0 before the first stroke (approach and settling), k during stroke k, strokes + 1 after the last.
    [[nodiscard]] std::int64_t stroke(double time) const
    {
        const double since = time - protocolStart();
        if (since < 0.0) {
            return 0;
        }
        const auto k = static_cast<std::int64_t>(std::floor(since / strokeTime)) + 1;
        return std::min(k, strokes + 1);
    }

    /// m, the plate's height at `time`.
    [[nodiscard]] double height(double time) const
    {
        const double approach = (approachFrom - top) / speed();
        if (time < approach) {
            return approachFrom - speed() * std::max(time, 0.0);
        }
        const std::int64_t k = stroke(time);
        if (k == 0) {
            return top;
        }
        if (k > strokes) {
            return strokes % 2 == 0 ? top : bottom;
        }
        const double local = time - protocolStart() - static_cast<double>(k - 1) * strokeTime;
        return k % 2 == 1 ? top - speed() * local : bottom + speed() * local;
    }

    /// m/s along +y at `time` (negative while going down).
    [[nodiscard]] double velocity(double time) const
    {
        const double approach = (approachFrom - top) / speed();
        if (time < approach) {
            return -speed();
        }
        const std::int64_t k = stroke(time);
        if (k == 0 || k > strokes) {
            return 0.0;
        }
        return k % 2 == 1 ? -speed() : speed();
    }

    /// s, when the protocol ends: the last stroke's end.
    [[nodiscard]] double end() const { return protocolStart() + static_cast<double>(strokes) * strokeTime; }
};

}  // namespace granular
