#pragma once

#include "scenario/Lesson.h"

#include <nlohmann/json.hpp>

namespace granular {

/// A scenario file's "lesson": an array of steps, each an object with "text" (required), "set" (an object of
/// dotted schema keys and values, optional) and "action" (none, play, pause, reset or load_step; optional):
///
///     "lesson": [
///       { "text": "Press Play and watch the piston." , "action": "play" },
///       { "text": "Double N_I: the oscillation speeds up.", "set": { "solver.iterations": 80 }, "action": "reset" }
///     ]
///
/// The changes of a step are applied in the order the file gives them. Throws ScenarioError naming the step
/// ("lesson step 2: ...") and what is accepted.
[[nodiscard]] Lesson lessonFromJson(const nlohmann::ordered_json& node);

/// The lesson as written in a scenario file (the same form lessonFromJson reads).
[[nodiscard]] nlohmann::ordered_json lessonToJson(const Lesson& lesson);

}  // namespace granular
