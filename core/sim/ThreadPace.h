#pragma once

#include <array>

namespace granular {

/// Chooses how many solver threads each step of a simulation runs on: the threads set, or one thread where steps on
/// one thread get more work done per second. A parallel step waits at every barrier for the slowest of its threads;
/// when other programs take a core (the studio's drawing, a second run, a busy machine) the thread on that core runs
/// in slices and the barriers wait for them: on this project's 2-core machine, with one core kept busy, the coloured
/// sweep of piston2d ran 2.7-8x slower on two threads than on one (some steps 100x: ~280 barriers a step), md's
/// 20,000-sphere packing 2.2-2.8x slower. Results never depend on the thread count (util/Parallel.h), so the choice
/// costs nothing but time.
///
/// The work rate of each count (work per second, any measure proportional to a step's work) is that of its last
/// kWindow steps taken together (total work over total time: a rare step that waited long weighs what it cost). The
/// steps run on the preferred count; now and then one runs on the other (a probe), as seldom as keeps the probes'
/// extra time near kProbeBudget of the whole where the other count is slower (the slower it is, the rarer they come),
/// but at least every kLongestProbeGap seconds unless that would let them take more than kLargestProbeShare of the
/// time (16 threads with 8 of 16 cores busy took over 0.75 s a step against one thread's 0.14 s). A probe that beats
/// the preferred rate halves the steps to the next (the machine may have changed); a step on the team at less than
/// kSlump of its rate brings the next probe forward.
class ThreadPace {
public:
    /// The threads for the next step, `requested` being the threads set (1: always 1; another count starts afresh).
    [[nodiscard]] int threadsFor(int requested);
    /// The step just run on `threads` threads (as threadsFor said) did `work` in `seconds`.
    void record(int threads, double seconds, double work);

    /// Whether the steps run on one thread for now (the team being slower).
    [[nodiscard]] bool onOneThread() const { return onOne_; }

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
    /// One thread replaces the team once its rate is higher by this factor (the team comes back once its rate is
    /// higher at all): near-equal rates do not make it switch back and forth.
    static constexpr double kMargin = 1.05;
    /// A step on the team at less than this fraction of the team's rate brings the next probe forward.
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

    /// After a probe: the preferred count, and the steps to the next probe.
    void decide(double probeRate);

    int requested_ = 0;
    Window team_;
    Window one_;
    bool onOne_ = false;    ///< one thread is preferred
    bool probing_ = false;  ///< the step asked for runs on the count not preferred
    int sinceProbe_ = 0;    ///< steps on the preferred count since the last probe
    int interval_ = kFirstProbe;
};

}  // namespace granular
