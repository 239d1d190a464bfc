#include "settings/ParameterUse.h"

#include "settings/Choices.h"

#include <string>

namespace granular {

namespace {

bool startsWith(std::string_view key, std::string_view prefix)
{
    return key.substr(0, prefix.size()) == prefix;
}

bool isContactDynamics(Method m)
{
    return m == Method::ContactDynamics || m == Method::ConstantPressure;
}

bool isSoft(Method m)
{
    return m == Method::SoftParticle || m == Method::MultiContact;
}

std::string thisRun(const Settings& s)
{
    return "; this run: " + std::string(choiceName(s.solver.method));
}

/// The solver.* keys: which method and criterion reads each.
std::string solverReason(std::string_view key, const Settings& s)
{
    const Method m = s.solver.method;
    const ConvergenceCriterion criterion = s.solver.criterion;
    if (key == "solver.iterations") {
        if (isContactDynamics(m)) {
            return criterion == ConvergenceCriterion::Fixed
                       ? std::string()
                       : "N_I of the fixed criterion; solver.criterion = " + std::string(choiceName(criterion)) +
                             " stops the iteration instead (solver.max_iterations caps it)";
        }
        const bool cdEquivalent = m == Method::SoftParticle && s.material.law == NormalLaw::Linear &&
                                  (s.material.stiffness == 0.0 || s.material.restitution == -1.0);
        return cdEquivalent ? std::string()
                            : "Gauss-Seidel iterations of contact dynamics (cd, cd_pressure), and md's CD-equivalent "
                              "stiffness or damping" +
                                  thisRun(s);
    }
    if (key == "solver.criterion" || key == "solver.sweep") {
        return isContactDynamics(m) ? std::string() : "only contact dynamics (cd, cd_pressure) iterates" + thisRun(s);
    }
    if (key == "solver.max_iterations" || key == "solver.tolerance" || key == "solver.force_cutoff") {
        if (!isContactDynamics(m)) {
            return "only contact dynamics (cd, cd_pressure) iterates" + thisRun(s);
        }
        // delta also scales the eq. 35 residual that the series records under the fixed criterion.
        if (key == "solver.force_cutoff") {
            return criterion == ConvergenceCriterion::Global
                       ? "delta of the local criterion (eq. 35); solver.criterion = global"
                       : std::string();
        }
        if (criterion == ConvergenceCriterion::Fixed) {
            return "used by the local and global criteria; solver.criterion = fixed does N_I iterations";
        }
        return {};
    }
    if (key == "solver.substeps") {
        return isSoft(m) ? std::string() : "velocity-Verlet substeps of md and mcdem" + thisRun(s);
    }
    return {};
}

/// The contact.* and material.* keys: which method and contact law reads each.
std::string materialReason(std::string_view key, const Settings& s)
{
    const Method m = s.solver.method;
    if (startsWith(key, "contact.")) {
        if (m == Method::Ballistic) {
            return "a ballistic run has no contacts";
        }
        if (key == "contact.wall_friction" && s.setup == Setup::Periodic) {
            return "a periodic cell has no walls";
        }
        return {};
    }
    if (!isSoft(m)) {
        return "only md and mcdem grains deform" + thisRun(s);
    }
    const bool linear = s.material.law == NormalLaw::Linear;
    if (key == "material.stiffness" || key == "material.tangential_ratio") {
        return linear ? std::string() : "linear law only; material.law = hertz (E, nu)";
    }
    if (key == "material.young_modulus" || key == "material.poisson_ratio") {
        return linear ? "Hertz law only; material.law = linear (k_n)" : std::string();
    }
    return {};
}

/// The particles.* and box.* keys: which setup builds its grains and container from each.
std::string packingReason(std::string_view key, const Settings& s)
{
    const Setup setup = s.setup;
    const std::string named = "; setup " + std::string(choiceName(setup));
    if (key == "particles.velocity.z" && s.dimension == 2) {
        return "2D: the grains move in the x-y plane";
    }
    if (key == "box.depth" && s.dimension == 2) {
        return "2D: the box has no depth";
    }
    if (startsWith(key, "box.")) {
        const bool used = setup == Setup::Cloud || setup == Setup::Piston || setup == Setup::Compression ||
                          (setup == Setup::Drum && key == "box.depth");
        if (!used) {
            return "this setup builds no box" + named;
        }
        if (key == "box.walls" && setup != Setup::Cloud) {
            return "the walls of setup cloud; this setup places its own" + named;
        }
        if (key == "box.height" && setup == Setup::Compression) {
            return "the plate closes the box at compression.top_start";
        }
        return {};
    }
    if (!startsWith(key, "particles.")) {
        return {};
    }
    const bool fileSetup = setup == Setup::Cloud || setup == Setup::Piston || setup == Setup::Compression;
    if (key == "particles.file") {
        return fileSetup ? std::string() : "setups cloud, piston and compression only" + named;
    }
    if (key == "particles.file_up_axis") {
        return fileSetup && !s.particles.file.empty() ? std::string() : "used with a particles.file only";
    }
    const bool lattice = key == "particles.gap" || key == "particles.lift" || key == "particles.jitter";
    const bool drawn = key == "particles.count" || key == "particles.radius_min" || lattice;
    if (setup == Setup::Chain) {
        return key == "particles.radius_max" ? std::string() : "the chain has chain.count disks of chain.mass";
    }
    if (setup == Setup::Pair) {
        return drawn ? "setup pair places two grains of radius particles.radius_max" : std::string();
    }
    if (setup == Setup::Periodic) {
        return lattice || startsWith(key, "particles.velocity")
                   ? "the periodic cell starts from a dilute random placement at rest (cell.initial_fraction)"
                   : std::string();
    }
    if (!s.particles.file.empty() && (drawn || key == "particles.radius_max")) {
        return "particles.file gives the grains";
    }
    return {};
}

/// The groups that one setup or method reads alone.
std::string groupReason(std::string_view key, const Settings& s)
{
    const std::string named = "; setup " + std::string(choiceName(s.setup));
    if (startsWith(key, "chain.") && s.setup != Setup::Chain) {
        return "setup chain only" + named;
    }
    if (startsWith(key, "piston.") && s.setup != Setup::Piston) {
        return "setup piston only" + named;
    }
    if (startsWith(key, "pair.") && s.setup != Setup::Pair) {
        return "setup pair only" + named;
    }
    if (startsWith(key, "drum.") && s.setup != Setup::Drum) {
        return "setup drum only" + named;
    }
    if (startsWith(key, "compression.") && s.setup != Setup::Compression) {
        return "setup compression only" + named;
    }
    if ((startsWith(key, "pressure.") || startsWith(key, "cell.")) && s.setup != Setup::Periodic) {
        return "the periodic cell only (setup periodic)" + named;
    }
    if ((key == "pressure.variant" || key == "pressure.cell_shape") && s.solver.method != Method::ConstantPressure) {
        return "cd_pressure only" + thisRun(s);
    }
    if (key == "mcdem.gamma" && s.solver.method != Method::MultiContact) {
        return "mcdem only" + thisRun(s);
    }
    if (key == "analysis.force_threshold" && s.setup != Setup::Compression) {
        return "Z_tau of the compression levels (setup compression)" + named;
    }
    if (key == "view.periodic_images" && s.setup != Setup::Periodic) {
        return "the periodic cell only (setup periodic)" + named;
    }
    if (key == "view.fit_zoom" && s.setup != Setup::Piston && s.setup != Setup::Chain) {
        return "the piston's or the chain's oscillation plot only (setup piston or chain)" + named;
    }
    if (key == "gravity.z" && s.dimension == 2) {
        return "2D: the grains move in the x-y plane";
    }
    return {};
}

}  // namespace

std::string unusedReason(std::string_view key, const Settings& settings)
{
    if (startsWith(key, "solver.")) {
        return solverReason(key, settings);
    }
    if (startsWith(key, "contact.") || startsWith(key, "material.")) {
        return materialReason(key, settings);
    }
    if (startsWith(key, "particles.") || startsWith(key, "box.")) {
        return packingReason(key, settings);
    }
    return groupReason(key, settings);
}

}  // namespace granular
