#pragma once

// The non-linear Gauss-Seidel iteration of a CD step (gaussSeidelSweeps) and its paper's order, the random sweep; the
// other orders in ColouredSweep.h and StripSweep.h.

#include "cd/ColouredSweep.h"
#include "cd/StripSweep.h"
#include "cd/SweepOrder.h"
#include "cd/SweepPass.h"
#include "util/Parallel.h"

#include <cstdint>
#include <vector>

namespace granular {

/// Iterations in the paper's order: every candidate once per iteration, in a fresh random order, each update
/// applied at once (Unger & Kertesz 2003, section 2.5). Two grain pairs next in the order that share no grain are
/// computed side by side where the sweep's data are small (randomSweepInLanes): the same numbers as one after the
/// other. `WatchOpen`: whether open contacts whose updates are known are skipped (OpenContactTicks; only with a method
/// that only applies the changes).
template <template <class> class Space, bool WatchOpen, class Terms>
SweepResult randomSweeps(const std::vector<Contact>& contacts, const SolverSettings& solver, Random& random,
                         PredictedMotion& motion, SweepWorkspace& workspace, Terms& terms)
{
    const std::size_t count = contacts.size();
    SweepResult result;
    resetSweepOrder(workspace.order, count);
    workspace.reciprocals.cover(count);
    SweepConvergence convergence(contacts, solver.forceCutoff, solver.criterion);
    SweepContact* records = workspace.records.data();
    const Vector3Of<double>* boundaryVelocity = workspace.boundaryVelocity.data();
    const std::int64_t limit = solver.iterationLimit();
    const bool inLanes = randomSweepInLanes(count, motion.size());
    constexpr bool kWatch = WatchOpen && Terms::kPlainUpdates;
    OpenContactTicks& ticks = workspace.ticks;  // the update at k takes the tick first + k
    while (result.iterations < limit) {
        shuffleSweepOrder(workspace.order, random, workspace.reciprocals);
        const bool measure = measuredIteration(result, solver);
        if constexpr (kWatch) {
            ticks.reserve(count, {records, count});
        }
        sweepInOrder<Space, WatchOpen>(
            records, workspace.order.data(), count, [](std::uint32_t a) { return a; }, motion, boundaryVelocity, terms,
            ticks, ticks.next(), measure, inLanes, convergence, result.knownUpdates);
        if constexpr (kWatch) {
            ticks.advance(static_cast<std::uint32_t>(count));
        }
        if (finishIteration(result, convergence, count, solver)) {
            break;
        }
    }
    return result;
}

/// The non-linear Gauss-Seidel iteration of contact dynamics for the step t -> t + dt (Unger & Kertesz
/// 2003, section 2.5), shared by plain CD and CD at constant pressure:
/// - each contact's record is made (SweepContact: its force in its frame, the shock law's constants of the step);
/// - the free motion is predicted and the previous step's forces applied to it (warm start);
/// - every iteration visits every candidate once (randomSweeps, colouredSweeps or stripSweeps); an update computes the
///   relative velocity of the contact point from the predicted velocities, lets `terms` add what the
///   method adds to it (the periodic cell: lambda* l), applies the shock law (eq. 23 and 34, as one increment:
///   shockLawUpdate) and applies the change of force to the predicted velocities, through `terms` (which track what
///   depends on it, e.g. P_in*);
/// - it stops after N_I iterations (fixed criterion) or when the residual is below the tolerance.
/// On return `contacts` hold the new forces and `motion` the new velocities.
template <class Terms>
SweepResult gaussSeidelSweeps(std::vector<Contact>& contacts, const Particles& particles, int dimension,
                              const SolverSettings& solver, Random& random, PredictedMotion& motion,
                              SweepWorkspace& workspace, Terms& terms)
{
    const double dt = solver.dt;
    const std::size_t count = contacts.size();
    if constexpr (Terms::kPlainUpdates) {
        if (solver.sweep == SweepOrder::Strips && count > 0) {
            workspace.strips.cut(contacts, particles);
            return dimension == 2
                       ? stripSweeps<Vector2Of>(contacts, particles, solver, random, motion, workspace, terms)
                       : stripSweeps<Vector3Of>(contacts, particles, solver, random, motion, workspace, terms);
        }
    }
    workspace.records.resize(count);
    workspace.boundaryVelocity.resize(count);
    parallelFor(count, [&](std::size_t k) { makeSweepRecord(k, contacts[k], particles, dt, workspace, terms); });
    std::size_t withoutForce = 0;  // records that start the step open
    const auto warmStart = [&] {
        withoutForce = warmStartSweeps(
            contacts, [](std::size_t k) { return k; }, motion, workspace, terms);
    };
    const bool coloured = solver.sweep == SweepOrder::Coloured && count > 0;
    if (coloured) {
        // The colours depend on the contacts only: found beside the warm start, on another thread.
        parallelTogether(warmStart,
                         [&] { workspace.colouring.colour(contacts, motion.size(), terms.mostPerColour(contacts)); });
    } else {
        warmStart();
    }
    terms.prepare(motion);
    const bool watch = watchesOpenContacts<Terms>(withoutForce, count);
    if (watch) {
        workspace.ticks.start(motion.size());
    }
    if (count == 0) {
        return {};
    }
    // Disks (2D) in the update's plane form: the same numbers as the 3D form would give with z = 0, without computing
    // the zero components.
    const auto sweeps = [&]<template <class> class Space, bool WatchOpen>() {
        return coloured ? colouredSweeps<Space, WatchOpen>(contacts, solver, random, motion, workspace, terms)
                        : randomSweeps<Space, WatchOpen>(contacts, solver, random, motion, workspace, terms);
    };
    SweepResult result;
    if (dimension == 2) {
        result = watch ? sweeps.template operator()<Vector2Of, true>() : sweeps.template operator()<Vector2Of, false>();
    } else {
        result = watch ? sweeps.template operator()<Vector3Of, true>() : sweeps.template operator()<Vector3Of, false>();
    }
    parallelFor(count, [&](std::size_t k) { contacts[k].force = contactForce(workspace.records[k]); });
    return result;
}

}  // namespace granular
