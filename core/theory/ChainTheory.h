#pragma once

namespace granular::theory {

/// Relaxation factor q of one Gauss-Seidel sweep in a random order (Unger & Kertesz 2003, eq. 46): (4 sqrt(e) - 5)/2.
[[nodiscard]] double randomSweepRelaxation();

/// A 1D chain of n equal disks in permanent contact, solved by CD with a fixed number of iterations
/// per step. Its incomplete force relaxation makes it behave like a visco-elastic medium
/// (Unger & Kertesz 2003, section 3); the functions below are that continuum description.
struct ChainParameters {
    int particleCount = 50;                       ///< n
    double mass = 1.0;                            ///< m, kg
    double diameter = 1.0;                        ///< d, m
    double timeStep = 1.0;                        ///< dt, s
    int iterationsPerStep = 40;                   ///< N_I
    double relaxation = randomSweepRelaxation();  ///< q, dimensionless
};

/// D = q N_I d^2 / dt (Unger & Kertesz 2003, eq. 54): diffusion constant of the contact forces along the chain, m^2/s.
[[nodiscard]] double forceDiffusionConstant(const ChainParameters& chain);
/// c = sqrt(q N_I) d / dt (Unger & Kertesz 2003, eq. 57): velocity of the spurious sound, m/s.
[[nodiscard]] double soundVelocity(const ChainParameters& chain);
/// omega(k) = k sqrt(c^2 - D^2 k^2 / 4) (Unger & Kertesz 2003, eq. 58), rad/s, for a wave number k in 1/m.
/// NaN when the mode is overdamped (k > k_c): it relaxes without oscillating.
[[nodiscard]] double angularFrequency(const ChainParameters& chain, double waveNumber);
/// Whether the mode of wave number k (1/m) is overdamped, k > k_c.
[[nodiscard]] bool isOverdamped(const ChainParameters& chain, double waveNumber);
/// tau(k) = 2 / (D k^2) (Unger & Kertesz 2003, eq. 60): damping time of the oscillating mode of wave number k (1/m), s.
[[nodiscard]] double dampingTime(const ChainParameters& chain, double waveNumber);
/// k_c = 2c / D (Unger & Kertesz 2003, eq. 59): the shortest oscillating waves have this wave number, 1/m.
[[nodiscard]] double criticalWaveNumber(const ChainParameters& chain);
/// l_diff = sqrt(4 D dt) = 2 d sqrt(q N_I) (Unger & Kertesz 2003, eq. 63): below this length the packing looks rigid,
/// m.
[[nodiscard]] double diffusionLength(const ChainParameters& chain);
/// L = n d, m.
[[nodiscard]] double chainLength(const ChainParameters& chain);
/// k = 2 pi / (4 L): the slowest mode of a chain fixed at one end and free at the other, whose
/// wavelength is four chain lengths; it alone survives the transient (Unger & Kertesz 2003, Fig. 6-7), 1/m.
[[nodiscard]] double slowestModeWaveNumber(const ChainParameters& chain);
/// kappa = q m N_I / dt^2 (Unger & Kertesz 2003, eq. 67): MD contact stiffness with the same large-scale dynamics, N/m.
[[nodiscard]] double equivalentStiffness(const ChainParameters& chain);
/// gamma = q m N_I / dt (Unger & Kertesz 2003, eq. 68): MD contact damping coefficient to go with kappa, kg/s.
[[nodiscard]] double equivalentDamping(const ChainParameters& chain);

}  // namespace granular::theory
