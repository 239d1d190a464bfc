#pragma once

#include "cd/ContactUpdate.h"
#include "cd/SweepContact.h"
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
    /// A grain's predicted motion and its response to an impulse: 64 bytes, one cache line.
    struct alignas(64) PredictedBody : BodyMotion<Vector3Of<double>> {};

    /// Free motion: v(t) + dt (g + F_ext / m) for the grains, the piston's applied force and gravity; the responses
    /// dt / m and dt / I of the step.
    void predict(const World& world, double dt);

    /// The grains.
    [[nodiscard]] std::size_t size() const { return bodies_.size(); }
    /// m/s, grain i's predicted velocity.
    [[nodiscard]] Vec3 velocity(std::size_t i) const { return toVec3(bodies_[i].velocity); }
    /// rad/s, grain i's predicted angular velocity.
    [[nodiscard]] Vec3 angularVelocity(std::size_t i) const { return toVec3(bodies_[i].angularVelocity); }
    /// Grain i's predicted motion, whole (the tests compare two motions bit for bit).
    [[nodiscard]] const PredictedBody& body(std::size_t i) const { return bodies_[i]; }
    /// Grain i's predicted motion in the update's space (Vec: Vector3Of, or Vector2Of for disks).
    template <class Vec> [[nodiscard]] [[gnu::always_inline]] BodyMotion<Vec> motion(std::size_t i) const
    {
        const PredictedBody& b = bodies_[i];
        return {inSpace<Vec>(b.velocity), spinInSpace<Vec>(b.angularVelocity), b.linearResponse, b.angularResponse};
    }
    /// Stores grain i's new velocities from the update's space.
    template <class Vec> [[gnu::always_inline]] void setMotion(std::size_t i, const BodyMotion<Vec>& m)
    {
        PredictedBody& b = bodies_[i];
        store(b.velocity, m.velocity);
        storeSpin(b.angularVelocity, m.angularVelocity);
    }
    /// m/s, the piston's predicted speed along its normal.
    [[nodiscard]] double pistonVelocity() const { return piston_.velocity; }

    /// Velocity of body 1 relative to body 0 at the contact point (eq. 3) with the predicted velocities, from the
    /// contact's own lever arms (the reference for checks; the sweeps use relativeVelocity).
    [[nodiscard]] Vec3 contactVelocity(const Contact& c) const;

    /// The same for a sweep record; a wall or drum contact's boundary moves at boundaryVelocity[s.body0].
    template <class Vec>
    [[nodiscard]] [[gnu::always_inline]] Vec relativeVelocity(const SweepContact& s,
                                                              const Vector3Of<double>* boundaryVelocity) const
    {
        const Vec n = normalOf<Vec>(s);
        const BodyMotion<Vec> b1 = motion<Vec>(static_cast<std::size_t>(s.body1));
        switch (s.kind) {
        case ContactKind::Particle:
            return relativePointVelocity(motion<Vec>(static_cast<std::size_t>(s.body0)), s.lever0, b1, s.lever1, n);
        case ContactKind::Piston:
            return relativeBoundaryVelocity(piston_.velocity * n, b1, s.lever1, n);
        case ContactKind::Wall:
        case ContactKind::Drum:
            break;
        }
        return relativeBoundaryVelocity(inSpace<Vec>(boundaryVelocity[s.body0]), b1, s.lever1, n);
    }

    /// Asks the memory for the record's grains ahead of an update (no effect on results).
    void prefetch(const SweepContact& s) const
    {
        __builtin_prefetch(&bodies_[static_cast<std::size_t>(s.body1)]);
        if (s.kind == ContactKind::Particle) {
            __builtin_prefetch(&bodies_[static_cast<std::size_t>(s.body0)]);
        }
    }
    /// The same, to be written: where another core wrote them last, their lines come over together rather than one
    /// update at a time.
    void prefetchToWrite(const SweepContact& s) const
    {
        __builtin_prefetch(&bodies_[static_cast<std::size_t>(s.body1)], 1);
        if (s.kind == ContactKind::Particle) {
            __builtin_prefetch(&bodies_[static_cast<std::size_t>(s.body0)], 1);
        }
    }

    /// Adds the velocity changes of the force change `d` acting for dt on the record's grains (body 0 only for a
    /// grain pair); it writes nothing else.
    template <class Vec> [[gnu::always_inline]] void applyToGrains(const SweepContact& s, const ForceChangeOf<Vec>& d)
    {
        const auto j = static_cast<std::size_t>(s.body1);
        BodyMotion<Vec> b1 = motion<Vec>(j);
        receive(b1, s.lever1, d);
        setMotion(j, b1);
        if (s.kind == ContactKind::Particle) {
            const auto i = static_cast<std::size_t>(s.body0);
            BodyMotion<Vec> b0 = motion<Vec>(i);
            react(b0, s.lever0, d);
            setMotion(i, b0);
        }
    }
    /// The reaction of a piston contact whose normal force changed by dR_n (N): the piston moves along its normal only.
    void applyToPiston(double normalChange) { piston_.velocity -= piston_.response * normalChange; }
    /// Both, for a record of any kind.
    template <class Vec> [[gnu::always_inline]] void apply(const SweepContact& s, const ForceChangeOf<Vec>& d)
    {
        applyToGrains(s, d);
        if (s.kind == ContactKind::Piston) {
            applyToPiston(d.normal);
        }
    }

private:
    /// The piston's prediction, on a cache line of its own, apart from bodies_ (whose address every update reads): the
    /// thread that sweeps the piston's contacts writes it.
    struct alignas(64) PistonPrediction {
        double velocity = 0.0;  ///< m/s along the piston normal, predicted
        double response = 0.0;  ///< m/(N s), dt / M of the piston
    };

    PistonPrediction piston_;
    std::vector<PredictedBody> bodies_;
};

}  // namespace granular
