#pragma once

#include "sim/Frame.h"

#include <ostream>

namespace granular {

/// Writes a frame's particles as VTK XML PolyData (.vtp, ASCII): points with `radius` (m) and
/// `velocity` (m/s) arrays, ready for ParaView's point-Gaussian or glyph representations.
void writeVtp(std::ostream& out, const Frame& frame);

}  // namespace granular
