#pragma once

#include <cstdint>

namespace granular {
struct World;
}  // namespace granular

namespace granular::analysis {

/// Scalar measures of a packing (Shaebani et al. 2009, section 5). A contact counts when it carries a
/// compressive normal force; overlaps are measured at the current positions (minimum image in a
/// periodic cell) and are CD's accuracy measure.
struct PackingStatistics {
    double volumeFraction = 0.0;               ///< 1, grain volume (2D: area) over the cell's (or box's)
    double meanOverlap = 0.0;                  ///< m, over the grain-grain contacts
    double maxOverlap = 0.0;                   ///< m
    std::int64_t contacts = 0;                 ///< grain-grain contacts
    std::int64_t rattlers = 0;                 ///< grains without any contact
    double coordination = 0.0;                 ///< 1, mean contacts per grain, 2 contacts / grains
    double coordinationWithoutRattlers = 0.0;  ///< 1, 2 contacts / (grains - rattlers)
};

[[nodiscard]] PackingStatistics packingStatistics(const World& world);

/// Grain volume (2D: area) over the periodic cell's volume, or over the world's bounds without a cell.
[[nodiscard]] double volumeFraction(const World& world);

}  // namespace granular::analysis
