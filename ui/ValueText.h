#pragma once

#include "scenario/Value.h"

#include <QString>

namespace granular::ui {

/// A parameter value as the studio shows and edits it: numbers as in a scenario file (shortest
/// round-trip form), booleans as true/false, texts and choices without quotes.
[[nodiscard]] QString displayText(const Value& value);

/// `value` (a displayText) of the scenario key `key` with the key's unit after it ("4 Pa"; none for pure numbers,
/// integers and choices, nor for a key the schema does not know).
[[nodiscard]] QString withUnit(const QString& key, const QString& value);

}  // namespace granular::ui
