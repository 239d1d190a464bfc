#pragma once

#include "cd/ConvergenceCriterion.h"
#include "contact/Contact.h"

#include <vector>

namespace granular {

struct World;
class Random;

/// The non-linear Gauss-Seidel iteration of contact dynamics (seed 000 section 2.5).
/// It keeps the velocities every body would have after dt with the current forces ("predicted"
/// velocities); a contact update reads them, removes its own force's share to get U (eq. 23),
/// applies the shock law and stores the change at once, so the next update already sees it.
class GaussSeidelSolver {
public:
    struct Result {
        std::int64_t iterations = 0;
        double residual = 0.0;  ///< eq. 35: max |dR|/(|R| + delta); eq. 36: |d<|R|>|/<|R|>
    };

    /// Solves for the contact forces of the step t -> t + dt. `world.contacts` hold the candidates
    /// with their forces from the previous step (warm start); on return they hold the new forces and
    /// the predicted velocities are the new velocities.
    Result solve(World& world, const SolverSettings& settings, Random& random);

    [[nodiscard]] const std::vector<Vec3>& velocity() const { return velocity_; }
    [[nodiscard]] const std::vector<Vec3>& angularVelocity() const { return angularVelocity_; }
    [[nodiscard]] double pistonVelocity() const { return pistonVelocity_; }

private:
    void predictFreeMotion(const World& world, double dt);
    void applyImpulse(const Contact& c, const Vec3& dR, double dt);

    std::vector<Vec3> velocity_;          ///< m/s, predicted v(t + dt)
    std::vector<Vec3> angularVelocity_;   ///< rad/s, predicted
    std::vector<double> inverseMass_;     ///< 1/kg
    std::vector<double> inverseInertia_;  ///< 1/(kg m^2)
    double pistonVelocity_ = 0.0;         ///< m/s along the piston normal, predicted
    double pistonInverseMass_ = 0.0;      ///< 1/kg
    std::vector<std::uint32_t> order_;    ///< the sweep's random permutation
};

}  // namespace granular
