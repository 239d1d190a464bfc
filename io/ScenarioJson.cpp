#include "ScenarioJson.h"

#include "JsonScalar.h"
#include "JsonText.h"
#include "LessonJson.h"

#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

namespace granular {

namespace {

using Json = nlohmann::ordered_json;

/// The first key of the group `key` ("solver" -> "solver.method"), or "" where `key` is no group of keys.
std::string firstKeyOfGroup(const std::string& key)
{
    for (const Parameter& p : Schema::instance().parameters()) {
        if (p.key.size() > key.size() && p.key.compare(0, key.size(), key) == 0 && p.key[key.size()] == '.') {
            return p.key;
        }
    }
    return {};
}

Value toValue(const Json& leaf, const std::string& key)
{
    const Parameter* p = Schema::instance().find(key);
    if (p == nullptr) {
        // A group's name is no key: "solver": 5 read as "unknown key 'solver'", "solver": [1] as "array is not a
        // value".
        if (const std::string first = firstKeyOfGroup(key); !first.empty()) {
            throw ScenarioError(key + ": a group of keys (e.g. " + first + "), given " + std::string(leaf.type_name()) +
                                "; accepted: an object of its keys, e.g. {\"" + first.substr(key.size() + 1) +
                                "\": ...}");
        }
        throw ScenarioError("unknown key '" + key + "'; run `granular show SCENARIO` to list the keys");
    }
    if (auto value = jsonScalar(leaf)) {
        return *std::move(value);
    }
    throw ScenarioError(key + ": " + std::string(leaf.type_name()) +
                        " is not a value; accepted: " + p->acceptedDescription());
}

/// Deepest nesting a scenario may have: the schema's keys have at most three parts.
constexpr int kDeepestNesting = 8;

/// The scenario's keys go at most this deep, so the walk over the parsed tree recurses at most this far.
/// The top level's "lesson" is not a key (scenarioFromJson reads it). `given` holds the dotted keys set so far: a key
/// spelt both nested and dotted ({"solver": {"dt": ..}, "solver.dt": ..}) is given twice.
void apply(Scenario& scenario, const Json& node, const std::string& prefix, std::set<std::string>& given)
{
    const auto set = [&](const std::string& key, const Json& leaf) {
        if (!given.insert(key).second) {
            throw ScenarioError(key + " is given twice (nested and dotted); accepted: each key once (the last would "
                                      "silently win)");
        }
        scenario.set(key, toValue(leaf, key));
    };
    for (const auto& [name, child] : node.items()) {
        if (prefix.empty() && name == "lesson") {
            continue;
        }
        std::string key = prefix;
        if (!key.empty()) {
            key += '.';
        }
        key += name;
        if (child.is_object()) {
            if (Schema::instance().find(key) != nullptr) {
                set(key, child);  // reports "object is not a value"
            }
            if (child.empty()) {
                throw ScenarioError("unknown key '" + key +
                                    "' (an empty object); run `granular show SCENARIO` to list the keys");
            }
            apply(scenario, child, key, given);
        } else {
            set(key, child);
        }
    }
}

/// The ordinal among the numbers of `json` (in document order) and the text of the first number that a double cannot
/// hold (beyond 1.8e308 or, not 0, below 2.2e-308 in magnitude, as `--set` refuses it): nlohmann reads 1e-400 as 0
/// without a word. Strings are skipped, so a number is counted where the parser sees one.
std::optional<std::pair<std::size_t, std::string>> firstNumberBeyondADouble(std::string_view json)
{
    std::size_t ordinal = 0;
    std::size_t i = 0;
    while (i < json.size()) {
        const char c = json[i];
        if (c == '"') {
            for (++i; i < json.size() && json[i] != '"'; ++i) {
                if (json[i] == '\\') {
                    ++i;  // an escaped character, a quote among them
                }
            }
            ++i;
            continue;
        }
        if (c != '-' && (c < '0' || c > '9')) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < json.size() && ((json[i] >= '0' && json[i] <= '9') || json[i] == '-' || json[i] == '+' ||
                                   json[i] == '.' || json[i] == 'e' || json[i] == 'E')) {
            ++i;
        }
        const std::string_view token = json.substr(start, i - start);
        double x = 0.0;
        if (std::from_chars(token.data(), token.data() + token.size(), x).ec == std::errc::result_out_of_range) {
            // A number of a thousand digits is shown by its ends.
            constexpr std::size_t kShown = 40;
            return std::pair{ordinal, token.size() <= kShown ? std::string(token)
                                                             : std::string(token.substr(0, 24)) + "..." +
                                                                   std::string(token.substr(token.size() - 12))};
        }
        ++ordinal;
    }
    return std::nullopt;
}

/// Parses the text, refusing what nlohmann's parser would accept but a scenario must not have: nesting deeper
/// than kDeepestNesting (a hostile file could nest 100,000 objects) and a key given twice in one object (the
/// last would silently win). Numbers beyond a double's range are named with their key.
Json parseScenarioText(std::string_view json, const std::string& origin)
{
    std::vector<std::vector<std::string>> keysOfObjects;  // the keys seen in each open object
    std::vector<std::string> path;  // the name of each open object or array below the top: its key, or [i] in an array
    std::vector<std::size_t> arrayItems;  // per open container: the objects and arrays begun in it, -1 for an object
    std::string lastKey;
    const auto beyond = firstNumberBeyondADouble(json);
    std::size_t numbers = 0;  // the numbers parsed so far
    constexpr auto kObject = static_cast<std::size_t>(-1);
    const auto dotted = [&path](const std::string& key) {
        std::string text;
        for (const auto& part : path) {
            text += (text.empty() || part.front() == '[' ? "" : ".") + part;
        }
        return text.empty() ? key : text + (key.empty() || key.front() == '[' ? "" : ".") + key;
    };
    // A container begins: named by its key in an object, by its place in an array (a lesson's steps).
    const auto open = [&](int depth, std::size_t kind) {
        if (depth > 0) {
            std::size_t& items = arrayItems.back();
            path.push_back(items == kObject ? lastKey : "[" + std::to_string(items++) + "]");
        }
        arrayItems.push_back(kind);
    };
    const auto close = [&](int depth) {
        arrayItems.pop_back();
        if (depth > 0 && !path.empty()) {
            path.pop_back();
        }
    };
    const Json::parser_callback_t check = [&](int depth, Json::parse_event_t event, Json& parsed) {
        switch (event) {
        case Json::parse_event_t::object_start:
            if (depth >= kDeepestNesting) {
                throw ScenarioError(origin + ": objects nested " + std::to_string(depth + 1) +
                                    " deep; accepted: at most " + std::to_string(kDeepestNesting) +
                                    " (scenario keys have at most three parts)");
            }
            open(depth, kObject);
            keysOfObjects.emplace_back();
            break;
        case Json::parse_event_t::object_end:
            keysOfObjects.pop_back();
            close(depth);
            break;
        case Json::parse_event_t::key: {
            lastKey = parsed.get<std::string>();
            auto& seen = keysOfObjects.back();
            if (std::find(seen.begin(), seen.end(), lastKey) != seen.end()) {
                throw ScenarioError(origin + ": " + dotted(lastKey) +
                                    " is given twice; accepted: each key once (the last would silently win)");
            }
            seen.push_back(lastKey);
            break;
        }
        case Json::parse_event_t::array_start:
            if (depth >= kDeepestNesting) {
                throw ScenarioError(origin + ": arrays nested " + std::to_string(depth + 1) +
                                    " deep; accepted: at most " + std::to_string(kDeepestNesting));
            }
            open(depth, 0);
            break;
        case Json::parse_event_t::array_end:
            close(depth);
            break;
        case Json::parse_event_t::value:
            if (parsed.is_number()) {
                if (beyond && beyond->first == numbers) {
                    const std::string key = !arrayItems.empty() && arrayItems.back() != kObject
                                                ? dotted("[" + std::to_string(arrayItems.back()) + "]")
                                                : dotted(lastKey);
                    const Parameter* p = Schema::instance().find(key);
                    throw ScenarioError(origin + ": " + key + ": " + beyond->second +
                                        " is beyond what a double holds (magnitudes 2.2e-308 to 1.8e308, or 0); "
                                        "accepted: " +
                                        (p != nullptr ? p->acceptedDescription() : std::string("a finite number")));
                }
                ++numbers;
            }
            if (!arrayItems.empty() && arrayItems.back() != kObject && !parsed.is_structured()) {
                ++arrayItems.back();  // a plain value in an array takes a place too
            }
            break;
        }
        return true;
    };
    try {
        return Json::parse(json.begin(), json.end(), check);
    } catch (const Json::parse_error& error) {
        // nlohmann's message already names the line and column; drop its "[json.exception...] " tag.
        const std::string what = error.what();
        const auto tag = what.find("] ");
        throw ScenarioError(origin + ": malformed JSON: " + (tag == std::string::npos ? what : what.substr(tag + 2)));
    } catch (const Json::out_of_range&) {
        const std::string key = !arrayItems.empty() && arrayItems.back() != kObject
                                    ? dotted("[" + std::to_string(arrayItems.back()) + "]")
                                    : dotted(lastKey);
        const Parameter* p = Schema::instance().find(key);
        throw ScenarioError(origin + ": " + key + ": a number beyond the range of a double; accepted: " +
                            (p != nullptr ? p->acceptedDescription() : std::string("a finite number")));
    } catch (const Json::exception& error) {
        throw ScenarioError(origin + ": cannot read the JSON (" + std::string(error.what()) + ")");
    }
}

void insert(nlohmann::ordered_json& root, const std::string& key, const Value& value)
{
    nlohmann::ordered_json* node = &root;
    std::size_t start = 0;
    for (std::size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', start)) {
        node = &(*node)[key.substr(start, dot - start)];
        start = dot + 1;
    }
    std::visit([&](const auto& x) { (*node)[key.substr(start)] = x; }, value);
}

}  // namespace

