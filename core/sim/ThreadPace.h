#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace granular {

/// Chooses how many solver threads each step of a simulation runs on: the threads set, or fewer where steps on fewer
/// get more work done per second. A parallel step waits at every barrier for the slowest of its threads; when other
/// programs take a core (the studio's drawing, a second run, a busy machine) the thread on that core runs in slices
/// and the barriers wait for them: on this project's 2-core machine, with one core kept busy, the coloured sweep of
/// piston2d ran 2.7-8x slower on two threads than on one (some steps 100x: ~280 barriers a step), md's 20,000-sphere
/// packing 2.2-2.8x slower; on a 16-core machine with 8 cores busy, md ran 6.5x faster on 8 threads than on one and
/// over 5x slower on 16. Results never depend on the thread count (util/Parallel.h), so the choice costs nothing but
/// time.
///
/// The counts it chooses among form a ladder (ladderFor): the threads set, halved down to one (16, 8, 4, 2, 1). The
/// work rate of each count (work per second, any measure proportional to a step's work) is that of its last kWindow
/// steps taken together (total work over total time: a rare step that waited long weighs what it cost). The steps run
/// on the preferred count; now and then one runs on another count (a probe), the others in turn, nearest first (the
/// next fewer, the next more, then further). A probe's count replaces the preferred one where its rate is higher
/// (higher by kMargin where it has fewer threads). Probes come as seldom as keeps their extra time near kProbeBudget of
/// the whole where the next count to probe is slower (the slower it is, the rarer they come), but at least every
/// kLongestProbeGap seconds unless that would let them take more than kLargestProbeShare of the time (16 threads with 8
/// of 16 cores busy took over 0.75 s a step against one thread's 0.14 s). A probe that beats the preferred rate halves
/// the steps to the next (the machine may have changed), and one faster by kMargin makes the next probe one of the same
/// count, until its window shows it; a step on several threads at less than kSlump of their rate brings the next
/// probe, of fewer threads, forward. With two threads set the ladder is 2, 1: every probe is of the
/// other count.
class ThreadPace {
public:
    /// The threads for the next step, `requested` being the threads set (1: always 1; another count starts afresh).
    [[nodiscard]] int threadsFor(int requested);
    /// The step just run on `threads` threads (as threadsFor said) did `work` in `seconds`.
    void record(int threads, double seconds, double work);

    /// The threads the steps run on for now but for probes (the threads set until a probe finds fewer faster; 1
    /// before the first threadsFor).
    [[nodiscard]] int preferredThreads() const;
    /// The counts the pace chooses among for `requested` threads: `requested`, then each half the one before (rounded
    /// up) down to 1, e.g. 16, 8, 4, 2, 1 or 6, 3, 2, 1.
    [[nodiscard]] static std::vector<int> ladderFor(int requested);

    /// Steps measured per count.
    static constexpr int kWindow = 4;
    /// Steps on the requested threads before the first probe.
    static constexpr int kFirstProbe = 3;
    /// The fewest and the most steps between probes.
    static constexpr int kShortestInterval = 8;
    static constexpr int kLongestInterval = 1000;
    /// The share of the time that the probes may add where the other count is slower.
    static constexpr double kProbeBudget = 0.01;
    /// s: the longest time between probes (as steps on the preferred count take it, at least kShortestInterval).
    static constexpr double kLongestProbeGap = 2.0;
    /// The most of the time that probes may take to come every kLongestProbeGap: where a probe costs more, they come
    /// as seldom as keeps them at this share.
    static constexpr double kLargestProbeShare = 0.1;
    /// Fewer threads replace more once their rate is higher by this factor (more come back once their rate is higher
    /// at all): near-equal rates do not make it switch back and forth.
    static constexpr double kMargin = 1.05;
    /// A step on several threads at less than this fraction of their rate brings the next probe forward.
    static constexpr double kSlump = 0.5;

private:
    /// The last kWindow steps on one count.
    struct Window {
        std::array<double, kWindow> seconds{};
        std::array<double, kWindow> work{};
        int count = 0;  ///< steps recorded (the oldest is overwritten once kWindow are)

        void add(double stepSeconds, double stepWork);
        /// The steps in the window.
        [[nodiscard]] int steps() const { return count < kWindow ? count : kWindow; }
        /// s, of the window's steps together.
        [[nodiscard]] double totalSeconds() const;
        /// Work per second over the window (0: no step yet).
        [[nodiscard]] double rate() const;
        /// s, the mean time of the window's steps (0: no step yet).
        [[nodiscard]] double stepSeconds() const;
    };

    /// The rung that the probes' turn `turn` (0, 1, ...) comes to from the preferred rung: the others by their
    /// distance, at the same distance the one with fewer threads first.
    [[nodiscard]] std::size_t probeRung(std::size_t turn) const;
    /// After a probe of `rung`, whose step ran at `probeRate`: the preferred rung, the next to probe, and the steps to
    /// that probe.
    void decide(std::size_t rung, double probeRate);

    int requested_ = 0;
    std::vector<int> ladder_;      ///< ladderFor(requested_): rung 0 the threads set, the last rung 1
    std::vector<Window> windows_;  ///< one per rung
    std::size_t preferred_ = 0;    ///< the rung the steps run on but for probes
    std::size_t turn_ = 0;         ///< the probes' turn: the next probe runs on probeRung(turn_)
    bool probing_ = false;         ///< the step asked for is a probe
    int sinceProbe_ = 0;           ///< steps on the preferred count since the last probe
    int interval_ = kFirstProbe;
};

}  // namespace granular
