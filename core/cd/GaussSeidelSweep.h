#pragma once

#include "cd/ColourPace.h"
#include "cd/ContactColouring.h"
#include "cd/ContactStrips.h"
#include "cd/ContactUpdate.h"
#include "cd/GrainContactLanes.h"
#include "cd/OpenContactTicks.h"
#include "cd/PredictedMotion.h"
#include "cd/SweepContact.h"
#include "cd/SweepConvergence.h"
#include "cd/SweepOrder.h"
#include "settings/Settings.h"
#include "util/Parallel.h"
#include "util/Reciprocal.h"
#include "util/SpinWait.h"
#include "util/ThreadTeam.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace granular {

class Random;

/// What the Gauss-Seidel iteration of one step did.
struct SweepResult {
    std::int64_t iterations = 0;
    double residual = 0.0;          ///< eq. 35: max |dR|/(|R| + delta); eq. 36: |d<|R|>|/<|R|> (Unger & Kertesz 2003)
    double forceChange = 0.0;       ///< the last sweep's |dR| / |R| over all contacts (SweepConvergence)
    std::int64_t knownUpdates = 0;  ///< updates whose outcome was known without computing them (OpenContactTicks)
};

/// The terms of a plain CD step: no periodic cell, so nothing is added to the relative velocity
/// and nothing is tracked besides the forces. The periodic cell's terms (ConstantPressureSolver) have
/// the same members.
struct RigidBoundaryTerms {
    /// Whether finishColour() does anything (the coloured sweep skips the step between colours otherwise).
    static constexpr bool kFinishesColours = false;
    /// Whether relativeVelocity() returns its argument and update() / updateInColour() only apply: the sweeps may then
    /// compute two grain pairs that share no grain side by side (GrainContactLanes), the coloured sweep within a
    /// colour, the random sweep where they are next in its order.
    static constexpr bool kPlainUpdates = true;

    const ContactSettings* contact = nullptr;

    void warmStarted(std::size_t /*k*/, const Contact& /*c*/) {}
    void prepare(const PredictedMotion& /*motion*/) {}
    /// The coloured sweep's: the most contacts a colour may hold. No limit: what the contacts of a colour share,
    /// the piston, takes their updates one after another.
    [[nodiscard]] static std::size_t mostPerColour(const std::vector<Contact>& /*contacts*/)
    {
        return std::numeric_limits<std::size_t>::max();
    }
    /// What the method adds to contact a's relative velocity V (eq. 23's free velocity): nothing here.
    template <class Vec> [[nodiscard]] static Vec relativeVelocity(std::size_t /*a*/, const Vec& V) { return V; }
    [[nodiscard]] double friction(const Contact& c) const
    {
        return contact->frictionFor(c.kind == ContactKind::Particle);
    }
    /// The random sweep's update: `apply` applies the change `d` to the bodies; the terms track what depends on it.
    template <class Vec, class Apply>
    void update(std::size_t /*a*/, const SweepContact& /*s*/, const ForceChangeOf<Vec>& /*d*/, Apply&& apply)
    {
        apply();
    }
    /// The coloured sweep's: before the first colour, for `count` contacts.
    void prepareColours(std::size_t /*count*/) {}
    /// The coloured sweep's update, on any solver thread: it may write only what belongs to contact `a`.
    template <class Vec, class Apply>
    void updateInColour(std::size_t /*a*/, const SweepContact& /*s*/, const ForceChangeOf<Vec>& /*d*/, Apply&& apply)
    {
        apply();
    }
    /// After a colour, on one thread: what the colour's updates changed, in ascending contact index.
    void finishColour(std::span<const std::uint32_t> /*members*/) {}
};

