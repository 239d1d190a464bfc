#pragma once

#include "settings/Choices.h"
#include "util/Vector.h"

#include <string>
#include <string_view>
#include <vector>

namespace granular {

/// Grains read from a file, in this scenario's axes (y up).
struct Packing {
    struct Grain {
        Vec3 position = Vec3::Zero();         ///< m
        double radius = 0.0;                  ///< m
        double density = 0.0;                 ///< kg/m^3
        Vec3 velocity = Vec3::Zero();         ///< m/s
        Vec3 angularVelocity = Vec3::Zero();  ///< rad/s
    };
    std::vector<Grain> grains;
};

/// Parses a packing: a LAMMPS/LIGGGHTS data file (recognised by its `Atoms` section: atom style sphere, lines
/// `id type diameter density x y z [ix iy iz]`, and an optional `Velocities` section `id vx vy vz wx wy wz`,
/// SI units) or a CSV whose header names the columns x, y, z, radius and optionally density, vx, vy, vz.
/// `upAxis` is the file's vertical axis; it is turned onto y by a rotation that keeps the axes' cyclic order
/// (z up: x <- y, y <- z, z <- x). `defaultDensity` (kg/m^3) serves a CSV without a density column.
/// Throws ScenarioError with one line "particles.file: NAME:LINE: what is wrong"; nothing is returned then.
[[nodiscard]] Packing parsePacking(std::string_view text, const std::string& name, Axis upAxis, double defaultDensity);

/// Reads and parses the file at `path` (parsePacking); an unreadable file is a ScenarioError too.
[[nodiscard]] Packing readPackingFile(const std::string& path, Axis upAxis, double defaultDensity);

}  // namespace granular
