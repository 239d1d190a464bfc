#pragma once

#include "settings/Settings.h"

#include <cstdint>

namespace granular {

struct World;

/// What soft grains at rest still show through the rounding of their coordinates: a position is known to
/// delta x = epsilon L (L the largest coordinate, epsilon = 2^-52), and the fastest contact's rate omega (its angular
/// frequency, or its fast decay rate ~c/m where it is overdamped) turns that into speeds of ~omega delta x and
/// accelerations of ~omega^2 delta x (measured on periodic2d with md's CD-equivalent contacts, zeta = 6.3 and
/// omega = 1.6e4 1/s: the network's mean speed stalls at 0.4 omega delta x = 3e-11 m/s and its mean acceleration at
/// 0.5 omega^2 delta x = 5.7e-7 m/s^2, far above the default threshold of 1e-10). The cell's speed
/// lambda L is the grains' relative speed across it and has their floor; its acceleration L |P_in - P_ext| / M_lambda
/// has that of P_in. Rigid grains (cd) have no such floor: their positions move only where the solver pushes them.
struct RelaxationFloor {
    double speed = 0.0;                 ///< m/s, of the grains and the cell
    double acceleration = 0.0;          ///< m/s^2, of the grains
    double boundaryAcceleration = 0.0;  ///< m/s^2, of the cell

    /// How far above the noise a measure has to stay to tell motion from rounding.
    static constexpr double kMargin = 10.0;
};

/// How far a packing at constant pressure is from rest (Shaebani et al. 2009, section 5: "mean velocity and mean
/// acceleration below a threshold"), measured on the grains of the force network, i.e. those with at
/// least D (the dimension) force-carrying contacts after the last step, and on the cell.
/// Two departures from a plain mean over all grains, both needed for the rule to be reachable:
/// - rattlers are left out: CD collisions are inelastic but a free grain in its cage loses speed only at
///   the next collision, so its speed decays like 1/t, never to 1e-10 in practice. A grain with fewer than
///   D contacts counts as a rattler too: D sticking contact points fix a rigid grain, fewer leave it a free
///   motion (measured in 3D: a sphere held by two contacts swings about the axis through them at ~1e-2 m/s
///   for thousands of steps, and the mean speed of the network stalled at ~1e-5 m/s);
/// - speeds are taken relative to the network's mass-weighted mean velocity: momentum is conserved, so
///   the network drifts opposite to the rattlers' momentum, and a uniform translation of a periodic
///   packing deforms nothing.
/// The cell counts as one more body moving at the boundary velocity lambda L: in the dilute gas the
/// grains stand still while the cell shrinks around them.
struct Relaxation {
    double meanSpeed = 0.0;             ///< m/s, <|v_i - V|> over the network, V its mean velocity
    double meanAcceleration = 0.0;      ///< m/s^2, <|a_i|> over the network, a_i = g + F_i/m_i (last step's forces)
    double boundarySpeed = 0.0;         ///< m/s, |lambda| L (free shape: L max |Lambda_ab|)
    double boundaryAcceleration = 0.0;  ///< m/s^2, L |P_in - P_ext| / M_lambda (eq. 19; free shape: every component)
    std::int64_t networkGrains = 0;     ///< grains with at least D force-carrying contacts

    /// The stopping rule: every measure below the threshold (applied to m/s and m/s^2 alike, as in the paper).
    [[nodiscard]] bool below(double threshold) const { return below(threshold, RelaxationFloor{}); }
    /// The same where the packing cannot be seen stiller than `floor`: every measure below the larger of the threshold
    /// and its floor.
    [[nodiscard]] bool below(double threshold, const RelaxationFloor& floor) const;
};

/// Measures a periodic world after a step (world.cell must be set).
Relaxation measureRelaxation(const World& world, const PressureSettings& coupling);

/// kMargin times the rounding noise of soft grains in the periodic world (world.cell must be set) whose fastest contact
/// has the rate omega (1/s) and the stiffness k (N/m): for the grains omega delta x and
/// omega^2 delta x; for the cell L dP / M_lambda with dP = sqrt(N_c) k delta x l / (D V) the noise of P_in (eq. 22) of
/// its N_c closed contacts, each force rounded by k delta x on its own, l the largest grain's diameter, D the dimension
/// and V the cell's volume. No floor (zeros) where omega or k is not finite and positive.
[[nodiscard]] RelaxationFloor roundingFloor(const World& world, const PressureSettings& coupling,
                                            double angularFrequency, double stiffness);

}  // namespace granular
