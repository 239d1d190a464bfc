#include "ThreadPriority.h"

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

}  // namespace granular::ui
