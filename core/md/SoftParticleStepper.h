#pragma once

#include "md/BodyLoads.h"
#include "md/CandidateList.h"
#include "md/ContactDeformation.h"
#include "md/ContactForces.h"
#include "md/DampedHertzImpact.h"
#include "md/LoadAssembly.h"
#include "md/MaterialModel.h"
#include "md/TimeStepAdvisor.h"
#include "method/Stepper.h"
#include "periodic/Relaxation.h"
#include "settings/Settings.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace granular {

namespace md {

/// The settings of the soft-particle method.
struct SoftParticleSettings {
    double dt = 1e-3;  ///< s, solver.dt: one step of the scenario
    std::int64_t substeps =
        0;  ///< velocity-Verlet steps per dt; 0: automatic (each <= t_c / 50; overdamped contacts: relaxation / 10)
    double relativeSkin = 0.1;  ///< Verlet-list skin in smallest radii (contact.margin)
    MaterialModel material;
    /// Setup periodic: the cell's size follows P_in - P_ext (Shaebani et al. 2009, eq. 17-19), integrated by
    /// velocity Verlet with the grains, and the run ends when relaxed (pressure.relaxThreshold);
    /// nullopt: the world's boundaries are fixed.
    std::optional<PressureSettings> pressure;
};

/// The soft-particle method's part of a scenario's settings.
[[nodiscard]] SoftParticleSettings softParticleSettingsFrom(const Settings& settings);

}  // namespace md

/// Soft-particle DEM (docs/REFERENCES.md, the DEM note of MSCM 2024): overlapping grains repel by a linear or
/// Hertz spring with a dashpot calibrated to a restitution coefficient, a tangential spring with
/// history capped by Coulomb, integrated by velocity Verlet with rotation. One step of the scenario
/// (solver.dt) is `substeps` MD steps, each the stages
///   drift (half kick + positions) -> neighbours (Verlet list) -> contact forces -> kick -> dashpots.
/// Grains of infinite mass are fixed or driven: they keep their velocity whatever acts on them.
/// In a periodic cell (setup periodic) the cell's size follows the pressure as in Shaebani et al. 2009: lambda is
/// kicked by (P_in - P_ext) / M_lambda and the positions are scaled by 1 + lambda dt at every drift;
/// velocities are relative to that affine flow, which adds lambda l to a pair's approach speed.
class SoftParticleStepper final : public Stepper {
public:
    SoftParticleStepper() = default;
    /// `deformation`: the grains' bulges beyond their spheres (mcdem); null: rigid spheres that overlap (md).
    explicit SoftParticleStepper(const md::SoftParticleSettings& settings,
                                 std::unique_ptr<md::ContactDeformation> deformation = nullptr);

    [[nodiscard]] std::string name() const override { return deformation_ ? "mcdem" : "md"; }
    void configure(const Settings& settings) override;
    void configure(const md::SoftParticleSettings& settings);
    StepDiagnostics step(World& world) override;
    /// In a periodic cell at constant pressure: the packing has relaxed (the rule of cd_pressure, each measure at least
    /// relaxationFloor() as well); with a driven plate: its last stroke has ended.
    [[nodiscard]] bool finished(const World& world) const override;
    [[nodiscard]] std::vector<std::string> advisories(const World& world) const override;
    void saveState(StateWriter& out) const override;
    void loadState(StateReader& in) override;
    /// The candidates' memories (one per contact), their motion record and the loads (one per grain) of a state that
    /// the next step keeps (adopt).
    void checkState(const World& world) const override;

    [[nodiscard]] const md::SoftParticleSettings& settings() const { return settings_; }
    /// The time scale of the fastest contact of the world as it is now (`forAdvice`: md::contactTimeScale's).
    [[nodiscard]] md::ContactTimeScale timeScale(const World& world, bool forAdvice = false) const;
    /// MD steps that the next step of `world` takes (solver.substeps or automatic).
    [[nodiscard]] std::int64_t substepsFor(const World& world) const;
    /// The stillest that the relaxation measures can show in `world` as it is now (roundingFloor for the fastest
    /// contact's rate pi / resolution and the lightest grain's stiffness at that rate); no floor outside a periodic
    /// cell at constant pressure. The stopping rule compares with it too.
    [[nodiscard]] RelaxationFloor relaxationFloor(const World& world) const;
    /// Rebuilds of the contact candidates (the Verlet list) since the stepper last started afresh on a new or loaded
    /// world (for tests and benches).
    [[nodiscard]] std::int64_t candidateRebuilds() const { return candidates_.rebuilds(); }

private:
    void adopt(World& world);
    /// Whether `world` is the one this stepper stepped last, as it left it (grains, steps, time): its state goes on.
    [[nodiscard]] bool leftAsItWas(const World& world) const;
    /// One MD step of dt, ending at `endTime` (s, the world's time once it is through); `lastOfStep`: the solver
    /// step's last, after which world.contacts is looked at.
    void advance(World& world, double dt, double endTime, StepDiagnostics& diagnostics, bool lastOfStep);
    void drift(World& world, double dt);
    /// The drift's arrays for the grains of `world` with the loads `loads` (those at the drift's start), and the
    /// half-step velocities sized for them.
    [[nodiscard]] md::GrainDrift grainDrift(World& world, const md::BodyLoads& loads, double dt, double scale);
    /// The drift of the piston, the drum and the candidates' motion record, once the grains have drifted by `moved`
    /// over dt from `time` (s), with `loads` at the drift's start; `scale`, the cell's dilation of that step.
    void finishDrift(World& world, const md::BodyLoads& loads, double dt, double time, double scale,
                     const DisplacementBound& moved);
    /// The candidates rebuilt where a body may have moved beyond their skin since the last rebuild (or the material,
    /// the skin, the world or the bulges' reach changed), and the assembly's index made for them and the solver
    /// threads.
    void refreshCandidateList(World& world, StepDiagnostics& diagnostics);
    /// The first half of the cell's Verlet step: half a kick of lambda, then L scaled by
    /// 1 + lambda dt. Returns that scale, which the grains' positions get too (1 without a cell).
    double dilateCell(World& world, double dt);
    /// The second half: P_in at the new state (eq. 22), half a kick of lambda with it.
    void finishCellStep(World& world, double dt);
    void kick(World& world, double dt, double time);
    /// The piston's part of the kick (a driven plate follows its program).
    void kickPiston(World& world, double dt, double time) const;
    [[nodiscard]] double largestOverlap() const;

    md::SoftParticleSettings settings_;
    md::HertzCalibration hertz_;
    md::CandidateList candidates_;
    std::unique_ptr<md::ContactDeformation> deformation_;  ///< null: rigid spheres (md)
    md::BodyLoads loads_;                                  ///< at the start of the MD step
    md::BodyLoads next_;                                   ///< at its end
    md::HalfStepVelocities half_;
    md::LoadAssembly assembly_;     ///< gathers the contact loads onto the grains in a fixed order
    bool indexed_ = false;          ///< assembly_ indexes the world's present contact list
    double smallestRadius_ = 0.0;   ///< m
    double largestRadius_ = 0.0;    ///< m
    bool rebuild_ = true;           ///< the candidates' laws are stale
    bool primed_ = false;           ///< loads_ belong to the world's present state
    bool drifted_ = false;          ///< the last MD step drifted the grains for the next one (within a solver step)
    std::size_t adoptedCount_ = 0;  ///< identity of the world stepped last: grains, steps, time
    std::int64_t adoptedSteps_ = -1;
    double adoptedTime_ = 0.0;
};

}  // namespace granular
