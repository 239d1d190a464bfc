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

/// The most grain pairs evaluatePairLanes() takes at a time (AVX-512F's eight doubles).
inline constexpr std::size_t kPairLanes = 8;

/// How many grain pairs evaluatePairLanes() takes at a time: kPairLanes where the processor has AVX-512F, 4 where it
/// has AVX2 only, 0 (every pair is the scalar code's) where it has neither or setPairLaneWidth() capped it below.
[[nodiscard]] std::size_t pairLaneWidth();
/// Caps pairLaneWidth() at `widest` pairs (0 switches the lanes off, 4 keeps AVX2's on a processor with AVX-512F,
/// kPairLanes is the default). Every result is the same at any width; tests compare them.
void setPairLaneWidth(std::size_t widest);
/// Whether grain pairs are evaluated several at a time: pairLaneWidth() > 0.
[[nodiscard]] bool pairLanesOn();
/// setPairLaneWidth(kPairLanes) where `on`, else setPairLaneWidth(0).
void setPairLanes(bool on);

/// The step loads of the run's leading grain pairs, pairLaneWidth() at a time, bit for bit what the scalar evaluation
/// of evaluateStepForces gives one pair after the other for a step that does not publish its contacts, outside a
/// periodic cell: every lane does the scalar arithmetic's IEEE operations in its order, nothing fused, and each branch
/// of the scalar evaluation (a pair that stays open, closes, opens, sticks or slides; centres that coincide) is a
/// per-lane selection between both sides. Writes loads[r] and memory[r] of the pairs it evaluates and returns how many
/// it did: a multiple of the width, stopping before the first group whose laws differ (the rest is the scalar code's),
/// and 0 where pairLanesOn() is false.
///
/// The lanes' arithmetic (md/PairLaneGroups.inc, compiled once per width) is a second writing of the scalar step load
/// (ContactForces.cpp), kept equal to it by tst_pair_lanes, which compares every pair's memory and every grain's load
/// bit for bit over the branches it draws, at every width the processor has (it skips where it has none: the lanes
/// are never used there). It is not one template over the number type as contact dynamics' update is (ContactUpdate.h
/// over double and SSE2 pairs): SSE2 is in every x86-64 build, AVX2 and AVX-512 are chosen at run time, so their
/// operations carry `target(...)`, and GCC and clang refuse to inline them into a template instance that lacks that
/// attribute, whatever inlining it asks for (the alternative, files compiled with -mavx2 or -mavx512f, would let the
/// linker keep their copies of shared inline functions for every processor).
std::size_t evaluatePairLanes(const PairRun& run, ContactLoad* loads);

}  // namespace granular::md
