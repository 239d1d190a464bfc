#include "scenario/Scenario.h"

#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"

namespace granular {

namespace {

const Parameter& lookup(std::string_view key)
{
    const Parameter* p = Schema::instance().find(key);
    if (p == nullptr) {
        throw ScenarioError("unknown key '" + std::string(key) + "'; run `granular show SCENARIO` to list the keys");
    }
    return *p;
}

}  // namespace

Scenario::Scenario()
{
    for (const auto& p : Schema::instance().parameters()) {
        values_.emplace(p.key, p.defaultValue);
    }
}

void Scenario::set(std::string_view key, const Value& value)
{
    const Parameter& p = lookup(key);
    values_.insert_or_assign(p.key, Schema::validate(p, value));
}

void Scenario::setFromText(std::string_view key, std::string_view text)
{
    values_.insert_or_assign(lookup(key).key, Schema::instance().parse(key, text));
}

const Value& Scenario::get(std::string_view key) const
{
    const auto it = values_.find(key);
    if (it == values_.end()) {
        throw ScenarioError("unknown key '" + std::string(key) + "'");
    }
    return it->second;
}

double Scenario::real(std::string_view key) const
{
    return std::get<double>(get(key));
}
std::int64_t Scenario::integer(std::string_view key) const
{
    return std::get<std::int64_t>(get(key));
}
bool Scenario::boolean(std::string_view key) const
{
    return std::get<bool>(get(key));
}
const std::string& Scenario::text(std::string_view key) const
{
    return std::get<std::string>(get(key));
}

}  // namespace granular
