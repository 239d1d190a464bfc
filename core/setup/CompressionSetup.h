#pragma once

namespace granular {

struct World;
struct Settings;

/// The compression experiment of Brodu et al. 2015: spheres in a box (floor and four sides, box.width x
/// box.depth) closed by a rigid plate that a PlateDrive moves down and up at constant speed between
/// compression.top_start and compression.top_end. The grains come from particles.file, or stand on a lattice
/// column tall enough for all of them, onto which the plate comes down from above before the strokes begin.
void buildCompressionWorld(World& world, const Settings& settings);

}  // namespace granular
