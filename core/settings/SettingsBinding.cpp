#include "settings/SettingsBinding.h"

#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "settings/SettingsChecks.h"

#include <stdexcept>
#include <string_view>
#include <type_traits>

namespace granular {

namespace {

/// One key of the schema and the field of Settings it fills.
struct Binding {
    std::string_view key;
    void (*read)(Settings&, const Value&);
    Value (*write)(const Settings&);
};

/// The field reached from `object` through the member pointers `Path...`.
template <auto First, auto... Rest, class Object> constexpr auto& fieldOf(Object& object)
{
    if constexpr (sizeof...(Rest) == 0) {
        return object.*First;
    } else {
        return fieldOf<Rest...>(object.*First);
    }
}

template <class T> T fromValue(const Value& value)
{
    if constexpr (std::is_enum_v<T>) {
        const auto& name = std::get<std::string>(value);
        for (const auto& [choice, choiceName] : ChoiceNames<T>::names) {
            if (choiceName == name) {
                return choice;
            }
        }
        throw std::logic_error("the schema's choice '" + name + "' has no value in settings/Choices.h");
    } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, std::string>) {
        return std::get<T>(value);
    } else {
        return static_cast<T>(std::get<std::int64_t>(value));  // integers: counts, indices, the dimension, the seed
    }
}

template <class T> Value toValue(const T& field)
{
    if constexpr (std::is_enum_v<T>) {
        return std::string(choiceName(field));
    } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, std::string>) {
        return field;
    } else {
        return static_cast<std::int64_t>(field);
    }
}

template <auto... Path> constexpr Binding field(std::string_view key)
{
    using T = std::remove_cvref_t<decltype(fieldOf<Path...>(std::declval<Settings&>()))>;
    return {key, [](Settings& s, const Value& v) { fieldOf<Path...>(s) = fromValue<T>(v); },
            [](const Settings& s) { return toValue<T>(fieldOf<Path...>(s)); }};
}

/// Component `Axis` of a vector field.
template <int Axis, auto... Path> constexpr Binding component(std::string_view key)
{
    return {key, [](Settings& s, const Value& v) { fieldOf<Path...>(s)[Axis] = std::get<double>(v); },
            [](const Settings& s) { return Value(fieldOf<Path...>(s)[Axis]); }};
}

using S = Settings;

