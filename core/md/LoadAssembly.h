#pragma once

#include "model/Contact.h"
#include "util/Parallel.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

namespace granular {

struct World;

namespace md {

/// What one contact adds to its two bodies.
struct ContactLoad {
    Vec3 force = Vec3::Zero();    ///< N, on body 1 (its reaction on body 0)
    Vec3 impulse = Vec3::Zero();  ///< N s, on body 1 (step loads only)
    Vec3 torque1 = Vec3::Zero();  ///< N m, on body 1: lever1 x F_t
    Vec3 torque0 = Vec3::Zero();  ///< N m, whose negative acts on body 0: lever0 x F_t
    double forceAlong = 0.0;      ///< N, force . normal (a piston contact's share of the piston's load)
    double impulseAlong = 0.0;    ///< N s, impulse . normal
    bool active = false;          ///< false: the contact adds nothing (open before and after)
};

/// Evaluates the contacts and adds their loads to the bodies on the solver threads, bit for bit as one loop over
/// the contacts in index order would: every grain sums the loads of its contacts in ascending contact index.
///
/// The grains are cut into one block of consecutive indices per thread. The contacts are sorted by (kind, grain,
/// partner): grain pairs first, by their higher index. A thread owns the grains of its block and is the only one to add
/// to them. In a first phase it evaluates the grain pairs whose higher grain is its own, in index order, adds to its
/// grains at once and keeps the loads of pairs whose other grain belongs to an earlier block ("crossing" pairs), then
/// evaluates its grains' boundary contacts (walls, piston, drum) and keeps their loads. After all threads are through,
/// it adds the crossing pairs' loads to its grains, which come after that grain's other pairs in index order, then the
/// boundary contacts' loads, which come last. The piston sums its contacts afterwards in index order. So the loads, and
/// every result after them, are the same for any thread count and wherever the blocks are cut; no contact is evaluated
/// twice, nothing is added with atomics.
///
/// The cut gives each block a share of the work (a closed contact counting as kClosedWeight open ones): equal shares at
/// first, then shares in proportion to how fast each block's thread got through its first phases since the cut before
/// (work per second, smoothed): a solver thread on a core that the machine runs slower for a while gets less. Only the
/// time to a result depends on the cut.
class LoadAssembly {
public:
    /// Indexes the world's contacts (sorted by Contact::key()) for the current solver threads; needed after every
    /// change of the contact list. `blocks`: the blocks of grains (0: one per solver thread where the list has at
    /// least kSmallestParallelLoop contacts, else 1); blocks without a thread of their own run one after the other.
    void index(const World& world, std::size_t blocks = 0);
    /// Whether the index was made for a contact list of this size over this many grains and the current threads.
    [[nodiscard]] bool indexes(const World& world) const;

    /// Evaluates every contact and adds its load to the bodies. `sink` has:
    ///   void evaluatePairs(std::size_t first, std::size_t last, const std::int32_t* partner,
    ///                      const std::int32_t* particle, ContactLoad* loads)   evaluates the grain pairs [first, last)
    ///       (a run of at most kPairRun, body 0 and body 1 of pair first + r at partner[r] and particle[r]) into
    ///       loads[0, last - first), e.g. one loop for the run's geometry before its loads: consecutive pairs' square
    ///       roots overlap where one pair's whole evaluation would wait on each;
    ///   void evaluate(std::size_t k, ContactLoad& load)   the load of wall, piston or drum contact k: sets `active`
    ///       and, if set, what the other calls read (evaluatePairs likewise for its pairs; every contact is evaluated
    ///       once, on any thread);
    ///   void clear(std::size_t first, std::size_t last)   zeroes the loads of grains [first, last);
    ///   void toBody1(std::size_t grain, const ContactLoad&) and toBody0(...): adds to body 1 / body 0;
    ///   void toPiston(const ContactLoad&): adds a piston contact's share (in contact order, one thread).
    template <class Sink> void assemble(const Sink& sink)
    {
        assemble(sink, [](std::size_t /*first*/, std::size_t /*last*/) {});
    }
    /// As assemble(sink), and with several blocks, blockDone(first, last) for each block's grains [first, last) on
    /// that block's thread once their loads are summed (not called with one block).
    template <class Sink, class BlockDone> void assemble(const Sink& sink, const BlockDone& blockDone);

    /// The first grain of each block, ascending (the last block ends at the last grain).
    [[nodiscard]] std::vector<std::size_t> blockStarts() const;

    /// Reduces body(first, last) over each block's grains [first, last), each on the thread that assembles that block
    /// (block b on solver thread b), merged in block order; as parallelRangeReduce where the grains form one block or
    /// the index is of another number of grains or solver threads (the blocks of any index cover the grains: only the
    /// pace changes).
    template <class T, class Body, class Merge>
    T reduceOverBlocks(std::size_t grains, T initial, const Body& body, const Merge& merge) const;

