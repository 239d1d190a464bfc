#pragma once

#include "contact/ContactDetection.h"
#include "contact/DisplacementBound.h"
#include "md/ContactLaw.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

namespace granular {

struct World;
class StateWriter;
class StateReader;

namespace md {

/// What a contact carries from one MD step to the next.
struct ContactMemory {
    PairLaw law;
    double overlap = 0.0;         ///< m, delta at the last instant (negative: a gap)
    double elasticForce = 0.0;    ///< N, the elastic normal force at the last instant
    Vec3 normal = Vec3::UnitX();  ///< the unit normal at the last instant
    Vec3 spring = Vec3::Zero();   ///< m, the tangential spring xi (Cundall-Strack history)
    /// m, how far body 0 and body 1 reached beyond their spheres at the last instant (mcdem; 0 otherwise)
    std::array<double, 2> bulge{0.0, 0.0};
};

/// The contact candidates of the soft-particle method as a Verlet list: `world.contacts` holds every
/// pair (and grain-wall pair) whose gap was below the skin at the last rebuild, and `memory()` the
/// state of each, index for index. No pair of grains can touch before their displacements since then differ by the
/// skin (DisplacementBound: at most twice the largest, at most the diagonal of the box of all of them, which is small
/// where the packing moves as a whole), no grain and wall or drum before the grain has moved the skin, no grain and
/// piston before the two together have, so the list is rebuilt only when one of these may have happened. A rebuild
/// keeps the memory of the pairs that stay (matched by Contact::key(), both lists being sorted by it), so tangential
/// springs survive it.
class CandidateList {
public:
    /// Rebuilds the list if a body may have crossed the skin (m) since the last rebuild, when the grains'
    /// `reach` beyond their spheres (m, a bound of two bulges; 0 for rigid spheres) outgrew what the last rebuild
    /// allowed for, or when `rebuild` is set (the material changed: every candidate's law is made afresh); new
    /// candidates get the law of the material, those that stay keep theirs (a law also depends on the grains' masses
    /// and radii and the piston's mass, which change only with a new or loaded world: SoftParticleStepper::adopt starts
    /// a fresh list then; anything that changes them within a run must set `rebuild`). The list's margin is
    /// the skin plus 1.5 times the reach, so bulges may grow a little between rebuilds. Returns true if it rebuilt.
    bool refresh(World& world, double skin, double reach, const MaterialModel& material, double tsujiAlpha,
                 bool rebuild);

    /// Where the grains' displacements since the last rebuild are kept (sized for the world of the last refresh):
    /// a drift adds each grain's step as it moves it (add), then calls finishMotion.
    struct MotionRecord {
        Vec3* displacement = nullptr;  ///< m, per grain
        /// Grain i moved by `step` (m): its displacement since the last rebuild goes into `bound`.
        void add(std::size_t i, const Vec3& step, DisplacementBound& bound) const
        {
            displacement[i] += step;
            bound.add(displacement[i]);
        }
    };
    /// The record of a world of `grains` grains, which the last refresh was of (a stepper refreshes before the first
    /// drift of a new world).
    [[nodiscard]] MotionRecord motionRecord(std::size_t grains)
    {
        assert(displacement_.size() == grains && "the candidates were refreshed for another world");
        static_cast<void>(grains);
        return {displacement_.data()};
    }
    /// Ends a step's record: the bound of every grain's displacement that add() made and the piston's step (m).
    void finishMotion(const DisplacementBound& grains, double pistonStep);
    /// Adds how far two grains within the skin may have closed in by a dilation of the cell (m).
    void recordStrain(double approach) { strainApproach_ += approach; }
    /// m, how far beyond touching the last rebuild took candidates: the skin plus the room for bulges.
    [[nodiscard]] double margin() const { return skin_ + reach_; }

    /// The list's state (keys, memories, motion since the last rebuild) for a checkpoint.
    void saveState(StateWriter& out) const;
    void loadState(StateReader& in);

    /// The grains of the motion record (those of the world of the last refresh).
    [[nodiscard]] std::size_t recordedGrains() const { return displacement_.size(); }

    /// Rebuilds since the list was made (not part of its saved state; for tests and benches).
    [[nodiscard]] std::int64_t rebuilds() const { return rebuilds_; }

    [[nodiscard]] std::vector<ContactMemory>& memory() { return memory_; }
    [[nodiscard]] const std::vector<ContactMemory>& memory() const { return memory_; }

private:
    /// The grain pairs' Verlet list (GrainPairList) reaches this many smallest radii beyond the candidates' margin:
    /// most rebuilds of the candidates then pick their pairs from it instead of searching the cells.
    static constexpr double kPairSkin = 0.3;
    ContactDetection detection_{kPairSkin};
    std::vector<std::uint64_t> keys_;  ///< Contact::key() of memory_, ascending
    std::vector<ContactMemory> memory_;
    std::vector<std::uint64_t> spareKeys_;  ///< the lists before the last rebuild, reused by the next
    std::vector<ContactMemory> spareMemory_;
    std::vector<Vec3> displacement_;    ///< m, of each grain since the last rebuild
    double largestDisplacement_ = 0.0;  ///< m, of any grain (DisplacementBound::largest)
    double pairApproach_ = 0.0;         ///< m, of any two grains towards each other (DisplacementBound::pairApproach)
    double pistonDisplacement_ = 0.0;   ///< m
    double strainApproach_ = 0.0;       ///< m, by the cell's dilation since the last rebuild
    double skin_ = 0.0;                 ///< m, of the last rebuild
    double reach_ = 0.0;                ///< m, the bulges' reach the last rebuild allowed for
    std::int64_t rebuilds_ = 0;
};

}  // namespace md
}  // namespace granular