/// What the sweeps of one step keep between steps (reused memory, no state).
struct SweepWorkspace {
    std::vector<std::uint32_t> order;                 ///< the random sweep's permutation (strips: strip by strip)
    Reciprocals reciprocals;                          ///< the random sweep's shuffle's divisors, 2 ... order's size
    std::vector<SweepContact> records;                ///< per contact, its updates' data (strips: in strip order)
    std::vector<Vector3Of<double>> boundaryVelocity;  ///< m/s, a wall or drum contact's boundary at its point
    ContactColouring colouring;                       ///< the coloured sweep's colours
    ContactStrips strips;                             ///< the strip sweep's strips
    ColourPace stripPace;                             ///< where the strip sweep cuts each parity's strips
    ColourPace pace;                                  ///< where the coloured sweep cuts its colours between threads
    std::vector<SweepContact> colourOrder;            ///< the coloured sweep's copies of the records, colour by colour
    std::vector<std::uint32_t> colourPlace;           ///< contact a's place in colourOrder
    std::vector<ForceChange> forceChange;  ///< the coloured sweep's, in colour order, in the current iteration
    std::vector<double> change;            ///< N, the coloured sweep's dR_n per piston contact, ditto
    OpenContactTicks ticks;                ///< which updates are known to change nothing (plain CD's sweeps)
};

/// What one update of a record did.
template <class Vec> struct SweepUpdateOf {
    ForceChangeOf<Vec> change;  ///< the change of the contact's force
    /// False where the contact held no force and holds none after the update (an open contact that stays open): the
    /// change is zero, the record is left as it was, and applying the change would leave the grains as they are.
    bool changed = true;
};

/// Whether a force is none at all: every component +0 (what the shock law gives an open contact).
template <class Vec> [[gnu::always_inline]] inline bool noForce(const FrameForce<Vec>& R)
{
    const auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
    std::uint64_t any = bits(R.normal) | bits(R.tangential.x) | bits(R.tangential.y);
    if constexpr (std::is_same_v<Vec, Vector3Of<double>>) {
        any |= bits(R.tangential.z);
    }
    return any == 0;
}

/// Whether an update from `before` to `after` left an open contact open: no force before, none after.
template <class Vec>
[[gnu::always_inline]] inline bool stayedOpen(const FrameForce<Vec>& before, const FrameForce<Vec>& after)
{
    return noForce(after) && noForce(before);
}

