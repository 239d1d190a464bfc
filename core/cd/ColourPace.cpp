#include "cd/ColourPace.h"

#include <algorithm>
#include <cmath>

namespace granular {

void ColourPace::start(std::size_t colours, std::size_t threads)
{
    const std::size_t kept = threads == threads_ ? std::min(colours, colours_) : 0;
    cuts_.resize(colours * (threads + 1));
    threads_ = threads;
    colours_ = colours;
    for (std::size_t c = kept; c < colours; ++c) {
        for (std::size_t k = 0; k <= threads; ++k) {
            cut(c, k) = static_cast<double>(k) / static_cast<double>(threads);
        }
    }
    // Eight doubles are a cache line: a line of padding keeps two threads' clocks off a shared line.
    stride_ = (colours + 7) / 8 * 8 + 8;
    seconds_.assign(threads * stride_, 0.0);
}

std::pair<std::size_t, std::size_t> ColourPace::range(std::size_t colour, std::size_t thread, std::size_t n) const
{
    const auto at = [&](std::size_t k) {
        if (k == 0) {
            return std::size_t{0};
        }
        if (k == threads_) {
            return n;
        }
        return std::min(n, static_cast<std::size_t>(std::lround(cut(colour, k) * static_cast<double>(n))));
    };
    return {at(thread), at(thread + 1)};
}

void ColourPace::record(std::size_t colour, std::size_t thread, double seconds)
{
    clock(colour, thread) += seconds;
}

void ColourPace::adjust()
{
    if (threads_ > 1) {
        for (std::size_t c = 0; c < colours_; ++c) {
            adjustColour(c);
        }
    }
    std::fill(seconds_.begin(), seconds_.end(), 0.0);
}

void ColourPace::adjustColour(std::size_t colour)
{
    double total = 0.0;
    for (std::size_t t = 0; t < threads_; ++t) {
        const double s = clock(colour, t);
        if (!(s > 0.0)) {
            return;  // not measured (or a clock that did not move): the cuts stay
        }
        total += s;
    }
    // The time before each cut, were each thread's time spread evenly over its range (a piecewise linear function of
    // the fraction of members); the cut k where it reaches k/T of the total balances the threads.
    const double least = kLeastShare / static_cast<double>(threads_);
    double before = 0.0;  // time up to the start of range t
    std::size_t t = 0;
    double previous = 0.0;                            // the new cut k - 1
    const std::size_t row = colour * (threads_ + 1);  // the colour's cuts in cuts_
    targets_.resize(threads_ + 1);
    targets_[0] = 0.0;
    targets_[threads_] = 1.0;
    for (std::size_t k = 1; k < threads_; ++k) {
        const double wanted = total * static_cast<double>(k) / static_cast<double>(threads_);
        while (before + clock(colour, t) < wanted) {
            before += clock(colour, t);
            ++t;
        }
        const double from = cuts_[row + t];
        const double to = cuts_[row + t + 1];
        const double balanced = from + (wanted - before) / clock(colour, t) * (to - from);
        targets_[k] = std::max(previous + least, cut(colour, k) + kSmoothing * (balanced - cut(colour, k)));
        previous = targets_[k];
    }
    // The least share from the top as well (the cuts stay ascending: the shares of all threads sum to below 1).
    for (std::size_t k = threads_ - 1; k >= 1; --k) {
        targets_[k] = std::min(targets_[k], targets_[k + 1] - least);
    }
    for (std::size_t k = 1; k < threads_; ++k) {
        cut(colour, k) = targets_[k];
    }
}

}  // namespace granular
