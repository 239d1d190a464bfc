#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <vtkNew.h>
#include <vtkPolyData.h>

namespace granular {
struct Frame;
}

namespace granular::vtkio {

/// Particles as vertices at their centres (m) with point arrays radius (m), velocity (m/s), angular_velocity
/// (rad/s), force_sum (N: the contact forces acting on it), coordination (contacts carrying a force), overlap (m),
/// deformation (m, mcdem) and id; field data TimeValue (s).
[[nodiscard]] vtkNew<vtkPolyData> particleData(const Frame& frame);
/// The force network: one line cell per grain-grain contact carrying a force, centre to centre (across a periodic
/// boundary to the nearest image), with cell arrays normal_force (N), tangential_force (N), first and second
/// (particle ids) and created_by_deformation (1 when only mcdem's bulges close it).
[[nodiscard]] vtkNew<vtkPolyData> contactData(const Frame& frame);
/// Walls, piston and container as geometry with a cell array `boundary`: 0 wall, 1 piston, 2 the container's
/// edges (box, drum rims or periodic cell).
[[nodiscard]] vtkNew<vtkPolyData> boundaryData(const Frame& frame);

/// The data set as a VTK XML PolyData file (.vtp, appended raw binary, zlib), written by vtkXMLPolyDataWriter.
[[nodiscard]] std::string polyDataFile(vtkPolyData& data);

/// The three files of one frame, relative to where the collection (.pvd) lies.
struct FrameFiles {
    std::string particles;
    std::string contacts;
    std::string boundaries;
};
/// The files of frame `index` of a run: frames/particles_000012.vtp, frames/contacts_000012.vtp, ...
[[nodiscard]] FrameFiles runFrameFiles(std::int64_t index);

/// Writes the three files of `frame` through `write(name, content)`.
void writeFrame(const Frame& frame, const FrameFiles& files,
                const std::function<void(const std::string& name, const std::string& content)>& write);

/// One time step of a collection: the time (s) and its files.
struct CollectionStep {
    double time = 0.0;
    FrameFiles files;
};
/// A ParaView collection (.pvd) of the steps: three parts per step (particles, contacts, boundaries), so that
/// ParaView opens the whole run with its times as one multiblock source.
void writeCollection(std::ostream& out, const std::vector<CollectionStep>& steps);

}  // namespace granular::vtkio
