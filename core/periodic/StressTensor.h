#pragma once

#include <Eigen/Core>

namespace granular {

struct World;

/// The global stress tensor of a periodic world (Shaebani et al. 2009, eq. 20), Pa:
///     sigma_ab = (1/V) ( sum_k F_k,a l_k,b + sum_i m_i v_i,a v_i,b )
/// F_k the force on the second grain of contact k, l_k the minimum-image vector from the first grain's
/// centre to the second's, both as the last step solved them; V the current cell volume. The 2D tensor
/// fills the upper-left 2x2 block.
Eigen::Matrix3d stressTensor(const World& world);

/// The inner pressure trace(sigma)/D (eq. 22), Pa.
double stressPressure(const World& world);

}  // namespace granular
