#include "md/LoadAssembly.h"

#include "model/World.h"

#include <algorithm>
#include <stdexcept>

namespace granular::md {

std::size_t LoadAssembly::blocksFor(std::size_t contacts)
{
    const auto threads = static_cast<std::size_t>(solverThreads());
    return threads > 1 && static_cast<std::ptrdiff_t>(contacts) >= kSmallestParallelLoop ? threads : 1;
}

void LoadAssembly::index(const World& world, std::size_t blocks)
{
    grains_ = world.particles.size();
    contacts_ = world.contacts.size();
    partner_.resize(contacts_);
    particle_.resize(contacts_);
    kept_.resize(contacts_);
    piston_.clear();
    // The contacts' bodies, kinds and weights (a closed one, overlapping now, weighs as much as kClosedWeight open
    // ones, which cost a distance only) on the solver threads: the contacts are large records, read once here.
    kind_.resize(contacts_);
    weight_.resize(contacts_);
    parallelFor(contacts_, [this, &world](std::size_t k) {
        const Contact& c = world.contacts[k];
        particle_[k] = c.particle;
        partner_[k] = c.kind == ContactKind::Particle ? c.partner : 0;
        kind_[k] = c.kind;
        weight_[k] = c.gap < 0.0 ? kClosedWeight : 1;
    });
    // The work of a block: the weights of its grains' contacts as body 1.
    std::vector<std::size_t> work(grains_ + 1, 0);
    std::size_t pairs = 0;
    for (std::size_t k = 0; k < contacts_; ++k) {
        work[static_cast<std::size_t>(particle_[k]) + 1] += weight_[k];
        if (kind_[k] == ContactKind::Particle) {
            if (pairs != k || (k > 0 && particle_[k - 1] > particle_[k])) {
                throw std::logic_error("LoadAssembly: the contacts are not sorted by Contact::key()");
            }
            pairs = k + 1;  // the grain pairs come first (the kind leads the key), by their higher grain
        } else if (kind_[k] == ContactKind::Piston) {
            piston_.push_back(static_cast<std::uint32_t>(k));
        }
    }
    for (std::size_t i = 0; i < grains_; ++i) {
        work[i + 1] += work[i];
    }
    const std::size_t count = grains_ > 0 ? std::min(blocks > 0 ? blocks : blocksFor(contacts_), grains_) : 1;
    shares_ = nextShares(count);
    blocks_.assign(count, Block{});
    clocks_.assign(count, BlockClock{});
    // Block b begins at the first grain whose work before it reaches the shares of the blocks before it.
    std::size_t grain = 0;
    double cumulative = 0.0;
    for (std::size_t b = 0; b < count; ++b) {
        blocks_[b].firstGrain = grain;
        cumulative += shares_[b];
        const auto target = static_cast<std::size_t>(cumulative * static_cast<double>(work[grains_]));
        while (grain < grains_ && (b + 1 == count || work[grain] < target)) {
            ++grain;
        }
        blocks_[b].endGrain = b + 1 == count ? grains_ : grain;
        blocks_[b].work = work[blocks_[b].endGrain] - work[blocks_[b].firstGrain];
    }
    std::vector<std::size_t> blockOf(grains_);
    for (std::size_t b = 0; b < count; ++b) {
        for (std::size_t i = blocks_[b].firstGrain; i < blocks_[b].endGrain; ++i) {
            blockOf[i] = b;
        }
    }
    std::size_t k = 0;
    for (Block& block : blocks_) {
        block.firstPair = k;
        while (k < pairs && static_cast<std::size_t>(particle_[k]) < block.endGrain) {
            ++k;
        }
        block.endPair = k;
    }
    for (std::size_t p = 0; p < pairs; ++p) {
        const std::size_t lower = blockOf[static_cast<std::size_t>(partner_[p])];
        if (lower != blockOf[static_cast<std::size_t>(particle_[p])]) {
            blocks_[lower].crossing.push_back(static_cast<std::uint32_t>(p));
        }
    }
    for (std::size_t c = pairs; c < contacts_; ++c) {
        blocks_[blockOf[static_cast<std::size_t>(particle_[c])]].boundary.push_back(static_cast<std::uint32_t>(c));
    }
    pairsEndWith_.clear();
    boundaryRuns_.clear();
    if (count == 1) {
        // completingGrains' order: the last body 1 of each grain's pairs, carried up the grains; the boundary
        // contacts' runs by kind.
        pairsEndWith_.resize(grains_);
        for (std::size_t i = 0; i < grains_; ++i) {
            pairsEndWith_[i] = static_cast<std::uint32_t>(i);
        }
        for (std::size_t p = 0; p < pairs; ++p) {
            auto& end = pairsEndWith_[static_cast<std::size_t>(partner_[p])];
            end = std::max(end, static_cast<std::uint32_t>(particle_[p]));
        }
        for (std::size_t i = 1; i < grains_; ++i) {
            pairsEndWith_[i] = std::max(pairsEndWith_[i], pairsEndWith_[i - 1]);
        }
        const std::vector<std::uint32_t>& boundary = blocks_.front().boundary;
        for (std::size_t b = 0; b < boundary.size(); ++b) {
            if (b == 0 || kind_[boundary[b]] != kind_[boundary[b - 1]]) {
                boundaryRuns_.push_back(b);
            }
        }
        boundaryRuns_.push_back(boundary.size());
        if (boundaryRuns_.size() > 4) {
            throw std::logic_error("LoadAssembly: more than three kinds of boundary contacts");
        }
    }
}

std::vector<double> LoadAssembly::nextShares(std::size_t count) const
{
    const double equal = 1.0 / static_cast<double>(count);
    std::vector<double> shares(count, equal);
    if (blocks_.size() != count || shares_.size() != count) {
        return shares;  // the first cut, or another number of blocks
    }
    std::vector<double> speed(count);
    double total = 0.0;
    for (std::size_t b = 0; b < count; ++b) {
        if (clocks_[b].seconds <= 0.0 || blocks_[b].work == 0) {
            return shares;  // nothing measured since the last cut
        }
        speed[b] = static_cast<double>(blocks_[b].work) / clocks_[b].seconds;
        total += speed[b];
    }
    double sum = 0.0;
    for (std::size_t b = 0; b < count; ++b) {
        const double measured = speed[b] / total;
        shares[b] = std::max(kLeastShare * equal, (1.0 - kShareSmoothing) * shares_[b] + kShareSmoothing * measured);
        sum += shares[b];
    }
    for (double& share : shares) {
        share /= sum;
    }
    return shares;
}

std::vector<std::size_t> LoadAssembly::blockStarts() const
{
    std::vector<std::size_t> starts;
    starts.reserve(blocks_.size());
    for (const Block& block : blocks_) {
        starts.push_back(block.firstGrain);
    }
    return starts;
}

bool LoadAssembly::indexes(const World& world) const
{
    return contacts_ == world.contacts.size() && grains_ == world.particles.size() &&
           blocks_.size() == std::min(blocksFor(contacts_), std::max<std::size_t>(grains_, 1));
}

}  // namespace granular::md
