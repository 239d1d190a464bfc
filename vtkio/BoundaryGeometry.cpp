#include "BoundaryGeometry.h"

#include "sim/Frame.h"

#include <vtkCellArray.h>
#include <vtkPoints.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace granular::vtkio {

namespace {

using Vec3 = Eigen::Vector3d;

/// Marks on the drum's rim that turn with it.
constexpr int drumMarks = 12;
constexpr int circleSegments = 72;

/// Where the plane through `point` with `normal` cuts the box: the corners of that polygon in
/// order around it (a segment when the box is flat, as in 2D); empty when the plane misses.
/// Works for any orientation, although the scenarios' walls are all axis-aligned.
std::vector<Vec3> boxSection(const Eigen::AlignedBox3d& box, const Vec3& point, const Vec3& normal)
{
    const double tolerance = 1e-9 * std::max(box.diagonal().norm(), 1e-12);
    const auto distance = [&](const Vec3& x) { return normal.dot(x - point); };
    std::array<Vec3, 8> corners;
    for (int i = 0; i < 8; ++i) {
        corners[static_cast<std::size_t>(i)] = box.corner(static_cast<Eigen::AlignedBox3d::CornerType>(i));
    }
    std::vector<Vec3> section;
    const auto addUnique = [&](const Vec3& x) {
        const bool seen =
            std::any_of(section.begin(), section.end(), [&](const Vec3& y) { return (x - y).norm() <= tolerance; });
        if (!seen) {
            section.push_back(x);
        }
    };
    for (const auto& corner : corners) {
        if (std::abs(distance(corner)) <= tolerance) {
            addUnique(corner);
        }
    }
    // Corner i has bit 0/1/2 set when it sits at the box's maximum x/y/z: edges join corners one bit apart.
    for (std::size_t i = 0; i < 8; ++i) {
        for (std::size_t bit : {1U, 2U, 4U}) {
            if ((i & bit) != 0) {
                continue;
            }
            const Vec3& a = corners[i];
            const Vec3& b = corners[i | bit];
            const double da = distance(a);
            const double db = distance(b);
            if ((da > tolerance && db < -tolerance) || (da < -tolerance && db > tolerance)) {
                addUnique(a + (b - a) * (da / (da - db)));
            }
        }
    }
    if (section.size() > 2) {
        Vec3 centre = Vec3::Zero();
        for (const auto& x : section) {
            centre += x;
        }
        centre /= static_cast<double>(section.size());
        const Vec3 u = normal.unitOrthogonal();
        const Vec3 v = normal.normalized().cross(u);
        const auto angle = [&](const Vec3& x) { return std::atan2((x - centre).dot(v), (x - centre).dot(u)); };
        std::sort(section.begin(), section.end(), [&](const Vec3& x, const Vec3& y) { return angle(x) < angle(y); });
    }
    return section;
}

vtkIdType addPoint(vtkPoints& points, const Vec3& x)
{
    return points.InsertNextPoint(x.x(), x.y(), x.z());
}

void addSegment(vtkPoints& points, vtkCellArray& lines, const Vec3& a, const Vec3& b)
{
    lines.InsertNextCell(2);
    lines.InsertCellPoint(addPoint(points, a));
    lines.InsertCellPoint(addPoint(points, b));
}

}  // namespace

void addCircle(vtkPoints& points, vtkCellArray& lines, const Vec3& centre, const Vec3& u, const Vec3& v, double radius)
{
    lines.InsertNextCell(circleSegments + 1);
    const vtkIdType first = points.GetNumberOfPoints();
    for (int k = 0; k < circleSegments; ++k) {
        const double a = 2.0 * std::numbers::pi * k / circleSegments;
        lines.InsertCellPoint(addPoint(points, centre + radius * (std::cos(a) * u + std::sin(a) * v)));
    }
    lines.InsertCellPoint(first);
}

