#include "cli/ScenarioSummary.h"

#include "analysis/ChainOscillation.h"
#include "analysis/CompressionComparison.h"
#include "analysis/PackingDistributions.h"
#include "analysis/PackingStatistics.h"
#include "analysis/PistonOscillation.h"
#include "analysis/SeriesTable.h"
#include "md/ContactLaw.h"
#include "md/MaterialModel.h"
#include "model/World.h"
#include "periodic/StressTensor.h"
#include "settings/Settings.h"
#include "sim/Simulation.h"
#include "util/ShownTime.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace granular::cli {

namespace {

/// The contact law of an MD chain (solver.method = md, linear law): by default the CD-equivalent
/// stiffness q m N_I / dt^2 and damping q m N_I / dt of Unger & Kertesz 2003, eq. 67-68.
void addMdChainContact(nlohmann::ordered_json& oscillation, const Settings& settings,
                       const theory::ChainParameters& chain)
{
    if (settings.solver.method != Method::SoftParticle || settings.material.law != NormalLaw::Linear) {
        return;
    }
    const md::MaterialModel material = md::materialModelFrom(settings);
    Contact c;
    c.kind = ContactKind::Particle;
    c.normalMass = 0.5 * chain.mass;
    c.tangentialMass = c.normalMass;
    const md::PairLaw law = md::pairLawFor(material, c, 0.5 * chain.diameter, 0.5 * chain.diameter, 0.0);
    oscillation["md_contact"] = {{"stiffness_N_per_m", law.stiffness},
                                 {"damping_kg_per_s", law.damping},
                                 {"cd_equivalent_stiffness", material.cdEquivalentStiffness()},
                                 {"cd_equivalent_damping", material.cdEquivalentDamping()}};
}

/// A damped-oscillation fit of a position (m) with its standard errors and whether it resolved an oscillation.
nlohmann::ordered_json fitJson(const analysis::DampedOscillationFit& fit)
{
    return {{"omega_rad_per_s", fit.omega},
            {"omega_error_rad_per_s", fit.omegaError},
            {"tau_s", fit.tau},
            {"tau_error_s", fit.tauError},
            {"x0_m", fit.x0},
            {"amplitude_m", fit.amplitude},
            {"r2", fit.r2},
            {"converged", fit.converged},
            {"resolved", fit.resolved}};
}

/// Unger & Kertesz 2003, Fig. 7: the chain's fitted omega and tau next to the theory's (eq. 58, 60).
void addChainResults(nlohmann::ordered_json& summary, const Simulation& simulation, const SeriesTable& series)
{
    auto& oscillation = summary["oscillation"];
    try {
        const auto result = analysis::analyzeChainOscillation(simulation.settings(), series);
        const auto inapplicable = analysis::chainTheoryInapplicable(simulation.settings());
        if (!inapplicable) {
            oscillation["theory"] = {{"omega_rad_per_s", result.theoryOmega}, {"tau_s", result.theoryTau}};
        }
        oscillation["fit"] = fitJson(result.fit);
        oscillation["window_s"] = {shownTime(result.windowStart), shownTime(result.windowEnd)};
        if (inapplicable) {
            oscillation["theory_not_applicable"] = *inapplicable;
        } else if (result.fit.resolved) {  // a fit to noise is no measurement to set against the theory
            oscillation["fit_over_theory"] = {{"omega", result.fit.omega / result.theoryOmega},
                                              {"tau", result.fit.tau / result.theoryTau}};
        }
        addMdChainContact(oscillation, simulation.settings(), result.chain);
    } catch (const std::invalid_argument& error) {
        oscillation["error"] = error.what();
    }
}

/// Unger & Kertesz 2003, Fig. 8: the piston's damped oscillation after the load step, omega and tau fitted freely
/// once the grains have stopped sliding (analysis::analyzePistonOscillation).
void addPistonResults(nlohmann::ordered_json& summary, const Simulation& simulation, const SeriesTable& series)
{
    const double loadStepTime = simulation.settings().piston.loadStepTime;
    if (series.time.empty() || series.time.back() <= loadStepTime) {
        return;  // no load step during this run
    }
    auto& oscillation = summary["oscillation"];
    try {
        const auto result = analysis::analyzePistonOscillation(simulation.settings(), series);
        const auto& fit = result.fit;
        oscillation["fit"] = fitJson(fit);
        oscillation["window_s"] = {shownTime(result.windowStart), shownTime(result.windowEnd)};
        std::ostringstream rule;
        rule << "after the load step, once at most " << 100.0 * analysis::kSlidingShareAfterTransient
             << " % of the contacts slide; t = 0 at the load step";
        oscillation["window_rule"] = rule.str();
        const Settings& settings = simulation.settings();
        if (settings.solver.method == Method::ContactDynamics &&
            settings.solver.criterion == ConvergenceCriterion::Fixed && fit.resolved) {
            // CD with fixed N_I acts as springs and dashpots with gamma / kappa = dt (eq. 67-68); a mode
            // of such a network has omega_0^2 tau = 2 / dt, omega_0^2 = omega^2 + 1/tau^2 (eq. 58, 60).
            oscillation["omega0_squared_tau_dt"] = {
                {"measured", (fit.omega * fit.omega + 1.0 / (fit.tau * fit.tau)) * fit.tau * settings.solver.dt},
                {"chain_theory", 2.0}};
        }
    } catch (const std::invalid_argument& error) {
        oscillation["error"] = error.what();
    }
}

/// Shaebani et al. 2009, section 5: the final packing of a constant-pressure run in a periodic cell.
void addPeriodicResults(nlohmann::ordered_json& summary, const Simulation& simulation)
{
    const World& world = simulation.world();
    const auto stats = analysis::packingStatistics(world);
    const Eigen::Matrix3d sigma = stressTensor(world);
    const int dimension = world.dimension;
    const auto matrix = [dimension](const Eigen::Matrix3d& m) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (int a = 0; a < dimension; ++a) {
            nlohmann::ordered_json row = nlohmann::ordered_json::array();
            for (int b = 0; b < dimension; ++b) {
                row.push_back(m(a, b));
            }
            rows.push_back(row);
        }
        return rows;
    };
    const nlohmann::ordered_json stress = matrix(sigma);
    summary["relaxed"] = simulation.finished();
    summary["volume_fraction"] = stats.volumeFraction;
    summary["mean_overlap"] = stats.meanOverlap;
    summary["stress"] = stress;
    summary["coordination"] = stats.coordination;
    const auto normals = analysis::contactNormalHistogram(world, 12);
    const auto forces = analysis::forceDistribution(world, 10, 5.0);
    summary["packing"] = {
        {"max_overlap_m", stats.maxOverlap},
        {"contacts", stats.contacts},
        {"rattlers", stats.rattlers},
        // One row per edge vector (the cell matrix holds them as its columns): cell_edges_m[0] is the first edge.
        {"cell_edges_m", matrix(world.cell->edges.transpose())},
        {"strain_rate_per_s", matrix(world.cell->strainRate)},
        {"coordination_without_rattlers", stats.coordinationWithoutRattlers},
        {"contact_normals", {{"range", {normals.low, normals.high}}, {"counts", normals.counts}}},
        {"normal_force_over_mean", {{"range", {forces.low, forces.high}}, {"counts", forces.counts}}},
        {"contact_density", {{"cells_per_axis", 4}, {"per_unit_volume", analysis::contactDensityGrid(world, 4)}}}};
}

}  // namespace

