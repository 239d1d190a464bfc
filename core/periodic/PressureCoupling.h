#pragma once

namespace granular {

/// Which velocities the expected inner pressure P_in* uses during the iteration (seed 003 section 4).
enum class PressureVariant {
    FullyImplicit,      ///< the expected new velocities v_i* (eq. 27)
    PartiallyImplicit,  ///< the old velocities v_i(t) (eq. 32): a force update changes one term only
};

/// What the pressure may change of the periodic cell.
enum class CellShape {
    Fixed,  ///< only its size: Lambda = lambda 1, driven by P_in - P_ext (the paper's eq. 19)
    Free,   ///< its size and shape: M_lambda dLambda/dt = sym(sigma) - P_ext 1, so every stress component relaxes
};

/// The Andersen-like coupling of the cell size to an external pressure (seed 003 eq. 19, 23, 28).
struct PressureCoupling {
    double externalPressure = 1.0;  ///< Pa (2D: N/m), P_ext
    double inertia = 100.0;         ///< kg/m (2D: kg), M_lambda in M_lambda dlambda/dt = P_in - P_ext
    PressureVariant variant = PressureVariant::FullyImplicit;
    CellShape shape = CellShape::Fixed;
};

}  // namespace granular
