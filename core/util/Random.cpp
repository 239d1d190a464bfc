#include "util/Random.h"

namespace granular {

namespace {

std::uint64_t splitMix64(std::uint64_t& x)
{
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
}

}  // namespace

Random::Random(std::uint64_t seed)
{
    for (auto& word : state_) {
        word = splitMix64(seed);
    }
}

}  // namespace granular
