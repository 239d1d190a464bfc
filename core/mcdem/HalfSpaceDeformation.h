#pragma once

#include "util/Vector.h"

#include <cmath>
#include <numbers>

namespace granular::mcdem {

/// The normal displacement at contact point p_c of a grain that the normal force F >= 0 at its contact point p_k
/// causes (Brodu et al. 2015; docs/REFERENCES.md): the normal component at p_c of the elastic half-space
/// (Boussinesq) displacement of a point load F at p_k,
///     delta = -gamma (1 + nu) F / (2 pi E d) [ (n_k.u)(n_c.u) + (3 - 4 nu)(n_k.n_c)
///                                               - (1 - 2 nu) (n_k + u).n_c / (1 + n_k.u) ],
/// with p_c, p_k relative to the grain's centre, n = p/|p|, d = |p_c - p_k| and u = (p_k - p_c)/d. Both points
/// are given by their direction from the centre and their distance from it (the contact points lie inside the
/// sphere by about half the overlap). Positive: the surface at p_c moves out (the grain bulges there). For two
/// opposite poles of a sphere of radius R, delta = gamma (1 + nu)(3 - 2 nu) F / (4 pi E R).
/// 1 + n_k.u >= 1 whenever p_k is at least as far from the centre as p_c projects onto n_k, which holds for
/// contact points on or near the surface; the (1 - 2 nu) term is dropped where 1 + n_k.u is below 1e-9.
class HalfSpaceDeformation {
public:
    explicit HalfSpaceDeformation(double poissonRatio) : nu_(poissonRatio) {}

    /// m/N: the displacement at the point (directionC, lengthC) per unit force at (directionK, lengthK), for
    /// gamma (1 + nu) / (2 pi E) = `compliance` (m^2/N). Lengths in m, directions unit vectors.
    [[nodiscard]] double displacement(double compliance, const Vec3& directionK, double lengthK,
                                      const Vec3& directionC, double lengthC) const
    {
        const double s = directionK.dot(directionC);
        const double d = std::sqrt(std::max(0.0, lengthC * lengthC + lengthK * lengthK - 2.0 * lengthC * lengthK * s));
        const double ku = (lengthK - lengthC * s) / d;  // n_k.u
        const double cu = (lengthK * s - lengthC) / d;  // n_c.u
        double bracket = ku * cu + (3.0 - 4.0 * nu_) * s;
        if (1.0 + ku > 1e-9) {
            bracket -= (1.0 - 2.0 * nu_) * (s + cu) / (1.0 + ku);
        }
        return -compliance * bracket / d;
    }

    /// m^2/N, gamma (1 + nu) / (2 pi E).
    [[nodiscard]] double compliance(double gamma, double youngModulus) const
    {
        return gamma * (1.0 + nu_) / (2.0 * std::numbers::pi * youngModulus);
    }

    /// A bound of the outward displacement anywhere on a grain per unit compliance * force / length, for contact
    /// points no nearer the centre than `length`: twice the opposite poles' (3 - 2 nu)/2 of points on one sphere.
    [[nodiscard]] double largestShape() const { return 3.0 - 2.0 * nu_; }

private:
    double nu_;
};

}  // namespace granular::mcdem
