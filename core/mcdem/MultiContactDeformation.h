#pragma once

#include "mcdem/HalfSpaceDeformation.h"
#include "md/ContactDeformation.h"

#include <cstdint>
#include <vector>

namespace granular::mcdem {

/// The multi-contact DEM of Brodu et al. 2015: every normal force on a grain deforms it like a point load on an
/// elastic half-space (HalfSpaceDeformation, scaled by the geometric prefactor gamma), and at each of its
/// candidates the grain reaches beyond its sphere by the sum of what its *other* loaded contacts cause there.
/// Walls, the piston and the drum take part like grains: their forces load the grain, and the grain's bulge
/// towards them changes their overlap; they do not bulge themselves (rigid).
/// The forces are the elastic normal forces of the last evaluation (one-step lag); the contact points lie along
/// the candidates' current normals, at the distance from the centre where the last evaluation put them (midway
/// between the two deformed surfaces, about half the overlap inside the sphere).
class MultiContactDeformation final : public md::ContactDeformation {
public:
    explicit MultiContactDeformation(const Settings& settings);

    void configure(const Settings& settings) override;
    void update(const World& world, const std::vector<md::ContactMemory>& memory) override;
    double reachAhead(const World& world, const std::vector<md::ContactMemory>& memory) override;
    [[nodiscard]] const std::vector<std::array<double, 2>>& bulges() const override { return bulges_; }
    [[nodiscard]] double reach() const override { return reach_; }
    void saveState(StateWriter& out) const override;
    void loadState(StateReader& in) override;

private:
    /// The points where a grain is loaded or where its bulge is asked for: one side of a candidate, seen from
    /// that side's grain. Stored grain by grain (grain g's points are [firstPoint_[g], firstPoint_[g + 1])) and
    /// one array per quantity, for the pairwise loop of accumulateBulges().
    struct Points {
        std::vector<std::uint32_t> first;  ///< per grain, and one past the last
        std::vector<double> x;             ///< unit direction from the centre to the point
        std::vector<double> y;
        std::vector<double> z;
        std::vector<double> length;           ///< m, the point's distance from the centre
        std::vector<double> complianceForce;  ///< m^2, gamma (1 + nu) F / (2 pi E); 0 where nothing presses
        std::vector<std::uint32_t> slot;      ///< 2 k + side: where the point's bulge goes in bulges_
        std::vector<double> bulge;            ///< m, accumulated
    };

    /// largestBulge_ and reach_ from the loaded candidates of `memory` (their forces and where they touched).
    void bound(const World& world, const std::vector<md::ContactMemory>& memory);
    /// Adds to every point of grain g the displacements that the grain's other loaded points cause there.
    void accumulateBulges(std::size_t grain);

    double gamma_ = 0.0;          ///< 1
    double youngModulus_ = 0.0;   ///< Pa
    double poissonRatio_ = 0.0;   ///< 1
    HalfSpaceDeformation shape_;  ///< of the grains' Poisson ratio
    Points points_;
    std::vector<double> largestBulge_;  ///< m, per grain: an upper bound of its bulge anywhere
    std::vector<std::array<double, 2>> bulges_;
    double reach_ = 0.0;  ///< m
    /// Whether largestBulge_ and reach_ are reachAhead()'s, from the memory that the coming update() gets: a
    /// rebuild in between keeps the loaded candidates and their order, so update() would compute the same bound.
    bool boundAhead_ = false;
};

}  // namespace granular::mcdem