    /// Whether the grains form one block (one solver thread, or a short contact list): completingGrains may then be
    /// used.
    [[nodiscard]] bool oneBlock() const { return blocks_.size() == 1; }
    /// One block only, a run of `run` grains at a time (the runs start at multiples of `run`): calls grain(j) for every
    /// grain j of the run in ascending order, then pair(k, i, j) for the grain pairs k whose body 1 j is in the run
    /// (body 0 is i < j, a grain of this or an earlier run) in ascending k; then, for the grains [first, last) whose
    /// pairs have all been called since (the pairs whose body 0 a grain is come with their higher grain), boundary(k)
    /// for their wall, piston and drum contacts, each grain's in ascending k, then complete(first, last). Every grain
    /// sees its contacts in ascending index, its pairs before its boundary contacts, as one loop over the contacts in
    /// index order gives them, and both grains of a pair have had grain() called before the pair; the grains are
    /// complete in ascending order, the piston's contacts come in ascending index. (The pairs of a run in one loop over
    /// k, with no branch per grain: the end of each grain's pairs, taken per grain, was a mispredicted branch a grain.)
    template <class Grain, class Pair, class Boundary, class Complete>
    void completingGrains(std::size_t run, const Grain& grain, const Pair& pair, const Boundary& boundary,
                          const Complete& complete) const;

    /// The grain pairs evaluated at a time: enough for the processor to overlap their latencies, few enough for a
    /// run's data to stay in the first-level cache.
    static constexpr std::size_t kPairRun = 32;

private:
    /// How many open candidates a closed contact's evaluation costs as much as (its spring, dashpot and torques
    /// against an open pair's distance): the work that the blocks' shares are of counts contacts by this weight.
    static constexpr std::uint8_t kClosedWeight = 3;

    /// How far the work shares may move towards the measured speeds at each cut (the rest is the shares before):
    /// timings of a few steps are noisy.
    static constexpr double kShareSmoothing = 0.5;
    /// The least share of a block, as a fraction of an equal share.
    static constexpr double kLeastShare = 0.5;

    /// Seconds a block's thread spent in first phases since the last cut (a cache line each: the threads write them).
    struct alignas(64) BlockClock {
        double seconds = 0.0;
    };

    /// The block of consecutive grains that one thread owns.
    struct Block {
        std::size_t firstGrain = 0;
        std::size_t endGrain = 0;
        std::size_t firstPair = 0;  ///< the grain pairs whose higher grain is in the block: [firstPair, endPair)
        std::size_t endPair = 0;
        std::vector<std::uint32_t> crossing;  ///< pairs of a later block whose lower grain is here, ascending
        std::vector<std::uint32_t> boundary;  ///< the block's grains' wall, piston and drum contacts, ascending
        std::size_t work = 0;                 ///< of its contacts' evaluations (kClosedWeight or 1 each)
    };

    /// The work shares of the next cut into `count` blocks (summing to 1): equal, or moved towards the speeds that
    /// the blocks' clocks measured since the last cut.
    [[nodiscard]] std::vector<double> nextShares(std::size_t count) const;

    /// The blocks a contact list of this length is cut into: the solver threads, or 1 for short lists.
    [[nodiscard]] static std::size_t blocksFor(std::size_t contacts);

