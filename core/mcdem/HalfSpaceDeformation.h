#pragma once

#include "util/Vector.h"

#include <cmath>
#include <numbers>
#include <utility>

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

    /// m: the displacement at the point at distance `lengthC` from the centre (m) whose direction makes
    /// cos = `s` with the load's, the load's point at distance `lengthK`, for
    /// gamma (1 + nu) F / (2 pi E) = `complianceForce` (m^2).
    [[nodiscard]] double displacement(double complianceForce, double s, double lengthK, double lengthC) const
    {
        const double d2 = lengthC * lengthC + lengthK * lengthK - 2.0 * lengthC * lengthK * s;
        const double inverseD = 1.0 / std::sqrt(d2);
        const double ku = (lengthK - lengthC * s) * inverseD;  // n_k.u
        const double cu = (lengthK * s - lengthC) * inverseD;  // n_c.u
        double bracket = ku * cu + (3.0 - 4.0 * nu_) * s;
        if (nu_ != 0.5 && 1.0 + ku > 1e-9) {
            bracket -= (1.0 - 2.0 * nu_) * (s + cu) / (1.0 + ku);
        }
        return -complianceForce * bracket * inverseD;
    }

    /// 1/m, per unit gamma (1 + nu) F / (2 pi E): the displacement at point b from a load at point a, and at a
    /// from a load at b, for points at distances lengthA, lengthB (m) from the centre whose directions make
    /// cos = s. The two share d and most of the bracket: with nu = 1/2 they are equal.
    [[nodiscard]] std::pair<double, double> mutualDisplacements(double s, double lengthA, double lengthB) const
    {
        const double d2 = lengthA * lengthA + lengthB * lengthB - 2.0 * lengthA * lengthB * s;
        const double inverseD = 1.0 / std::sqrt(d2);
        const double ku = (lengthA - lengthB * s) * inverseD;  // load at a, point b: n_k.u
        const double cu = (lengthA * s - lengthB) * inverseD;  // n_c.u
        const double common = ku * cu + (3.0 - 4.0 * nu_) * s;
        double atB = common;
        double atA = common;  // the load at b, point a: n_k.u = -cu, n_c.u = -ku
        if (nu_ != 0.5) {
            const double flat = 1.0 - 2.0 * nu_;
            if (1.0 + ku > 1e-9) {
                atB -= flat * (s + cu) / (1.0 + ku);
            }
            if (1.0 - cu > 1e-9) {
                atA -= flat * (s - ku) / (1.0 - cu);
            }
        }
        return {-atB * inverseD, -atA * inverseD};
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
