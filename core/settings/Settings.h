#pragma once

#include "settings/Choices.h"
#include "util/Vector.h"

#include <cstdint>
#include <string>

namespace granular {

/// How long a run lasts and what it writes (`run.*`, `output.*`).
struct RunSettings {
    double time = 1.0;             ///< s, simulated time of a run
    double outputInterval = 0.01;  ///< s, simulated time between rows of the series
    bool writeVtk = false;         ///< write particle frames (.vtp) at each row
};

/// The method and its iteration (`solver.*`).
struct SolverSettings {
    Method method = Method::Ballistic;
    double dt = 1e-3;              ///< s, time step
    std::int64_t iterations = 40;  ///< N_I, Gauss-Seidel iterations per step (fixed criterion)
    ConvergenceCriterion criterion = ConvergenceCriterion::Fixed;
    std::int64_t maxIterations = 100000;    ///< iteration limit of the local and global criteria
    std::int64_t substeps = 0;              ///< md: velocity-Verlet steps per dt; 0: automatic
    double tolerance = 1e-6;                ///< 1, eps of the local and global criteria
    double forceCutoff = 0.0;               ///< N, delta of the local criterion
    SweepOrder sweep = SweepOrder::Random;  ///< cd, cd_pressure: the order of a Gauss-Seidel iteration

    /// The most iterations a step may take: N_I for the fixed criterion, the limit otherwise.
    [[nodiscard]] std::int64_t iterationLimit() const
    {
        return criterion == ConvergenceCriterion::Fixed ? iterations : maxIterations;
    }
};

/// Contact candidates and friction (`contact.*`).
struct ContactSettings {
    double friction = 0.0;       ///< 1, Coulomb mu between grains
    double wallFriction = -1.0;  ///< 1, mu between a grain and a wall, the piston or the drum; < 0: same as friction
    double margin = 0.1;         ///< smallest radii: gap below which a pair is a candidate (plus one step's approach)

