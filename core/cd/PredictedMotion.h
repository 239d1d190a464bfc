#pragma once

#include "model/Contact.h"

#include <vector>

namespace granular {

struct World;

/// The velocities every body would have after dt with the current contact forces ("predicted"
/// velocities, Unger & Kertesz 2003, section 2.5): the state that the Gauss-Seidel iteration updates.
/// A contact update reads them, and its change of force is applied to them at once.
class PredictedMotion {
public:
    /// Free motion: v(t) + dt (g + F_ext / m) for the grains, the piston's applied force and gravity.
    void predict(const World& world, double dt);
    /// Adds the velocity changes of the force change dR (N) acting for dt on the contact's two bodies.
    void applyImpulse(const Contact& c, const Vec3& dR, double dt);

    [[nodiscard]] const std::vector<Vec3>& velocity() const { return velocity_; }
    [[nodiscard]] const std::vector<Vec3>& angularVelocity() const { return angularVelocity_; }
    [[nodiscard]] double pistonVelocity() const { return pistonVelocity_; }

private:
    std::vector<Vec3> velocity_;          ///< m/s, predicted v(t + dt)
    std::vector<Vec3> angularVelocity_;   ///< rad/s, predicted
    std::vector<double> inverseMass_;     ///< 1/kg
    std::vector<double> inverseInertia_;  ///< 1/(kg m^2)
    double pistonVelocity_ = 0.0;         ///< m/s along the piston normal, predicted
    double pistonInverseMass_ = 0.0;      ///< 1/kg
};

}  // namespace granular
