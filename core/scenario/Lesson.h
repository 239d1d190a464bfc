#pragma once

#include "scenario/Value.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace granular {

/// What a lesson step's button does once its parameter changes are applied.
enum class LessonAction { None, Play, Pause, Reset, LoadStep };

/// One parameter change a lesson step suggests: a schema key and a value the schema accepts.
struct LessonChange {
    std::string key;
    Value value;

    friend bool operator==(const LessonChange&, const LessonChange&) = default;
};

/// One step of a guided lesson: what to look at, and optionally what to change or do (applied by the studio's
/// lesson panel when the user asks; the command line ignores lessons).
struct LessonStep {
    std::string text;  ///< one paragraph
    std::vector<LessonChange> changes;
    LessonAction action = LessonAction::None;

    friend bool operator==(const LessonStep&, const LessonStep&) = default;
};

/// A scenario's guided lesson, in the order the steps are taken; empty: the scenario has none.
using Lesson = std::vector<LessonStep>;

/// The action's name in scenario files: none, play, pause, reset, load_step.
[[nodiscard]] std::string_view lessonActionName(LessonAction action);
/// The action of that name; none for a name that is not one.
[[nodiscard]] std::optional<LessonAction> lessonActionNamed(std::string_view name);
/// The names, for messages: "none, play, pause, reset, load_step".
[[nodiscard]] std::string lessonActionNames();

/// Checks a change against the schema and returns it with the schema's value (an integer given for a real
/// becomes a real); throws ScenarioError naming the key and what it accepts.
[[nodiscard]] LessonChange checkedLessonChange(std::string_view key, const Value& value);

}  // namespace granular
