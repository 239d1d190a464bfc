#pragma once

#include "model/Contact.h"

#include <vector>

namespace granular {

struct World;

/// The velocities every body would have after dt with the current contact forces ("predicted"
/// velocities, Unger & Kertesz 2003, section 2.5): the state that the Gauss-Seidel iteration updates.
/// A contact update reads them, and its change of force is applied to them at once.
/// What an update needs of a grain lies in one cache line (PredictedBody): the sweeps visit contacts in random
/// order, so each grain they touch is a fresh memory access.
class PredictedMotion {
public:
    /// A grain's predicted motion and what an impulse needs of it: 64 bytes, one cache line.
    struct alignas(64) PredictedBody {
        Vec3 velocity = Vec3::Zero();         ///< m/s, predicted v(t + dt)
        Vec3 angularVelocity = Vec3::Zero();  ///< rad/s, predicted
        double inverseMass = 0.0;             ///< 1/kg
        double inverseInertia = 0.0;          ///< 1/(kg m^2)

        /// The velocity changes of a force change dR (N) acting for dt at `lever` (m, from the centre).
        void receive(const Vec3& lever, const Vec3& dR, double dt)
        {
            velocity += (dt * inverseMass) * dR;
            angularVelocity += (dt * inverseInertia) * lever.cross(dR);
        }
        /// Those of its reaction -dR.
        void react(const Vec3& lever, const Vec3& dR, double dt)
        {
            velocity -= (dt * inverseMass) * dR;
            angularVelocity -= (dt * inverseInertia) * lever.cross(dR);
        }
    };

    /// Free motion: v(t) + dt (g + F_ext / m) for the grains, the piston's applied force and gravity.
    void predict(const World& world, double dt);

    /// The grains.
    [[nodiscard]] std::size_t size() const { return bodies_.size(); }
    /// m/s, grain i's predicted velocity.
    [[nodiscard]] const Vec3& velocity(std::size_t i) const { return bodies_[i].velocity; }
    /// rad/s, grain i's predicted angular velocity.
    [[nodiscard]] const Vec3& angularVelocity(std::size_t i) const { return bodies_[i].angularVelocity; }
    /// Grain i's predicted motion, for updates of several contacts at once (GrainContactLanes).
    [[nodiscard]] PredictedBody& body(std::size_t i) { return bodies_[i]; }
    /// m/s, the piston's predicted speed along its normal.
    [[nodiscard]] double pistonVelocity() const { return pistonVelocity_; }

    /// Velocity of body 1 relative to body 0 at the contact point (Unger & Kertesz 2003, eq. 3) with the predicted
    /// velocities: the same arithmetic as contactPointVelocity.
    [[nodiscard]] Vec3 contactVelocity(const Contact& c) const
    {
        const PredictedBody& b1 = bodies_[static_cast<std::size_t>(c.particle)];
        const Vec3 v1 = b1.velocity + b1.angularVelocity.cross(c.lever1);
        switch (c.kind) {
        case ContactKind::Particle: {
            const PredictedBody& b0 = bodies_[static_cast<std::size_t>(c.partner)];
            return v1 - (b0.velocity + b0.angularVelocity.cross(c.lever0));
        }
        case ContactKind::Piston:
            return v1 - pistonVelocity_ * c.normal;
        case ContactKind::Wall:
        case ContactKind::Drum:
            break;
        }
        return v1 - c.surfaceVelocity;
    }

    /// Asks the memory for the contact's grains ahead of an update (no effect on results).
    void prefetch(const Contact& c) const
    {
        __builtin_prefetch(&bodies_[static_cast<std::size_t>(c.particle)]);
        if (c.kind == ContactKind::Particle) {
            __builtin_prefetch(&bodies_[static_cast<std::size_t>(c.partner)]);
        }
    }

    /// Adds the velocity changes of the force change dR (N) acting for dt on the contact's two bodies.
    void applyImpulse(const Contact& c, const Vec3& dR, double dt)
    {
        applyImpulseToGrains(c, dR, dt);
        if (c.kind == ContactKind::Piston) {
            applyImpulseToPiston(c, dR, dt);
        }
    }
    /// The part of applyImpulse on the grains: it writes only the contact's own grains.
    void applyImpulseToGrains(const Contact& c, const Vec3& dR, double dt)
    {
        bodies_[static_cast<std::size_t>(c.particle)].receive(c.lever1, dR, dt);
        if (c.kind == ContactKind::Particle) {
            bodies_[static_cast<std::size_t>(c.partner)].react(c.lever0, dR, dt);
        }
    }
    /// The part of applyImpulse on the piston (a piston contact only).
    void applyImpulseToPiston(const Contact& c, const Vec3& dR, double dt)
    {
        pistonVelocity_ -= dt * pistonInverseMass_ * dR.dot(c.normal);
    }

private:
    std::vector<PredictedBody> bodies_;
    double pistonVelocity_ = 0.0;     ///< m/s along the piston normal, predicted
    double pistonInverseMass_ = 0.0;  ///< 1/kg
};

}  // namespace granular
