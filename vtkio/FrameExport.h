#pragma once

#include <filesystem>

namespace granular {
struct Frame;
}

namespace granular::vtkio {

/// Writes one frame for ParaView (the studio's File > Export frame): NAME.pvd and beside it NAME_particles.vtp,
/// NAME_contacts.vtp and NAME_boundaries.vtp, with the arrays of a run's frames. Each file is written atomically
/// (a file that was there is replaced whole or left as it was); the collection last. Throws std::runtime_error
/// naming the file that could not be written.
void exportFrame(const Frame& frame, const std::filesystem::path& collection);

}  // namespace granular::vtkio