/// One update of record `s` (contact a) in the space of Vec (Vector3Of, or Vector2Of for disks): its relative velocity
/// from the predicted motion, what the method adds to it (`terms`), the shock law's new force (eq. 23 and 34,
/// shockLawUpdate), stored in the record. Returns the change; `before` gets the force before it. The caller applies
/// the change where there is one. Where the sweep watches for open contacts (`WatchOpen`, with a method that only
/// applies the changes: Terms::kPlainUpdates), an open contact that stays open is not written, and its grains then
/// stay untouched (applying its zero change would give the same velocities, but for a component -0 made +0).
template <bool WatchOpen = false, class Vec, class Terms>
[[gnu::always_inline]] inline SweepUpdateOf<Vec>
sweepUpdate(std::size_t a, SweepContact& s, const PredictedMotion& motion, const Vector3Of<double>* boundaryVelocity,
            const Terms& terms, FrameForce<Vec>& before)
{
    before = forceOf<Vec>(s);
    const Vec n = normalOf<Vec>(s);
    const FrameForce<Vec> after = shockLawUpdate(
        terms.relativeVelocity(a, motion.relativeVelocity<Vec>(s, boundaryVelocity)), n, before, ratesOf(s));
    const ForceChangeOf<Vec> d = changeOfForce(before, after, n);
    if constexpr (WatchOpen && Terms::kPlainUpdates) {
        if (stayedOpen(before, after)) {
            return {d, false};
        }
    }
    setForce(s, after);
    return {d, true};
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

/// Whether the iteration after `result.iterations` is measured: every iteration of a criterion that stops on the
/// residual, only the last of the fixed criterion (whose result reports the last iteration's measures).
inline bool measuredIteration(const SweepResult& result, const SolverSettings& solver)
{
    return solver.criterion != ConvergenceCriterion::Fixed || result.iterations + 1 >= solver.iterationLimit();
}

/// The sweeps watch for open contacts (OpenContactTicks) in a step where at least this share of its records start it
/// open. Watching costs where little is skipped: piston2d's random sweep, its grains pressed together (~1 % of the
/// updates skipped), at 0.81x the rate; the bench's falling packing (92 % of the records open, 80 % of the updates
/// skipped) gains 1.47x. Either way the results are the same, bit for bit.
inline constexpr double kWatchOpenShare = 0.5;

/// How many updates ahead the random sweep asks the memory for a record, and for its grains.
inline constexpr std::size_t kPrefetchContact = 8;
inline constexpr std::size_t kPrefetchGrains = 4;
/// The same where the sweep watches for open contacts: most updates are then a glance at the record's first line and
/// two grains' ticks, a few ns, so the memory is asked further ahead. The packing's random sweep (80 % of its updates
/// known) with 16 and 8 against 8 and 4: 1.05x and 1.06x (medians of 5 and 6 alternating pairs, 2026-11-28); 12 and 6
/// 1.05x, 16 and 4 1.01x, 32 and 8 0.99x.
inline constexpr std::size_t kPrefetchContactWatching = 16;
inline constexpr std::size_t kPrefetchGrainsWatching = 8;

/// How many contacts ahead the coloured sweep asks the memory for a contact's grains: its records lie in colour
/// order, but their grains follow no stride the hardware foresees.
inline constexpr std::size_t kColourPrefetchGrains = 8;

/// The coloured sweep measures convergence in blocks of this many contacts (a size of its own, so that the sums'
/// order does not depend on the thread count).
inline constexpr std::size_t kConvergenceBlock = 512;

/// The random sweep's order is random, so the hardware cannot guess what comes next: before update k, asks the memory
/// for the record ContactAhead updates ahead (both its cache lines), and for the grains of the one GrainsAhead ahead,
/// whose record has arrived by then. (A plain function: GCC 12 drops a __builtin_prefetch written in a lambda.)
template <std::size_t ContactAhead = kPrefetchContact, std::size_t GrainsAhead = kPrefetchGrains>
[[gnu::always_inline]] inline void prefetchAhead(const SweepContact* records, const std::uint32_t* order,
                                                 std::size_t count, const PredictedMotion& motion, std::size_t k)
{
    if (k + ContactAhead < count) {
        const SweepContact* ahead = records + order[k + ContactAhead];
        __builtin_prefetch(ahead);
        __builtin_prefetch(&ahead->tangentialForce);
    }
    if (k + GrainsAhead < count) {
        motion.prefetch(records[order[k + GrainsAhead]]);
    }
}

#if defined(__SSE2__)
/// Two grain-pair records that share no grain updated side by side (updateGrainContacts) at `tick` (both: their grains
/// differ), with what the convergence measures take of each where the iteration is measured. Where the sweep watches
/// for open contacts, the records' ticks (OpenContactTicks) follow as after sweepUpdate: a contact that held no force
/// and holds none changed nothing (its grains got its zero change, the same numbers).
template <template <class> class Space, bool WatchOpen>
void updateGrainPairsInLanes(SweepContact& first, SweepContact& second, PredictedMotion& motion,
                             OpenContactTicks& ticks, std::uint32_t tick, ForceChange& firstMeasures,
                             ForceChange& secondMeasures, bool measure)
{
    using Vec = Space<double>;
    const FrameForce<Vec> firstBefore = forceOf<Vec>(first);
    const FrameForce<Vec> secondBefore = forceOf<Vec>(second);
    ForceChangeOf<Vec> firstChange{};
    ForceChangeOf<Vec> secondChange{};
    updateGrainContacts<Space>(first, second, motion, firstChange, secondChange);
    if constexpr (WatchOpen) {
        ticks.updated(first, tick, !stayedOpen(firstBefore, forceOf<Vec>(first)));
        ticks.updated(second, tick, !stayedOpen(secondBefore, forceOf<Vec>(second)));
    }
    if (!measure) {
        return;
    }
    firstMeasures = ForceChange(firstBefore, forceOf<Vec>(first), firstChange);
    secondMeasures = ForceChange(secondBefore, forceOf<Vec>(second), secondChange);
}
#endif

/// Whether records s and t are both grain pairs and share no grain (their updates may be computed side by side).
inline bool independentGrainPairs(const SweepContact& s, const SweepContact& t)
{
    return s.kind == ContactKind::Particle && t.kind == ContactKind::Particle && s.body0 != t.body0 &&
           s.body0 != t.body1 && s.body1 != t.body0 && s.body1 != t.body1;
}

/// The random sweep computes two grain pairs next in its order side by side where they share no grain when its
/// records and grains take at most this many bytes. Side by side with one at a time (whole processes, alternating):
/// piston2d (0.36 MB) 0.73x the time, piston3d (0.37 MB) 0.87-0.92x, but the 20,000-sphere packing (3.8 MB) 1.08x: its
/// updates wait on memory beyond the second-level cache, which the lanes do not hide.
inline constexpr std::size_t kRandomSweepLanesBytes = std::size_t{1} << 20U;

/// Whether the random sweep over `contacts` records between `grains` grains computes grain pairs side by side.
inline bool randomSweepInLanes(std::size_t contacts, std::size_t grains)
{
    return contacts * sizeof(SweepContact) + grains * sizeof(PredictedMotion::PredictedBody) <= kRandomSweepLanesBytes;
}

/// One pass over `n` records in `order` (places in `records`; contactOf(place) is the contact's index), each update
/// applied at once: the random sweep's iteration, and a strip's in the strip sweep. Two grain pairs next in the
/// order that share no grain are computed side by side where `inLanes`: the same numbers as one after the other. The
/// update at k takes the tick first + k; what the convergence measures take of each update goes to `convergence`
/// where `measure`; updates known without computing them are counted in `known`.
template <template <class> class Space, bool WatchOpen, class Terms, class ContactOf>
[[gnu::always_inline]] inline void
sweepInOrder(SweepContact* records, const std::uint32_t* order, std::size_t n, const ContactOf& contactOf,
             PredictedMotion& motion, const Vector3Of<double>* boundaryVelocity, Terms& terms, OpenContactTicks& ticks,
             std::uint32_t first, bool measure, bool inLanes, SweepConvergence& convergence, std::int64_t& known)
{
    constexpr bool kWatch = WatchOpen && Terms::kPlainUpdates;
    constexpr std::size_t kContactAhead = kWatch ? kPrefetchContactWatching : kPrefetchContact;
    constexpr std::size_t kGrainsAhead = kWatch ? kPrefetchGrainsWatching : kPrefetchGrains;
    for (std::size_t k = 0; k < n; ++k) {
        prefetchAhead<kContactAhead, kGrainsAhead>(records, order, n, motion, k);
        SweepContact& s = records[order[k]];
        const std::uint32_t tick = first + static_cast<std::uint32_t>(k);
        if constexpr (kWatch) {
            if (ticks.unchanged(s)) {
                ++known;
                if (measure) {
                    convergence.record(ForceChange{});  // what its update would give: no force, no change
                }
                continue;
            }
        }
        if constexpr (kGrainContactLanes && Terms::kPlainUpdates) {
            // Two grain pairs next in the order that share no grain: neither reads what the other writes, so
            // they are computed side by side with the results of one after the other.
            if (inLanes && k + 1 < n && independentGrainPairs(s, records[order[k + 1]]) &&
                !(kWatch && ticks.unchanged(records[order[k + 1]]))) {
                prefetchAhead(records, order, n, motion, k + 1);
                SweepContact& next = records[order[k + 1]];
                ForceChange firstMeasures{};
                ForceChange secondMeasures{};
                updateGrainPairsInLanes<Space, kWatch>(s, next, motion, ticks, tick, firstMeasures, secondMeasures,
                                                       measure);
                if (measure) {
                    convergence.record(firstMeasures);
                    convergence.record(secondMeasures);
                }
                ++k;
                continue;
            }
        }
        const std::size_t a = contactOf(order[k]);
        FrameForce<Space<double>> before{};
        // Named, not bound: clang before 16 does not let a lambda capture a structured binding.
        const SweepUpdateOf<Space<double>> outcome = sweepUpdate<kWatch>(a, s, motion, boundaryVelocity, terms, before);
        const ForceChangeOf<Space<double>>& d = outcome.change;
        const bool changed = outcome.changed;
        if (changed) {
            terms.update(a, s, d, [&] { motion.apply(s, d); });
        }
        if constexpr (kWatch) {
            ticks.updated(s, tick, changed);
        }
        if (measure) {
            convergence.record(ForceChange(before, forceOf<Space<double>>(s), d));
        }
    }
}

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

/// Record `place` of the sweeps (SweepContact) from contact `c`, with its boundary's velocity where it has one.
template <class Terms>
void makeSweepRecord(std::size_t place, const Contact& c, const Particles& particles, double dt,
                     SweepWorkspace& workspace, const Terms& terms)
{
    workspace.records[place] = sweepContact(c, particles, terms.friction(c), dt, static_cast<std::int32_t>(place));
    if (c.kind == ContactKind::Wall || c.kind == ContactKind::Drum) {
        workspace.boundaryVelocity[place] = components(c.surfaceVelocity);
    }
}

/// A record's part of the warm start: its force (the previous step's) applied to the predicted motion of its grains
/// (and the piston), as a change from no force.
inline void warmStartRecord(const SweepContact& s, PredictedMotion& motion)
{
    motion.apply(s, changeOfForce(FrameForce<Vector3Of<double>>{}, forceOf<Vector3Of<double>>(s), s.normal));
}

/// The warm start: the previous step's forces applied to the predicted motion in contact order (as changes from no
/// force), contact k's record at placeOf(k). Returns how many records start the step open.
template <class PlaceOf, class Terms>
std::size_t warmStartSweeps(const std::vector<Contact>& contacts, const PlaceOf& placeOf, PredictedMotion& motion,
                            const SweepWorkspace& workspace, Terms& terms)
{
    std::size_t withoutForce = 0;
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const SweepContact& s = workspace.records[placeOf(k)];
        withoutForce += noForce(forceOf<Vector3Of<double>>(s)) ? 1 : 0;
        warmStartRecord(s, motion);
        terms.warmStarted(k, contacts[k]);
    }
    return withoutForce;
}

