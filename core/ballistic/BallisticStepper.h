#pragma once

#include "method/Stepper.h"

namespace granular {

/// Free flight under gravity and the grains' applied forces, no contacts, integrated exactly: under the constant
/// acceleration a = g + F_ext / m the flight over one step is x(t+dt) = x(t) + v(t) dt + a dt^2 / 2,
/// v(t+dt) = v(t) + a dt, so x_n = x0 + v0 t_n + a t_n^2 / 2 for any dt (to round-off): the reference the integrators
/// of the contact methods are compared with. (Those use the implicit Euler scheme of Unger & Kertesz 2003, eq. 1-2,
/// which adds a dt t_n / 2 in free flight.) Grains of infinite mass (fixed or driven) keep their velocity, as in the
/// other methods.
class BallisticStepper final : public Stepper {
public:
    [[nodiscard]] std::string name() const override { return "ballistic"; }
    void configure(const Settings& settings) override;
    StepDiagnostics step(World& world) override;

private:
    double dt_ = 0.0;  ///< s
};

}  // namespace granular
