#pragma once

#include "util/Vector.h"

#include <Eigen/Geometry>

#include <cmath>

namespace granular {

/// A cell repeated periodically in every direction (Shaebani et al. 2009, section 3). Its edges are the columns of
/// the matrix H: a point x has the reduced coordinates s = H^-1 x, and x + H a is the same point for
/// every integer a. The cell deforms as dH/dt = Lambda H with the strain rate Lambda:
/// - in the paper's method (eq. 16, 23-24) only its size changes, Lambda = lambda 1, and the cell stays the
///   square (2D) or cube (3D) it started as;
/// - with `pressure.cell_shape = free` its shape changes too, Lambda being any symmetric matrix (the
///   generalisation of the paper's concluding remarks, after Parrinello and Rahman).
/// In 2D the x-y plane is periodic and z = 0: only the upper-left 2x2 blocks of H and Lambda are used.
struct PeriodicCell {
    int dimension = 3;                     ///< 2: the x-y plane is periodic; 3: x, y and z
    Mat3 edges = Mat3::Identity();         ///< m, H: column a is the cell's a-th edge vector
    Mat3 strainRate = Mat3::Zero();        ///< 1/s, Lambda: dH/dt = Lambda H (symmetric)
    double innerPressure = 0.0;            ///< Pa, P_in(t) of eq. 22 as the last step's iteration ended
    Mat3 innerStress = Mat3::Zero();       ///< Pa, sym(sigma) of eq. 20 then; zero while the shape is fixed
    double externalPressure = 0.0;         ///< Pa, P_ext the cell is driven by (pressure.external)
    Mat3 inverseEdges = Mat3::Identity();  ///< 1/m, H^-1 (kept by setEdges)

    /// A square (2D) or cube (3D) of edge L at rest.
    static PeriodicCell cube(int dimension, double length)
    {
        PeriodicCell cell;
        cell.dimension = dimension;
        cell.setEdges(length * Mat3::Identity());
        return cell;
    }

    void setEdges(const Mat3& h)
    {
        edges = h;
        inverseEdges = h.inverse();
    }

    /// m^3 (2D: m^2), V = det H.
    [[nodiscard]] double volume() const
    {
        return dimension == 2 ? edges.topLeftCorner<2, 2>().determinant() : edges.determinant();
    }

    /// m, V^(1/D): the edge of the square (cube) of the same volume; the edge L itself while the cell keeps
    /// its shape.
    [[nodiscard]] double length() const
    {
        if (isCube()) {
            return edges(0, 0);
        }
        return dimension == 2 ? std::sqrt(volume()) : std::cbrt(volume());
    }

    /// True while H = L 1 exactly: a square (cube) that has only changed its size.
    [[nodiscard]] bool isCube() const
    {
        for (int a = 0; a < dimension; ++a) {
            for (int b = 0; b < dimension; ++b) {
                if (edges(a, b) != (a == b ? edges(0, 0) : 0.0)) {
                    return false;
                }
            }
        }
        return true;
    }

    /// 1/s, lambda = trace(Lambda)/D = (dV/dt)/(D V): the dilation rate of eq. 16.
    [[nodiscard]] double dilationRate() const { return strainRate.trace() / static_cast<double>(dimension); }

    /// Lambda = lambda 1: a change of size only (eq. 16).
    void setDilationRate(double lambda)
    {
        strainRate.setZero();
        strainRate.topLeftCorner(dimension, dimension).diagonal().setConstant(lambda);
    }

    /// m, the distance between the two faces of the cell across axis a (a < D): V over the area of those faces.
    [[nodiscard]] double width(int a) const { return 1.0 / inverseEdges.row(a).head(dimension).norm(); }

    /// m, the smallest of width(a): pairs closer than half of it have one nearest image.
    [[nodiscard]] double narrowestWidth() const
    {
        double w = width(0);
        for (int a = 1; a < dimension; ++a) {
            w = std::min(w, width(a));
        }
        return w;
    }

    /// Reduced coordinates s = H^-1 x (z = 0 in 2D).
    [[nodiscard]] Vec3 reduced(const Vec3& x) const
    {
        Vec3 s = inverseEdges * x;
        if (dimension == 2) {
            s.z() = 0.0;
        }
        return s;
    }

    /// The vector d + H a over integer a with reduced components in [-1/2, 1/2] (eq. 21). While the cell
    /// keeps its shape this is the shortest one; in a sheared cell it is for any pair closer than half of
    /// narrowestWidth(), which holds for contacts (the cell lists check it).
    [[nodiscard]] Vec3 minimumImage(Vec3 d) const
    {
        const Vec3 s = reduced(d);
        for (int a = 0; a < dimension; ++a) {
            const double shift = std::round(s[a]);
            if (shift != 0.0) {
                d -= shift * edges.col(a);
            }
        }
        return d;
    }

    /// The image of x inside the cell: reduced coordinates in [0, 1).
    [[nodiscard]] Vec3 wrap(Vec3 x) const
    {
        const Vec3 s = reduced(x);
        for (int a = 0; a < dimension; ++a) {
            const double shift = std::floor(s[a]);
            if (shift != 0.0) {
                x -= shift * edges.col(a);
            }
        }
        return x;
    }

    /// Moves the cell over one step: H <- (1 + Lambda dt) H (eq. 24), returning the map 1 + Lambda dt that
    /// carries the grains' positions along (eq. 26).
    Mat3 deform(double dt)
    {
        Mat3 map = Mat3::Identity() + dt * strainRate;
        if (dimension == 2) {
            map.row(2).setZero();
            map.col(2).setZero();
            map(2, 2) = 1.0;
        }
        setEdges(map * edges);
        return map;
    }

    /// m, corner k (0-7) of the cell: the sum of the edges a < D whose bit a is set in k (in 2D bit 2 is ignored).
    [[nodiscard]] Vec3 corner(unsigned k) const
    {
        Vec3 x = Vec3::Zero();
        for (int a = 0; a < dimension; ++a) {
            if ((k >> static_cast<unsigned>(a) & 1U) != 0) {
                x += edges.col(a);
            }
        }
        return x;
    }

    /// m, the axis-aligned box around the cell's corners (zero thickness along z in 2D).
    [[nodiscard]] Eigen::AlignedBox3d box() const
    {
        Eigen::AlignedBox3d b(Vec3::Zero());
        for (unsigned k = 0; k < 8; ++k) {
            b.extend(corner(k));
        }
        return b;
    }
};

}  // namespace granular
