#pragma once

#include <vector>

namespace granular {
struct World;
}  // namespace granular

namespace granular::analysis {

/// Counts of a quantity in equal bins over [low, high).
struct Histogram {
    double low = 0.0;
    double high = 1.0;
    std::vector<double> counts;

    [[nodiscard]] double binWidth() const { return (high - low) / static_cast<double>(counts.size()); }
    /// Adds one sample; values outside the range go to the first or last bin.
    void add(double value);
    [[nodiscard]] double total() const;
};

/// The directions of the grain-grain contact normals (Shaebani et al. 2009, Fig. 9 left); n and -n are the same
/// contact. 2D: the angle of n to the x axis in [0, pi). 3D: |n_z| in [0, 1], which is uniform for
/// an isotropic distribution (the cosine of the polar angle is uniform on the sphere).
[[nodiscard]] Histogram contactNormalHistogram(const World& world, int bins);

/// Contacts per unit volume (2D: area) on a grid of cellsPerAxis^D boxes over the periodic cell (or
/// the world's bounds), by contact point; x varies fastest (Shaebani et al. 2009, Fig. 9 right). In a periodic cell the
/// grid follows its edges (reduced coordinates), so a sheared cell is divided into equal parallelograms.
[[nodiscard]] std::vector<double> contactDensityGrid(const World& world, int cellsPerAxis);

/// The normal forces of the grain-grain contacts divided by their mean, binned over [0, largestRatio);
/// larger ones are counted in the last bin.
[[nodiscard]] Histogram forceDistribution(const World& world, int bins, double largestRatio);

}  // namespace granular::analysis
