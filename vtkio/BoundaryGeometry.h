#pragma once

#include <Eigen/Core>

#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

namespace granular {
struct Frame;
}

namespace granular::vtkio {

/// Appends a closed polyline to `lines`: the circle of `radius` (m) about `centre` spanned by unit vectors u and v.
void addCircle(vtkPoints& points, vtkCellArray& lines, const Eigen::Vector3d& centre, const Eigen::Vector3d& u,
               const Eigen::Vector3d& v, double radius);

/// The walls of a frame (or only its piston) as polygons clipped to the container (3D) or segments (2D).
[[nodiscard]] vtkNew<vtkPolyData> wallGeometry(const Frame& frame, bool piston);

/// The container's edges as lines: the box (in 2D the rectangle in the z = 0 plane), the drum's rims with marks
/// at the drum's angle (so that its rotation shows), or the periodic cell's edges (a parallelogram or
/// parallelepiped once its shape is free).
[[nodiscard]] vtkNew<vtkPolyData> containerGeometry(const Frame& frame);

}  // namespace granular::vtkio
