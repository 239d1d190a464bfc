#pragma once

#include "cd/SweepContact.h"

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace granular {

/// Which updates of the sweeps are known without computing them. An update of a contact that holds no force and gets
/// none (an open contact that stays open: eq. 34 with g_pos / dt + V_n > 0) changes nothing. Its next update reads
/// the same record, the same boundary and, if neither of its grains' predicted velocities changed in between, the
/// same grains: it computes the same numbers and again changes nothing. Most candidates of a loose packing are such
/// (the bench's falling 20,000 spheres: ~92 %), so the sweeps skip them: the same results, bit for bit.
///
/// The sweeps number their updates within a step (ticks, from 1; the coloured sweep one per colour); each grain keeps
/// the tick of the last update that changed its predicted motion, each record the tick at which it was last found
/// staying open (SweepContact::openAt, 0: not found so), both written by updated(). An update at a later tick may be
/// skipped while both grains' ticks are older than the record's (unchanged()). Ticks only grow within a step; where
/// they would pass 2^32 the sweeps forget what they found (reserve()). Only contacts whose boundary cannot move during
/// the sweeps (a grain pair, a wall, the drum) are skipped: the piston's velocity changes with every piston update.
class OpenContactTicks {
public:
    /// A step's first tick, for `grains` grains whose motion is all new (the warm start changed it).
    void start(std::size_t grains)
    {
        changedAt_.assign(grains, 0);
        next_ = 1;
    }
    /// Makes room for `ticks` more ticks: where the count would pass 2^32, forgets every record's tick (`records`:
    /// the records the sweeps read) and starts again from 1.
    void reserve(std::uint64_t ticks, std::span<SweepContact> records)
    {
        if (ticks < std::numeric_limits<std::uint32_t>::max() - next_) {
            return;
        }
        for (SweepContact& s : records) {
            s.openAt = 0;
        }
        start(changedAt_.size());
    }
    /// The tick the next update takes.
    [[nodiscard]] std::uint32_t next() const { return next_; }
    /// Takes `by` ticks (an iteration's updates, or its colours).
    void advance(std::uint32_t by) { next_ += by; }

    /// Whether record s's update can be skipped: it stayed open at its last update, and its grains have not changed
    /// since.
    [[nodiscard]] [[gnu::always_inline]] bool unchanged(const SweepContact& s) const
    {
        const std::uint32_t at = s.openAt;
        if (at == 0 || changedAt_[static_cast<std::size_t>(s.body1)] >= at) {
            return false;
        }
        return s.kind != ContactKind::Particle || changedAt_[static_cast<std::size_t>(s.body0)] < at;
    }
    /// Record s was updated at `tick`: `changed`, its grains' motion (and its force) changed; otherwise it stayed open
    /// and is known so (where its boundary is fixed).
    [[gnu::always_inline]] void updated(SweepContact& s, std::uint32_t tick, bool changed)
    {
        if (!changed) {
            s.openAt = s.kind == ContactKind::Piston ? 0 : tick;
            return;
        }
        s.openAt = 0;
        changedAt_[static_cast<std::size_t>(s.body1)] = tick;
        if (s.kind == ContactKind::Particle) {
            changedAt_[static_cast<std::size_t>(s.body0)] = tick;
        }
    }

private:
    std::vector<std::uint32_t> changedAt_;  ///< per grain, the tick of its last change
    std::uint32_t next_ = 1;
};

}  // namespace granular
