#pragma once

#include "method/Stepper.h"

namespace granular {

/// Free flight under gravity, no contacts, with the implicit Euler scheme of the contact methods
/// (Unger & Kertesz 2003, eq. 1-2): v(t+dt) = v(t) + g dt, x(t+dt) = x(t) + v(t+dt) dt.
/// For constant g it gives x_n = x0 + v0 t_n - g t_n^2/2 - g dt t_n/2 exactly: first order.
class BallisticStepper final : public Stepper {
public:
    [[nodiscard]] std::string name() const override { return "ballistic"; }
    void configure(const Settings& settings) override;
    StepDiagnostics step(World& world) override;

private:
    double dt_ = 0.0;  ///< s
};

}  // namespace granular
