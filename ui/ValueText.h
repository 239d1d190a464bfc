#pragma once

#include "scenario/Value.h"

#include <QString>

namespace granular::ui {

/// A parameter value as the studio shows and edits it: numbers as in a scenario file (shortest
/// round-trip form), booleans as true/false, texts and choices without quotes.
[[nodiscard]] QString displayText(const Value& value);

}  // namespace granular::ui
