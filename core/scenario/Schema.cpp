#include "scenario/Schema.h"

#include "scenario/ScenarioError.h"
#include "util/Utf8.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace granular {

namespace {

constexpr double kLargestSeed = 9007199254740991.0;  // 2^53 - 1: exact in a JSON number

Parameter real(std::string key, std::string unit, double defaultValue, std::optional<double> minimum,
               std::optional<double> maximum, std::string description, Mutability mutability,
               bool minimumExclusive = false)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Real;
    p.unit = std::move(unit);
    p.defaultValue = defaultValue;
    p.minimum = minimum;
    p.maximum = maximum;
    p.minimumExclusive = minimumExclusive;
    p.description = std::move(description);
    p.mutability = mutability;
    return p;
}

Parameter positive(std::string key, std::string unit, double defaultValue, double maximum, std::string description,
                   Mutability mutability)
{
    return real(std::move(key), std::move(unit), defaultValue, 0.0, maximum, std::move(description), mutability, true);
}

Parameter integer(std::string key, std::int64_t defaultValue, double minimum, double maximum, std::string description,
                  Mutability mutability)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Integer;
    p.defaultValue = defaultValue;
    p.minimum = minimum;
    p.maximum = maximum;
    p.description = std::move(description);
    p.mutability = mutability;
    return p;
}

Parameter choice(std::string key, std::string defaultValue, std::vector<std::string> choices, std::string description,
                 Mutability mutability)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Choice;
    p.defaultValue = std::move(defaultValue);
    p.choices = std::move(choices);
    p.description = std::move(description);
    p.mutability = mutability;
    return p;
}

Parameter text(std::string key, std::string defaultValue, std::string description,
               Mutability mutability = Mutability::OnReset)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Text;
    p.defaultValue = std::move(defaultValue);
    p.description = std::move(description);
    p.mutability = mutability;
    return p;
}

Parameter boolean(std::string key, bool defaultValue, std::string description, Mutability mutability)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Boolean;
    p.defaultValue = defaultValue;
    p.description = std::move(description);
    p.mutability = mutability;
    return p;
}

std::string kindName(const Value& value)
{
    switch (value.index()) {
    case 0:
        return "a real number";
    case 1:
        return "an integer";
    case 2:
        return "a boolean";
    default:
        return "a text";
    }
}

[[noreturn]] void reject(const Parameter& p, const std::string& what)
{
    throw ScenarioError(p.key + ": " + what + "; accepted: " + p.acceptedDescription());
}

/// A text of `p` that is not UTF-8 (a shell's bytes of another encoding) is refused as it is read: it could not be
/// written to the run's JSON files at the end of the run. The bytes themselves are not echoed.
void rejectInvalidUtf8(const Parameter& p, std::string_view text)
{
    const std::size_t at = firstInvalidUtf8(text);
    if (at != std::string_view::npos) {
        reject(p, "not UTF-8: byte " + std::to_string(at + 1) + " of " + std::to_string(text.size()) + " (" +
                      hexByte(static_cast<unsigned char>(text[at])) + ") starts no well-formed UTF-8 character");
    }
}

bool inRange(const Parameter& p, double x)
{
    if (p.minimum && (p.minimumExclusive ? x <= *p.minimum : x < *p.minimum)) {
        return false;
    }
    if (p.maximum && (p.maximumExclusive ? x >= *p.maximum : x > *p.maximum)) {
        return false;
    }
    return true;
}

}  // namespace

const Schema& Schema::instance()
{
    static const Schema schema;
    return schema;
}

