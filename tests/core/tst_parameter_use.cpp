// Which keys act on a run (settings/ParameterUse): the reasons the studio shows for the keys it greys, and the
// proof that they are right: changing a key called unused leaves a short run's series byte for byte the same.
#include "BuiltinScenarios.h"
#include "SeriesText.h"
#include "scenario/Scenario.h"
#include "scenario/Schema.h"
#include "settings/ParameterUse.h"
#include "settings/SettingsBinding.h"

#include <QTest>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

using namespace granular;

namespace {

Settings settingsOf(const char* name, const std::vector<std::string>& assignments = {})
{
    Scenario scenario = resolveScenario(name);
    for (const auto& a : assignments) {
        const auto equals = a.find('=');
        scenario.setFromText(a.substr(0, equals), a.substr(equals + 1));
    }
    return parseSettings(scenario);
}

/// Another accepted value of the key, as text; empty when there is none to try (text keys).
std::string otherValue(const Parameter& p, const Value& value)
{
    switch (p.kind) {
    case ParameterKind::Boolean:
        return std::get<bool>(value) ? "false" : "true";
    case ParameterKind::Choice:
        for (const auto& choice : p.choices) {
            if (choice != std::get<std::string>(value)) {
                return choice;
            }
        }
        return {};
    case ParameterKind::Integer: {
        const auto n = std::get<std::int64_t>(value);
        return std::to_string(p.maximum && static_cast<double>(n + 1) > *p.maximum ? n - 1 : n + 1);
    }
    case ParameterKind::Real: {
        const double x = std::get<double>(value);
        // A negative value at the bottom of the range is a marker (contact.wall_friction = -1: contact.friction's),
        // whose neighbours are refused: a plain value instead.
        const bool marker = x < 0.0 && p.minimum && x == *p.minimum;
        const double plain = p.maximum ? std::min(*p.maximum, 0.5) : 0.5;
        const double y = x != 0.0 && !marker ? 0.75 * x : plain;
        return formatValue(y);
    }
    case ParameterKind::Text:
        return {};
    }
    return {};
}

}  // namespace

class ParameterUseTest : public QObject {
    Q_OBJECT

private slots:
    void reasonsNameWhatTheRunLacks()
    {
        const Settings ballistic = settingsOf("freefall3d");
        QVERIFY(unusedReason("solver.iterations", ballistic).find("ballistic") != std::string::npos);
        QVERIFY(!unusedReason("contact.friction", ballistic).empty());
        QVERIFY(!unusedReason("material.stiffness", ballistic).empty());
        QVERIFY(unusedReason("gravity.y", ballistic).empty());
        QVERIFY(unusedReason("run.time", ballistic).empty());

        const Settings piston = settingsOf("piston2d");
        QVERIFY(unusedReason("solver.iterations", piston).empty());
        QVERIFY(unusedReason("solver.tolerance", piston).find("fixed") != std::string::npos);
        QVERIFY(unusedReason("gravity.z", piston).find("2D") != std::string::npos);
        QVERIFY(!unusedReason("box.depth", piston).empty());
        QVERIFY(unusedReason("piston.load_step", piston).empty());
        QVERIFY(unusedReason("chain.count", piston).find("setup chain") != std::string::npos);

        const Settings local = settingsOf("piston2d", {"solver.criterion=local"});
        QVERIFY(unusedReason("solver.tolerance", local).empty());
        QVERIFY(unusedReason("solver.force_cutoff", local).empty());
        QVERIFY(!unusedReason("solver.force_cutoff", settingsOf("piston2d", {"solver.criterion=global"})).empty());
        QVERIFY(unusedReason("solver.iterations", local).find("local") != std::string::npos);

        // md's linear law takes the CD-equivalent stiffness from N_I when material.stiffness = 0.
        const Settings md = settingsOf("periodic2d", {"solver.method=md", "material.stiffness=0"});
        QVERIFY(unusedReason("solver.iterations", md).empty());
        QVERIFY(!unusedReason("solver.iterations", settingsOf("md_impact")).empty());

        const Settings mcdem = settingsOf("mcdem_compress");
        QVERIFY(unusedReason("material.young_modulus", mcdem).empty());
        QVERIFY(unusedReason("material.stiffness", mcdem).find("hertz") != std::string::npos);
        QVERIFY(unusedReason("mcdem.gamma", mcdem).empty());
        QVERIFY(unusedReason("analysis.force_threshold", mcdem).empty());
        QVERIFY(!unusedReason("mcdem.gamma", piston).empty());
    }

    void changingAnUnusedKeyLeavesTheSeriesAlone()
    {
        const std::vector<std::pair<const char*, std::vector<std::string>>> runs{
            {"freefall3d", {"run.time=0.05"}},
            {"piston2d", {"run.time=0.02"}},
            {"chain1d", {"run.time=2"}},
            {"periodic2d", {"run.time=0.2"}},
            {"md_impact", {"run.time=0.002"}},
            {"drum3d", {"run.time=0.01"}},
            {"piston2d", {"run.time=0.02", "solver.criterion=global"}},
            {"mcdem_compress", {"run.time=0.0005"}},
            {"periodic3d", {"run.time=0.05"}},
        };
        std::vector<std::string> wrong;
        for (const auto& [name, assignments] : runs) {
            Scenario base = resolveScenario(name);
            for (const auto& a : assignments) {
                const auto equals = a.find('=');
                base.setFromText(a.substr(0, equals), a.substr(equals + 1));
            }
            const Settings settings = parseSettings(base);
            const std::string reference = test::seriesText(base);
            int tried = 0;
            for (const Parameter& p : Schema::instance().parameters()) {
                if (unusedReason(p.key, settings).empty()) {
                    continue;
                }
                const std::string other = otherValue(p, base.get(p.key));
                if (other.empty()) {
                    continue;
                }
                Scenario changed = base;
                changed.setFromText(p.key, other);
                try {
                    if (test::seriesText(changed) != reference) {
                        wrong.push_back(std::string(name) + ": " + p.key + " = " + other + " changed the series");
                    }
                } catch (const std::exception& e) {
                    wrong.push_back(std::string(name) + ": " + p.key + " = " + other + " was refused: " + e.what());
                }
                ++tried;
            }
            std::printf("%s: %d keys called unused, each changed\n", name, tried);
            QVERIFY(tried >= 10);
        }
        std::string message;
        for (const auto& line : wrong) {
            message += line + "; ";
        }
        QVERIFY2(wrong.empty(), message.c_str());
    }
};

QTEST_APPLESS_MAIN(ParameterUseTest)
#include "tst_parameter_use.moc"