void addScenarioResults(nlohmann::ordered_json& summary, const Simulation& simulation, const SeriesTable& series)
{
    const Setup setup = simulation.settings().setup;
    if (setup == Setup::Chain && series.has("probe_x") && series.has("contacts")) {
        addChainResults(summary, simulation, series);
    }
    if (setup == Setup::Piston && series.has("piston_y")) {
        addPistonResults(summary, simulation, series);
    }
    if (setup == Setup::Periodic && simulation.world().cell) {
        addPeriodicResults(summary, simulation);
    }
}

void addCompressionResults(nlohmann::ordered_json& summary, const std::vector<analysis::CompressionLevel>& levels,
                           int levelCount)
{
    // Built apart and inserted at the end: ordered_json keeps its members in a vector, so a reference to one
    // member does not survive the insertion of another.
    nlohmann::ordered_json compression;
    auto strokes = nlohmann::ordered_json::array();
    auto table = nlohmann::ordered_json::array();
    for (const auto& l : levels) {
        // A down-stroke's turning point, its last level: a run stopped inside a down-stroke lists none for it (it
        // listed the force where it stopped when that was the deepest level of the run).
        if (l.stroke % 2 == 1 && l.level == levelCount) {
            strokes.push_back({{"stroke", l.stroke}, {"compression_m", l.compression}, {"top_force_N", l.topForce}});
        }
        table.push_back({{"stroke", l.stroke},
                         {"level", l.level},
                         {"compression_m", l.compression},
                         {"top_force_N", l.topForce},
                         {"volume_fraction", l.volumeFraction},
                         {"coordination", l.coordination},
                         {"coordination_above_threshold", l.coordinationAbove},
                         {"mean_force_N", l.meanForce}});
    }
    compression["strokes"] = std::move(strokes);
    compression["levels"] = std::move(table);
    for (const bool loading : {true, false}) {
        const auto fit = analysis::fitTopForceScaling(levels, loading);
        // null where the levels do not determine the line (fewer than two): an ensemble leaves them out of its
        // statistics, where zeros would pull the means towards 0.
        const auto determined = [&fit](double value) {
            return fit.determined ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
        };
        compression[loading ? "scaling_loading" : "scaling_unloading"] = {
            {"law", "top_force = slope * phi * Z * <f> + offset"},
            {"slope", determined(fit.slope)},
            {"offset_N", determined(fit.offset)},
            {"r2", determined(fit.r2)},
            {"levels", fit.points}};
    }
    summary["compression"] = std::move(compression);
}

}  // namespace granular::cli
