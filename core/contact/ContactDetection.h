#pragma once

#include "contact/CellList.h"
#include "contact/GrainPairList.h"
#include "model/Contact.h"

#include <vector>

namespace granular {

struct World;

/// Finds the contact candidates of a world (sphere-sphere, sphere-plane, sphere-piston and
/// sphere-drum pairs whose gap is below a margin), computes their geometry and effective masses
/// (Unger & Kertesz 2003, eq. 17-18) and carries over the forces of candidates that already existed.
class ContactDetection {
public:
    /// `relativePairSkin` (smallest radii): the skin of the grain pairs' Verlet list in a box (GrainPairList; 0:
    /// a cell search at every update). The candidates are the same for any skin.
    explicit ContactDetection(double relativePairSkin = 0.0) : pairList_(relativePairSkin) {}

    /// `margin` (m): candidates are pairs with gap < margin; it must cover the approach within one step.
    void update(World& world, double margin);

private:
    CellList cells_;          ///< a periodic cell's search
    GrainPairList pairList_;  ///< a box's grain pairs
    std::vector<std::pair<std::int32_t, std::int32_t>> pairs_;
    std::vector<Contact> next_;
    std::vector<double> inverseMass_;                  ///< 1/kg, per grain, of the last update
    std::vector<double> tangentialTerm_;               ///< 1/kg, 1/m + r^2/I per grain (eq. 18), of the last update
    std::vector<std::vector<Contact>> blockContacts_;  ///< boundary candidates of each block of grains
};

/// Gap below which a pair is a candidate in the step t -> t + dt: a fraction of the smallest radius
/// plus what the fastest bodies can close in one step.
double candidateMargin(const World& world, double dt, double relativeMargin);

}  // namespace granular
