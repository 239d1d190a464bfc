#pragma once

#include "cd/ConvergenceCriterion.h"
#include "contact/ContactDetection.h"
#include "periodic/ConstantPressureSolver.h"
#include "periodic/PressureCoupling.h"
#include "sim/Stepper.h"
#include "util/Random.h"

namespace granular {

/// Contact dynamics at constant external pressure in a fully periodic cell (Shaebani, Unger & Kertesz,
/// seed 003): neighbours (minimum image) -> Gauss-Seidel with lambda* and P_in* -> implicit Euler of
/// lambda, L, v and r (eq. 23-26), grains re-wrapped into the cell -> observe.
/// The run ends when the packing has relaxed (see Relaxation).
class ConstantPressureStepper final : public Stepper {
public:
    /// `seed` drives the random sweep order: the same seed gives bit-identical runs.
    explicit ConstantPressureStepper(std::uint64_t seed);

    [[nodiscard]] std::string name() const override { return "cd_pressure"; }
    void configure(const Scenario& scenario) override;
    StepDiagnostics step(World& world) override;
    [[nodiscard]] bool finished(const World& world) const override;

    [[nodiscard]] const PressureCoupling& coupling() const { return coupling_; }

private:
    SolverSettings settings_;
    PressureCoupling coupling_;
    double relaxThreshold_ = 1e-10;  ///< m/s and m/s^2, the stopping rule's threshold
    double relativeMargin_ = 0.1;    ///< candidate margin in units of the smallest radius
    Random random_;
    ContactDetection detection_;
    ConstantPressureSolver solver_;
};

/// Parses `pressure.external`, `pressure.inertia` and `pressure.variant`.
PressureCoupling pressureCouplingFrom(const Scenario& scenario);

}  // namespace granular
