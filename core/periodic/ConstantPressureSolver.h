#pragma once

#include "cd/ConvergenceCriterion.h"
#include "contact/Contact.h"
#include "periodic/PeriodicCell.h"
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
/// With a free cell shape the same holds for the whole expected stress tensor sigma* and strain rate
/// Lambda* = Lambda(t) + (sym(sigma*) - P_ext 1) dt / M_lambda, and the shock law sees v_rel_free + Lambda* l.
/// Only grain-grain contacts: the periodic cell has no walls.
class ConstantPressureSolver {
public:
    struct Result {
        std::int64_t iterations = 0;
        double residual = 0.0;  ///< eq. 35: max |dR|/(|R| + delta); eq. 36: |d<|R|>|/<|R|>
    };

    /// Solves for the contact forces of the step t -> t + dt. `world.contacts` hold the candidates
    /// with their forces from the previous step (warm start) and `world.cell` the cell at time t;
    /// on return the contacts hold the new forces, velocity() the new velocities, strainRate(),
    /// innerPressure() and innerStress() Lambda(t + dt), P_in(t + dt) and sym(sigma(t + dt)) (the last
    /// Lambda*, P_in* and sigma*; innerStress() is zero while the shape is fixed, which tracks the trace only).
    Result solve(World& world, const SolverSettings& settings, const PressureCoupling& coupling, Random& random);

    [[nodiscard]] const std::vector<Vec3>& velocity() const { return velocity_; }
    [[nodiscard]] const std::vector<Vec3>& angularVelocity() const { return angularVelocity_; }
    [[nodiscard]] const Mat3& strainRate() const { return expectedStrainRate_; }
    [[nodiscard]] double innerPressure() const { return expectedInnerPressure_; }
    [[nodiscard]] const Mat3& innerStress() const { return expectedStress_; }

private:
    /// The Gauss-Seidel sweeps; the cell shape picks what the increments update (a scalar or a tensor).
    template <CellShape Shape>
    Result iterate(World& world, const SolverSettings& settings, const PressureCoupling& coupling, Random& random);
    void predictFreeMotion(const World& world, double dt);
    void applyImpulse(const Contact& c, const Vec3& dR, double dt);
    /// sum_i m_i v_i . v_i over the predicted velocities (kg m^2/s^2).
    [[nodiscard]] double kineticVirial() const;
    /// sum_i m_i v_i v_i^T over the predicted velocities (kg m^2/s^2).
    [[nodiscard]] Mat3 kineticTensor() const;
    /// Recomputes P_in* and lambda* from the virial sum (eq. 22/27 and 28).
    void updateExpectations(double dt, const PressureCoupling& coupling);
    /// Recomputes sigma*, P_in* and Lambda* from the virial tensor (eq. 20, 22 and the tensor form of 28).
    void updateTensorExpectations(double dt, const PressureCoupling& coupling);

    std::vector<Vec3> velocity_;          ///< m/s, predicted v(t + dt)
    std::vector<Vec3> angularVelocity_;   ///< rad/s, predicted
    std::vector<double> mass_;            ///< kg
    std::vector<double> inverseMass_;     ///< 1/kg
    std::vector<double> inverseInertia_;  ///< 1/(kg m^2)
    std::vector<Vec3> branch_;            ///< m, l_k: centre of body 0 to centre of body 1 (minimum image)
    std::vector<std::uint32_t> order_;    ///< the sweep's random permutation
    int dimension_ = 3;
    double virial_ = 0.0;                     ///< J, sum_k F_k . l_k + sum_i m_i v_i . v_i (eq. 27 or 32)
    Mat3 virialTensor_ = Mat3::Zero();        ///< J, sum_k F_k l_k^T + sum_i m_i v_i v_i^T (free shape)
    double inverseVolume_ = 0.0;              ///< 1/V of eq. 20
    double pressureScale_ = 0.0;              ///< 1/(D V) of eq. 22
    double dilationRate0_ = 0.0;              ///< 1/s, lambda(t)
    Mat3 strainRate0_ = Mat3::Zero();         ///< 1/s, Lambda(t)
    double expectedDilationRate_ = 0.0;       ///< 1/s, lambda*
    Mat3 expectedStrainRate_ = Mat3::Zero();  ///< 1/s, Lambda*
    Mat3 expectedStress_ = Mat3::Zero();      ///< Pa (2D: N/m), sym(sigma*)
    double expectedInnerPressure_ = 0.0;      ///< Pa (2D: N/m), P_in*
};

}  // namespace granular
