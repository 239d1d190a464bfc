#pragma once

#include "method/StepDiagnostics.h"
#include "model/World.h"
#include "settings/Settings.h"

#include <vector>

namespace granular {

/// The observe stage of the CD methods: active contacts (positive normal force), those at the Coulomb limit, the mean
/// and largest overlap at the new positions, and the piston's contact force. Each contact is looked at on the solver
/// threads; the two sums are taken afterwards in contact order, so they are those of one loop over the contacts on
/// one thread, whatever the thread count.
class ContactObserver {
public:
    void observe(World& world, const ContactSettings& contact, StepDiagnostics& diagnostics);

private:
    /// What one contact adds to the sums: zero for a contact that carries no force.
    struct Shares {
        double overlap = 0.0;      ///< m
        double pistonForce = 0.0;  ///< N, its normal force on the piston
    };
    std::vector<Shares> shares_;  ///< per contact, kept from step to step
};

}  // namespace granular
