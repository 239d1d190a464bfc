#pragma once

#include <array>
#include <cstdint>

namespace granular {

/// The named stages of one step, in order (Box2D-style profile).
enum class StepStage { Neighbours, Contacts, Solve, Integrate, Observe, Count };

inline constexpr std::array<const char*, static_cast<int>(StepStage::Count)> kStepStageNames = {
    "neighbours", "contacts", "solve", "integrate", "observe"};

/// What the last step did and how long each stage took.
struct StepDiagnostics {
    std::int64_t iterations = 0;       ///< solver iterations used in this step
    double residual = 0.0;             ///< convergence measure of the last iteration (method-specific)
    double forceChange = 0.0;          ///< CD: the last sweep's |dR| / |R| over all contacts (force convergence)
    std::int64_t contacts = 0;         ///< active contacts (non-zero force)
    std::int64_t slidingContacts = 0;  ///< active contacts whose friction is at the Coulomb limit (CD methods)
    std::int64_t candidates = 0;       ///< contact candidates visited by the solver
    std::int64_t contactUpdates = 0;   ///< one-contact solves performed in this step
    std::int64_t knownUpdates = 0;     ///< CD: of these, the ones known without computing them (OpenContactTicks)
    double meanOverlap = 0.0;          ///< m, over active contacts
    double maxOverlap = 0.0;           ///< m
    std::array<double, static_cast<int>(StepStage::Count)> stageSeconds{};  ///< wall time per stage
};

}  // namespace granular
