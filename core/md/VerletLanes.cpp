#include "md/VerletLanes.h"

#include "md/PairLanes.h"
#include "md/VerletLaneGroups.h"

namespace granular::md {

bool verletLanesOn()
{
    return pairLanesOn();
}

// The groups are compiled for x86-64 only (md/VerletLanesAvx512.cpp, md/VerletLanesAvx2.cpp); elsewhere pairLaneWidth()
// is 0 and every grain takes the scalar code.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

std::size_t driftLanes(const GrainDrift& drift, std::size_t first, std::size_t last, DisplacementBound& bound)
{
    switch (pairLaneWidth()) {
    case kVerletLanes:
        return avx512::driftGroups(drift, first, last, bound);
    case avx2::kWidth:
        return avx2::driftGroups(drift, first, last, bound);
    default:
        return 0;
    }
}

std::size_t kickLanes(const GrainKickArrays& kick, std::size_t first, std::size_t last)
{
    switch (pairLaneWidth()) {
    case kVerletLanes:
        return avx512::kickGroups(kick, first, last);
    case avx2::kWidth:
        return avx2::kickGroups(kick, first, last);
    default:
        return 0;
    }
}

#else

std::size_t driftLanes(const GrainDrift& /*drift*/, std::size_t /*first*/, std::size_t /*last*/,
                       DisplacementBound& /*bound*/)
{
    return 0;
}

std::size_t kickLanes(const GrainKickArrays& /*kick*/, std::size_t /*first*/, std::size_t /*last*/)
{
    return 0;
}

#endif

}  // namespace granular::md
