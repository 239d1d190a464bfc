#pragma once

#include "scenario/Lesson.h"
#include "scenario/Value.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace granular {

/// A fully resolved scenario: every schema key has a validated value (defaults filled in).
class Scenario {
public:
    /// All keys at their defaults.
    Scenario();

    /// Sets a key after checking it against the schema; throws ScenarioError.
    void set(std::string_view key, const Value& value);
    /// Parses text for the key (as from `--set key=value`) and sets it; throws ScenarioError.
    void setFromText(std::string_view key, std::string_view text);

    [[nodiscard]] const Value& get(std::string_view key) const;
    [[nodiscard]] double real(std::string_view key) const;
    [[nodiscard]] std::int64_t integer(std::string_view key) const;
    [[nodiscard]] bool boolean(std::string_view key) const;
    [[nodiscard]] const std::string& text(std::string_view key) const;

    [[nodiscard]] const std::map<std::string, Value, std::less<>>& values() const { return values_; }

    /// The guided lesson the scenario carries for the studio (empty: none). Not a parameter: runs ignore it.
    [[nodiscard]] const Lesson& lesson() const { return lesson_; }
    void setLesson(Lesson lesson) { lesson_ = std::move(lesson); }

private:
    std::map<std::string, Value, std::less<>> values_;
    Lesson lesson_;
};

}  // namespace granular
