// Scenario schema: every bad input yields one line naming the key (or the JSON position) and
// what is accepted.
#include "BuiltinScenarios.h"
#include "ScenarioJson.h"
#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"
#include "settings/SettingsBinding.h"

#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

using namespace granular;

namespace {

/// The message of the ScenarioError thrown by `action`, or "" when none is thrown.
template <typename Action> std::string errorOf(Action action)
{
    try {
        action();
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return {};
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}
bool oneLine(const std::string& text)
{
    return !text.empty() && text.find('\n') == std::string::npos;
}

}  // namespace

class SchemaTest : public QObject {
    Q_OBJECT

private slots:
    void everyParameterIsDescribedAndItsDefaultIsAccepted();
    void outOfRangeRealNamesKeyRangeAndUnit();
    void exclusiveLowerBoundRejectsZero();
    void wrongTypeNamesKeyAndExpectedKind();
    void unknownKeyIsNamed();
    void lessonIsReadCheckedAndWrittenBack();
    void controlCharactersInAKeyStayOnOneLine();
    void unknownChoiceListsTheChoices();
    void textThatIsNotUtf8IsRefusedAsItIsRead();
    void malformedJsonGivesLineAndColumn();
    void missingFileNamesThePath();
    void objectWhereValueExpectedIsRejected();
    void integerAcceptedForRealAndConverted();
    void textAssignmentIsParsedByKind();
    void resolvedScenarioRoundTripsThroughJson();
    void everyBuiltinScenarioLoads();
    void settingsBindExactlyTheSchemasKeys();
    void everyChoiceHasATypedValue();
    void typedEditsWriteBackOnlyWhatChanged();
};

void SchemaTest::everyParameterIsDescribedAndItsDefaultIsAccepted()
{
    const Schema& schema = Schema::instance();
    QVERIFY(schema.parameters().size() >= 20);
    for (const auto& p : schema.parameters()) {
        QVERIFY2(!p.description.empty(), p.key.c_str());
        if (p.kind == ParameterKind::Real) {
            QVERIFY2(!p.unit.empty(), ("real parameter without unit: " + p.key).c_str());
        }
        const std::string error = errorOf([&] { (void)schema.validate(p, p.defaultValue); });
        QVERIFY2(error.empty(), error.c_str());
    }
    for (const char* key : {"seed", "run.time", "output.interval", "solver.method", "solver.dt", "solver.iterations"}) {
        QVERIFY2(schema.find(key) != nullptr, key);
    }
}

void SchemaTest::outOfRangeRealNamesKeyRangeAndUnit()
{
    Scenario scenario;
    const std::string error = errorOf([&] { scenario.set("solver.dt", -1.0); });
    QVERIFY(oneLine(error));
    QVERIFY2(contains(error, "solver.dt"), error.c_str());
    QVERIFY2(contains(error, "-1 is out of range"), error.c_str());
    QVERIFY2(contains(error, "(0, 1000] s"), error.c_str());
    QCOMPARE(scenario.real("solver.dt"), 1e-3);  // nothing changed
}

void SchemaTest::exclusiveLowerBoundRejectsZero()
{
    Scenario scenario;
    QVERIFY(!errorOf([&] { scenario.set("run.time", 0.0); }).empty());
    QVERIFY(errorOf([&] { scenario.set("run.time", 1e-9); }).empty());
    const std::string error = errorOf([&] { scenario.set("world.dimension", std::int64_t{4}); });
    QVERIFY2(contains(error, "world.dimension: 4 is out of range; accepted: an integer in [2, 3]"), error.c_str());
}

void SchemaTest::wrongTypeNamesKeyAndExpectedKind()
{
    const std::string error =
        errorOf([] { (void)scenarioFromJson(R"({"particles": {"count": "many"}})", "test.json"); });
    QVERIFY(oneLine(error));
    QVERIFY2(contains(error, "test.json: particles.count: expected an integer, got a text \"many\""), error.c_str());
    QVERIFY2(contains(error, "an integer in [1, 10000000]"), error.c_str());
    const std::string fraction = errorOf([] { (void)scenarioFromJson(R"({"particles": {"count": 2.5}})", "x"); });
    QVERIFY2(contains(fraction, "particles.count: expected an integer, got a real number 2.5"), fraction.c_str());
    // JSON's largest unsigned integer is read as a double: it was called "a real number 18446744073709551616".
    const std::string huge = errorOf([] { (void)scenarioFromJson(R"({"seed": 18446744073709551615})", "s.json"); });
    QVERIFY2(contains(huge, "seed: a whole number of about 1.84e+19 is beyond what this key holds; accepted: an "
                            "integer in [0, 9007199254740991]"),
             huge.c_str());
}

void SchemaTest::unknownKeyIsNamed()
{
    const std::string error = errorOf([] { (void)scenarioFromJson(R"({"solver": {"dtt": 0.1}})", "s.json"); });
    QVERIFY(oneLine(error));
    QVERIFY2(contains(error, "s.json: unknown key 'solver.dtt'"), error.c_str());
}

// A scenario's lesson (io/LessonJson.h): steps with text, checked parameter changes and an action; written back
// by scenarioToJson; a bad step is refused with one line naming the step and what is accepted.
void SchemaTest::lessonIsReadCheckedAndWrittenBack()
{
    const Scenario scenario = scenarioFromJson(
        R"({"seed": 2, "lesson": [{"text": "Look."}, {"text": "Faster.", "set": {"solver.iterations": 80,
           "solver.dt": 1}, "action": "reset"}]})",
        "l.json");
    QCOMPARE(scenario.integer("seed"), std::int64_t{2});
    QCOMPARE(scenario.lesson().size(), std::size_t{2});
    QCOMPARE(scenario.lesson()[0].action, LessonAction::None);
    const LessonStep& second = scenario.lesson()[1];
    QCOMPARE(second.action, LessonAction::Reset);
    QCOMPARE(second.changes.size(), std::size_t{2});
    QCOMPARE(second.changes[0].key, std::string("solver.iterations"));
    QVERIFY(std::get<std::int64_t>(second.changes[0].value) == 80);
    QVERIFY(std::get<double>(second.changes[1].value) == 1.0);  // an integer given for a real is a real
    const Scenario reread = scenarioFromJson(scenarioToJson(scenario), "again.json");
    QVERIFY(reread.lesson() == scenario.lesson());

    const auto refused = [](const char* json) { return errorOf([json] { (void)scenarioFromJson(json, "b.json"); }); };
    const std::string range = refused(R"({"lesson": [{"text": "a"}, {"text": "b", "set": {"solver.dt": -1}}]})");
    QVERIFY2(oneLine(range) && contains(range, "b.json: lesson step 2: set: solver.dt: -1 is out of range"),
             range.c_str());
    const std::string key = refused(R"({"lesson": [{"text": "a", "set": {"solver.speed": 1}}]})");
    QVERIFY2(contains(key, "lesson step 1: set: unknown key 'solver.speed'"), key.c_str());
    const std::string action = refused(R"({"lesson": [{"text": "a", "action": "jump"}]})");
    QVERIFY2(contains(action, "lesson step 1: action: accepted: one of none, play, pause, reset, load_step"),
             action.c_str());
    const std::string text = refused(R"({"lesson": [{"set": {"seed": 3}}]})");
    QVERIFY2(contains(text, "lesson step 1: text is missing"), text.c_str());
    const std::string shape = refused(R"({"lesson": {"text": "a"}})");
    QVERIFY2(contains(shape, "lesson: object is not a lesson; accepted: an array of steps"), shape.c_str());
}

