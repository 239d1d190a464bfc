#pragma once

#include "cd/ContactObserver.h"
#include "cd/GaussSeidelSolver.h"
#include "contact/ContactDetection.h"
#include "method/Stepper.h"
#include "settings/Settings.h"
#include "util/Random.h"

namespace granular {

/// Non-smooth contact dynamics of rigid spheres and disks (Jean-Moreau, as described by Unger & Kertesz
/// 2003): neighbours -> contacts -> Gauss-Seidel solve -> implicit Euler (eq. 1-2) -> observe.
class ContactDynamicsStepper final : public Stepper {
public:
    /// `settings.seed` drives the random sweep order: the same seed gives bit-identical runs.
    explicit ContactDynamicsStepper(const Settings& settings);

    [[nodiscard]] std::string name() const override { return "cd"; }
    void configure(const Settings& settings) override;
    StepDiagnostics step(World& world) override;
    void saveState(StateWriter& out) const override;
    void loadState(StateReader& in) override;

private:
    SolverSettings solver_;
    ContactSettings contact_;
    Random random_;
    /// The grain pairs' Verlet list reaches kPairSkin smallest radii beyond the candidates' margin: in a packing
    /// that barely moves the cell search runs once in many steps (the candidates do not depend on it).
    static constexpr double kPairSkin = 0.3;
    ContactDetection detection_{kPairSkin};
    GaussSeidelSolver gaussSeidel_;
    ContactObserver observer_;
};

}  // namespace granular
