#pragma once

// What every order of the Gauss-Seidel sweep shares (GaussSeidelSweep.h, ColouredSweep.h, StripSweep.h): the step's
// records and what the sweeps keep between steps, one update, one pass over records in a given order, the warm start.

#include "cd/ColourPace.h"
#include "cd/ContactColouring.h"
#include "cd/ContactStrips.h"
#include "cd/ContactUpdate.h"
#include "cd/GrainContactLanes.h"
#include "cd/OpenContactTicks.h"
#include "cd/PredictedMotion.h"
#include "cd/SweepContact.h"
#include "cd/SweepConvergence.h"
#include "settings/Settings.h"
#include "util/Reciprocal.h"
#include "util/SpinWait.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace granular {

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
    /// The strip sweep's measures per strip of iteration j in stripMeasures[j % kStripMeasureBuffers]: a thread may
    /// sweep iteration j + 1 while others merge j - 1.
    static constexpr std::size_t kStripMeasureBuffers = 3;
    std::array<std::vector<SweepConvergence>, kStripMeasureBuffers> stripMeasures;
    ProgressCounters stripDone;              ///< per strip, the strip sweep's sweeps of it in this step
    ProgressCounters threadSwept;            ///< per thread, the iterations it swept
    ProgressCounters threadMerged;           ///< per thread, the iterations whose measures it merged
    ColourPace pace;                         ///< where the coloured sweep cuts its colours between threads
    std::vector<SweepContact> colourOrder;   ///< the coloured sweep's copies of the records, colour by colour
    std::vector<std::uint32_t> colourPlace;  ///< contact a's place in colourOrder
    std::vector<ForceChange> forceChange;    ///< the coloured sweep's, in colour order, in the current iteration
    std::vector<double> change;              ///< N, the coloured sweep's dR_n per piston contact, ditto
    OpenContactTicks ticks;                  ///< which updates are known to change nothing (plain CD's sweeps)
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

}  // namespace granular
