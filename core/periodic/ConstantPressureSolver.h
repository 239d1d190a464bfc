#pragma once

#include "cd/ConvergenceCriterion.h"
#include "contact/Contact.h"
#include "periodic/PressureCoupling.h"

#include <cstdint>
#include <vector>

namespace granular {

struct World;
class Random;

/// The non-linear Gauss-Seidel iteration of contact dynamics at constant pressure (seed 003 section 4).
/// As in plain CD every contact update reads the predicted velocities, removes its own force to get
/// v_rel_free, applies the shock law and stores the change at once; in addition the shock law sees
/// v_rel_free + lambda* l (eq. 29-31), and after every single update the expected inner pressure P_in*
/// and dilation rate lambda* (eq. 27/32, 28) are corrected by the increment of the changed terms only.
/// Only grain-grain contacts: the periodic cell has no walls.
class ConstantPressureSolver {
public:
    struct Result {
        std::int64_t iterations = 0;
        double residual = 0.0;  ///< eq. 35: max |dR|/(|R| + delta); eq. 36: |d<|R|>|/<|R|>
    };

    /// Solves for the contact forces of the step t -> t + dt. `world.contacts` hold the candidates
    /// with their forces from the previous step (warm start) and `world.cell` the cell at time t;
    /// on return the contacts hold the new forces, velocity() the new velocities, dilationRate() and
    /// innerPressure() lambda(t + dt) and P_in(t + dt) (the last lambda* and P_in*).
    Result solve(World& world, const SolverSettings& settings, const PressureCoupling& coupling, Random& random);

    [[nodiscard]] const std::vector<Vec3>& velocity() const { return velocity_; }
    [[nodiscard]] const std::vector<Vec3>& angularVelocity() const { return angularVelocity_; }
    [[nodiscard]] double dilationRate() const { return expectedDilationRate_; }
    [[nodiscard]] double innerPressure() const { return expectedInnerPressure_; }

private:
    void predictFreeMotion(const World& world, double dt);
    void applyImpulse(const Contact& c, const Vec3& dR, double dt);
    /// sum_i m_i v_i . v_i over the predicted velocities (kg m^2/s^2).
    [[nodiscard]] double kineticVirial() const;
    /// Recomputes P_in* and lambda* from the virial sum (eq. 22/27 and 28).
    void updateExpectations(double dt, const PressureCoupling& coupling);

    std::vector<Vec3> velocity_;          ///< m/s, predicted v(t + dt)
    std::vector<Vec3> angularVelocity_;   ///< rad/s, predicted
    std::vector<double> mass_;            ///< kg
    std::vector<double> inverseMass_;     ///< 1/kg
    std::vector<double> inverseInertia_;  ///< 1/(kg m^2)
    std::vector<Vec3> branch_;            ///< m, l_k: centre of body 0 to centre of body 1 (minimum image)
    std::vector<std::uint32_t> order_;    ///< the sweep's random permutation
    double virial_ = 0.0;                 ///< J, sum_k F_k . l_k + sum_i m_i v_i . v_i (eq. 27 or 32)
    double pressureScale_ = 0.0;          ///< 1/(D V) of eq. 22
    double dilationRate0_ = 0.0;          ///< 1/s, lambda(t)
    double expectedDilationRate_ = 0.0;   ///< 1/s, lambda*
    double expectedInnerPressure_ = 0.0;  ///< Pa (2D: N/m), P_in*
};

}  // namespace granular
