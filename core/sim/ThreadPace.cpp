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

int ThreadPace::threadsFor(int requested)
{
    if (requested != requested_) {
        *this = ThreadPace();
        requested_ = requested;
    }
    if (requested <= 1) {
        return 1;
    }
    probing_ = sinceProbe_ >= interval_;
    return onOne_ != probing_ ? 1 : requested;
}

void ThreadPace::record(int threads, double seconds, double work)
{
    if (requested_ <= 1 || !(seconds > 0.0) || !(work > 0.0)) {
        return;
    }
    Window& window = threads == 1 ? one_ : team_;
    const double before = window.rate();
    window.add(seconds, work);
    if (probing_) {
        probing_ = false;
        sinceProbe_ = 0;
        decide(work / seconds);
        return;
    }
    ++sinceProbe_;
    if (!onOne_ && before > 0.0 && work / seconds < kSlump * before) {
        sinceProbe_ = std::max(sinceProbe_, interval_);  // the team may have lost a core: probe at once
    }
}

void ThreadPace::decide(double probeRate)
{
    const double team = team_.rate();
    const double one = one_.rate();
    if (onOne_ ? team > one : one > kMargin * team) {
        onOne_ = !onOne_;
    }
    const Window& preferredWindow = onOne_ ? one_ : team_;
    const double preferred = preferredWindow.rate();
    const double other = onOne_ ? team : one;
    if (probeRate > preferred || !(other > 0.0)) {
        // The probe beat the rate it was measured against: the next ones come sooner, to confirm or undo it.
        interval_ = std::max(interval_ / 2, kShortestInterval);
        return;
    }
    // A probe costs preferred / other - 1 steps more than a step on the preferred count; and the probes come at least
    // every kLongestProbeGap seconds, so that a freed core is taken back within seconds, unless they would then take
    // more than kLargestProbeShare of the time.
    const double extra = preferred / other - 1.0;
    const double steps = std::min(
        extra / kProbeBudget, std::max(kLongestProbeGap / preferredWindow.stepSeconds(), extra / kLargestProbeShare));
    interval_ = static_cast<int>(std::clamp(std::ceil(steps), double{kShortestInterval}, double{kLongestInterval}));
}

}  // namespace granular
