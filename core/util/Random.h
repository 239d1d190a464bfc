#pragma once

#include "util/Reciprocal.h"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace granular {

/// xoshiro256** seeded by SplitMix64: the same seed gives the same numbers on every platform and
/// standard library (std::uniform_*_distribution does not promise that).
class Random {
public:
    explicit Random(std::uint64_t seed);

    std::uint64_t next()
    {
        const std::uint64_t result = std::rotl(state_[1] * 5U, 7) * 9U;
        const std::uint64_t t = state_[1] << 17U;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = std::rotl(state_[3], 45);
        return result;
    }
    /// Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11U) * 0x1.0p-53; }
    double uniform(double low, double high) { return low + (high - low) * uniform(); }
    /// Uniform integer in [0, n), n > 0, without modulo bias: draws x until x < limit = M - (M mod n), M = 2^64 - 1,
    /// and returns x mod n. Only a draw above M - n can reach the limit (limit > M - n), so the limit's division is
    /// made only for those (a chance of n / 2^64): one division a draw instead of two, the same numbers.
    std::uint64_t below(std::uint64_t n)
    {
        constexpr std::uint64_t kMax = ~std::uint64_t{0};
        std::uint64_t x = next();
        if (x > kMax - n) {
            const std::uint64_t limit = kMax - kMax % n;
            while (x >= limit) {
                x = next();
            }
        }
        return x % n;
    }
    /// The same number as below(n), n >= 2, without its division: `reciprocal` is reciprocalOf(n) (Reciprocal.h).
    std::uint64_t below(std::uint64_t n, std::uint64_t reciprocal)
    {
        constexpr std::uint64_t kMax = ~std::uint64_t{0};
        std::uint64_t x = next();
        if (x > kMax - n) [[unlikely]] {
            const std::uint64_t limit = kMax - kMax % n;
            while (x >= limit) {
                x = next();
            }
        }
        return remainderBy(x, n, reciprocal);
    }

    /// The generator's whole state, to save and restore it (checkpoints).
    [[nodiscard]] std::array<std::uint64_t, 4> state() const { return {state_[0], state_[1], state_[2], state_[3]}; }
    void setState(const std::array<std::uint64_t, 4>& state)
    {
        for (std::size_t i = 0; i < 4; ++i) {
            state_[i] = state[i];
        }
    }

private:
    std::uint64_t state_[4]{};
};

}  // namespace granular
