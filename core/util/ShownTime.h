#pragma once

#include <array>
#include <charconv>
#include <string>
#include <system_error>

namespace granular {

/// A simulated time as every output file writes it, s. The clock sums dt once per step, so it carries round-off in its
/// last digits (29.900000000001874); twelve significant digits show the time the user asked for and still resolve 1e6
/// steps. The series' rows, the frames (run.pvd, TimeValue), levels.csv and summary.json all write these digits, so
/// that a script joins them by time.
[[nodiscard]] inline std::string timeText(double time)
{
    std::array<char, 32> text{};
    const auto [end, error] =
        std::to_chars(text.data(), text.data() + text.size(), time, std::chars_format::general, 12);
    return error == std::errc() ? std::string(text.data(), end) : std::to_string(time);
}

/// The double that timeText(time) reads back as (for numbers written by a JSON or VTK writer of their own).
[[nodiscard]] inline double shownTime(double time)
{
    const std::string text = timeText(time);
    double shown = time;
    std::from_chars(text.data(), text.data() + text.size(), shown);
    return shown;
}

}  // namespace granular
