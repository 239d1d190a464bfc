#pragma once

#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

namespace granular {

/// Where the coloured sweep cuts each colour's members between its threads, so that they finish a colour together.
/// A colour's members cost very different times (an open contact whose grains did not move is a glance, a closed one
/// the whole shock law) and lie in ascending contact index, so in a settling packing an even cut leaves one thread
/// the bottom's closed contacts and the other waiting at the colour's end. Each thread times its range of every
/// colour; between iterations the cuts move halfway towards where the measured times would have been equal, the
/// time taken as spread evenly over each thread's range (a thread's slowness, e.g. a busy core, counts as its
/// members' cost). The cuts are fractions of a colour's members, kept for each colour index from step to step
/// (the colouring of one step is much like the last). Which thread updates a member never changes a result: the
/// members of a colour share no grain.
class ColourPace {
public:
    using Clock = std::chrono::steady_clock;

    /// For a step with `colours` colours on `threads` threads: the cuts of the colours of the last step are kept
    /// (even cuts for new colours, or for another thread count), the clocks cleared.
    void start(std::size_t colours, std::size_t threads);

    /// Thread `thread`'s range [first, end) of a colour `colour` with `n` members (units: what the sweep shares
    /// out, e.g. pairs of members); the ranges of the threads cover [0, n) in thread order.
    [[nodiscard]] std::pair<std::size_t, std::size_t> range(std::size_t colour, std::size_t thread,
                                                            std::size_t n) const;

    /// Adds `seconds` to thread `thread`'s clock of colour `colour` (only that thread writes it).
    void record(std::size_t colour, std::size_t thread, double seconds);

    /// Moves each colour's cuts halfway towards equal times from what the clocks measured since the last call (a
    /// colour with a thread that measured nothing keeps its cuts), then clears the clocks. On one thread, between the
    /// iterations (no thread in a colour's range).
    void adjust();

    /// The least share of a colour's members that a thread keeps, as a fraction of an even share: a thread with no
    /// members would measure nothing to move its cut by.
    static constexpr double kLeastShare = 0.2;
    /// How far the cuts move towards the measured balance at each adjustment (timings of a few microseconds are noisy).
    static constexpr double kSmoothing = 0.5;

private:
    [[nodiscard]] double& cut(std::size_t colour, std::size_t k) { return cuts_[colour * (threads_ + 1) + k]; }
    [[nodiscard]] double cut(std::size_t colour, std::size_t k) const { return cuts_[colour * (threads_ + 1) + k]; }
    [[nodiscard]] double& clock(std::size_t colour, std::size_t thread) { return seconds_[thread * stride_ + colour]; }
    void adjustColour(std::size_t colour);

    std::size_t colours_ = 0;
    std::size_t threads_ = 0;
    std::size_t stride_ = 0;    ///< a thread's clocks: seconds_[thread * stride_ + colour], on lines of their own
    std::vector<double> cuts_;  ///< per colour, threads_ + 1 fractions: 0, the cuts in thread order, 1
    std::vector<double> seconds_;
    std::vector<double> targets_;  ///< adjust's new cuts of a colour
};

}  // namespace granular
