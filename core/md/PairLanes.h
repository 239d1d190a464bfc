#pragma once

#include "md/CandidateList.h"
#include "md/LoadAssembly.h"
#include "util/Vector.h"

#include <cstddef>
#include <cstdint>

namespace granular::md {

/// A run of rigid grain pairs, as the side-by-side evaluation reads it: pair r joins body 0, grain partner[r], and
/// body 1, grain particle[r]; its memory is memory[r]. Positions are those at the step's end, velocities those of the
/// half step (HalfStepVelocities).
struct PairRun {
    const Vec3* position = nullptr;          ///< m, of every grain
    const double* radius = nullptr;          ///< m, of every grain
    const Vec3* velocity = nullptr;          ///< m/s, of every grain at the half step
    const Vec3* angularVelocity = nullptr;   ///< rad/s, of every grain at the half step
    const std::int32_t* partner = nullptr;   ///< body 0 of pair r
    const std::int32_t* particle = nullptr;  ///< body 1 of pair r
    ContactMemory* memory = nullptr;         ///< of pair r
    std::size_t count = 0;                   ///< pairs in the run
    double dt = 0.0;                         ///< s, the MD step
};

/// How many grain pairs evaluatePairLanes() takes at a time.
inline constexpr std::size_t kPairLanes = 8;

/// Whether grain pairs are evaluated kPairLanes at a time: the processor has AVX-512F and setPairLanes() did not
/// switch it off.
[[nodiscard]] bool pairLanesOn();
/// Switches the side-by-side evaluation off (false) or back on where the processor has it (true). Every result is
/// the same either way; tests compare the two.
void setPairLanes(bool on);

/// The step loads of the run's leading grain pairs, kPairLanes at a time, bit for bit what the scalar evaluation of
/// evaluateStepForces gives one pair after the other for a step that does not publish its contacts, outside a periodic
/// cell: every lane does the scalar arithmetic's IEEE operations in its order, nothing fused, and each branch of the
/// scalar evaluation (a pair that stays open, closes, opens, sticks or slides; centres that coincide) is a per-lane
/// selection between both sides. Writes loads[r] and memory[r] of the pairs it evaluates and returns how many it did:
/// a multiple of kPairLanes, stopping before the first group whose laws differ (the rest is the scalar code's), and 0
/// where pairLanesOn() is false.
///
/// The lanes' arithmetic is a second writing of the scalar step load (ContactForces.cpp), kept equal to it by
/// tst_pair_lanes, which compares every pair's memory and every grain's load bit for bit over the branches it draws (on
/// a processor with AVX-512F; it skips elsewhere, where the lanes are never used). It is not
/// one template over the number type as contact dynamics' update is (ContactUpdate.h over double and SSE2 pairs): SSE2
/// is in every x86-64 build, AVX-512 is chosen at run time, so its operations carry `target("avx512f")`, and GCC and
/// clang refuse to inline them into a template instance that lacks that attribute, whatever inlining it asks for (the
/// alternative, this file compiled with -mavx512f, would let the linker keep its copies of shared inline functions for
/// every processor).
std::size_t evaluatePairLanes(const PairRun& run, ContactLoad* loads);

}  // namespace granular::md