Schema::Schema()
{
    constexpr auto live = Mutability::Live;
    constexpr auto reset = Mutability::OnReset;
    constexpr double big = 1e9;
    parameters_ = {
        text("name", "untitled", "short name of the scenario"),
        text("description", "", "one-line description of the scenario"),
        integer("seed", 1, 0, kLargestSeed, "seed of every random choice (placement, sweep order)", reset),
        choice("setup", "cloud", {"cloud", "chain", "piston", "drum", "periodic", "pair", "compression"},
               "initial state: cloud (lattice in a box), chain (1D chain against a wall), piston (box closed by a "
               "mobile piston), drum (rotating cylinder), periodic (dilute random grains in a periodic cell), pair (a "
               "grain above a fixed grain, the verification of the DEM note of MSCM 2024), compression (a box closed "
               "by a rigid plate driven down and up at constant speed, Brodu et al. 2015)",
               reset),
        integer("world.dimension", 3, 2, 3, "2: disks in the x-y plane, 3: spheres", reset),
        positive("run.time", "s", 1.0, big, "simulated time of a run", live),
        positive("output.interval", "s", 0.01, big, "simulated time between rows of the series", live),
        boolean("output.vtk", false, "write particle frames as VTK PolyData (.vtp) at each output row", live),
        choice("solver.method", "ballistic", {"ballistic", "cd", "cd_pressure", "md", "mcdem"},
               "ballistic: free flight, no contacts; cd: non-smooth contact dynamics of rigid grains; "
               "cd_pressure: contact dynamics at constant pressure in a periodic cell (setup periodic); "
               "md: soft-particle DEM with the material.* contact law (MSCM 2024); "
               "mcdem: multi-contact DEM, Hertz grains that every contact deforms (Brodu et al. 2015, mcdem.gamma)",
               reset),
        positive("solver.dt", "s", 1e-3, 1e3, "time step", live),
        integer("solver.iterations", 40, 1, 1e7, "N_I: Gauss-Seidel iterations per step (fixed criterion)", live),
        choice("solver.criterion", "fixed", {"fixed", "local", "global"},
               "when the iteration stops: fixed N_I (eq. 37), local |dR| <= eps(|R| + delta) (eq. 35), "
               "global change of the mean force (eq. 36)",
               live),
        integer("solver.max_iterations", 100000, 1, 1e9, "iteration limit of the local and global criteria", live),
        integer("solver.substeps", 0, 0, 1e6,
                "md: velocity-Verlet steps per solver.dt; 0: automatic, each at most t_c / 50 (overdamped "
                "contacts: their relaxation time / 10), at most 1e6",
                live),
        real("solver.tolerance", "1", 1e-6, 0.0, 1.0, "eps of the local and global criteria", live, true),
        real("solver.force_cutoff", "N", 0.0, 0.0, 1e12, "delta: small-force cut-off of the local criterion", live),
        choice("solver.sweep", "random", {"random", "coloured", "strips"},
               "order of a Gauss-Seidel iteration: random visits every contact one after another in a fresh random "
               "order (the paper's); coloured sweeps groups of contacts sharing no grain in a fresh random order, "
               "each group on every solver thread at once (the piston and the periodic cell follow group by group); "
               "strips (cd only) cuts the packing into strips across the piston's normal or its longest side and "
               "sweeps every other strip side by side, then the rest, each strip in a fresh random order",
               live),
        real("contact.friction", "1", 0.0, 0.0, 100.0, "Coulomb friction coefficient mu of every contact", live),
        real("contact.wall_friction", "1", -1.0, -1.0, 100.0,
             "Coulomb friction coefficient between grains and walls, piston or drum; -1: same as contact.friction",
             live),
        real("contact.margin", "1", 0.1, 0.0, 10.0,
             "gap below which a pair is a contact candidate, in smallest radii (plus one step's approach)", live),
        choice("material.law", "linear", {"linear", "hertz"},
               "md normal force: linear spring-dashpot F = k delta + c d(delta)/dt, or Hertz "
               "F = 4/3 E* sqrt(R*) delta^(3/2) with a restitution-calibrated damping",
               live),
        real("material.stiffness", "N/m", 0.0, 0.0, 1e15,
             "md linear law: k_n of one grain (two grains in series: k_n/2, grain on a wall: k_n); 0: the "
             "CD-equivalent q m N_I / dt^2 of Unger & Kertesz 2003, eq. 67 from solver.dt and solver.iterations",
             live),
        real("material.restitution", "1", -1.0, -1.0, 1.0,
             "md: normal restitution coefficient e in [0, 1] of every collision; -1: the CD-equivalent damping "
             "q m N_I / dt of Unger & Kertesz 2003, eq. 68 (linear law only)",
             live),
        positive("material.young_modulus", "Pa", 7e10, 1e15, "md Hertz law: Young's modulus E of the grains", live),
        real("material.poisson_ratio", "1", 0.25, 0.0, 0.5, "md Hertz law: Poisson's ratio nu of the grains", live),
        real("material.tangential_ratio", "1", 2.0 / 7.0, 0.0, 10.0,
             "md linear law: tangential stiffness k_t / k_n (Hertz: Mindlin's 8 G* sqrt(R* delta))", live),
        real("gravity.x", "m/s^2", 0.0, -1e6, 1e6, "gravitational acceleration, x component", live),
        real("gravity.y", "m/s^2", -9.81, -1e6, 1e6, "gravitational acceleration, y component (up is +y)", live),
        real("gravity.z", "m/s^2", 0.0, -1e6, 1e6, "gravitational acceleration, z component", live),
        integer("particles.count", 100, 1, 1e7, "number of particles", reset),
        positive("particles.radius_min", "m", 0.5e-3, 1e6, "smallest radius (uniform distribution)", reset),
        positive("particles.radius_max", "m", 0.5e-3, 1e6, "largest radius (uniform distribution)", reset),
        positive("particles.density", "kg/m^3", 2500.0, 1e9, "material density: mass ~ r^3 (3D), r^2 (2D)", reset),
        real("particles.gap", "1", 0.2, 0.0, 10.0, "lattice gap between neighbours, in largest diameters", reset),
        real("particles.lift", "m", 0.0, 0.0, 1e6, "height of the lowest lattice row above the floor", reset),
        real("particles.jitter", "1", 0.0, 0.0, 0.5, "random displacement on the lattice, in gap widths", reset),
        text("particles.file", "",
             "a packing to load instead of generating one: a LAMMPS/LIGGGHTS data file (Atoms section of atom style "
             "sphere, optional Velocities) or a CSV with the header x,y,z,radius[,density]; a relative path is taken "
             "from the working directory; empty: generate",
             reset),
        choice("particles.file_up_axis", "y", {"x", "y", "z"},
               "the file's vertical axis, turned onto this scenario's vertical (y) by a rotation that keeps the axes' "
               "cyclic order",
               reset),
        real("particles.velocity.x", "m/s", 0.0, -1e6, 1e6, "initial velocity, x component", reset),
        real("particles.velocity.y", "m/s", 0.0, -1e6, 1e6, "initial velocity, y component", reset),
        real("particles.velocity.z", "m/s", 0.0, -1e6, 1e6, "initial velocity, z component", reset),
        positive("box.width", "m", 0.02, 1e6, "box extent along x", reset),
        positive("box.height", "m", 0.02, 1e6, "box extent along y (vertical)", reset),
        positive("box.depth", "m", 0.02, 1e6, "box extent along z (3D only)", reset),
        choice("box.walls", "open", {"none", "floor", "open", "closed"},
               "plane walls of the box: none, floor only, floor and sides, all", reset),
        integer("chain.count", 50, 1, 1e6, "disks in the chain (setup chain)", reset),
        positive("chain.mass", "kg", 1.0, 1e12, "mass of each disk of the chain", reset),
        real("chain.force", "N", 0.05, 0.0, 1e12, "F_ext pushing the last disk towards the wall", live),
        real("chain.wall_gap", "m", 1.0, 0.0, 1e6, "initial gap between the wall and the first disk", reset),
        positive("piston.mass", "kg", 1.0, 1e12, "mass of the piston (2D: per unit thickness)", reset),
        real("piston.force", "N", 1.0, 0.0, 1e12, "force F pushing the piston into the packing", live),
        real("piston.load_step", "N", 0.0, -1e12, 1e12, "dF added to the piston force at piston.load_step_time", live),
        real("piston.load_step_time", "s", 1e9, 0.0, 1e12, "time of the load step F -> F + dF", live),
        positive("pair.height", "m", 2e-3, 1e6,
                 "setup pair: initial height of the upper grain's centre above "
                 "the fixed grain's centre (along y)",
                 reset),
        boolean("pair.driven", false,
                "setup pair: the upper grain keeps its initial velocity whatever acts on it (infinite mass)", reset),
        positive("drum.radius", "m", 0.02, 1e6, "inner radius of the drum (axis along z)", reset),
        real("drum.angular_velocity", "rad/s", 1.0, -1e6, 1e6, "rotation rate about +z", live),
        positive("pressure.external", "Pa", 1.0, 1e12, "P_ext driving the periodic cell (2D: per unit thickness)",
                 live),
        positive("pressure.inertia", "kg/m", 100.0, 1e15, "M_lambda in M_lambda dlambda/dt = P_in - P_ext", live),
        choice("pressure.variant", "full", {"full", "partial"},
               "P_in* during the iteration from the expected new velocities (full, eq. 27) or the old ones "
               "(partial, eq. 32)",
               live),
        choice("pressure.cell_shape", "fixed", {"fixed", "free"},
               "fixed: the cell stays a square (cube) and only its size follows P_in - P_ext (the paper's eq. 19); "
               "free: its shape follows every stress component, so the packing relaxes to sigma = P_ext 1 "
               "(cd_pressure only)",
               live),
        positive(
            "pressure.relax_threshold", "m/s, m/s^2", 1e-10, 1e6,
            "the run ends when the mean speed and mean acceleration of grains and cell are below it (md and mcdem: "
            "or below 10 times the noise that rounding of the coordinates leaves through the fastest contact, "
            "if that is larger)",
            live),
        positive("compression.top_start", "m", 0.16764, 1e6,
                 "setup compression: the plate's height where each down-stroke starts (its highest position)", reset),
        positive("compression.top_end", "m", 0.13752, 1e6,
                 "setup compression: the plate's height where each down-stroke ends (its lowest position)", reset),
        positive("compression.stroke_time", "s", 0.3, 1e6, "setup compression: duration of one stroke, down or up",
                 reset),
        integer("compression.strokes", 4, 1, 1e6, "setup compression: strokes after settling (down, up, down, ...)",
                reset),
        real("compression.settle_time", "s", 0.0, 0.0, 1e6,
             "setup compression: time the plate waits at top_start before the first stroke (the grains settle)", reset),
        real("mcdem.gamma", "1", 1.125, 0.0, 100.0,
             "mcdem: geometric prefactor of the deformation one contact causes at the others (0: independent contacts, "
             "1: elastic half-space, ~1.1: Brodu et al. 2015's fit)",
             live),
        real("analysis.force_threshold", "N", 4e-3, 0.0, 1e12,
             "contacts whose normal force is below it are left out of the thresholded coordination Z_tau (Brodu et "
             "al. 2015: 4 mN)",
             live),
        real("cell.initial_fraction", "1", 0.3, 0.0, 1.0,
             "volume fraction of the dilute random start in the periodic cell", reset, true),
        integer("probe.index", 0, -1e7, 1e7,
                "particle whose position and velocity the probe_* columns record; negative counts from the last "
                "(-1: the last, e.g. a chain's free end)",
                reset),
        real("studio.start_time", "s", 0.0, 0.0, big,
             "the studio plays a freshly built run (start, reset, another scenario) to this time on its own and "
             "pauses there, so that a lesson starts from a prepared state (piston2d: compressed, before the load "
             "step); 0: starts at t = 0. The command line ignores it",
             reset),
        choice("view.colour", "height", {"height", "radius", "speed", "coordination", "overlap", "deformation"},
               "the field the studio colours the grains by when the scenario opens (the display bar changes it); "
               "height means little without gravity: a periodic cell shows coordination. The command line ignores "
               "it",
               live),
        real("view.grain_size", "1", 0.0, 0.0, 1.0,
             "drawn radius / radius in the studio; 0: automatic, 0.5 in a 3D scene with contacts (the force chains "
             "inside the packing show between the grains) and 1 otherwise; below 0.01 drawn at 0.01 (the size "
             "slider's least). The command line ignores it",
             live),
        boolean("view.periodic_images", false,
                "the studio draws the periodic cell's neighbouring images around it, dimmed, so that grains and "
                "chains across the boundary read as one packing. The command line ignores it",
                live),
        boolean("view.fit_zoom", false,
                "the studio's oscillation plot (the piston's height, the chain's probe) shows only the fit window, "
                "its axis fitted to the oscillation there: piston2d's piston moves ~2 mm after the load step, a flat "
                "line on an axis that spans its fall of ~90 m. The plot's own box changes it; the command line "
                "ignores it",
                live),
    };
}