vtkNew<vtkPolyData> wallGeometry(const Frame& frame, bool piston)
{
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> cells;
    if (!frame.bounds.isEmpty()) {
        for (const auto& wall : frame.walls) {
            if (wall.piston != piston) {
                continue;
            }
            const auto section = boxSection(frame.bounds, wall.point, wall.normal);
            const std::size_t needed = frame.dimension == 2 ? 2 : 3;
            if (section.size() < needed) {
                continue;
            }
            cells->InsertNextCell(static_cast<int>(section.size()));
            for (const auto& x : section) {
                cells->InsertCellPoint(addPoint(*points.Get(), x));
            }
        }
    }
    vtkNew<vtkPolyData> geometry;
    geometry->SetPoints(points);
    if (frame.dimension == 2) {
        geometry->SetLines(cells);
    } else {
        geometry->SetPolys(cells);
    }
    return geometry;
}

vtkNew<vtkPolyData> containerGeometry(const Frame& frame)
{
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> lines;
    if (frame.hasDrum) {
        const double depth = frame.dimension == 3 && !frame.bounds.isEmpty() ? frame.bounds.sizes().z() : 0.0;
        const double z0 = frame.dimension == 3 && !frame.bounds.isEmpty() ? frame.bounds.min().z() : 0.0;
        const std::vector<double> rims = depth > 0.0 ? std::vector<double>{z0, z0 + depth} : std::vector<double>{0.0};
        const double r = frame.drumRadius;
        for (const double z : rims) {
            const Vec3 centre(frame.drumCentre.x(), frame.drumCentre.y(), z);
            addCircle(*points.Get(), *lines.Get(), centre, Vec3::UnitX(), Vec3::UnitY(), r);
            for (int k = 0; k < drumMarks; ++k) {
                const double a = frame.drumAngle + 2.0 * std::numbers::pi * k / drumMarks;
                const Vec3 radial(std::cos(a), std::sin(a), 0.0);
                addSegment(*points.Get(), *lines.Get(), centre + 0.9 * r * radial, centre + r * radial);
            }
        }
        if (rims.size() == 2) {
            for (int k = 0; k < drumMarks; k += 3) {
                const double a = frame.drumAngle + 2.0 * std::numbers::pi * k / drumMarks;
                const Vec3 rim = r * Vec3(std::cos(a), std::sin(a), 0.0);
                addSegment(*points.Get(), *lines.Get(), Vec3(frame.drumCentre.x(), frame.drumCentre.y(), rims[0]) + rim,
                           Vec3(frame.drumCentre.x(), frame.drumCentre.y(), rims[1]) + rim);
            }
        }
    } else if (frame.periodic) {
        // The cell's edges from the origin: a parallelogram (parallelepiped) once its shape is free.
        for (unsigned i = 0; i < 8; ++i) {
            for (unsigned bit : {1U, 2U, 4U}) {
                const unsigned j = i | bit;
                if ((i & bit) != 0 || (frame.dimension == 2 && (j & 4U) != 0)) {
                    continue;
                }
                addSegment(*points.Get(), *lines.Get(), frame.cell.corner(i), frame.cell.corner(j));
            }
        }
    } else if (!frame.bounds.isEmpty()) {
        for (std::size_t i = 0; i < 8; ++i) {
            for (std::size_t bit : {1U, 2U, 4U}) {
                const std::size_t j = i | bit;
                if ((i & bit) != 0 || (frame.dimension == 2 && (j & 4U) != 0)) {
                    continue;
                }
                addSegment(*points.Get(), *lines.Get(),
                           frame.bounds.corner(static_cast<Eigen::AlignedBox3d::CornerType>(i)),
                           frame.bounds.corner(static_cast<Eigen::AlignedBox3d::CornerType>(j)));
            }
        }
    }
    vtkNew<vtkPolyData> geometry;
    geometry->SetPoints(points);
    geometry->SetLines(lines);
    return geometry;
}

}  // namespace granular::vtkio
