#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace granular {

/// m = floor(2^64 / n) for a divisor n >= 2, from one 64-bit division: 2^64 - 1 = q n + r gives 2^64 = q n + r + 1,
/// so m is q, or q + 1 where r + 1 = n.
inline std::uint64_t reciprocalOf(std::uint64_t n)
{
    constexpr std::uint64_t kMax = ~std::uint64_t{0};
    const std::uint64_t q = kMax / n;
    return kMax - q * n == n - 1 ? q + 1 : q;
}

/// x mod n for any 64-bit x and n >= 2 from m = reciprocalOf(n), with two multiplications instead of a division:
/// m = 2^64 / n - f with 0 <= f < 1, so x m / 2^64 = x / n - x f / 2^64 lies in (x / n - 1, x / n] and its floor q is
/// floor(x / n) or one less; x - q n is then the remainder, or the remainder plus n (and never above x).
inline std::uint64_t remainderBy(std::uint64_t x, std::uint64_t n, std::uint64_t m)
{
    __extension__ using Wide = unsigned __int128;
    const auto q = static_cast<std::uint64_t>((static_cast<Wide>(x) * m) >> 64U);
    const std::uint64_t r = x - q * n;
    return r >= n ? r - n : r;
}

/// reciprocalOf(n) for n = 2, 3, ..., kept for the divisors a shuffle uses again and again (the sweeps' Fisher-Yates
/// shuffle draws below n = count, count - 1, ..., 2 in every iteration of every step).
class Reciprocals {
public:
    /// Makes sure the table holds every n up to `largest`.
    void cover(std::size_t largest)
    {
        if (largest < table_.size()) {
            return;
        }
        const std::size_t first = table_.size();
        table_.resize(largest + 1);
        for (std::size_t n = std::max<std::size_t>(first, 2); n <= largest; ++n) {
            table_[n] = reciprocalOf(n);
        }
    }
    /// reciprocalOf(n) for 2 <= n <= the largest covered.
    std::uint64_t operator[](std::size_t n) const { return table_[n]; }

private:
    std::vector<std::uint64_t> table_;
};

}  // namespace granular
