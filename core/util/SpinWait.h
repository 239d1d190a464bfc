#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>

namespace granular {

/// A counter that one thread raises and others wait on, on a cache line of its own (so that waiting on one does not
/// slow the writes of a neighbour's).
struct alignas(64) ProgressCounter {
    std::atomic<std::uint64_t> value{0};
};

/// Waits until `counter` reaches `atLeast`; what its writer wrote before raising it is then visible. Spins on the
/// counter a while (its writer is usually close), then yields the core to whatever else the system runs (more threads
/// than cores). The spin has no `pause`: on this project's virtual machine a spin of pauses made the waits 1.6-2x as
/// long (the hypervisor takes a vCPU that pauses in a loop for one that waits for a core: pause-loop exiting), e.g.
/// piston2d's strip sweep on two threads 0.41 and 0.36 s of waits against 0.24 and 0.18 s without.
inline void waitUntil(const ProgressCounter& counter, std::uint64_t atLeast)
{
    constexpr std::uint32_t kSpins = 1U << 16U;
    for (std::uint32_t spins = 0; counter.value.load(std::memory_order_acquire) < atLeast; ++spins) {
        if (spins >= kSpins) {
            std::this_thread::yield();
        }
    }
}

/// Whether `counter` has reached `atLeast` (what its writer wrote before raising it is then visible).
[[nodiscard]] inline bool reached(const ProgressCounter& counter, std::uint64_t atLeast)
{
    return counter.value.load(std::memory_order_acquire) >= atLeast;
}

/// Raises `counter` to `value` (no other thread writes it); what this thread wrote before becomes visible to those
/// that see the new value.
inline void raise(ProgressCounter& counter, std::uint64_t value)
{
    counter.value.store(value, std::memory_order_release);
}

/// Progress counters kept from one use to the next (a counter cannot move, so they are no std::vector).
class ProgressCounters {
public:
    /// Makes the first n counters 0 (and room for them).
    void reset(std::size_t n)
    {
        if (n > capacity_) {
            counters_ = std::make_unique<ProgressCounter[]>(n);
            capacity_ = n;
        }
        for (std::size_t i = 0; i < n; ++i) {
            counters_[i].value.store(0, std::memory_order_relaxed);
        }
    }
    [[nodiscard]] ProgressCounter& operator[](std::size_t i) { return counters_[i]; }
    [[nodiscard]] const ProgressCounter& operator[](std::size_t i) const { return counters_[i]; }

private:
    std::unique_ptr<ProgressCounter[]> counters_;
    std::size_t capacity_ = 0;
};

}  // namespace granular
