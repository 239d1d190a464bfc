#pragma once

// The coloured Gauss-Seidel sweep (solver.sweep = coloured): the contacts of a colour share no grain and are updated
// side by side on the solver threads.

#include "cd/SweepOrder.h"
#include "cd/SweepPass.h"
#include "util/Parallel.h"
#include "util/ThreadTeam.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

namespace granular {

/// How many contacts ahead the coloured sweep asks the memory for a contact's grains: its records lie in colour
/// order, but their grains follow no stride the hardware foresees.
inline constexpr std::size_t kColourPrefetchGrains = 8;

/// The coloured sweep measures convergence in blocks of this many contacts (a size of its own, so that the sums'
/// order does not depend on the thread count).
inline constexpr std::size_t kConvergenceBlock = 512;

/// Iterations by colours (solver.sweep = coloured): the contacts are coloured once per step so that no two
/// contacts of a colour share a grain (workspace.colouring, beside the warm start); an iteration visits the colours in
/// a fresh random order, and the contacts of a colour all at once, on the solver threads (they touch different grains,
/// so their order does not matter). The piston's contacts of a colour are then updated one after another in
/// ascending contact index, each with the piston's response at once (Gauss-Seidel on the piston, as the random
/// sweep); the periodic cell's expectations are updated after each colour, from its changes in ascending contact index.
/// The convergence measures are taken after each iteration in ascending contact index. Nothing depends on the thread
/// count. The sweeps work on copies of the records in colour order (a colour's lie side by side in memory, as the
/// hardware streams them). `WatchOpen` as for randomSweeps: the colours of an iteration take one tick each.
template <template <class> class Space, bool WatchOpen, class Terms>
SweepResult colouredSweeps(const std::vector<Contact>& contacts, const SolverSettings& solver, Random& random,
                           PredictedMotion& motion, SweepWorkspace& workspace, Terms& terms)
{
    const std::size_t count = contacts.size();
    SweepResult result;
    ContactColouring& colouring = workspace.colouring;  // coloured by gaussSeidelSweeps
    const std::span<const std::uint32_t> original = colouring.allMembers();
    workspace.colourOrder.resize(count);
    workspace.forceChange.resize(count);
    workspace.colourPlace.resize(count);
    workspace.change.resize(count);
    terms.prepareColours(count);
    SweepConvergence convergence(contacts, solver.forceCutoff, solver.criterion);
    std::vector<SweepConvergence> parts((count + kConvergenceBlock - 1) / kConvergenceBlock,
                                        SweepConvergence(solver.forceCutoff, solver.criterion));
    const std::int64_t limit = solver.iterationLimit();
    SweepContact* ordered = workspace.colourOrder.data();
    const Vector3Of<double>* boundaryVelocity = workspace.boundaryVelocity.data();
    bool measure = false;  // set with each iteration's order, read by the team after that step
    // Record ordered[i] is contact original[i]'s: `a` below is the contact's index, `i` its place in colour order.
    constexpr bool kWatch = WatchOpen && Terms::kPlainUpdates;
    OpenContactTicks& ticks = workspace.ticks;  // the colours of an iteration take the ticks first + their place
    std::uint32_t first = 0;                    // set with each iteration's order, like `measure`
    std::atomic<std::int64_t> knownUpdates{0};  // each thread adds its count once, at the end
    // Forced inline, as the pair loop's body below: with the sweeps made twice (watching or not) GCC 12 left both out
    // of line, a call per member (piston2d's coloured sweep 0.92x on one and two threads, 6 and 4 alternating pairs).
    const auto update = [&](std::size_t i, std::uint32_t tick, std::int64_t & known) __attribute__((always_inline))
    {
        const std::uint32_t a = original[i];
        SweepContact& s = ordered[i];
        if constexpr (kWatch) {
            if (ticks.unchanged(s)) {
                ++known;
                if (measure) {
                    workspace.forceChange[i] = ForceChange{};  // what its update would give: no force, no change
                }
                return;
            }
        }
        FrameForce<Space<double>> before{};
        const SweepUpdateOf<Space<double>> outcome = sweepUpdate<kWatch>(a, s, motion, boundaryVelocity, terms, before);
        const ForceChangeOf<Space<double>>& d = outcome.change;
        const bool changed = outcome.changed;
        if (changed) {
            terms.updateInColour(a, s, d, [&] { motion.applyToGrains(s, d); });
        }
        if constexpr (kWatch) {
            ticks.updated(s, tick, changed);
        }
        if (measure) {
            workspace.forceChange[i] = ForceChange(before, forceOf<Space<double>>(s), d);
        }
        if (s.kind == ContactKind::Piston) {
            workspace.change[a] = d.normal;
        }
    };
    // One parallel region for all the iterations: the colours and the convergence blocks are loops of its team, what
    // several contacts share is updated by one of its threads between them.
    bool done = result.iterations >= limit;
    const std::vector<std::uint32_t>* order = nullptr;
    ColourPace& pace = workspace.pace;
    inThreadTeam(count, [&](const ThreadTeam& team) {
        std::int64_t known = 0;  // this thread's known updates
        const std::size_t self = team.thread();
        const bool paced = team.size() > 1;
        team.single([&] { pace.start(colouring.colours(), team.size()); });
        // body(m) for this thread's range of a colour's n units, timed, then the team waits for the colour's end.
        const auto inPacedRange = [&](std::size_t colour, std::size_t n, const auto& body)
            __attribute__((always_inline))
        {
            const auto [firstUnit, endUnit] = pace.range(colour, self, n);
            const ColourPace::Clock::time_point began =
                paced ? ColourPace::Clock::now() : ColourPace::Clock::time_point{};
            for (std::size_t m = firstUnit; m < endUnit; ++m) {
                body(m);
            }
            if (paced) {
                pace.record(colour, self, std::chrono::duration<double>(ColourPace::Clock::now() - began).count());
            }
            team.barrier();
        };
        team.forEach(count, [&](std::size_t i) {
            ordered[i] = workspace.records[original[i]];
            workspace.colourPlace[original[i]] = static_cast<std::uint32_t>(i);
        });
        // The next iteration's order (and whether it is measured), by one thread: at the start and in the single step
        // that ends the iteration before, so that the team waits once between two iterations.
        const auto startIteration = [&] {
            pace.adjust();
            order = &colouring.shuffledOrder(random);
            measure = measuredIteration(result, solver);
            if constexpr (kWatch) {
                ticks.reserve(order->size(), {ordered, count});
                first = ticks.next();
                ticks.advance(static_cast<std::uint32_t>(order->size()));
            }
        };
        team.single([&] {
            if (!done) {
                startIteration();
            }
        });
        while (!done) {
            // What the single step before set for this iteration, read here: the next one may set it again while this
            // thread is still between the last colour's wait and the measures.
            const bool measuring = measure;
            const std::uint32_t* colours = order->data();
            const std::size_t colourCount = order->size();
            const std::uint32_t firstTick = first;
            for (std::size_t place = 0; place < colourCount; ++place) {
                const std::uint32_t colour = colours[place];
                const std::uint32_t tick = firstTick + static_cast<std::uint32_t>(place);
                const std::size_t start = colouring.firstMember(colour);
                const std::size_t size = colouring.members(colour).size();
                // The team waits after every colour anyway: even a few contacts are shared out, at the pace's cuts.
                // The piston's contacts of the colour wait for the serial pass below (each on a grain of its own).
                const bool hasPiston = !colouring.pistonMembers(colour).empty();
                const auto updateOrDefer = [&](std::size_t i) __attribute__((always_inline))
                {
                    if (!hasPiston || ordered[i].kind != ContactKind::Piston) {
                        update(i, tick, known);
                    }
                };
                if constexpr (kGrainContactLanes && Terms::kPlainUpdates) {
                    // Two members at a time, grain pairs side by side (they share no grain: the same results).
                    inPacedRange(
                        colour, (size + 1) / 2, [&](std::size_t m) __attribute__((always_inline)) {
                            const std::size_t i = start + 2 * m;
                            if (2 * m + kColourPrefetchGrains + 1 < size) {
                                motion.prefetch(ordered[i + kColourPrefetchGrains]);
                                motion.prefetch(ordered[i + kColourPrefetchGrains + 1]);
                            }
                            if (2 * m + 1 < size) {
                                const std::size_t j = i + 1;
                                if (ordered[i].kind == ContactKind::Particle &&
                                    ordered[j].kind == ContactKind::Particle &&
                                    !(kWatch && (ticks.unchanged(ordered[i]) || ticks.unchanged(ordered[j])))) {
                                    updateGrainPairsInLanes<Space, kWatch>(ordered[i], ordered[j], motion, ticks, tick,
                                                                           workspace.forceChange[i],
                                                                           workspace.forceChange[j], measure);
                                    return;
                                }
                                updateOrDefer(j);
                            }
                            updateOrDefer(i);
                        });
                } else {
                    inPacedRange(colour, size, [&](std::size_t m) { updateOrDefer(start + m); });
                }
                if (Terms::kFinishesColours || hasPiston) {
                    team.single([&] {
                        // Gauss-Seidel on the piston, in ascending contact index: each of its contacts sees the
                        // piston's response to the ones before. Updated together from one velocity (a Jacobi step),
                        // k contacts overshot k m_n / M times what stops it: a light piston diverged.
                        for (const std::uint32_t a : colouring.pistonMembers(colour)) {
                            update(workspace.colourPlace[a], tick, known);
                            motion.applyToPiston(workspace.change[a]);
                        }
                        terms.finishColour(colouring.members(colour));
                    });
                }
            }
            // In blocks of a fixed size, merged in block order.
            if (measuring) {
                team.forEach(
                    parts.size(),
                    [&](std::size_t b) {
                        SweepConvergence part(solver.forceCutoff, solver.criterion);  // local: no false sharing
                        for (std::size_t a = b * kConvergenceBlock; a < std::min(count, (b + 1) * kConvergenceBlock);
                             ++a) {
                            part.record(workspace.forceChange[workspace.colourPlace[a]]);
                        }
                        parts[b] = part;
                    },
                    2);
            }
            team.single([&] {
                for (SweepConvergence& part : parts) {
                    convergence.merge(part);
                }
                done = finishIteration(result, convergence, count, solver) || result.iterations >= limit;
                if (!done) {
                    startIteration();
                }
            });
        }
        team.forEach(count, [&](std::size_t i) { workspace.records[original[i]] = ordered[i]; });
        knownUpdates += known;
    });
    result.knownUpdates = knownUpdates;
    return result;
}

}  // namespace granular
