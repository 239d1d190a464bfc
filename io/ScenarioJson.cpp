#include "ScenarioJson.h"

#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace granular {

namespace {

using Json = nlohmann::json;

Value toValue(const Json& leaf, const std::string& key)
{
    switch (leaf.type()) {
    case Json::value_t::number_integer:
        return leaf.get<std::int64_t>();
    case Json::value_t::number_unsigned: {
        const auto n = leaf.get<std::uint64_t>();
        if (n > static_cast<std::uint64_t>(INT64_MAX)) {
            return static_cast<double>(n);
        }
        return static_cast<std::int64_t>(n);
    }
    case Json::value_t::number_float:
        return leaf.get<double>();
    case Json::value_t::boolean:
        return leaf.get<bool>();
    case Json::value_t::string:
        return leaf.get<std::string>();
    default: {
        const Parameter* p = Schema::instance().find(key);
        const std::string accepted = p != nullptr ? "; accepted: " + p->acceptedDescription() : "";
        throw ScenarioError(key + ": " + std::string(leaf.type_name()) + " is not a value" + accepted);
    }
    }
}

void apply(Scenario& scenario, const Json& node, const std::string& prefix)
{
    for (const auto& [name, child] : node.items()) {
        std::string key = prefix;
        if (!key.empty()) {
            key += '.';
        }
        key += name;
        if (child.is_object()) {
            if (Schema::instance().find(key) != nullptr) {
                scenario.set(key, toValue(child, key));  // reports "object is not a value"
            }
            apply(scenario, child, key);
        } else {
            scenario.set(key, toValue(child, key));
        }
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
    Json root;
    try {
        root = Json::parse(json.begin(), json.end());
    } catch (const Json::parse_error& error) {
        // nlohmann's message already names the line and column; drop its "[json.exception...] " tag.
        const std::string what = error.what();
        const auto tag = what.find("] ");
        throw ScenarioError(origin + ": malformed JSON: " + (tag == std::string::npos ? what : what.substr(tag + 2)));
    }
    if (!root.is_object()) {
        throw ScenarioError(origin + ": the top level must be a JSON object of scenario keys");
    }
    Scenario scenario;
    try {
        apply(scenario, root, "");
    } catch (const ScenarioError& error) {
        throw ScenarioError(origin + ": " + error.what());
    }
    return scenario;
}

Scenario loadScenarioFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in || std::filesystem::is_directory(path)) {
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
    return root.dump(2) + "\n";
}

}  // namespace granular
