#include "md/PairLanes.h"

#include "md/PairLaneGroups.h"

#include <atomic>

namespace granular::md {

namespace {

/// The widest group the processor can take: kPairLanes with AVX-512F, 4 with AVX2, else 0.
std::size_t processorLaneWidth()
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    static const std::size_t width = [] {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f")) {
            return avx512::kWidth;
        }
        return __builtin_cpu_supports("avx2") ? avx2::kWidth : std::size_t{0};
    }();
    return width;
#else
    return 0;
#endif
}

std::atomic<std::size_t>& widestAllowed()
{
    static std::atomic<std::size_t> widest{kPairLanes};
    return widest;
}

}  // namespace

std::size_t pairLaneWidth()
{
    const std::size_t widest = widestAllowed().load(std::memory_order_relaxed);
    const std::size_t processor = processorLaneWidth();
    if (widest >= avx512::kWidth && processor >= avx512::kWidth) {
        return avx512::kWidth;
    }
    return widest >= avx2::kWidth && processor >= avx2::kWidth ? avx2::kWidth : 0;
}

void setPairLaneWidth(std::size_t widest)
{
    widestAllowed().store(widest, std::memory_order_relaxed);
}

bool pairLanesOn()
{
    return pairLaneWidth() > 0;
}

void setPairLanes(bool on)
{
    setPairLaneWidth(on ? kPairLanes : 0);
}

std::size_t evaluatePairLanes(const PairRun& run, ContactLoad* loads)
{
    switch (pairLaneWidth()) {
    case avx512::kWidth:
        return avx512::evaluatePairGroups(run, loads);
    case avx2::kWidth:
        return avx2::evaluatePairGroups(run, loads);
    default:
        return 0;
    }
}

}  // namespace granular::md