const Parameter* Schema::find(std::string_view key) const
{
    const auto it =
        std::find_if(parameters_.begin(), parameters_.end(), [key](const Parameter& p) { return p.key == key; });
    return it == parameters_.end() ? nullptr : &*it;
}

Value Schema::validate(const Parameter& p, const Value& value)
{
    switch (p.kind) {
    case ParameterKind::Real: {
        double x = 0.0;
        if (const auto* d = std::get_if<double>(&value)) {
            x = *d;
        } else if (const auto* n = std::get_if<std::int64_t>(&value)) {
            x = static_cast<double>(*n);
        } else {
            reject(p, "expected a real number, got " + kindName(value) + " " + formatValue(value));
        }
        if (!std::isfinite(x) || !inRange(p, x)) {
            reject(p, formatValue(x) + " is out of range");
        }
        return x;
    }
    case ParameterKind::Integer: {
        std::int64_t n = 0;
        if (const auto* i = std::get_if<std::int64_t>(&value)) {
            n = *i;
        } else if (const auto* d = std::get_if<double>(&value);
                   d != nullptr && std::isfinite(*d) && std::floor(*d) == *d && std::fabs(*d) <= kLargestSeed) {
            n = static_cast<std::int64_t>(*d);
        } else if (d != nullptr && std::isfinite(*d) && std::floor(*d) == *d) {
            // A whole number beyond 2^53 (JSON's 18446744073709551615, read as a double): not "a real number".
            reject(p, "a whole number of about " + formatShort(*d) + " is beyond what this key holds");
        } else {
            reject(p, "expected an integer, got " + kindName(value) + " " + formatValue(value));
        }
        if (!inRange(p, static_cast<double>(n))) {
            reject(p, std::to_string(n) + " is out of range");
        }
        return n;
    }
    case ParameterKind::Boolean:
        if (!std::holds_alternative<bool>(value)) {
            reject(p, "expected true or false, got " + kindName(value) + " " + formatValue(value));
        }
        return value;
    case ParameterKind::Choice: {
        const auto* s = std::get_if<std::string>(&value);
        if (s == nullptr) {
            reject(p, "expected a name, got " + kindName(value) + " " + formatValue(value));
        }
        rejectInvalidUtf8(p, *s);
        if (std::find(p.choices.begin(), p.choices.end(), *s) == p.choices.end()) {
            reject(p, "\"" + *s + "\" is not a known choice");
        }
        return value;
    }
    case ParameterKind::Text:
        if (!std::holds_alternative<std::string>(value)) {
            reject(p, "expected a text, got " + kindName(value) + " " + formatValue(value));
        }
        rejectInvalidUtf8(p, std::get<std::string>(value));
        return value;
    }
    return value;
}

