#include "cli/Progress.h"

#include <cstdio>
#include <unistd.h>

namespace granular::cli {

Progress::Progress(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled && ::isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()), lastDraw_(start_)
{
}

Progress::~Progress()
{
    if (enabled_) {
        std::fputs("\r\033[K", stderr);
    }
}

void Progress::update(double fraction)
{
    const auto now = std::chrono::steady_clock::now();
    if (!enabled_ || now - lastDraw_ < std::chrono::milliseconds(200)) {
        return;
    }
    lastDraw_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double remaining = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    std::fprintf(stderr, "\r\033[K%s: %5.1f %%  elapsed %.1f s, about %.1f s left", label_.c_str(), 100.0 * fraction,
                 elapsed, remaining);
    std::fflush(stderr);
}

}  // namespace granular::cli
