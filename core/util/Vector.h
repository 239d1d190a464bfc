#pragma once

#include <Eigen/Core>

namespace granular {

/// A point, velocity or force in 3D (2D scenarios keep z = 0).
using Vec3 = Eigen::Vector3d;
/// A 3x3 tensor (stress, strain rate, the periodic cell's edges); 2D uses its upper-left 2x2 block.
using Mat3 = Eigen::Matrix3d;

}  // namespace granular
