#pragma once

#include "cd/PredictedMotion.h"
#include "cd/ShockLaw.h"
#include "cd/SweepConvergence.h"
#include "contact/ContactVelocity.h"
#include "settings/Settings.h"

#include <cstdint>
#include <vector>

namespace granular {

class Random;

/// What the Gauss-Seidel iteration of one step did.
struct SweepResult {
    std::int64_t iterations = 0;
    double residual = 0.0;     ///< eq. 35: max |dR|/(|R| + delta); eq. 36: |d<|R|>|/<|R|> (Unger & Kertesz 2003)
    double forceChange = 0.0;  ///< the last sweep's |dR| / |R| over all contacts (SweepConvergence)
};

/// The terms of a plain CD step: no periodic cell, so nothing is added to the free relative velocity
/// and nothing is tracked besides the forces. The periodic cell's terms (ConstantPressureSolver) have
/// the same members.
struct RigidBoundaryTerms {
    const ContactSettings* contact = nullptr;

    void warmStarted(std::size_t /*k*/, const Contact& /*c*/) {}
    void prepare(const PredictedMotion& /*motion*/) {}
    [[nodiscard]] static Vec3 freeVelocity(std::size_t /*a*/, const Vec3& free) { return free; }
    [[nodiscard]] double friction(const Contact& c) const
    {
        return contact->frictionFor(c.kind == ContactKind::Particle);
    }
    template <class Apply> void update(std::size_t /*a*/, const Contact& /*c*/, const Vec3& /*dR*/, Apply&& apply)
    {
        apply();
    }
};

/// The non-linear Gauss-Seidel iteration of contact dynamics for the step t -> t + dt (Unger & Kertesz
/// 2003, section 2.5), shared by plain CD and CD at constant pressure:
/// - the free motion is predicted and the previous step's forces applied to it (warm start);
/// - every iteration visits every candidate once in a fresh random order; an update computes U
///   (eq. 23) from the predicted velocities with its own force removed, lets `terms` add what the
///   method adds to it (the periodic cell: lambda* l), applies the shock law (eq. 34) and applies the
///   change of force at once, through `terms.update` (which tracks what depends on it, e.g. P_in*);
/// - it stops after N_I iterations (fixed criterion) or when the residual is below the tolerance.
/// On return `contacts` hold the new forces and `motion` the new velocities.
template <class Terms>
SweepResult gaussSeidelSweeps(std::vector<Contact>& contacts, const SolverSettings& solver, Random& random,
                              PredictedMotion& motion, std::vector<std::uint32_t>& order, Terms& terms)
{
    const double dt = solver.dt;
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        motion.applyImpulse(contacts[k], contacts[k].force, dt);  // warm start: the previous step's forces
        terms.warmStarted(k, contacts[k]);
    }
    terms.prepare(motion);
    SweepResult result;
    const std::size_t count = contacts.size();
    if (count == 0) {
        return result;
    }
    resetSweepOrder(order, count);
    SweepConvergence convergence(contacts, solver.forceCutoff);
    const std::int64_t limit = solver.iterationLimit();
    while (result.iterations < limit) {
        shuffleSweepOrder(order, random);
        for (const std::uint32_t a : order) {
            Contact& c = contacts[a];
            const Vec3 V =
                contactPointVelocity(c, motion.velocity(), motion.angularVelocity(), motion.pistonVelocity());
            const Vec3 U = terms.freeVelocity(a, freeRelativeVelocity(c, V, dt));
            const Vec3 R = shockLaw(U, c.normal, c.gap, c.normalMass, c.tangentialMass, terms.friction(c), dt);
            const Vec3 dR = R - c.force;
            terms.update(a, c, dR, [&] { motion.applyImpulse(c, dR, dt); });
            c.force = R;
            convergence.record(R, dR);
        }
        ++result.iterations;
        result.residual = convergence.finishSweep(count, solver.criterion);
        result.forceChange = convergence.forceChange();
        if (solver.criterion != ConvergenceCriterion::Fixed && result.residual <= solver.tolerance) {
            break;
        }
    }
    return result;
}

}  // namespace granular
