#pragma once

#include "cd/ContactObserver.h"
#include "contact/ContactDetection.h"
#include "method/Stepper.h"
#include "periodic/ConstantPressureSolver.h"
#include "settings/Settings.h"
#include "util/Random.h"

namespace granular {

/// Contact dynamics at constant external pressure in a fully periodic cell (Shaebani et al. 2009):
/// neighbours (minimum image) -> Gauss-Seidel with lambda* and P_in* -> implicit Euler of lambda, L, v
/// and r (eq. 23-26), grains re-wrapped into the cell -> observe. The run ends when the packing has
/// relaxed (see Relaxation).
class ConstantPressureStepper final : public Stepper {
public:
    /// `settings.seed` drives the random sweep order: the same seed gives bit-identical runs.
    explicit ConstantPressureStepper(const Settings& settings);

    [[nodiscard]] std::string name() const override { return "cd_pressure"; }
    void configure(const Settings& settings) override;
    StepDiagnostics step(World& world) override;
    [[nodiscard]] bool finished(const World& world) const override;
    void saveState(StateWriter& out) const override;
    void loadState(StateReader& in) override;

private:
    SolverSettings solver_;
    ContactSettings contact_;
    PressureSettings pressure_;
    Random random_;
    ContactDetection detection_;
    ConstantPressureSolver gaussSeidel_;
    ContactObserver observer_;
};

}  // namespace granular
