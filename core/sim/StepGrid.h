#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace granular {

struct Settings;

// The grid of whole steps that a run's time and its output interval come to (the rows of every series fall on it).

/// Steps of a whole run: run.time / solver.dt, rounded, at least 1 (checkSettings bounds it).
[[nodiscard]] std::int64_t stepsPerRun(const Settings& settings);
/// Steps of an interval of `seconds` at time step `dt`: rounded, at least 1, and the largest 64-bit count where it has
/// more steps than that holds (an interval never reached).
[[nodiscard]] std::int64_t stepsEvery(double seconds, double dt);
/// Steps of one output.interval: output.interval / solver.dt, rounded, at least 1 (the largest count where it has
/// more steps than that holds). The rows of the output grid fall on its multiples.
[[nodiscard]] std::int64_t stepsPerOutputInterval(const Settings& settings);
/// Steps between two rows of the series: stepsPerOutputInterval, at most stepsPerRun.
[[nodiscard]] std::int64_t stepsPerRow(const Settings& settings);

/// What a run of whole steps makes of a run.time or an output.interval that is no whole number of solver.dt (beyond
/// round-off): one line each, naming the key, the steps and the time they come to (0.025 s at dt = 0.01 s: rows every
/// 3 steps, 0.03 s). Empty where both are whole numbers of steps.
[[nodiscard]] std::vector<std::string> stepGridAdvisories(const Settings& settings);

}  // namespace granular
