#pragma once

#include "util/Vector.h"

#include <cstddef>
#include <vector>

namespace granular {

/// Particles stored structure-of-arrays: one array per field, index = particle id.
/// 2D scenarios keep z = 0 and rotate about z only.
struct Particles {
    std::vector<Vec3> position;         ///< m
    std::vector<Vec3> velocity;         ///< m/s
    std::vector<Vec3> angularVelocity;  ///< rad/s
    std::vector<double> radius;         ///< m
    std::vector<double> mass;           ///< kg
    std::vector<double> inertia;        ///< kg m^2: 2/5 m r^2 (sphere), 1/2 m r^2 (disk)
    std::vector<Vec3> externalForce;    ///< N, applied at the centre besides gravity (e.g. the chain's push)

    [[nodiscard]] std::size_t size() const { return position.size(); }

    /// Appends a particle at rest; mass and moment of inertia follow from the density and dimension.
    void add(const Vec3& x, double r, double density, int dimension);
};

/// Mass of a sphere (3D) or of a disk of unit thickness (2D) of the given density.
double particleMass(double radius, double density, int dimension);
/// Moment of inertia of a solid sphere (2/5 m r^2) or disk (1/2 m r^2) about its centre.
double particleInertia(double mass, double radius, int dimension);

}  // namespace granular