/// Whether the sweeps watch for open contacts: where at least half the records start the step open (kWatchOpenShare),
/// with a method that only applies the changes.
template <class Terms> bool watchesOpenContacts(std::size_t withoutForce, std::size_t count)
{
    return Terms::kPlainUpdates && static_cast<double>(withoutForce) >= kWatchOpenShare * static_cast<double>(count);
}

/// The strips that thread `thread` sweeps (and whose records it makes) of one parity: a consecutive run, cut where
/// the pace cuts the parity's contacts. Which thread sweeps a strip never changes a result.
inline std::pair<std::size_t, std::size_t> stripsOfThread(const ContactStrips& strips, const ColourPace& pace,
                                                          std::size_t parity, std::size_t thread)
{
    const auto [from, to] = pace.range(parity, thread, strips.parityCount(parity));
    return strips.share(parity, from, to);
}

/// The strip sweep times its threads' strips (for ColourPace) in one iteration of this many.
inline constexpr std::uint64_t kPacedIterations = 8;

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
    // The strips' measures of iteration j in buffer j % 3: a thread may sweep iteration j + 1 while others merge j - 1.
    constexpr std::uint64_t kBuffers = 3;
    std::array<std::vector<SweepConvergence>, kBuffers> parts;
    parts.fill(std::vector<SweepConvergence>(stripCount, SweepConvergence(solver.forceCutoff, solver.criterion)));
    const SweepConvergence start(contacts, solver.forceCutoff, solver.criterion);
    const bool stopsOnCriterion = solver.criterion != ConvergenceCriterion::Fixed;
    const auto measured = [&](std::uint64_t j) { return stopsOnCriterion || j + 1 >= limit; };
    SweepResult result;
    std::atomic<std::int64_t> knownUpdates{0};
    ColourPace& pace = workspace.stripPace;
    const auto teamMost = static_cast<std::size_t>(std::max(1, solverThreads()));
    std::vector<ProgressCounter> done(stripCount);  // per strip, its sweeps in this step
    std::vector<ProgressCounter> swept(teamMost);   // per thread, the iterations it swept
    std::vector<ProgressCounter> merged(teamMost);  // per thread, the iterations whose measures it merged
    bool watch = false;                             // set with the warm start
    std::atomic<std::size_t> withoutForce{0};       // records that start the step open
    inThreadTeam(count, [&](const ThreadTeam& team) {
        const std::size_t threads = team.size();
        const std::size_t self = team.thread();
        team.single([&] {
            pace.adjust();
            pace.start(2, threads);
        });
        const std::array<std::pair<std::size_t, std::size_t>, 2> mine{stripsOfThread(strips, pace, 0, self),
                                                                      stripsOfThread(strips, pace, 1, self)};
        const auto forMyStrips = [&](std::size_t parity, const auto& body) {
            for (std::size_t k = mine[parity].first; k < mine[parity].second; k += 2) {
                for (std::size_t i = strips.firstMember(k); i < strips.firstMember(k + 1); ++i) {
                    body(i);
                }
            }
        };
        // Each strip's record made by the thread that sweeps it (it starts in that thread's cache), and its warm start,
        // the even strips' before the odd strips' (strips of one parity share no grain): the same sums for any thread
        // count.
        const auto warmStart = [&](std::size_t i) {
            warmStartRecord(records[i], motion);
            terms.warmStarted(members[i], contacts[members[i]]);
        };
        std::size_t open = 0;  // of this thread's records, those that start the step open
        for (const std::size_t parity : {0, 1}) {
            forMyStrips(parity, [&](std::size_t i) {
                makeSweepRecord(i, contacts[members[i]], particles, solver.dt, workspace, terms);
                open += noForce(forceOf<Vector3Of<double>>(records[i])) ? 1 : 0;
            });
        }
        withoutForce += open;
        forMyStrips(0, warmStart);
        team.barrier();
        forMyStrips(1, warmStart);
        team.barrier();
        team.single([&] {
            terms.prepare(motion);
            watch = watchesOpenContacts<Terms>(withoutForce, count);
            if (watch) {
                ticks.start(motion.size());
            }
        });
        const auto allReached = [&](const std::vector<ProgressCounter>& counters, std::uint64_t value) {
            for (std::size_t t = 0; t < threads; ++t) {
                waitUntil(counters[t], value);
            }
        };
        // Every thread keeps its own copy of the measures and the result: they compute the same numbers.
        SweepConvergence convergence = start;
        SweepResult local;
        std::int64_t known = 0;
        // This thread's time in its strips of each parity, in every kPacedIterations-th iteration (enough for the pace;
        // the clock takes ~25 ns a reading, 2-3 % of a step if read around every strip).
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
            const bool timed = threads > 1 && iteration % kPacedIterations == 0;
            const auto one = [&](std::size_t k) {
                if (k > 0) {
                    waitUntil(done[k - 1], need);
                }
                if (k + 1 < stripCount) {
                    waitUntil(done[k + 1], need);
                }
                if ((k > 0 && foreign(k - 1)) || (k + 1 < stripCount && foreign(k + 1))) {
                    // A neighbour swept by another thread: its grains asked for at once, not one update at a time
                    // (piston2d on two threads: 1.06x the contact updates/s, the 20,000-sphere packing 1.07x).
                    for (std::size_t i = strips.firstMember(k); i < strips.firstMember(k + 1); ++i) {
                        motion.prefetchToWrite(records[i]);
                    }
                }
                if (timed) {
                    const auto began = ColourPace::Clock::now();
                    sweep(k);
                    seconds[parity] += std::chrono::duration<double>(ColourPace::Clock::now() - began).count();
                } else {
                    sweep(k);
                }
                raise(done[k], iteration + 1);
            };
            if (self == 0) {
                for (std::size_t k = last + 2; k > first; k -= 2) {
                    one(k - 2);
                }
                return;
            }
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
                        std::uint32_t* order = places + begin;
                        for (std::size_t m = 0; m < n; ++m) {
                            order[m] = static_cast<std::uint32_t>(m);
                        }
                        Random draws(stripSeed(step, iteration, k));
                        for (std::size_t m = n; m > 1; --m) {
                            std::swap(order[m - 1], order[draws.below(m, workspace.reciprocals[m])]);
                        }
                        SweepConvergence part(solver.forceCutoff, solver.criterion);
                        sweepInOrder<Space, WatchOpen>(
                            records + begin, order, n, [&](std::uint32_t m) { return members[begin + m]; }, motion,
                            boundaryVelocity, terms, ticks, halfTick + static_cast<std::uint32_t>(strips.offset(k)),
                            measure, inLanes, part, known);
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
            forMyStrips(parity, [&](std::size_t i) { contacts[members[i]].force = contactForce(records[i]); });
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
