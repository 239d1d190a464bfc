#pragma once

#include "model/Contact.h"

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace granular {

class Random;

/// Contacts in colours such that no two contacts of one colour share a grain (greedy: each contact takes the lowest
/// colour that neither of its grains has yet, the piston's contacts first, then the others, each in ascending contact
/// index; so the piston's contacts all take colour 0, the one colour whose contacts a coloured sweep ends with one
/// after another on one thread). Walls and the drum move on their own, so they join any colour; the piston too: a
/// coloured sweep updates a colour's piston contacts after the others. A colour may be cut into several of at most a
/// given size (what a shared body, the periodic cell, can take at once). The colours depend on the contacts and that
/// size only, never on the thread count.
class ContactColouring {
public:
    /// Colours `contacts` between `particles` grains, at most `mostPerColour` contacts a colour (a larger one is cut
    /// into colours of consecutive members).
    void colour(const std::vector<Contact>& contacts, std::size_t particles,
                std::size_t mostPerColour = std::numeric_limits<std::size_t>::max());

    [[nodiscard]] std::size_t colours() const { return start_.empty() ? 0 : start_.size() - 1; }
    /// All contacts, colour by colour: colour k's are the members(k).size() from firstMember(k) on.
    [[nodiscard]] std::span<const std::uint32_t> allMembers() const { return members_; }
    /// Where colour k's contacts start in allMembers().
    [[nodiscard]] std::size_t firstMember(std::size_t k) const { return start_[k]; }
    /// The contacts of colour `k`, in ascending index.
    [[nodiscard]] std::span<const std::uint32_t> members(std::size_t k) const
    {
        return {members_.data() + start_[k], members_.data() + start_[k + 1]};
    }
    /// The piston contacts of colour `k`, in ascending index.
    [[nodiscard]] std::span<const std::uint32_t> pistonMembers(std::size_t k) const
    {
        return {pistonMembers_.data() + pistonStart_[k], pistonMembers_.data() + pistonStart_[k + 1]};
    }
    /// A fresh random order of the colours (an iteration's), drawn from `random`.
    [[nodiscard]] const std::vector<std::uint32_t>& shuffledOrder(Random& random);

private:
    /// Cuts every colour of more than `most` members into colours of `most` consecutive members (ascending contact
    /// index) and a last of the rest; returns the number of colours.
    std::size_t cutColours(std::size_t colours, std::size_t most);

    std::vector<std::array<std::int32_t, 2>> grains_;  ///< per contact: body 1's grain, body 0's (-1: not a grain)
    std::vector<std::uint8_t> piston_;                 ///< per contact: 1 where it touches the piston
    std::vector<std::uint32_t> colourOf_;              ///< per contact
    std::vector<std::uint64_t> taken_;                 ///< per grain, bit masks of the colours its contacts hold
    std::vector<std::uint32_t> degree_;                ///< per grain, contacts
    std::vector<std::uint32_t> start_;                 ///< colour k's members: [start_[k], start_[k + 1])
    std::vector<std::uint32_t> members_;               ///< contact indices by colour
    std::vector<std::uint32_t> pistonStart_;    ///< colour k's piston contacts: [pistonStart_[k], pistonStart_[k + 1])
    std::vector<std::uint32_t> pistonMembers_;  ///< piston contact indices by colour
    std::vector<std::uint32_t> order_;          ///< the colours' sweep order
};

}  // namespace granular