Scenario scenarioFromJson(std::string_view json, const std::string& origin)
{
    const Json root = parseScenarioText(json, origin);
    if (!root.is_object()) {
        throw ScenarioError(origin + ": the top level must be a JSON object of scenario keys");
    }
    Scenario scenario;
    try {
        if (const auto lesson = root.find("lesson"); lesson != root.end()) {
            scenario.setLesson(lessonFromJson(*lesson));
        }
        std::set<std::string> given;
        apply(scenario, root, "", given);
    } catch (const ScenarioError& error) {
        throw ScenarioError(origin + ": " + error.what());
    }
    return scenario;
}

Scenario loadScenarioFile(const std::filesystem::path& path)
{
    std::error_code error;
    std::ifstream in;
    if (std::filesystem::is_regular_file(path, error)) {
        in.open(path, std::ios::binary);
    }
    if (!in.is_open() || !in) {
        throw ScenarioError(path.string() + ": cannot read the scenario file (missing or not a readable file)");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return scenarioFromJson(text.str(), path.string());
}

std::string scenarioToJson(const Scenario& scenario)
{
    nlohmann::ordered_json root = nlohmann::ordered_json::object();
    for (const auto& p : Schema::instance().parameters()) {
        insert(root, p.key, scenario.get(p.key));
    }
    if (!scenario.lesson().empty()) {
        root["lesson"] = lessonToJson(scenario.lesson());
    }
    return jsonText(root) + "\n";
}

}  // namespace granular
