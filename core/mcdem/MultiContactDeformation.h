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
    [[nodiscard]] const std::vector<std::array<double, 2>>& bulges() const override { return bulges_; }
    [[nodiscard]] double reach() const override { return reach_; }

private:
    /// A loaded contact as one of its grains sees it.
    struct Load {
        Vec3 direction;               ///< unit, from the grain's centre towards the contact point
        double length = 0.0;          ///< m, distance of the contact point from the centre
        double complianceForce = 0.0;  ///< m^2, gamma (1 + nu) F / (2 pi E)
        std::uint32_t candidate = 0;   ///< the candidate it belongs to (a contact does not deform itself)
    };

    /// m, how far grain `grain` reaches beyond its sphere at the point (`direction`, `length`) from all its loads
    /// but `candidate`'s.
    [[nodiscard]] double bulge(std::size_t grain, const Vec3& direction, double length, std::size_t candidate) const;

    double gamma_ = 0.0;          ///< 1
    double youngModulus_ = 0.0;   ///< Pa
    double poissonRatio_ = 0.0;   ///< 1
    HalfSpaceDeformation shape_;  ///< of the grains' Poisson ratio
    std::vector<std::uint32_t> firstLoad_;  ///< per grain, its loads are loads_[firstLoad_[i] .. firstLoad_[i+1])
    std::vector<Load> loads_;
    std::vector<double> largestBulge_;      ///< m, per grain: an upper bound of its bulge anywhere
    std::vector<std::array<double, 2>> bulges_;
    double reach_ = 0.0;  ///< m
};

}  // namespace granular::mcdem
