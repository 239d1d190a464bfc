#pragma once

#include <array>
#include <span>

namespace granular::ui {

using Rgb = std::array<double, 3>;  ///< red, green, blue in [0, 1]

/// Particles: close to matplotlib's "viridis" (dark blue-violet, teal, green, yellow). Every
/// entry is bright enough against the dark background, and none is red or orange, so force
/// chains drawn on top stay distinct.
inline constexpr std::array<Rgb, 5> kParticleColours{{
    {0.267, 0.005, 0.329},
    {0.231, 0.322, 0.545},
    {0.129, 0.569, 0.549},
    {0.369, 0.788, 0.384},
    {0.992, 0.906, 0.145},
}};

/// Force chains by f_n / <f_n>: dark red to orange, hues between 0 and 40 degrees.
inline constexpr std::array<Rgb, 4> kForceColours{{
    {0.353, 0.000, 0.000},
    {0.784, 0.118, 0.039},
    {1.000, 0.392, 0.078},
    {1.000, 0.690, 0.290},
}};

/// The colour at s in [0, 1] (clamped) of a map given by equally spaced stops.
[[nodiscard]] Rgb colourAt(std::span<const Rgb> stops, double s);

}  // namespace granular::ui
