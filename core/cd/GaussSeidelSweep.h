#pragma once

#include "cd/ContactColouring.h"
#include "cd/GrainContactLanes.h"
#include "cd/PredictedMotion.h"
#include "cd/ShockLaw.h"
#include "cd/SweepConvergence.h"
#include "settings/Settings.h"
#include "util/Parallel.h"
#include "util/ThreadTeam.h"

#include <algorithm>
#include <cstdint>
#include <span>
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
    /// Whether finishColour() does anything (the coloured sweep skips the step between colours otherwise).
    static constexpr bool kFinishesColours = false;
    /// Whether freeVelocity() returns its argument and updateInColour() only applies: the coloured sweep may then
    /// compute two grain pairs of a colour side by side (GrainContactLanes).
    static constexpr bool kPlainUpdates = true;

    const ContactSettings* contact = nullptr;

    void warmStarted(std::size_t /*k*/, const Contact& /*c*/) {}
    void prepare(const PredictedMotion& /*motion*/) {}
    [[nodiscard]] static Vec3 freeVelocity(std::size_t /*a*/, const Vec3& free) { return free; }
    [[nodiscard]] double friction(const Contact& c) const
    {
        return contact->frictionFor(c.kind == ContactKind::Particle);
    }
    /// The random sweep's update: `apply` applies dR to the bodies; the terms track what depends on it.
    template <class Apply> void update(std::size_t /*a*/, const Contact& /*c*/, const Vec3& /*dR*/, Apply&& apply)
    {
        apply();
    }
    /// The coloured sweep's: before the first colour, for `count` contacts.
    void prepareColours(std::size_t /*count*/) {}
    /// The coloured sweep's update, on any solver thread: it may write only what belongs to contact `a`.
    template <class Apply>
    void updateInColour(std::size_t /*a*/, const Contact& /*c*/, const Vec3& /*dR*/, Apply&& apply)
    {
        apply();
    }
    /// After a colour, on one thread: what the colour's updates changed, in ascending contact index.
    void finishColour(std::span<const std::uint32_t> /*members*/) {}
};

/// What the sweeps of one step keep between steps (reused memory, no state).
struct SweepWorkspace {
    std::vector<std::uint32_t> order;            ///< the random sweep's permutation
    std::vector<ShockCoefficients> shock;        ///< per contact, this step's shock-law constants
    ContactColouring colouring;                  ///< the coloured sweep's colours
    std::vector<Contact> colourOrder;            ///< the coloured sweep's copies of the contacts, colour by colour
    std::vector<ShockCoefficients> colourShock;  ///< their coefficients, in the same order
    std::vector<std::uint32_t> colourPlace;      ///< contact a's place in colourOrder
    std::vector<ForceChange> forceChange;        ///< the coloured sweep's, in colour order, in the current iteration
    std::vector<Vec3> change;                    ///< N, the coloured sweep's dR per piston contact, ditto
};

/// One contact's new force R (eq. 23 and 34) from the predicted velocities with its own force removed, what the
/// method adds to them (`terms`) and the step's coefficients.
template <class Terms>
[[gnu::always_inline]] inline Vec3 contactForce(std::size_t a, const Contact& c, const ShockCoefficients& k,
                                                const PredictedMotion& motion, const Terms& terms, double dt)
{
    const Vec3 V = motion.contactVelocity(c);
    const Vec3 U = terms.freeVelocity(a, freeRelativeVelocity(c, V, dt));
    return shockLaw(U, c.normal, k, dt);
}

/// Ends an iteration over `count` contacts: counts it, takes its residual and force change; true when the
/// criterion is met (never for the fixed criterion, which stops at the iteration limit).
inline bool finishIteration(SweepResult& result, SweepConvergence& convergence, std::size_t count,
                            const SolverSettings& solver)
{
    ++result.iterations;
    result.residual = convergence.finishSweep(count);
    result.forceChange = convergence.forceChange();
    return solver.criterion != ConvergenceCriterion::Fixed && result.residual <= solver.tolerance;
}

/// How many updates ahead the random sweep asks the memory for a contact, and for its grains.
inline constexpr std::size_t kPrefetchContact = 8;
inline constexpr std::size_t kPrefetchGrains = 4;

/// How many contacts ahead the coloured sweep asks the memory for a contact's grains: its contacts lie in colour
/// order, but their grains follow no stride the hardware foresees.
inline constexpr std::size_t kColourPrefetchGrains = 8;

/// The coloured sweep measures convergence in blocks of this many contacts (a size of its own, so that the sums'
/// order does not depend on the thread count).
inline constexpr std::size_t kConvergenceBlock = 512;

