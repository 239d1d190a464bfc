#pragma once

namespace granular {

struct World;
struct Settings;

/// The `periodic` setup (Shaebani et al. 2009, section 5): grains with radii uniform in [radius_min, radius_max],
/// mass ~ area (2D) or volume (3D), at random non-overlapping positions in a square (cubic) periodic
/// cell sized for `cell.initial_fraction`, at rest, lambda(0) = 0, no walls.
/// Throws ScenarioError naming the key when the drawn grains do not fit or are too few for the cell.
void buildPeriodicWorld(World& world, const Settings& settings);

}  // namespace granular
