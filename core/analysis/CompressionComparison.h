#pragma once

#include "analysis/CompressionLevels.h"

#include <cstdint>
#include <vector>

namespace granular::analysis {

/// A compression run as its outputs hold it: the series (compression, stroke, top force) and the snapshots at
/// the compression levels.
struct CompressionRun {
    std::vector<double> compression;  ///< m
    std::vector<std::int64_t> stroke;
    std::vector<double> topForce;  ///< N
    std::vector<CompressionLevel> levels;
    bool protocolEnded = false;  ///< the run stopped because the plate's program was over (its stopping rule)
};

/// How far a compression run is from a reference run (Brodu et al. 2015, "Models"), on the last complete
/// loading/unloading cycle that both have (strokes 3 and 4 of the usual four; a stroke a run stopped inside, and the
/// rest after the protocol, do not count):
/// - topRatio (R_top): the run's top force over the reference's at the largest compression of the loading stroke
///   (the snapshot of its deepest level);
/// - forceErrorLevels (err_f, N): RMS of the difference of the top forces over every compression level of the cycle;
/// - forceErrorLoading, forceErrorUnloading: RMS of the difference of the top-force curves over the compression
///   range, loading and unloading separately, relative to the reference's largest top force over the cycle;
/// - bhattacharyya (bhat): -log sum sqrt(p q) of the grain-grain normal force distributions p, q (20 equal bins
///   up to the larger of the two largest forces), averaged over the cycle's compression levels; at a level where the
///   two histograms share no bin the distance is infinite, and -log 1e-300 = 690.8 stands in for it (one such level
///   then outweighs the rest of the mean);
/// - coordinationError (err_Z): RMS over those levels of the difference of Z after dropping forces below the
///   threshold (Z_tau).
struct CompressionComparison {
    std::int64_t loadingStroke = 0;
    std::int64_t unloadingStroke = 0;  ///< 0: the runs have no unloading stroke
    double topForce = 0.0;             ///< N, the run's at the largest compression of the loading stroke
    double referenceTopForce = 0.0;    ///< N
    double topRatio = 0.0;
    double forceErrorLoading = 0.0;
    double forceErrorUnloading = 0.0;
    double forceErrorLevels = 0.0;  ///< N
    double bhattacharyya = 0.0;
    double coordinationError = 0.0;
    int levelsCompared = 0;
};

/// Compares two runs. Throws std::invalid_argument when they share no complete loading stroke.
[[nodiscard]] CompressionComparison compareCompression(const CompressionRun& run, const CompressionRun& reference);

/// The paper's scaling law ("Microscopic Variable Scaling"): the top force against phi Z <f> over the levels of
/// one kind of stroke, fitted as F = slope phi Z <f> + offset (least squares).
struct ScalingFit {
    double slope = 0.0;   ///< 1
    double offset = 0.0;  ///< N
    double r2 = 0.0;      ///< 1
    int points = 0;
    /// Whether the levels determine the line: two or more with different phi Z <f> (slope, offset and r2 are 0 else).
    bool determined = false;
};

/// The fit over the loading (down) or unloading (up) strokes' levels.
[[nodiscard]] ScalingFit fitTopForceScaling(const std::vector<CompressionLevel>& levels, bool loading);

}  // namespace granular::analysis