/// Iterations in the paper's order: every candidate once per iteration, in a fresh random order, each update
/// applied at once (Unger & Kertesz 2003, section 2.5).
template <class Terms>
SweepResult randomSweeps(std::vector<Contact>& contacts, const SolverSettings& solver, Random& random,
                         PredictedMotion& motion, SweepWorkspace& workspace, Terms& terms)
{
    const double dt = solver.dt;
    const std::size_t count = contacts.size();
    SweepResult result;
    resetSweepOrder(workspace.order, count);
    SweepConvergence convergence(contacts, solver.forceCutoff, solver.criterion);
    const std::int64_t limit = solver.iterationLimit();
    while (result.iterations < limit) {
        shuffleSweepOrder(workspace.order, random);
        const std::uint32_t* order = workspace.order.data();
        for (std::size_t k = 0; k < count; ++k) {
            // The order is random, so the hardware cannot guess what comes next: ask for the contact a few updates
            // ahead (both cache lines an update reads: its first, and the force's), and for its grains once it has
            // arrived.
            if (k + kPrefetchContact < count) {
                const Contact& ahead = contacts[order[k + kPrefetchContact]];
                __builtin_prefetch(&ahead);
                __builtin_prefetch(&ahead.force);
                __builtin_prefetch(&workspace.shock[order[k + kPrefetchContact]]);
            }
            if (k + kPrefetchGrains < count) {
                motion.prefetch(contacts[order[k + kPrefetchGrains]]);
            }
            const std::uint32_t a = order[k];
            Contact& c = contacts[a];
            const Vec3 R = contactForce(a, c, workspace.shock[a], motion, terms, dt);
            const Vec3 dR = R - c.force;
            terms.update(a, c, dR, [&] { motion.applyImpulse(c, dR, dt); });
            c.force = R;
            convergence.record(R, dR);
        }
        if (finishIteration(result, convergence, count, solver)) {
            break;
        }
    }
    return result;
}

/// Iterations by colours (solver.sweep = coloured): the contacts are coloured once per step so that no two
/// contacts of a colour share a grain (workspace.colouring, beside the warm start); an iteration visits the colours in
/// a fresh random order, and the contacts of a colour all at once, on the solver threads (they touch different grains,
/// so their order does not matter). What several contacts share, the piston's velocity and the periodic cell's
/// expectations, is updated after each colour, from the colour's changes in ascending contact index. The convergence
/// measures are taken after each iteration in ascending contact index. Nothing depends on the thread count. The sweeps
/// work on copies of the contacts and their coefficients in colour order (a colour's lie side by side in memory, as the
/// hardware streams them) and give the forces back at the end.
template <class Terms>
SweepResult colouredSweeps(std::vector<Contact>& contacts, const SolverSettings& solver, Random& random,
                           PredictedMotion& motion, SweepWorkspace& workspace, Terms& terms)
{
    const double dt = solver.dt;
    const std::size_t count = contacts.size();
    SweepResult result;
    ContactColouring& colouring = workspace.colouring;  // coloured by gaussSeidelSweeps
    const std::span<const std::uint32_t> original = colouring.allMembers();
    workspace.colourOrder.resize(count);
    workspace.colourShock.resize(count);
    workspace.forceChange.resize(count);
    workspace.colourPlace.resize(count);
    workspace.change.resize(count);
    terms.prepareColours(count);
    SweepConvergence convergence(contacts, solver.forceCutoff, solver.criterion);
    std::vector<SweepConvergence> parts((count + kConvergenceBlock - 1) / kConvergenceBlock,
                                        SweepConvergence(solver.forceCutoff, solver.criterion));
    const std::int64_t limit = solver.iterationLimit();
    Contact* ordered = workspace.colourOrder.data();
    const ShockCoefficients* shock = workspace.colourShock.data();
    // Contact ordered[i] is contacts[original[i]]: `a` below is the contact's index, `i` its place in colour order.
    const auto update = [&](std::size_t i) {
        const std::uint32_t a = original[i];
        Contact& c = ordered[i];
        const Vec3 R = contactForce(a, c, shock[i], motion, terms, dt);
        const Vec3 dR = R - c.force;
        terms.updateInColour(a, c, dR, [&] { motion.applyImpulseToGrains(c, dR, dt); });
        c.force = R;
        workspace.forceChange[i] = ForceChange(R, dR);
        if (c.kind == ContactKind::Piston) {
            workspace.change[a] = dR;
        }
    };
    // One parallel region for all the iterations: the colours and the convergence blocks are loops of its team, what
    // several contacts share is updated by one of its threads between them.
    bool done = result.iterations >= limit;
    const std::vector<std::uint32_t>* order = nullptr;
    inThreadTeam(count, [&](const ThreadTeam& team) {
        team.forEach(count, [&](std::size_t i) {
            workspace.colourOrder[i] = contacts[original[i]];
            workspace.colourShock[i] = workspace.shock[original[i]];
            workspace.colourPlace[original[i]] = static_cast<std::uint32_t>(i);
        });
        while (!done) {
            team.single([&] { order = &colouring.shuffledOrder(random); });
            for (const std::uint32_t colour : *order) {
                const std::size_t first = colouring.firstMember(colour);
                const std::size_t size = colouring.members(colour).size();
                // The team waits after every colour anyway: even a few contacts are shared out (smallest loop 0).
                if constexpr (kGrainContactLanes && Terms::kPlainUpdates) {
                    // Two members at a time, grain pairs side by side (they share no grain: the same results).
                    team.forEach((size + 1) / 2,
                                 [&](std::size_t m) {
                                     const std::size_t i = first + 2 * m;
                                     if (2 * m + kColourPrefetchGrains + 1 < size) {
                                         motion.prefetch(ordered[i + kColourPrefetchGrains]);
                                         motion.prefetch(ordered[i + kColourPrefetchGrains + 1]);
                                     }
                                     if (2 * m + 1 < size) {
                                         const std::size_t j = i + 1;
                                         if (ordered[i].kind == ContactKind::Particle &&
                                             ordered[j].kind == ContactKind::Particle) {
                                             Vec3 dRi;
                                             Vec3 dRj;
                                             updateGrainContacts(ordered[i], ordered[j], shock[i], shock[j], motion, dt,
                                                                 dRi, dRj);
                                             workspace.forceChange[i] = ForceChange(ordered[i].force, dRi);
                                             workspace.forceChange[j] = ForceChange(ordered[j].force, dRj);
                                             return;
                                         }
                                         update(j);
                                     }
                                     update(i);
                                 },
                                 0);
                } else {
                    team.forEach(
                        size, [&](std::size_t m) { update(first + m); }, 0);
                }
                if (Terms::kFinishesColours || !colouring.pistonMembers(colour).empty()) {
                    team.single([&] {
                        for (const std::uint32_t a : colouring.pistonMembers(colour)) {
                            motion.applyImpulseToPiston(contacts[a], workspace.change[a], dt);
                        }
                        terms.finishColour(colouring.members(colour));
                    });
                }
            }
            // In blocks of a fixed size, merged in block order.
            team.forEach(
                parts.size(),
                [&](std::size_t b) {
                    SweepConvergence part(solver.forceCutoff, solver.criterion);  // local: no false sharing
                    for (std::size_t a = b * kConvergenceBlock; a < std::min(count, (b + 1) * kConvergenceBlock); ++a) {
                        part.record(workspace.forceChange[workspace.colourPlace[a]]);
                    }
                    parts[b] = part;
                },
                2);
            team.single([&] {
                for (SweepConvergence& part : parts) {
                    convergence.merge(part);
                }
                done = finishIteration(result, convergence, count, solver) || result.iterations >= limit;
            });
        }
        team.forEach(count, [&](std::size_t i) { contacts[original[i]].force = workspace.colourOrder[i].force; });
    });
    return result;
}

