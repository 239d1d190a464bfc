#pragma once

// Random contact lists for the tests of the contact-list machinery (colouring, load assembly).
#include "model/Contact.h"
#include "util/Random.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

namespace granular::test {

/// Candidates among `grains` grains: random pairs, plus wall and piston contacts, sorted by key as detection
/// leaves them.
inline std::vector<Contact> randomContacts(std::size_t grains, std::size_t pairs, Random& random)
{
    std::set<std::uint64_t> seen;
    std::vector<Contact> contacts;
    while (contacts.size() < pairs) {
        Contact c;
        const auto a = static_cast<std::int32_t>(random.below(grains));
        const auto b = static_cast<std::int32_t>(random.below(grains));
        const double kind = random.uniform();
        c.kind = kind < 0.8 ? ContactKind::Particle : (kind < 0.9 ? ContactKind::Wall : ContactKind::Piston);
        c.particle = std::max(a, b);
        c.partner = c.kind == ContactKind::Particle ? std::min(a, b) : (c.kind == ContactKind::Wall ? a % 4 : 0);
        if ((c.kind == ContactKind::Particle && a == b) || !seen.insert(c.key()).second) {
            continue;
        }
        contacts.push_back(c);
    }
    std::sort(contacts.begin(), contacts.end(), [](const Contact& x, const Contact& y) { return x.key() < y.key(); });
    return contacts;
}

}  // namespace granular::test
