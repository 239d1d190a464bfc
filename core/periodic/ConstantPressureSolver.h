#pragma once

#include "cd/GaussSeidelSweep.h"
#include "cd/PredictedMotion.h"
#include "model/PeriodicCell.h"
#include "settings/Settings.h"

#include <cstdint>
#include <vector>

namespace granular {

struct World;
class Random;

/// The Gauss-Seidel iteration of contact dynamics at constant pressure (Shaebani et al. 2009, section 4):
/// gaussSeidelSweeps with the periodic cell's terms. The shock law sees v_rel_free + lambda* l (eq. 29-31),
/// and after every single update the expected inner pressure P_in* and dilation rate lambda* (eq. 27/32,
/// 28) are corrected by the increment of the changed terms only. With a free cell shape the same holds
/// for the whole expected stress tensor sigma* and strain rate Lambda* = Lambda(t) + (sym(sigma*) - P_ext 1)
/// dt / M_lambda, and the shock law sees v_rel_free + Lambda* l. Only grain-grain contacts: the cell has
/// no walls.
class ConstantPressureSolver {
public:
    /// Solves for the contact forces of the step t -> t + dt. `world.contacts` hold the candidates
    /// with their forces from the previous step (warm start) and `world.cell` the cell at time t;
    /// on return the contacts hold the new forces, motion() the new velocities, strainRate(),
    /// innerPressure() and innerStress() Lambda(t + dt), P_in(t + dt) and sym(sigma(t + dt)) (the last
    /// Lambda*, P_in* and sigma*; innerStress() is zero while the shape is fixed, which tracks the trace only).
    SweepResult solve(World& world, const SolverSettings& solver, const ContactSettings& contact,
                      const PressureSettings& pressure, Random& random);

    [[nodiscard]] const PredictedMotion& motion() const { return motion_; }
    [[nodiscard]] const Mat3& strainRate() const { return expectedStrainRate_; }
    [[nodiscard]] double innerPressure() const { return expectedInnerPressure_; }
    [[nodiscard]] const Mat3& innerStress() const { return expectedStress_; }

    /// The cell's terms of the sweep (see RigidBoundaryTerms), for a cell of the given shape.
    template <CellShape Shape> struct CellTerms;

private:
    PredictedMotion motion_;
    SweepWorkspace workspace_;
    std::vector<Vec3> branch_;                ///< m, l_k: centre of body 0 to centre of body 1 (minimum image)
    double expectedDilationRate_ = 0.0;       ///< 1/s, lambda*
    Mat3 expectedStrainRate_ = Mat3::Zero();  ///< 1/s, Lambda*
    Mat3 expectedStress_ = Mat3::Zero();      ///< Pa, sym(sigma*)
    double expectedInnerPressure_ = 0.0;      ///< Pa, P_in*
};

}  // namespace granular
