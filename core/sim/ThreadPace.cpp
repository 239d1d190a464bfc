#include "sim/ThreadPace.h"

#include <algorithm>
#include <cmath>

namespace granular {

void ThreadPace::Window::add(double stepSeconds, double stepWork)
{
    const auto slot = static_cast<std::size_t>(count % kWindow);
    seconds[slot] = stepSeconds;
    work[slot] = stepWork;
    ++count;
}

double ThreadPace::Window::totalSeconds() const
{
    double total = 0.0;
    for (int s = 0; s < steps(); ++s) {
        total += seconds[static_cast<std::size_t>(s)];
    }
    return total;
}

double ThreadPace::Window::rate() const
{
    double totalWork = 0.0;
    for (int s = 0; s < steps(); ++s) {
        totalWork += work[static_cast<std::size_t>(s)];
    }
    const double total = totalSeconds();
    return total > 0.0 ? totalWork / total : 0.0;
}

double ThreadPace::Window::stepSeconds() const
{
    return steps() > 0 ? totalSeconds() / static_cast<double>(steps()) : 0.0;
}

std::vector<int> ThreadPace::ladderFor(int requested)
{
    std::vector<int> ladder{std::max(requested, 1)};
    while (ladder.back() > 1) {
        ladder.push_back((ladder.back() + 1) / 2);
    }
    return ladder;
}

int ThreadPace::preferredThreads() const
{
    return ladder_.empty() ? 1 : ladder_[preferred_];
}

std::size_t ThreadPace::probeRung(std::size_t turn) const
{
    // The others in the order preferred + 1, preferred - 1, preferred + 2, ... (rung + 1 has fewer threads), those
    // off the ladder skipped; `turn` counts round them.
    const std::size_t others = ladder_.size() - 1;
    std::size_t left = turn % others;
    for (std::size_t distance = 1;; ++distance) {
        if (preferred_ + distance < ladder_.size()) {
            if (left == 0) {
                return preferred_ + distance;
            }
            --left;
        }
        if (distance <= preferred_) {
            if (left == 0) {
                return preferred_ - distance;
            }
            --left;
        }
    }
}

int ThreadPace::threadsFor(int requested)
{
    if (requested != requested_) {
        *this = ThreadPace();
        requested_ = requested;
        ladder_ = ladderFor(requested);
        windows_.assign(ladder_.size(), Window{});
    }
    if (requested <= 1) {
        return 1;
    }
    probing_ = sinceProbe_ >= interval_;
    return ladder_[probing_ ? probeRung(turn_) : preferred_];
}

void ThreadPace::record(int threads, double seconds, double work)
{
    if (requested_ <= 1 || !(seconds > 0.0) || !(work > 0.0)) {
        return;
    }
    const auto found = std::find(ladder_.begin(), ladder_.end(), threads);
    if (found == ladder_.end()) {
        return;  // not a count this pace asked for
    }
    const auto rung = static_cast<std::size_t>(found - ladder_.begin());
    Window& window = windows_[rung];
    const double before = window.rate();
    window.add(seconds, work);
    if (probing_) {
        probing_ = false;
        sinceProbe_ = 0;
        decide(rung, work / seconds);
        return;
    }
    ++sinceProbe_;
    if (threads > 1 && before > 0.0 && work / seconds < kSlump * before) {
        // A thread may have lost its core: fewer threads probed at once.
        sinceProbe_ = std::max(sinceProbe_, interval_);
        turn_ = 0;
    }
}

void ThreadPace::decide(std::size_t rung, double probeRate)
{
    const double probed = windows_[rung].rate();
    const double current = windows_[preferred_].rate();
    const bool fewer = ladder_[rung] < ladder_[preferred_];
    if (fewer ? probed > kMargin * current : probed > current) {
        preferred_ = rung;
        turn_ = 0;  // the probes start again from the new preferred count's neighbours
    } else if (!(probeRate > kMargin * current)) {
        ++turn_;  // a step clearly faster than the preferred count's is probed again (its window may hold older steps)
    }
    const Window& preferredWindow = windows_[preferred_];
    const double preferred = preferredWindow.rate();
    const double other = windows_[probeRung(turn_)].rate();
    if (probeRate > preferred || !(other > 0.0)) {
        // The probe beat the rate it was measured against, or the next count is not measured yet: the next probe comes
        // sooner, to confirm or undo it.
        interval_ = std::max(interval_ / 2, kShortestInterval);
        return;
    }
    // A probe costs preferred / other - 1 steps more than a step on the preferred count; and the probes come at least
    // every kLongestProbeGap seconds, so that a freed core is taken back within seconds, unless they would then take
    // more than kLargestProbeShare of the time.
    const double extra = std::max(preferred / other - 1.0, 0.0);
    const double steps = std::min(
        extra / kProbeBudget, std::max(kLongestProbeGap / preferredWindow.stepSeconds(), extra / kLargestProbeShare));
    interval_ = static_cast<int>(std::clamp(std::ceil(steps), double{kShortestInterval}, double{kLongestInterval}));
}

}  // namespace granular