// The order is the schema's; tst_schema checks that these keys are exactly the schema's.
constexpr Binding kBindings[] = {
    field<&S::name>("name"),
    field<&S::description>("description"),
    field<&S::seed>("seed"),
    field<&S::setup>("setup"),
    field<&S::dimension>("world.dimension"),
    field<&S::run, &RunSettings::time>("run.time"),
    field<&S::run, &RunSettings::outputInterval>("output.interval"),
    field<&S::run, &RunSettings::writeVtk>("output.vtk"),
    field<&S::solver, &SolverSettings::method>("solver.method"),
    field<&S::solver, &SolverSettings::dt>("solver.dt"),
    field<&S::solver, &SolverSettings::iterations>("solver.iterations"),
    field<&S::solver, &SolverSettings::criterion>("solver.criterion"),
    field<&S::solver, &SolverSettings::maxIterations>("solver.max_iterations"),
    field<&S::solver, &SolverSettings::substeps>("solver.substeps"),
    field<&S::solver, &SolverSettings::tolerance>("solver.tolerance"),
    field<&S::solver, &SolverSettings::forceCutoff>("solver.force_cutoff"),
    field<&S::solver, &SolverSettings::sweep>("solver.sweep"),
    field<&S::contact, &ContactSettings::friction>("contact.friction"),
    field<&S::contact, &ContactSettings::wallFriction>("contact.wall_friction"),
    field<&S::contact, &ContactSettings::margin>("contact.margin"),
    field<&S::material, &MaterialSettings::law>("material.law"),
    field<&S::material, &MaterialSettings::stiffness>("material.stiffness"),
    field<&S::material, &MaterialSettings::restitution>("material.restitution"),
    field<&S::material, &MaterialSettings::youngModulus>("material.young_modulus"),
    field<&S::material, &MaterialSettings::poissonRatio>("material.poisson_ratio"),
    field<&S::material, &MaterialSettings::tangentialRatio>("material.tangential_ratio"),
    component<0, &S::gravity>("gravity.x"),
    component<1, &S::gravity>("gravity.y"),
    component<2, &S::gravity>("gravity.z"),
    field<&S::particles, &ParticleSettings::count>("particles.count"),
    field<&S::particles, &ParticleSettings::radiusMin>("particles.radius_min"),
    field<&S::particles, &ParticleSettings::radiusMax>("particles.radius_max"),
    field<&S::particles, &ParticleSettings::density>("particles.density"),
    field<&S::particles, &ParticleSettings::gap>("particles.gap"),
    field<&S::particles, &ParticleSettings::lift>("particles.lift"),
    field<&S::particles, &ParticleSettings::jitter>("particles.jitter"),
    field<&S::particles, &ParticleSettings::file>("particles.file"),
    field<&S::particles, &ParticleSettings::fileUpAxis>("particles.file_up_axis"),
    component<0, &S::particles, &ParticleSettings::velocity>("particles.velocity.x"),
    component<1, &S::particles, &ParticleSettings::velocity>("particles.velocity.y"),
    component<2, &S::particles, &ParticleSettings::velocity>("particles.velocity.z"),
    field<&S::box, &BoxSettings::width>("box.width"),
    field<&S::box, &BoxSettings::height>("box.height"),
    field<&S::box, &BoxSettings::depth>("box.depth"),
    field<&S::box, &BoxSettings::walls>("box.walls"),
    field<&S::chain, &ChainSettings::count>("chain.count"),
    field<&S::chain, &ChainSettings::mass>("chain.mass"),
    field<&S::chain, &ChainSettings::force>("chain.force"),
    field<&S::chain, &ChainSettings::wallGap>("chain.wall_gap"),
    field<&S::piston, &PistonSettings::mass>("piston.mass"),
    field<&S::piston, &PistonSettings::force>("piston.force"),
    field<&S::piston, &PistonSettings::loadStep>("piston.load_step"),
    field<&S::piston, &PistonSettings::loadStepTime>("piston.load_step_time"),
    field<&S::pair, &PairSettings::height>("pair.height"),
    field<&S::pair, &PairSettings::driven>("pair.driven"),
    field<&S::drum, &DrumSettings::radius>("drum.radius"),
    field<&S::drum, &DrumSettings::angularVelocity>("drum.angular_velocity"),
    field<&S::pressure, &PressureSettings::externalPressure>("pressure.external"),
    field<&S::pressure, &PressureSettings::inertia>("pressure.inertia"),
    field<&S::pressure, &PressureSettings::variant>("pressure.variant"),
    field<&S::pressure, &PressureSettings::shape>("pressure.cell_shape"),
    field<&S::pressure, &PressureSettings::relaxThreshold>("pressure.relax_threshold"),
    field<&S::compression, &CompressionSettings::topStart>("compression.top_start"),
    field<&S::compression, &CompressionSettings::topEnd>("compression.top_end"),
    field<&S::compression, &CompressionSettings::strokeTime>("compression.stroke_time"),
    field<&S::compression, &CompressionSettings::strokes>("compression.strokes"),
    field<&S::compression, &CompressionSettings::settleTime>("compression.settle_time"),
    field<&S::multiContact, &MultiContactSettings::gamma>("mcdem.gamma"),
    field<&S::forceThreshold>("analysis.force_threshold"),
    field<&S::initialFraction>("cell.initial_fraction"),
    field<&S::probeIndex>("probe.index"),
    field<&S::studioStartTime>("studio.start_time"),
    field<&S::view, &ViewSettings::colour>("view.colour"),
    field<&S::view, &ViewSettings::grainSize>("view.grain_size"),
    field<&S::view, &ViewSettings::periodicImages>("view.periodic_images"),
    field<&S::view, &ViewSettings::fitZoom>("view.fit_zoom"),
};

}  // namespace

Settings parseSettings(const Scenario& scenario)
{
    Settings settings;
    for (const Binding& binding : kBindings) {
        binding.read(settings, scenario.get(binding.key));
    }
    checkSettings(settings);
    return settings;
}

std::vector<std::string> writeChanges(Scenario& scenario, const Settings& before, const Settings& after)
{
    Scenario edited = scenario;
    std::vector<std::string> changed;
    for (const Binding& binding : kBindings) {
        Value value = binding.write(after);
        if (value != binding.write(before)) {
            edited.set(binding.key, value);
            changed.emplace_back(binding.key);
        }
    }
    scenario = std::move(edited);
    return changed;
}

void assignSetting(Settings& settings, std::string_view key, const Value& value)
{
    for (const Binding& binding : kBindings) {
        if (binding.key == key) {
            binding.read(settings, value);
            return;
        }
    }
    throw std::logic_error("the schema's key '" + std::string(key) + "' is bound to no field of Settings");
}

std::vector<std::string> boundKeys()
{
    std::vector<std::string> keys;
    for (const Binding& binding : kBindings) {
        keys.emplace_back(binding.key);
    }
    return keys;
}

}  // namespace granular