namespace {

/// A number's text without a leading '+' (which std::from_chars does not take), as a user may write it.
std::string_view withoutPlusSign(std::string_view text)
{
    if (text.size() > 1 && text.front() == '+' && text[1] != '+' && text[1] != '-') {
        text.remove_prefix(1);
    }
    return text;
}

}  // namespace

Value Schema::parse(std::string_view key, std::string_view text) const
{
    const Parameter* p = find(key);
    if (p == nullptr) {
        throw ScenarioError("unknown key '" + std::string(key) + "'; run `granular show SCENARIO` to list the keys");
    }
    const std::string quoted = "\"" + std::string(text) + "\"";
    switch (p->kind) {
    case ParameterKind::Real: {
        const std::string_view digits = withoutPlusSign(text);
        double x = 0.0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
        const bool whole = !digits.empty() && end == digits.data() + digits.size();
        if (whole && error == std::errc::result_out_of_range) {
            reject(*p, quoted + " is beyond what a double holds (magnitudes 2.2e-308 to 1.8e308, or 0)");
        }
        if (!whole || error != std::errc()) {
            reject(*p, "expected a real number, got " + quoted);
        }
        return validate(*p, x);
    }
    case ParameterKind::Integer: {
        const std::string_view digits = withoutPlusSign(text);
        std::int64_t n = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        const bool whole = !digits.empty() && end == digits.data() + digits.size();
        if (whole && error == std::errc::result_out_of_range) {
            reject(*p, quoted + " is beyond a 64-bit integer");
        }
        if (!whole || error != std::errc()) {
            reject(*p, "expected an integer, got " + quoted);
        }
        return validate(*p, n);
    }
    case ParameterKind::Boolean:
        if (text == "true" || text == "1") {
            return true;
        }
        if (text == "false" || text == "0") {
            return false;
        }
        reject(*p, "expected true or false, got " + quoted);
    case ParameterKind::Choice:
    case ParameterKind::Text:
        return validate(*p, std::string(text));
    }
    return {};
}

}  // namespace granular