    std::vector<Block> blocks_;
    std::vector<double> shares_;          ///< of the work, per block, of the last cut
    std::vector<BlockClock> clocks_;      ///< per block, since the last cut
    std::vector<std::uint32_t> piston_;   ///< contacts with the piston, ascending
    std::vector<std::int32_t> partner_;   ///< body 0 of every grain pair
    std::vector<std::int32_t> particle_;  ///< body 1 of every contact
    std::vector<ContactLoad> kept_;       ///< crossing pairs' and piston contacts' loads of the last assembly
    std::vector<ContactKind> kind_;       ///< of every contact, while indexing
    std::vector<std::uint8_t> weight_;    ///< of every contact's evaluation, while indexing (kClosedWeight or 1)
    /// Per grain i: the grain whose pairs (as body 1) come last among those of grains 0 ... i (one block only): once
    /// they are through, grains 0 ... i have all their pairs.
    std::vector<std::uint32_t> pairsEndWith_;
    /// The runs of the one block's boundary contacts by kind (walls, then the piston, then the drum): where each
    /// starts in Block::boundary, and its end.
    std::vector<std::size_t> boundaryRuns_;
    std::size_t contacts_ = 0;
    std::size_t grains_ = 0;
};

template <class Sink, class BlockDone> void LoadAssembly::assemble(const Sink& sink, const BlockDone& blockDone)
{
    // The pace of each block's thread is of use only where there are blocks to share the work between.
    const bool timed = blocks_.size() > 1;
    const auto firstPhase = [&](std::size_t b) {
        const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
        const Block& block = blocks_[b];
        sink.clear(block.firstGrain, block.endGrain);
        std::array<ContactLoad, kPairRun> loads;
        for (std::size_t run = block.firstPair; run < block.endPair; run += kPairRun) {
            const std::size_t end = std::min(run + kPairRun, block.endPair);
            sink.evaluatePairs(run, end, partner_.data() + run, particle_.data() + run, loads.data());
            for (std::size_t k = run; k < end; ++k) {
                const ContactLoad& load = loads[k - run];
                const auto partner = static_cast<std::size_t>(partner_[k]);
                if (partner < block.firstGrain) {
                    kept_[k] = load;  // the owner of the partner adds it in the second phase
                }
                if (!load.active) {
                    continue;
                }
                sink.toBody1(static_cast<std::size_t>(particle_[k]), load);
                if (partner >= block.firstGrain) {
                    sink.toBody0(partner, load);
                }
            }
        }
        // The boundary contacts' loads come after every pair's in their grains' sums: kept for the second phase (and
        // the piston's sum below).
        for (const std::uint32_t k : block.boundary) {
            sink.evaluate(k, kept_[k]);
        }
        if (timed) {
            clocks_[b].seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
    };
    const auto secondPhase = [&](std::size_t b) {
        const Block& block = blocks_[b];
        for (const std::uint32_t k : block.crossing) {
            if (kept_[k].active) {
                sink.toBody0(static_cast<std::size_t>(partner_[k]), kept_[k]);
            }
        }
        for (const std::uint32_t k : block.boundary) {
            if (kept_[k].active) {
                sink.toBody1(static_cast<std::size_t>(particle_[k]), kept_[k]);
            }
        }
        if (blocks_.size() > 1) {
            blockDone(block.firstGrain, block.endGrain);
        }
    };
    parallelPhases(blocks_.size(), firstPhase, secondPhase);
    for (const std::uint32_t k : piston_) {
        if (kept_[k].active) {
            sink.toPiston(kept_[k]);
        }
    }
}

template <class T, class Body, class Merge>
T LoadAssembly::reduceOverBlocks(std::size_t grains, T initial, const Body& body, const Merge& merge) const
{
    // Blocks indexed for another thread count (the thread pace may run a step on fewer threads) are not used: they
    // would put their threads to work past the step's cap.
    if (blocks_.size() <= 1 || grains != grains_ || blocks_.size() != blocksFor(contacts_)) {
        return parallelRangeReduce(grains, initial, body, merge);
    }
    // One block per solver thread here: the static schedule gives block b to thread b, as assemble's phases do.
    std::vector<T> partial(blocks_.size(), initial);
    parallelFor(
        blocks_.size(),
        [&](std::size_t b) {
            if (blocks_[b].firstGrain < blocks_[b].endGrain) {
                partial[b] = body(blocks_[b].firstGrain, blocks_[b].endGrain);
            }
        },
        1);
    for (const T& value : partial) {
        merge(initial, value);
    }
    return initial;
}

template <class Grain, class Pair, class Boundary, class Complete>
void LoadAssembly::completingGrains(std::size_t run, const Grain& grain, const Pair& pair, const Boundary& boundary,
                                    const Complete& complete) const
{
    const Block& block = blocks_.front();
    const std::int32_t* particle = particle_.data();
    const std::int32_t* partner = partner_.data();
    const std::uint32_t* pairsEndWith = pairsEndWith_.data();
    const std::uint32_t* boundaryContact = block.boundary.data();
    // A cursor per run of boundary contacts of one kind: each run is sorted by grain. A grain's boundary contacts are
    // added run by run, in ascending index; between grains the order does not matter (each sums only its own).
    std::array<std::size_t, 3> cursor{};
    std::array<std::size_t, 3> runEnd{};
    const std::size_t runs = boundaryRuns_.size() - 1;
    for (std::size_t r = 0; r < runs; ++r) {
        cursor.at(r) = boundaryRuns_[r];
        runEnd.at(r) = boundaryRuns_[r + 1];
    }
    std::size_t k = block.firstPair;
    std::size_t finished = 0;  // the grains before it are complete
    for (std::size_t first = 0; first < grains_; first += run) {
        const std::size_t last = std::min(first + run, grains_);
        for (std::size_t j = first; j < last; ++j) {
            grain(j);
        }
        for (; k < block.endPair && static_cast<std::size_t>(particle[k]) < last; ++k) {
            pair(k, static_cast<std::size_t>(partner[k]), static_cast<std::size_t>(particle[k]));
        }
        const std::size_t j = last - 1;
        std::size_t end = finished;
        while (end <= j && pairsEndWith[end] <= j) {
            ++end;
        }
        if (end == finished) {
            continue;
        }
        for (std::size_t r = 0; r < runs; ++r) {
            for (; cursor[r] < runEnd[r] && static_cast<std::size_t>(particle[boundaryContact[cursor[r]]]) < end;
                 ++cursor[r]) {
                boundary(static_cast<std::size_t>(boundaryContact[cursor[r]]));
            }
        }
        complete(finished, end);
        finished = end;
    }
}

}  // namespace md
}  // namespace granular
