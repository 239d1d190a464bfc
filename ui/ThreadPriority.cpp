#include "ThreadPriority.h"

#include <cerrno>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

namespace granular::ui {

namespace {

/// The niceness where SCHED_IDLE is refused: the lowest.
constexpr int kLowestNice = 19;

}  // namespace

void runOnIdleCoresOnly()
{
    const sched_param none{};
    if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &none) != 0) {
        (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kLowestNice);
    }
}

void runBehindTheGui()
{
    // Raising one's own niceness needs no privilege; a thread already nicer stays as it is.
    const auto self = static_cast<id_t>(gettid());
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, self);
    if (errno == 0 && now < kSimulationNice) {
        (void)setpriority(PRIO_PROCESS, self, kSimulationNice);
    }
}

}  // namespace granular::ui
