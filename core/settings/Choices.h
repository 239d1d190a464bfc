#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace granular {

/// The initial state a scenario builds (`setup`).
enum class Setup {
    Cloud,        ///< particles on a lattice in a box
    Chain,        ///< a 1D chain of disks against a wall (Unger & Kertesz 2003, Fig. 6)
    Piston,       ///< a box closed by a mobile piston (Unger & Kertesz 2003, Fig. 5)
    Drum,         ///< a rotating cylinder
    Periodic,     ///< dilute random grains in a fully periodic cell (Shaebani et al. 2009)
    Pair,         ///< a grain above a fixed grain (the DEM verification note's two cases)
    Compression,  ///< a box closed by a plate driven down and up at constant speed (Brodu et al. 2015)
};

/// The simulation method (`solver.method`).
enum class Method {
    Ballistic,         ///< free flight, no contacts
    ContactDynamics,   ///< non-smooth contact dynamics of rigid grains (Unger & Kertesz 2003)
    ConstantPressure,  ///< contact dynamics at constant pressure in a periodic cell (Shaebani et al. 2009)
    SoftParticle,      ///< soft-particle DEM
    MultiContact,      ///< multi-contact DEM: Hertz grains that every contact deforms (Brodu et al. 2015)
};

/// When the Gauss-Seidel iteration of one step stops (Unger & Kertesz 2003, eq. 35-37).
enum class ConvergenceCriterion {
    Fixed,   ///< exactly N_I iterations (eq. 37)
    Local,   ///< |dR_a| <= eps (|R_a| + delta) for every candidate a (eq. 35 with the cut-off delta)
    Global,  ///< |d<|R_a|>| <= eps <|R_a|> (eq. 36)
};

/// The order in which a Gauss-Seidel iteration of contact dynamics visits the contacts.
enum class SweepOrder {
    Random,    ///< every contact in a fresh random order, one after another (Unger & Kertesz 2003, section 2.5)
    Coloured,  ///< colours of contacts sharing no grain, in a fresh random order; a colour's contacts at once
    Strips,  ///< strips across one axis, the even ones side by side and then the odd ones, each in a fresh random order
};

/// The normal force law of the soft-particle method.
enum class NormalLaw {
    Linear,  ///< spring-dashpot F = k delta + c d(delta)/dt
    Hertz,   ///< F = k_h delta^(3/2) + eta delta^(1/4) d(delta)/dt, k_h = 4/3 E* sqrt(R*) (Tsuji-type damping)
};

/// Which velocities the expected inner pressure P_in* uses during the iteration (Shaebani et al. 2009, sec. 4).
enum class PressureVariant {
    FullyImplicit,      ///< the expected new velocities v_i* (eq. 27)
    PartiallyImplicit,  ///< the old velocities v_i(t) (eq. 32): a force update changes one term only
};

/// What the pressure may change of the periodic cell.
enum class CellShape {
    Fixed,  ///< only its size: Lambda = lambda 1, driven by P_in - P_ext (Shaebani et al. 2009, eq. 19)
    Free,   ///< its size and shape: M_lambda dLambda/dt = sym(sigma) - P_ext 1, so every stress component relaxes
};

/// The plane walls of a box (`box.walls`).
enum class BoxWalls {
    None,    ///< no walls
    Floor,   ///< the floor only
    Open,    ///< floor and sides, open at the top
    Closed,  ///< floor, sides and lid
};

/// An axis of a loaded file's coordinates (`particles.file_up_axis`).
enum class Axis { X, Y, Z };

/// The field the studio colours the grains by when a scenario opens (`view.colour`).
enum class ViewColour { Height, Radius, Speed, Coordination, Overlap, Deformation };

/// The schema's name of every value of a choice, in the order of the schema's list.
template <class Choice> struct ChoiceNames;

