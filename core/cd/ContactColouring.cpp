#include "cd/ContactColouring.h"

#include "cd/SweepOrder.h"
#include "util/Random.h"

#include <algorithm>
#include <bit>

namespace granular {

namespace {

/// Groups the indices k with a set `include(k)` by colourOf[k] (a counting sort, stable: ascending within a colour).
template <class Include>
void bucket(const std::vector<std::uint32_t>& colourOf, std::size_t colours, const Include& include,
            std::vector<std::uint32_t>& start, std::vector<std::uint32_t>& members)
{
    start.assign(colours + 1, 0);
    for (std::size_t k = 0; k < colourOf.size(); ++k) {
        if (include(k)) {
            ++start[colourOf[k] + 1];
        }
    }
    for (std::size_t c = 0; c < colours; ++c) {
        start[c + 1] += start[c];
    }
    members.resize(start[colours]);
    std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
    for (std::size_t k = 0; k < colourOf.size(); ++k) {
        if (include(k)) {
            members[next[colourOf[k]]++] = static_cast<std::uint32_t>(k);
        }
    }
}

/// The lowest colour that neither grain's mask holds (`partner` may be null), over `words` 64-bit words of colours;
/// the caller's words have room for one.
std::size_t lowestFreeColour(const std::uint64_t* mine, const std::uint64_t* partner, std::size_t words)
{
    for (std::size_t w = 0; w < words; ++w) {
        const std::uint64_t free = ~(mine[w] | (partner != nullptr ? partner[w] : 0U));
        if (free != 0U) {
            return w * 64 + static_cast<std::size_t>(std::countr_zero(free));
        }
    }
    return words * 64;
}

}  // namespace

void ContactColouring::colour(const std::vector<Contact>& contacts, std::size_t particles, std::size_t mostPerColour)
{
    // One pass over the candidates' records (three cache lines each): their grains and whether they touch the piston,
    // and each grain's degree; the rest reads these.
    const std::size_t count = contacts.size();
    grains_.resize(count);
    piston_.resize(count);
    degree_.assign(particles, 0);
    for (std::size_t k = 0; k < count; ++k) {
        const Contact& c = contacts[k];
        const bool pair = c.kind == ContactKind::Particle;
        grains_[k] = {c.particle, pair ? c.partner : -1};
        piston_[k] = c.kind == ContactKind::Piston ? 1 : 0;
        ++degree_[static_cast<std::size_t>(c.particle)];
        if (pair) {
            ++degree_[static_cast<std::size_t>(c.partner)];
        }
    }
    // A contact finds a free colour below deg(i) + deg(j) - 1 < 2 max deg: that many bits per grain suffice.
    const std::uint32_t maxDegree = degree_.empty() ? 0 : *std::max_element(degree_.begin(), degree_.end());
    const std::size_t words = 2 * static_cast<std::size_t>(maxDegree) / 64 + 1;
    taken_.assign(particles * words, 0);
    colourOf_.resize(count);
    std::size_t colours = 0;
    // Contact k takes the lowest colour that neither of its grains holds yet.
    const auto place = [&](std::size_t k) {
        const auto [particle, other] = grains_[k];
        std::uint64_t* mine = taken_.data() + static_cast<std::size_t>(particle) * words;
        std::uint64_t* partner = other >= 0 ? taken_.data() + static_cast<std::size_t>(other) * words : nullptr;
        const std::size_t colour = lowestFreeColour(mine, partner, words);  // one is free below 2 max deg (above)
        const std::size_t w = colour / 64;
        const std::uint64_t mask = std::uint64_t{1} << (colour % 64);
        mine[w] |= mask;
        if (partner != nullptr) {
            partner[w] |= mask;
        }
        colourOf_[k] = static_cast<std::uint32_t>(colour);
        colours = std::max(colours, colour + 1);
    };
    // The piston's contacts first: each on a grain of its own that holds no colour yet, they all take the first
    // colour, the only one that needs the piston's update after it (taken last, in index order, they fell into 4-5 of
    // piston2d's 7 colours, each then ending with a wait of the team).
    for (std::size_t k = 0; k < count; ++k) {
        if (piston_[k] != 0) {
            place(k);
        }
    }
    for (std::size_t k = 0; k < count; ++k) {
        if (piston_[k] == 0) {
            place(k);
        }
    }
    if (mostPerColour < count) {
        colours = cutColours(colours, std::max<std::size_t>(mostPerColour, 1));
    }
    bucket(
        colourOf_, colours, [](std::size_t) { return true; }, start_, members_);
    bucket(
        colourOf_, colours, [&](std::size_t k) { return piston_[k] != 0; }, pistonStart_, pistonMembers_);
    resetSweepOrder(order_, colours);
}

std::size_t ContactColouring::cutColours(std::size_t colours, std::size_t most)
{
    std::vector<std::size_t> size(colours, 0);
    for (const std::uint32_t c : colourOf_) {
        ++size[c];
    }
    // Colour c becomes colours first[c] .. first[c + 1] - 1, of `most` members each but the last.
    std::vector<std::size_t> first(colours + 1, 0);
    for (std::size_t c = 0; c < colours; ++c) {
        first[c + 1] = first[c] + (size[c] + most - 1) / most;
    }
    std::vector<std::size_t> seen(colours, 0);
    for (std::uint32_t& c : colourOf_) {
        const std::uint32_t was = c;
        c = static_cast<std::uint32_t>(first[was] + seen[was]++ / most);
    }
    return first[colours];
}

const std::vector<std::uint32_t>& ContactColouring::shuffledOrder(Random& random)
{
    if (!order_.empty()) {
        shuffleSweepOrder(order_, random);
    }
    return order_;
}

}  // namespace granular