// A JSON key may hold escapes that decode to control characters; the message names the key with them
// escaped (found by fuzz_scenario_json: a key with "\n" made a two-line message).
void SchemaTest::controlCharactersInAKeyStayOnOneLine()
{
    const std::string error =
        errorOf([] { (void)scenarioFromJson(R"({"sol\nver\u0001": {"dt": 2e99990}})", "k.json"); });
    QVERIFY2(oneLine(error), error.c_str());
    QVERIFY2(contains(error, "k.json: "), error.c_str());
    QVERIFY2(contains(error, "sol\\nver\\x01"), error.c_str());
    const std::string unknown = errorOf([] { (void)scenarioFromJson("{\"solver\": {\"d\\tt\\r\": 0.1}}", "t.json"); });
    QVERIFY2(contains(unknown, "unknown key 'solver.d\\tt\\r'"), unknown.c_str());
}

void SchemaTest::unknownChoiceListsTheChoices()
{
    Scenario scenario;
    const std::string error = errorOf([&] { scenario.setFromText("box.walls", "glass"); });
    QVERIFY2(contains(error, "box.walls: \"glass\" is not a known choice; accepted: one of none, floor, open, closed"),
             error.c_str());
}

void SchemaTest::textThatIsNotUtf8IsRefusedAsItIsRead()
{
    // A run's JSON files hold UTF-8 only: a name of Latin-1 bytes was taken and the run thrown away when summary.json
    // could not be written (2026-12-02).
    Scenario scenario;
    const std::string latin1 = errorOf([&] {
        scenario.setFromText("name", "gr\xFC\xDF"
                                     "e");
    });
    QVERIFY2(contains(latin1, "name: not UTF-8: byte 3 of 5 (0xFC) starts no well-formed UTF-8 character; accepted: a "
                              "UTF-8 text"),
             latin1.c_str());
    for (const char* bad : {"a\xC3", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\x80", "\xE2\x82", "\xE0\x80\x80",
                            "\xF0\x80\x80\x80", "\xF5\x80\x80\x80"}) {
        QVERIFY2(contains(errorOf([&] { scenario.setFromText("description", bad); }), "description: not UTF-8"), bad);
    }
    QVERIFY2(contains(errorOf([&] { scenario.setFromText("box.walls", "\xFF"); }), "box.walls: not UTF-8: byte 1"),
             "a choice");
    // The edges of RFC 3629's ranges: U+D7FF and U+E000 around the surrogates, U+0800, U+10000 and U+10FFFF.
    for (const char* good : {"\xED\x9F\xBF", "\xEE\x80\x80", "\xE0\xA0\x80", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"}) {
        scenario.setFromText("description", good);
        QCOMPARE(scenario.text("description"), std::string(good));
    }
    scenario.setFromText("name", "gr\xC3\xBC\xC3\x9F\x65 \xE2\x86\x92 \xF0\x9F\x8C\x8D");  // "grüße → 🌍"
    QCOMPARE(scenario.text("name"), std::string("gr\xC3\xBC\xC3\x9F\x65 \xE2\x86\x92 \xF0\x9F\x8C\x8D"));
}

void SchemaTest::malformedJsonGivesLineAndColumn()
{
    const std::string error =
        errorOf([] { (void)scenarioFromJson("{\n  \"seed\": 1,\n  \"run\": {\"time\" 2}\n}", "m.json"); });
    QVERIFY(oneLine(error));
    QVERIFY2(contains(error, "m.json: malformed JSON"), error.c_str());
    QVERIFY2(contains(error, "line 3, column"), error.c_str());
}

void SchemaTest::missingFileNamesThePath()
{
    const std::string error = errorOf([] { (void)loadScenarioFile("/nonexistent/dir/scenario.json"); });
    QVERIFY(oneLine(error));
    QVERIFY2(contains(error, "/nonexistent/dir/scenario.json: cannot read"), error.c_str());
    const std::string unresolved = errorOf([] { (void)resolveScenario("no_such_scenario"); });
    QVERIFY2(contains(unresolved, "no_such_scenario"), unresolved.c_str());
}

void SchemaTest::objectWhereValueExpectedIsRejected()
{
    const std::string error = errorOf([] { (void)scenarioFromJson(R"({"seed": {"value": 3}})", "o.json"); });
    QVERIFY2(contains(error, "o.json: seed: object is not a value"), error.c_str());
    const std::string array = errorOf([] { (void)scenarioFromJson(R"({"solver": {"dt": [1, 2]}})", "a.json"); });
    QVERIFY2(contains(array, "solver.dt: array is not a value; accepted: a real number in (0, 1000] s"), array.c_str());
}

void SchemaTest::integerAcceptedForRealAndConverted()
{
    const Scenario scenario = scenarioFromJson(R"({"run": {"time": 2}, "particles": {"count": 7.0}})", "i.json");
    QCOMPARE(scenario.real("run.time"), 2.0);
    QCOMPARE(scenario.integer("particles.count"), std::int64_t{7});
}

void SchemaTest::textAssignmentIsParsedByKind()
{
    Scenario scenario;
    scenario.setFromText("solver.dt", "2.5e-4");
    scenario.setFromText("output.vtk", "true");
    scenario.setFromText("solver.iterations", "80");
    QCOMPARE(scenario.real("solver.dt"), 2.5e-4);
    QVERIFY(scenario.boolean("output.vtk"));
    QCOMPARE(scenario.integer("solver.iterations"), std::int64_t{80});
    const std::string error = errorOf([&] { scenario.setFromText("solver.iterations", "80x"); });
    QVERIFY2(contains(error, "solver.iterations: expected an integer, got \"80x\""), error.c_str());
    QCOMPARE(scenario.integer("solver.iterations"), std::int64_t{80});
    // A leading + is a number as written; a double's or an integer's bounds are named as such, not as "not a number".
    scenario.setFromText("solver.dt", "+0.002");
    QCOMPARE(scenario.real("solver.dt"), 0.002);
    scenario.setFromText("solver.iterations", "+40");
    QCOMPARE(scenario.integer("solver.iterations"), std::int64_t{40});
    for (const char* text : {"1e-330", "1e400"}) {
        const std::string tiny = errorOf([&] { scenario.setFromText("solver.dt", text); });
        QVERIFY2(contains(tiny, "beyond what a double holds") && contains(tiny, "accepted:"), tiny.c_str());
    }
    const std::string huge = errorOf([&] { scenario.setFromText("solver.iterations", "99999999999999999999"); });
    QVERIFY2(contains(huge, "beyond a 64-bit integer"), huge.c_str());
    for (const char* text : {"++1", "+-1", "+"}) {
        QVERIFY(contains(errorOf([&] { scenario.setFromText("solver.dt", text); }), "expected a real number"));
    }
    QCOMPARE(scenario.real("solver.dt"), 0.002);
}

void SchemaTest::resolvedScenarioRoundTripsThroughJson()
{
    Scenario original = resolveScenario("freefall2d");
    original.setFromText("solver.dt", "0.000123");
    const Scenario copy = scenarioFromJson(scenarioToJson(original), "round-trip");
    QVERIFY(copy.values() == original.values());
}

void SchemaTest::everyBuiltinScenarioLoads()
{
    const auto builtins = builtinScenarios();
    QVERIFY(builtins.size() >= 2);
    for (const auto& builtin : builtins) {
        const Scenario scenario = resolveScenario(builtin.name);
        QCOMPARE(scenario.text("name"), builtin.name);
        QVERIFY2(!builtin.description.empty(), builtin.name.c_str());
    }
}

void SchemaTest::settingsBindExactlyTheSchemasKeys()
{
    // parseSettings reads exactly the schema's keys, in its order: a key added to one and not the other fails.
    std::vector<std::string> schemaKeys;
    for (const auto& p : Schema::instance().parameters()) {
        schemaKeys.push_back(p.key);
    }
    const std::vector<std::string> bound = boundKeys();
    for (const auto& key : schemaKeys) {
        QVERIFY2(std::find(bound.begin(), bound.end(), key) != bound.end(),
                 ("schema key " + key + " is bound to no field of Settings").c_str());
    }
    for (const auto& key : bound) {
        QVERIFY2(std::find(schemaKeys.begin(), schemaKeys.end(), key) != schemaKeys.end(),
                 ("Settings binds " + key + ", which the schema does not have").c_str());
    }
    QCOMPARE(bound.size(), schemaKeys.size());
}

void SchemaTest::everyChoiceHasATypedValue()
{
    for (const auto& p : Schema::instance().parameters()) {
        if (p.kind != ParameterKind::Choice) {
            continue;
        }
        for (const auto& choice : p.choices) {
            Settings settings;
            try {
                assignSetting(settings, p.key, Value(choice));
            } catch (const std::logic_error& error) {
                QFAIL((p.key + " = " + choice + ": " + error.what()).c_str());
            }
        }
    }
}

void SchemaTest::typedEditsWriteBackOnlyWhatChanged()
{
    Scenario scenario = resolveScenario("piston2d");
    const Settings before = parseSettings(scenario);
    Settings after = before;
    after.piston.force += 1.0;
    after.gravity.y() = -1.0;
    const auto changed = writeChanges(scenario, before, after);
    QCOMPARE(changed.size(), std::size_t{2});
    QCOMPARE(std::get<double>(scenario.get("piston.force")), before.piston.force + 1.0);
    QCOMPARE(std::get<double>(scenario.get("gravity.y")), -1.0);
    after.solver.dt = -1.0;  // out of the schema's range: refused, the scenario stays as it was
    const std::string message = errorOf([&] { (void)writeChanges(scenario, before, after); });
    QVERIFY2(message.rfind("solver.dt: -1 is out of range", 0) == 0, message.c_str());
    QCOMPARE(std::get<double>(scenario.get("solver.dt")), before.solver.dt);
}

QTEST_APPLESS_MAIN(SchemaTest)
#include "tst_schema.moc"