/// The non-linear Gauss-Seidel iteration of contact dynamics for the step t -> t + dt (Unger & Kertesz
/// 2003, section 2.5), shared by plain CD and CD at constant pressure:
/// - the free motion is predicted and the previous step's forces applied to it (warm start);
/// - every iteration visits every candidate once (randomSweeps, or colouredSweeps); an update computes U
///   (eq. 23) from the predicted velocities with its own force removed, lets `terms` add what the
///   method adds to it (the periodic cell: lambda* l), applies the shock law (eq. 34) and applies the
///   change of force to the predicted velocities, through `terms` (which track what depends on it, e.g. P_in*);
/// - it stops after N_I iterations (fixed criterion) or when the residual is below the tolerance.
/// On return `contacts` hold the new forces and `motion` the new velocities.
template <class Terms>
SweepResult gaussSeidelSweeps(std::vector<Contact>& contacts, const SolverSettings& solver, Random& random,
                              PredictedMotion& motion, SweepWorkspace& workspace, Terms& terms)
{
    const double dt = solver.dt;
    workspace.shock.resize(contacts.size());
    parallelFor(contacts.size(), [&](std::size_t k) {
        const Contact& c = contacts[k];
        workspace.shock[k] = ShockCoefficients(c.gap, c.normalMass, c.tangentialMass, terms.friction(c), dt);
    });
    const auto warmStart = [&] {
        for (std::size_t k = 0; k < contacts.size(); ++k) {
            const Contact& c = contacts[k];
            motion.applyImpulse(c, c.force, dt);  // the previous step's forces, in contact order
            terms.warmStarted(k, c);
        }
    };
    const bool coloured = solver.sweep == SweepOrder::Coloured && !contacts.empty();
    if (coloured) {
        // The colours depend on the contacts only: found beside the warm start, on another thread.
        parallelTogether(warmStart, [&] { workspace.colouring.colour(contacts, motion.size()); });
    } else {
        warmStart();
    }
    terms.prepare(motion);
    if (contacts.empty()) {
        return {};
    }
    if (coloured) {
        return colouredSweeps(contacts, solver, random, motion, workspace, terms);
    }
    return randomSweeps(contacts, solver, random, motion, workspace, terms);
}

}  // namespace granular
