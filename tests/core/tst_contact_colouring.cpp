// ContactColouring (solver.sweep = coloured): every contact in exactly one colour, no two contacts of a colour
// sharing a grain (so a colour's updates may run at once), members in ascending index, the piston contacts listed
// apart and all in the first colour, and fewer colours than twice the largest number of contacts on one grain (greedy
// colouring's bound).
#include "RandomContacts.h"
#include "cd/ContactColouring.h"
#include "util/Random.h"

#include <QTest>

#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

using namespace granular;

class ContactColouringTest : public QObject {
    Q_OBJECT

private slots:
    void coloursShareNoGrainAndCoverEveryContactOnce()
    {
        Random random(3);
        const std::size_t grains = 300;
        const std::vector<Contact> contacts = test::randomContacts(grains, 2000, random);
        ContactColouring colouring;
        colouring.colour(contacts, grains);

        std::vector<int> seen(contacts.size(), 0);
        std::vector<std::size_t> degree(grains, 0);
        for (const Contact& c : contacts) {
            ++degree[static_cast<std::size_t>(c.particle)];
            if (c.kind == ContactKind::Particle) {
                ++degree[static_cast<std::size_t>(c.partner)];
            }
        }
        const std::size_t maxDegree = *std::max_element(degree.begin(), degree.end());
        QVERIFY(colouring.colours() >= maxDegree);     // a grain's contacts all differ in colour
        QVERIFY(colouring.colours() < 2 * maxDegree);  // greedy: deg(i) + deg(j) - 1 at most
        std::size_t pistonContacts = 0;
        for (std::size_t k = 0; k < colouring.colours(); ++k) {
            std::vector<int> grainUsed(grains, 0);
            const auto members = colouring.members(k);
            QVERIFY(!members.empty());
            QVERIFY(std::is_sorted(members.begin(), members.end()));
            for (const std::uint32_t a : members) {
                ++seen[a];
                const Contact& c = contacts[a];
                QCOMPARE(grainUsed[static_cast<std::size_t>(c.particle)]++, 0);
                if (c.kind == ContactKind::Particle) {
                    QCOMPARE(grainUsed[static_cast<std::size_t>(c.partner)]++, 0);
                }
            }
            const auto pistons = colouring.pistonMembers(k);
            QVERIFY(std::is_sorted(pistons.begin(), pistons.end()));
            for (const std::uint32_t a : pistons) {
                QVERIFY(contacts[a].kind == ContactKind::Piston);
                QVERIFY(std::binary_search(members.begin(), members.end(), a));
            }
            pistonContacts += pistons.size();
        }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
        QCOMPARE(pistonContacts,
                 static_cast<std::size_t>(std::count_if(contacts.begin(), contacts.end(), [](const Contact& c) {
                     return c.kind == ContactKind::Piston;
                 })));
        std::printf("%zu contacts on %zu grains: %zu colours (largest degree %zu)\n", contacts.size(), grains,
                    colouring.colours(), maxDegree);
    }

    /// A cap on a colour's size (what the periodic cell takes at once) cuts the larger colours into colours of
    /// consecutive members: still no shared grain, every contact once, none larger than the cap; a cap no colour
    /// reaches changes nothing.
    void aCapCutsTheLargerColours()
    {
        Random random(5);
        const std::size_t grains = 300;
        const std::vector<Contact> contacts = test::randomContacts(grains, 2000, random);
        ContactColouring whole;
        whole.colour(contacts, grains);
        std::size_t largest = 0;
        for (std::size_t k = 0; k < whole.colours(); ++k) {
            largest = std::max(largest, whole.members(k).size());
        }
        ContactColouring same;
        same.colour(contacts, grains, largest);
        QCOMPARE(same.colours(), whole.colours());
        QVERIFY(std::equal(same.allMembers().begin(), same.allMembers().end(), whole.allMembers().begin(),
                           whole.allMembers().end()));
        constexpr std::size_t kCap = 40;
        ContactColouring cut;
        cut.colour(contacts, grains, kCap);
        QVERIFY(cut.colours() > whole.colours());
        std::vector<int> seen(contacts.size(), 0);
        for (std::size_t k = 0; k < cut.colours(); ++k) {
            const auto members = cut.members(k);
            QVERIFY(!members.empty() && members.size() <= kCap);
            QVERIFY(std::is_sorted(members.begin(), members.end()));
            std::set<std::int32_t> used;
            for (const std::uint32_t a : members) {
                ++seen[a];
                QVERIFY(used.insert(contacts[a].particle).second);
                if (contacts[a].kind == ContactKind::Particle) {
                    QVERIFY(used.insert(contacts[a].partner).second);
                }
            }
        }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
    }

    /// The piston's contacts are coloured first, so they all take colour 0, the one colour that ends with the
    /// piston's update on one thread (taken last, in index order, they spread over 4-5 of piston2d's 7 colours). A
    /// chain 0-1-2 pressed by the piston on grains 1 and 2: both piston contacts colour 0, the pairs 1 and 2.
    void pistonContactsTakeTheFirstColour()
    {
        std::vector<Contact> contacts(4);
        contacts[0].partner = 0;
        contacts[0].particle = 1;
        contacts[1].partner = 1;
        contacts[1].particle = 2;
        for (std::size_t k = 2; k < 4; ++k) {
            contacts[k].kind = ContactKind::Piston;
            contacts[k].partner = 0;
            contacts[k].particle = static_cast<std::int32_t>(k - 1);
        }
        ContactColouring colouring;
        colouring.colour(contacts, 3);
        QCOMPARE(colouring.colours(), std::size_t{3});
        QCOMPARE(colouring.pistonMembers(0).size(), std::size_t{2});
        QCOMPARE(colouring.pistonMembers(1).size(), std::size_t{0});
        QCOMPARE(colouring.pistonMembers(2).size(), std::size_t{0});
        QCOMPARE(colouring.members(1).size(), std::size_t{1});
        QCOMPARE(colouring.members(1)[0], std::uint32_t{0});
        QCOMPARE(colouring.members(2)[0], std::uint32_t{1});

        Random random(7);  // many grains under the piston: still one colour holds them all
        const std::vector<Contact> many = test::randomContacts(200, 1500, random);
        colouring.colour(many, 200);
        const auto pistons = static_cast<std::size_t>(
            std::count_if(many.begin(), many.end(), [](const Contact& c) { return c.kind == ContactKind::Piston; }));
        QVERIFY(pistons > 50);
        QCOMPARE(colouring.pistonMembers(0).size(), pistons);
    }

    /// The colours' order is a permutation drawn from the generator: every colour once, the same for the same seed.
    void colourOrderIsASeededPermutation()
    {
        Random random(5);
        const std::vector<Contact> contacts = test::randomContacts(100, 600, random);
        ContactColouring first;
        ContactColouring second;
        first.colour(contacts, 100);
        second.colour(contacts, 100);
        Random a(11);
        Random b(11);
        for (int iteration = 0; iteration < 3; ++iteration) {
            const std::vector<std::uint32_t> order = first.shuffledOrder(a);
            QVERIFY(order == second.shuffledOrder(b));
            std::vector<std::uint32_t> sorted = order;
            std::sort(sorted.begin(), sorted.end());
            for (std::size_t k = 0; k < sorted.size(); ++k) {
                QCOMPARE(sorted[k], static_cast<std::uint32_t>(k));
            }
        }
    }
};

QTEST_APPLESS_MAIN(ContactColouringTest)
#include "tst_contact_colouring.moc"
