#pragma once

#include "settings/Choices.h"

#include <QString>

#include <array>
#include <vector>

namespace granular {
struct Frame;
}

namespace granular::ui {

/// What the particles of the scene are coloured by: the choices of the schema's view.colour.
using ColourField = ViewColour;

inline constexpr std::array<ColourField, 6> kColourFields = {ColourField::Height,  ColourField::Radius,
                                                             ColourField::Speed,   ColourField::Coordination,
                                                             ColourField::Overlap, ColourField::Deformation};

/// "height", "radius", ...: the name shown in the picker and on the colour bar.
[[nodiscard]] QString fieldName(ColourField field);
/// The unit of the field: "m", "m/s", "1".
[[nodiscard]] QString fieldUnit(ColourField field);
/// "height (m)": the colour bar's title.
[[nodiscard]] QString fieldTitle(ColourField field);

/// The field's value for every particle of a frame and the range the colours span.
struct FieldValues {
    std::vector<float> values;
    double low = 0.0;
    double high = 1.0;  ///< > low
};

/// Height: y of the centre, over the container's height (so a grain keeps its colour as it falls);
/// radius: over the frame's radii; speed: |v| from 0 to the fastest; coordination: contacts with a
/// positive normal force, from 0 to at least 2 D; overlap: largest overlap, from 0 to the largest;
/// deformation: how far a grain bulges beyond its sphere at its contacts from its other contacts' forces
/// (mcdem), from 0 to the largest.
/// Frames without per-particle contact data count zero contacts and zero overlap.
[[nodiscard]] FieldValues particleField(const Frame& frame, ColourField field);

}  // namespace granular::ui
