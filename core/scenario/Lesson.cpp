#include "scenario/Lesson.h"

#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"

#include <array>
#include <utility>

namespace granular {

namespace {

constexpr std::array<std::pair<LessonAction, std::string_view>, 5> kActionNames{{
    {LessonAction::None, "none"},
    {LessonAction::Play, "play"},
    {LessonAction::Pause, "pause"},
    {LessonAction::Reset, "reset"},
    {LessonAction::LoadStep, "load_step"},
}};

}  // namespace

std::string_view lessonActionName(LessonAction action)
{
    for (const auto& [a, name] : kActionNames) {
        if (a == action) {
            return name;
        }
    }
    return "none";
}

std::optional<LessonAction> lessonActionNamed(std::string_view name)
{
    for (const auto& [a, n] : kActionNames) {
        if (n == name) {
            return a;
        }
    }
    return std::nullopt;
}

std::string lessonActionNames()
{
    std::string names;
    for (const auto& entry : kActionNames) {
        if (!names.empty()) {
            names += ", ";
        }
        names += entry.second;
    }
    return names;
}

LessonChange checkedLessonChange(std::string_view key, const Value& value)
{
    const Parameter* p = Schema::instance().find(key);
    if (p == nullptr) {
        throw ScenarioError("unknown key '" + std::string(key) + "'; run `granular show SCENARIO` to list the keys");
    }
    return {p->key, Schema::validate(*p, value)};
}

}  // namespace granular
