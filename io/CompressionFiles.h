#pragma once

#include "analysis/CompressionComparison.h"

#include <filesystem>
#include <ostream>
#include <vector>

namespace granular {

/// `levels.csv`: one row per compression level snapshot: stroke, level, t (s), compression (m), top_force (N),
/// volume_fraction, coordination (Z), coordination_above_threshold (Z_tau), mean_force (N) and
/// phi_z_mean_force (N, phi Z <f> of the scaling law).
void writeCompressionLevels(std::ostream& out, const std::vector<analysis::CompressionLevel>& levels);

/// `contact_forces.csv`: stroke, level, force (N): every grain-grain normal contact force of every snapshot.
void writeContactForces(std::ostream& out, const std::vector<analysis::CompressionLevel>& levels);

/// The compression run in a `granular run` output directory: series.csv (compression, stroke, top_force),
/// levels.csv and contact_forces.csv. Throws std::runtime_error naming the file and what is missing.
[[nodiscard]] analysis::CompressionRun readCompressionRun(const std::filesystem::path& directory);

}  // namespace granular