template <> struct ChoiceNames<Setup> {
    static constexpr std::array<std::pair<Setup, std::string_view>, 7> names = {{{Setup::Cloud, "cloud"},
                                                                                 {Setup::Chain, "chain"},
                                                                                 {Setup::Piston, "piston"},
                                                                                 {Setup::Drum, "drum"},
                                                                                 {Setup::Periodic, "periodic"},
                                                                                 {Setup::Pair, "pair"},
                                                                                 {Setup::Compression, "compression"}}};
};

template <> struct ChoiceNames<Method> {
    static constexpr std::array<std::pair<Method, std::string_view>, 5> names = {
        {{Method::Ballistic, "ballistic"},
         {Method::ContactDynamics, "cd"},
         {Method::ConstantPressure, "cd_pressure"},
         {Method::SoftParticle, "md"},
         {Method::MultiContact, "mcdem"}}};
};

template <> struct ChoiceNames<ConvergenceCriterion> {
    static constexpr std::array<std::pair<ConvergenceCriterion, std::string_view>, 3> names = {
        {{ConvergenceCriterion::Fixed, "fixed"},
         {ConvergenceCriterion::Local, "local"},
         {ConvergenceCriterion::Global, "global"}}};
};

template <> struct ChoiceNames<SweepOrder> {
    static constexpr std::array<std::pair<SweepOrder, std::string_view>, 3> names = {
        {{SweepOrder::Random, "random"}, {SweepOrder::Coloured, "coloured"}, {SweepOrder::Strips, "strips"}}};
};

template <> struct ChoiceNames<NormalLaw> {
    static constexpr std::array<std::pair<NormalLaw, std::string_view>, 2> names = {
        {{NormalLaw::Linear, "linear"}, {NormalLaw::Hertz, "hertz"}}};
};

template <> struct ChoiceNames<PressureVariant> {
    static constexpr std::array<std::pair<PressureVariant, std::string_view>, 2> names = {
        {{PressureVariant::FullyImplicit, "full"}, {PressureVariant::PartiallyImplicit, "partial"}}};
};

template <> struct ChoiceNames<CellShape> {
    static constexpr std::array<std::pair<CellShape, std::string_view>, 2> names = {
        {{CellShape::Fixed, "fixed"}, {CellShape::Free, "free"}}};
};

template <> struct ChoiceNames<BoxWalls> {
    static constexpr std::array<std::pair<BoxWalls, std::string_view>, 4> names = {
        {{BoxWalls::None, "none"}, {BoxWalls::Floor, "floor"}, {BoxWalls::Open, "open"}, {BoxWalls::Closed, "closed"}}};
};

template <> struct ChoiceNames<Axis> {
    static constexpr std::array<std::pair<Axis, std::string_view>, 3> names = {
        {{Axis::X, "x"}, {Axis::Y, "y"}, {Axis::Z, "z"}}};
};

template <> struct ChoiceNames<ViewColour> {
    static constexpr std::array<std::pair<ViewColour, std::string_view>, 6> names = {
        {{ViewColour::Height, "height"},
         {ViewColour::Radius, "radius"},
         {ViewColour::Speed, "speed"},
         {ViewColour::Coordination, "coordination"},
         {ViewColour::Overlap, "overlap"},
         {ViewColour::Deformation, "deformation"}}};
};

/// The schema's name of a choice value, e.g. choiceName(Method::ContactDynamics) == "cd".
template <class Choice> constexpr std::string_view choiceName(Choice value)
{
    for (const auto& [choice, name] : ChoiceNames<Choice>::names) {
        if (choice == value) {
            return name;
        }
    }
    return {};
}

/// The choice value of a schema name, e.g. choiceNamed<Method>("cd"); nullopt for an unknown name.
template <class Choice> constexpr std::optional<Choice> choiceNamed(std::string_view name)
{
    for (const auto& [choice, choiceText] : ChoiceNames<Choice>::names) {
        if (choiceText == name) {
            return choice;
        }
    }
    return std::nullopt;
}

}  // namespace granular
