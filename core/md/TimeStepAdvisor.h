#pragma once

#include "md/DampedHertzImpact.h"
#include "md/MaterialModel.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace granular {

struct World;

namespace md {

/// How fast the stiffest contact of a world moves, for choosing and checking the MD time step.
struct ContactTimeScale {
    double duration = std::numeric_limits<double>::infinity();    ///< s, t_c of a collision (infinite: overdamped)
    double resolution = std::numeric_limits<double>::infinity();  ///< s, pi / |lambda| of the fastest mode; <= t_c
    double dampingRatio = 0.0;                                    ///< 1, zeta of that contact
    std::string contact;  ///< the contact in words, with its parameters and units
};

/// Linear oscillator of stiffness k (N/m), dashpot c (kg/s) and mass m (kg): omega_0 = sqrt(k/m),
/// zeta = c / (2 sqrt(k m)); an underdamped collision lasts t_c = pi / (omega_0 sqrt(1 - zeta^2));
/// the resolution is pi / omega_0, or pi / (omega_0 (zeta + sqrt(zeta^2 - 1))) when overdamped.
[[nodiscard]] ContactTimeScale linearTimeScale(double stiffness, double damping, double mass);

/// Hertz collision at the impact speed v (m/s) of the contact law k_h (N/m^1.5) and mass m* (kg)
/// with the damping `hertz`: t_c = s_c (m*^2 / (k_h^2 v))^(1/5), which is 2.868 (m*^2 / (R* E*^2 v))^(1/5)
/// without damping (s_c = 3.218, k_h = 4/3 E* sqrt(R*)).
[[nodiscard]] double hertzContactDuration(double hertzStiffness, double mass, double speed,
                                          const HertzCalibration& hertz);

/// The fastest contact of the world: the two lightest grains against each other and the lightest
/// grain against a rigid body (wall, piston, drum or a grain of infinite mass). For the Hertz law
/// the collision at `impactSpeed` (m/s) and the oscillation at `largestOverlap` (m) both count. With `forAdvice`,
/// the description also says where most of the impact speed is a fall across the container (a walk over the grains
/// that the steps' automatic substeps need not pay for).
[[nodiscard]] ContactTimeScale contactTimeScale(const World& world, const MaterialModel& material,
                                                const HertzCalibration& hertz, double impactSpeed,
                                                double largestOverlap, bool forAdvice = false);

/// The most MD steps per solver.dt, set or automatic: a solver step is the unit a run can be stopped after (SIGINT,
/// Pause), and 1e9 steps of one grain took ten minutes.
inline constexpr std::int64_t kMostSubsteps = 1000000;

/// Steps of the MD per solver.dt so that each is at most the resolution / 50, or / 10 for an
/// overdamped contact (zeta >= 1, no rebound to resolve); at least 1, at most kMostSubsteps (timeStepAdvice then
/// warns).
[[nodiscard]] std::int64_t automaticSubsteps(double dt, const ContactTimeScale& scale);

/// A warning when the MD step dt/substeps exceeds the resolution / 10 (a collision resolved by
/// fewer than ten steps): one sentence with units and a suggested solver.dt.
[[nodiscard]] std::optional<std::string> timeStepAdvice(double dt, std::int64_t substeps,
                                                        const ContactTimeScale& scale);

}  // namespace md
}  // namespace granular
