#include "cli/Progress.h"

#include <iomanip>
#include <iostream>
#include <sstream>
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
        std::cerr << "\r\033[K" << std::flush;
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
    std::ostringstream line;
    line << std::fixed << std::setprecision(1) << "\r\033[K" << label_ << ": " << std::setw(5) << 100.0 * fraction
         << " %  elapsed " << elapsed << " s, about " << remaining << " s left";
    std::cerr << line.str() << std::flush;
}

}  // namespace granular::cli
