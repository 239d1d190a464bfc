#pragma once

#include "model/Particles.h"

#include <Eigen/Geometry>

#include <cmath>

namespace granular {

/// A square (2D) or cubic (3D) cell [0, L)^D repeated periodically in every direction, whose size
/// L(t) is a dynamical variable driven by the pressure difference (seed 003 eq. 16, 19, 23-24).
struct PeriodicCell {
    int dimension = 3;           ///< 2: the x-y plane is periodic, z = 0; 3: x, y and z
    double length = 1.0;         ///< m, L
    double dilationRate = 0.0;   ///< 1/s, lambda = (dL/dt)/L (eq. 16)
    double innerPressure = 0.0;  ///< Pa (2D: N/m), P_in(t) of eq. 22 as the last step's iteration ended

    /// m^3 (2D: m^2), V = L^D.
    [[nodiscard]] double volume() const { return dimension == 2 ? length * length : length * length * length; }

    /// The shortest of the vectors d + L a over integer a (eq. 21), component by component.
    [[nodiscard]] Vec3 minimumImage(Vec3 d) const
    {
        for (int a = 0; a < dimension; ++a) {
            d[a] -= length * std::round(d[a] / length);
        }
        return d;
    }

    /// The image of x inside [0, L)^D.
    [[nodiscard]] Vec3 wrap(Vec3 x) const
    {
        for (int a = 0; a < dimension; ++a) {
            x[a] -= length * std::floor(x[a] / length);
            if (x[a] >= length) {  // a tiny negative x rounds up to L
                x[a] -= length;
            }
            if (x[a] < 0.0) {
                x[a] = 0.0;
            }
        }
        return x;
    }

    /// m, the cell as a box (zero thickness along z in 2D).
    [[nodiscard]] Eigen::AlignedBox3d box() const
    {
        return {Vec3::Zero(), Vec3(length, length, dimension == 2 ? 0.0 : length)};
    }
};

}  // namespace granular