    /// The Coulomb coefficient of a contact between two grains (true) or a grain and a wall-like body.
    [[nodiscard]] double frictionFor(bool grainOnGrain) const
    {
        return grainOnGrain || wallFriction < 0.0 ? friction : wallFriction;
    }
};

/// The soft grains' material (`material.*`).
struct MaterialSettings {
    NormalLaw law = NormalLaw::Linear;
    double stiffness = 0.0;              ///< N/m, k_n of one grain (linear law); 0: the CD-equivalent stiffness
    double restitution = -1.0;           ///< 1, e in [0, 1]; -1: the CD-equivalent damping (linear law only)
    double youngModulus = 7e10;          ///< Pa, E (Hertz)
    double poissonRatio = 0.25;          ///< 1, nu (Hertz)
    double tangentialRatio = 2.0 / 7.0;  ///< 1, k_t / k_n of the tangential spring (linear law)
};

/// The generated grains (`particles.*`).
struct ParticleSettings {
    std::int64_t count = 100;
    double radiusMin = 0.5e-3;     ///< m, radii uniform in [radiusMin, radiusMax]
    double radiusMax = 0.5e-3;     ///< m
    double density = 2500.0;       ///< kg/m^3 (2D: mass ~ r^2 for a disk of unit thickness)
    double gap = 0.2;              ///< largest diameters, lattice gap between neighbours
    double lift = 0.0;             ///< m, height of the lowest lattice row above the floor
    double jitter = 0.0;           ///< gap widths, random displacement on the lattice
    Vec3 velocity = Vec3::Zero();  ///< m/s, initial velocity of every grain
    std::string file;              ///< a packing to load instead (LAMMPS data file or CSV); empty: generate
    Axis fileUpAxis = Axis::Y;     ///< the file's vertical axis, turned onto y
};

/// The box of the cloud, piston and drum setups (`box.*`).
struct BoxSettings {
    double width = 0.02;   ///< m, along x
    double height = 0.02;  ///< m, along y (vertical)
    double depth = 0.02;   ///< m, along z (3D only)
    BoxWalls walls = BoxWalls::Open;
};

/// The chain of Unger & Kertesz 2003, Fig. 6 (`chain.*`).
struct ChainSettings {
    std::int64_t count = 50;  ///< disks in the chain
    double mass = 1.0;        ///< kg, each disk
    double force = 0.05;      ///< N, F_ext pushing the last disk towards the wall
    double wallGap = 1.0;     ///< m, initial gap between the wall and the first disk
};

/// The mobile piston (`piston.*`).
struct PistonSettings {
    double mass = 1.0;          ///< kg (2D: per unit thickness)
    double force = 1.0;         ///< N, F pushing the piston into the packing
    double loadStep = 0.0;      ///< N, dF added at loadStepTime
    double loadStepTime = 1e9;  ///< s
};

/// The two-grain verification (`pair.*`).
struct PairSettings {
    double height = 2e-3;  ///< m, initial height of the upper grain's centre above the fixed grain's
    bool driven = false;   ///< the upper grain keeps its initial velocity (infinite mass)
};

/// The rotating drum (`drum.*`).
struct DrumSettings {
    double radius = 0.02;          ///< m, inner radius (axis along z)
    double angularVelocity = 1.0;  ///< rad/s about +z
};

/// The plate of the compression setup, driven at constant speed (`compression.*`; Brodu et al. 2015).
struct CompressionSettings {
    double topStart = 0.16764;  ///< m, the plate's height where a down-stroke starts
    double topEnd = 0.13752;    ///< m, the plate's height where a down-stroke ends
    double strokeTime = 0.3;    ///< s, one stroke, down or up
    std::int64_t strokes = 4;   ///< strokes after settling: down, up, down, ...
    double settleTime = 0.0;    ///< s, the plate waits at topStart before the first stroke
};

/// The multi-contact DEM (`mcdem.*`; Brodu et al. 2015).
struct MultiContactSettings {
    double gamma = 1.125;  ///< 1, geometric prefactor of the deformation one contact causes at another
};

/// How the studio first shows a scenario (`view.*`); the command line ignores them.
struct ViewSettings {
    ViewColour colour = ViewColour::Height;
    double grainSize = 0.0;       ///< drawn radius / radius; 0: automatic (0.5 in a 3D scene with contacts, else 1)
    bool periodicImages = false;  ///< draw the periodic cell's neighbouring images around it
    bool fitZoom = false;         ///< the oscillation plot shows the fit window only, its height axis fitted to it
};

/// The coupling of the periodic cell to an external pressure (`pressure.*`; Shaebani et al. 2009, eq. 19, 23, 28).
struct PressureSettings {
    double externalPressure = 1.0;  ///< Pa, P_ext
    double inertia = 100.0;         ///< kg/m (2D: kg), M_lambda in M_lambda dlambda/dt = P_in - P_ext
    PressureVariant variant = PressureVariant::FullyImplicit;
    CellShape shape = CellShape::Fixed;
    double relaxThreshold = 1e-10;  ///< m/s and m/s^2: the run ends when the packing is this still
};

/// Every setting of a scenario, typed and with units: parsed once from the validated scenario
/// (parseSettings), the one place where keys are read.
struct Settings {
    std::string name;         ///< short name of the scenario
    std::string description;  ///< one line
    std::uint64_t seed = 1;   ///< seed of every random choice
    Setup setup = Setup::Cloud;
    int dimension = 3;                     ///< 2: disks in the x-y plane, 3: spheres
    Vec3 gravity = Vec3(0.0, -9.81, 0.0);  ///< m/s^2 (z ignored in 2D)
    RunSettings run;
    SolverSettings solver;
    ContactSettings contact;
    MaterialSettings material;
    ParticleSettings particles;
    BoxSettings box;
    ChainSettings chain;
    PistonSettings piston;
    PairSettings pair;
    DrumSettings drum;
    PressureSettings pressure;
    CompressionSettings compression;
    MultiContactSettings multiContact;
    double forceThreshold = 4e-3;  ///< N, contacts below it are left out of Z_tau (analysis.force_threshold)
    double initialFraction = 0.3;  ///< 1, volume fraction of the dilute random start in the periodic cell
    std::int64_t probeIndex = 0;   ///< the particle the probe_* columns record
    double studioStartTime = 0.0;  ///< s, where the studio's own play of a freshly built run pauses
    ViewSettings view;
};

}  // namespace granular
