#pragma once

#include "cd/ConvergenceCriterion.h"
#include "cd/GaussSeidelSolver.h"
#include "contact/ContactDetection.h"
#include "sim/Stepper.h"
#include "util/Random.h"

namespace granular {

/// Non-smooth contact dynamics of rigid spheres and disks (Jean-Moreau, as in seed 000):
/// neighbours -> contacts -> Gauss-Seidel solve -> implicit Euler (eq. 1-2) -> observe.
class ContactDynamicsStepper final : public Stepper {
public:
    /// `seed` drives the random sweep order: the same seed gives bit-identical runs.
    ContactDynamicsStepper(const SolverSettings& settings, std::uint64_t seed, double relativeMargin = 0.1);

    [[nodiscard]] std::string name() const override { return "cd"; }
    void configure(const Scenario& scenario) override;
    StepDiagnostics step(World& world) override;

    [[nodiscard]] const SolverSettings& settings() const { return settings_; }

private:
    SolverSettings settings_;
    double relativeMargin_;  ///< candidate margin in units of the smallest radius
    Random random_;
    ContactDetection detection_;
    GaussSeidelSolver solver_;
};

/// Parses `solver.criterion` and the related keys of a scenario.
SolverSettings solverSettingsFrom(const Scenario& scenario);

}  // namespace granular
