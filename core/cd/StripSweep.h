#pragma once

// The strip Gauss-Seidel sweep (solver.sweep = strips, plain CD): the contacts in strips across one axis, strips two
// apart swept side by side on the solver threads, each in a fresh random order.

#include "cd/SweepOrder.h"
#include "cd/SweepPass.h"
#include "util/Random.h"
#include "util/ThreadTeam.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

namespace granular {

/// The strips that thread `thread` sweeps (and whose records it makes) of one parity: a consecutive run, cut where
/// the pace cuts the parity's contacts. Which thread sweeps a strip never changes a result.
inline std::pair<std::size_t, std::size_t> stripsOfThread(const ContactStrips& strips, const ColourPace& pace,
                                                          std::size_t parity, std::size_t thread)
{
    const auto [from, to] = pace.range(parity, thread, strips.parityCount(parity));
    return strips.share(parity, from, to);
}

/// The seed of strip `strip`'s order in iteration `iteration` of a step that drew `step` (and, with strip = the strips'
/// count, of which half goes first): a stream per strip, so that the orders do not depend on which thread sweeps it.
[[nodiscard]] inline std::uint64_t stripSeed(std::uint64_t step, std::uint64_t iteration, std::uint64_t strip)
{
    return step ^ (iteration * 0x9E3779B97F4A7C15ULL) ^ ((strip + 1) * 0xD1B54A32D192ED03ULL);
}

/// The step's iterations by strips (solver.sweep = strips), for contacts cut into strips across one axis
/// (workspace.strips) such that two strips two apart share no grain; their records lie in strip order. An iteration
/// sweeps the strips of one parity, then those of the other (which goes first is drawn per iteration); within a strip
/// the contacts are updated one after another in a fresh random order, each at once, as in the random sweep (its
/// piston contacts too: they lie in at most two neighbouring strips). The solver threads sweep consecutive runs of
/// strips (cut at the pace's shares of each parity), make their records, warm start them (the even strips, then the
/// odd) and write back their forces, all in one parallel region; a strip's sweep waits only for its neighbours' sweeps
/// of the half before, not for the whole team. The orders come from a seeded stream per strip and iteration and the
/// convergence measures are merged strip by strip, so nothing depends on the thread count. Where a criterion stops the
/// iteration, the test of an iteration's measures runs beside the next iteration (the team does not wait for it), so
/// the sweeps stop one iteration after the first that met the criterion; with the fixed criterion they stop at N_I.
template <template <class> class Space, class Terms>
SweepResult stripSweeps(std::vector<Contact>& contacts, const Particles& particles, const SolverSettings& solver,
                        Random& random, PredictedMotion& motion, SweepWorkspace& workspace, Terms& terms)
{
    static_assert(Terms::kPlainUpdates, "the strip sweep only applies the changes");
    const std::size_t count = contacts.size();
    const ContactStrips& strips = workspace.strips;  // cut by gaussSeidelSweeps
    const std::size_t stripCount = strips.strips();
    const std::span<const std::uint32_t> members = strips.allMembers();
    workspace.records.resize(count);
    workspace.boundaryVelocity.resize(count);
    workspace.order.resize(count);
    workspace.reciprocals.cover(strips.largest());
    SweepContact* records = workspace.records.data();  // in strip order
    std::uint32_t* places = workspace.order.data();
    const Vector3Of<double>* boundaryVelocity = workspace.boundaryVelocity.data();
    const std::uint64_t step = random.next();
    const auto limit = static_cast<std::uint64_t>(std::max<std::int64_t>(0, solver.iterationLimit()));
    const bool inLanes = randomSweepInLanes(count, motion.size());
    OpenContactTicks& ticks = workspace.ticks;
    auto& parts = workspace.stripMeasures;
    constexpr std::uint64_t kBuffers = SweepWorkspace::kStripMeasureBuffers;
    for (std::vector<SweepConvergence>& part : parts) {
        part.assign(stripCount, SweepConvergence(solver.forceCutoff, solver.criterion));
    }
    const SweepConvergence start(contacts, solver.forceCutoff, solver.criterion);
    const bool stopsOnCriterion = solver.criterion != ConvergenceCriterion::Fixed;
    const auto measured = [&](std::uint64_t j) { return stopsOnCriterion || j + 1 >= limit; };
    SweepResult result;
    std::atomic<std::int64_t> knownUpdates{0};
    ColourPace& pace = workspace.stripPace;
    const auto teamMost = static_cast<std::size_t>(std::max(1, solverThreads()));
    ProgressCounters& done = workspace.stripDone;
    ProgressCounters& swept = workspace.threadSwept;
    ProgressCounters& merged = workspace.threadMerged;
    done.reset(stripCount);
    swept.reset(teamMost);
    merged.reset(teamMost);
    bool watch = false;                        // set with the warm start
    std::atomic<std::size_t> withoutForce{0};  // records that start the step open
    inThreadTeam(count, [&](const ThreadTeam& team) {
        const std::size_t threads = team.size();
        const std::size_t self = team.thread();
        team.single([&] {
            pace.adjust();
            pace.start(2, threads);
        });
        const std::array<std::pair<std::size_t, std::size_t>, 2> mine{stripsOfThread(strips, pace, 0, self),
                                                                      stripsOfThread(strips, pace, 1, self)};
        // The work that costs the same for every contact (the records, the warm start, the forces written back) by
        // even shares of each parity's contacts, not by the sweeps' paced shares: the pace gives the thread of the
        // packing's bottom, whose closed contacts cost most to sweep, fewer contacts, and the other thread made its
        // records and warm start while the first waited at the barrier.
        const auto forEvenShare = [&](std::size_t parity, const auto& body) {
            const std::size_t n = strips.parityCount(parity);
            const auto [first, end] = strips.share(parity, n * self / threads, n * (self + 1) / threads);
            for (std::size_t k = first; k < end; k += 2) {
                for (std::size_t i = strips.firstMember(k); i < strips.firstMember(k + 1); ++i) {
                    body(i);
                }
            }
        };
        // Each record made and warm started, the even strips' before the odd strips' (strips of one parity share no
        // grain): the same sums for any thread count.
        std::size_t open = 0;  // of this thread's records, those that start the step open
        for (const std::size_t parity : {0, 1}) {
            forEvenShare(parity, [&](std::size_t i) {
                makeSweepRecord(i, contacts[members[i]], particles, solver.dt, workspace, terms);
                open += noForce(forceOf<Vector3Of<double>>(records[i])) ? 1 : 0;
                warmStartRecord(records[i], motion);
                terms.warmStarted(members[i], contacts[members[i]]);
            });
            if (parity == 0) {
                team.barrier();
            }
        }
        withoutForce += open;
        team.barrier();
        team.single([&] {
            terms.prepare(motion);
            watch = watchesOpenContacts<Terms>(withoutForce, count);
            if (watch) {
                ticks.start(motion.size());
            }
        });
        const auto allReached = [&](const ProgressCounters& counters, std::uint64_t value) {
            for (std::size_t t = 0; t < threads; ++t) {
                waitUntil(counters[t], value);
            }
        };
        // Every thread keeps its own copy of the measures and the result: they compute the same numbers.
        SweepConvergence convergence = start;
        SweepResult local;
        std::int64_t known = 0;
        // This thread's time in its strips of each parity, its waits for neighbours left out, in every iteration: paced
        // by every eighth iteration only, the 20,000-sphere packing's second thread spent a quarter of its sweeps
        // waiting for the first's strips, by every iteration a tenth. Two clock readings per half, and two per wait
        // that is not over at once.
        std::array<double, 2> seconds{0.0, 0.0};
        // Iteration j's measures, once every thread swept it: true where they meet the criterion.
        const auto merge = [&](std::uint64_t j) {
            allReached(swept, j + 1);
            if (measured(j)) {
                for (const SweepConvergence& part : parts[j % kBuffers]) {
                    SweepConvergence copy = part;
                    convergence.merge(copy);
                }
            }
            const bool met = finishIteration(local, convergence, count, solver);
            raise(merged[self], j + 1);
            return met;
        };
        // Strip k's sweep waits for its neighbours' sweeps of the half before (k - 1 and k + 1: the only strips that
        // share grains with it, and the piston's contacts lie in two neighbouring strips). A thread sweeps the strips
        // at the ends of its run first (the first thread's last, the last thread's first), so that its neighbours
        // find them done.
        const auto foreign = [&](std::size_t j) { return j < mine[j % 2].first || j >= mine[j % 2].second; };
        const auto sweepRun = [&](std::size_t parity, std::uint64_t iteration, bool second, const auto& sweep) {
            const std::size_t first = mine[parity].first;
            const std::size_t end = mine[parity].second;
            if (first >= end) {
                return;
            }
            const std::size_t last = first + (end - 1 - first) / 2 * 2;
            const std::uint64_t need = iteration + (second ? 1 : 0);  // the neighbours' sweeps done before
            const bool timed = threads > 1;
            const ColourPace::Clock::time_point began =
                timed ? ColourPace::Clock::now() : ColourPace::Clock::time_point{};
            ColourPace::Clock::duration waited{};
            const auto one = [&](std::size_t k) {
                const bool below = k > 0;
                const bool above = k + 1 < stripCount;
                if ((below && !reached(done[k - 1], need)) || (above && !reached(done[k + 1], need))) {
                    const ColourPace::Clock::time_point from =
                        timed ? ColourPace::Clock::now() : ColourPace::Clock::time_point{};
                    if (below) {
                        waitUntil(done[k - 1], need);
                    }
                    if (above) {
                        waitUntil(done[k + 1], need);
                    }
                    if (timed) {
                        waited += ColourPace::Clock::now() - from;
                    }
                }
                if ((below && foreign(k - 1)) || (above && foreign(k + 1))) {
                    // A neighbour swept by another thread: its grains asked for at once, not one update at a time
                    // (piston2d on two threads: 1.08x the contact updates/s, median of four alternating pairs; the
                    // 20,000-sphere packing 1.00x).
                    for (std::size_t i = strips.firstMember(k); i < strips.firstMember(k + 1); ++i) {
                        motion.prefetchToWrite(records[i]);
                    }
                }
                sweep(k);
                raise(done[k], iteration + 1);
            };
            if (self == 0) {
                for (std::size_t k = last + 2; k > first; k -= 2) {
                    one(k - 2);
                }
            } else {
                one(first);
                if (last != first && self + 1 < threads) {
                    one(last);
                }
                for (std::size_t k = first + 2; k < last; k += 2) {
                    one(k);
                }
                if (last != first && self + 1 == threads) {
                    one(last);
                }
            }
            if (timed) {
                seconds[parity] += std::chrono::duration<double>(ColourPace::Clock::now() - began - waited).count();
            }
        };
        const auto iterate = [&]<bool WatchOpen>() {
            std::uint32_t tick = ticks.next();
            std::uint64_t iteration = 0;
            while (iteration < limit) {
                if constexpr (WatchOpen) {
                    if (count >= std::numeric_limits<std::uint32_t>::max() - tick) {
                        // Where the ticks would pass 2^32 (every thread sees it at the same iteration).
                        team.barrier();
                        team.single([&] {
                            ticks.advance(tick - ticks.next());
                            ticks.reserve(count, {records, count});
                        });
                        tick = ticks.next();
                    }
                }
                if (stopsOnCriterion && iteration >= kBuffers) {
                    allReached(merged, iteration - kBuffers + 1);  // its buffer free (the fixed criterion merges only
                }                                                  // the last iteration's measures)
                const bool measure = measured(iteration);
                std::vector<SweepConvergence>& measures = parts[iteration % kBuffers];
                const std::size_t firstParity = Random(stripSeed(step, iteration, stripCount)).next() >> 63U;
                for (const std::size_t parity : {firstParity, 1 - firstParity}) {
                    const std::uint32_t halfTick =
                        tick + static_cast<std::uint32_t>(parity == firstParity ? 0 : strips.parityCount(firstParity));
                    sweepRun(parity, iteration, parity != firstParity, [&](std::size_t k) {
                        const std::size_t begin = strips.firstMember(k);
                        const std::size_t n = strips.size(k);
                        const std::span<std::uint32_t> order(places + begin, n);
                        std::iota(order.begin(), order.end(), 0U);
                        Random draws(stripSeed(step, iteration, k));
                        shuffleSweepOrder(order, draws, workspace.reciprocals);
                        SweepConvergence part(solver.forceCutoff, solver.criterion);
                        sweepInOrder<Space, WatchOpen>(
                            records + begin, order.data(), n, [&](std::uint32_t m) { return members[begin + m]; },
                            motion, boundaryVelocity, terms, ticks,
                            halfTick + static_cast<std::uint32_t>(strips.offset(k)), measure, inLanes, part, known);
                        if (measure) {
                            measures[k] = part;
                        }
                    });
                }
                tick += static_cast<std::uint32_t>(count);
                raise(swept[self], iteration + 1);
                ++iteration;
                // The iteration before this one decides whether the next runs.
                if (stopsOnCriterion && iteration >= 2 && merge(iteration - 2)) {
                    break;
                }
            }
            // The measures not merged yet (the last iteration's; its result is the step's).
            for (auto j = static_cast<std::uint64_t>(local.iterations); j < iteration; ++j) {
                merge(j);
            }
            team.barrier();  // every thread through its sweeps: the ticks and the records final
            if (WatchOpen && self == 0) {
                ticks.advance(tick - ticks.next());
            }
        };
        if (watch) {
            iterate.template operator()<true>();
        } else {
            iterate.template operator()<false>();
        }
        for (const std::size_t parity : {0, 1}) {
            forEvenShare(parity, [&](std::size_t i) { contacts[members[i]].force = contactForce(records[i]); });
        }
        if (threads > 1) {
            pace.record(0, self, seconds[0]);
            pace.record(1, self, seconds[1]);
        }
        knownUpdates += known;
        if (self == 0) {
            result = local;
        }
    });
    result.knownUpdates = knownUpdates;
    return result;
}

}  // namespace granular
