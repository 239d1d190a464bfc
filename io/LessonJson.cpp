#include "LessonJson.h"

#include "JsonScalar.h"

#include "scenario/ScenarioError.h"

#include <cstddef>
#include <string>
#include <utility>

namespace granular {

namespace {

using Json = nlohmann::ordered_json;

/// The longest lesson a scenario may carry, and the longest text of a step (a hostile file could hold more).
constexpr std::size_t kMostSteps = 100;
constexpr std::size_t kLongestText = 4000;

Value leafValue(const Json& leaf, const std::string& key)
{
    if (auto value = jsonScalar(leaf)) {
        return *std::move(value);
    }
    throw ScenarioError("set." + key + ": " + std::string(leaf.type_name()) +
                        " is not a value; accepted: a number, true/false or a text");
}

LessonStep stepFromJson(const Json& node)
{
    if (!node.is_object()) {
        throw ScenarioError(std::string(node.type_name()) +
                            " is not a step; accepted: an object with text, set and action");
    }
    LessonStep step;
    for (const auto& [name, child] : node.items()) {
        if (name == "text") {
            if (!child.is_string() || child.get<std::string>().empty()) {
                throw ScenarioError("text: accepted: a non-empty text");
            }
            step.text = child.get<std::string>();
            if (step.text.size() > kLongestText) {
                throw ScenarioError("text: " + std::to_string(step.text.size()) + " characters; accepted: at most " +
                                    std::to_string(kLongestText));
            }
        } else if (name == "set") {
            if (!child.is_object()) {
                throw ScenarioError("set: accepted: an object of scenario keys and values, e.g. "
                                    "{\"solver.iterations\": 80}");
            }
            for (const auto& [key, value] : child.items()) {
                try {
                    step.changes.push_back(checkedLessonChange(key, leafValue(value, key)));
                } catch (const ScenarioError& error) {
                    const std::string what = error.what();
                    throw ScenarioError(what.rfind("set.", 0) == 0 ? what : "set: " + what);
                }
            }
        } else if (name == "action") {
            const auto action = child.is_string() ? lessonActionNamed(child.get<std::string>()) : std::nullopt;
            if (!action) {
                throw ScenarioError("action: accepted: one of " + lessonActionNames());
            }
            step.action = *action;
        } else {
            throw ScenarioError("unknown key '" + name + "'; accepted: text, set, action");
        }
    }
    if (step.text.empty()) {
        throw ScenarioError("text is missing; accepted: a non-empty text");
    }
    return step;
}

}  // namespace

Lesson lessonFromJson(const Json& node)
{
    if (!node.is_array()) {
        throw ScenarioError("lesson: " + std::string(node.type_name()) +
                            " is not a lesson; accepted: an array of steps, each {\"text\": ..., \"set\": {...}, "
                            "\"action\": ...}");
    }
    if (node.size() > kMostSteps) {
        throw ScenarioError("lesson: " + std::to_string(node.size()) + " steps; accepted: at most " +
                            std::to_string(kMostSteps));
    }
    Lesson lesson;
    for (std::size_t i = 0; i < node.size(); ++i) {
        try {
            lesson.push_back(stepFromJson(node[i]));
        } catch (const ScenarioError& error) {
            throw ScenarioError("lesson step " + std::to_string(i + 1) + ": " + error.what());
        }
    }
    return lesson;
}

nlohmann::ordered_json lessonToJson(const Lesson& lesson)
{
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const auto& step : lesson) {
        nlohmann::ordered_json entry = nlohmann::ordered_json::object();
        entry["text"] = step.text;
        if (!step.changes.empty()) {
            nlohmann::ordered_json set = nlohmann::ordered_json::object();
            for (const auto& change : step.changes) {
                std::visit([&](const auto& x) { set[change.key] = x; }, change.value);
            }
            entry["set"] = std::move(set);
        }
        if (step.action != LessonAction::None) {
            entry["action"] = std::string(lessonActionName(step.action));
        }
        steps.push_back(std::move(entry));
    }
    return steps;
}

}  // namespace granular
