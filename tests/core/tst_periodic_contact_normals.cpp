// Shaebani et al. 2009, section 5: the reference system (built-in `periodic2d`: 100 disks, radii in [0.8, 1.2],
// mu = 0.5, N_I = 100, dt = 0.01, P_ext = 1, M_lambda = 100) compacted by CD at constant pressure in a fully
// periodic cell, over an ensemble of kPackings seeds. Each packing relaxes (the stopping rule: mean speed and mean
// acceleration below 1e-10), and then
// - its inner pressure (eq. 22) equals P_ext: |P_in - P_ext| < 1e-6, both as the iteration's P_in* (eq. 27) and as
//   trace(sigma)/D of the stress tensor (eq. 20);
// - the ensemble's stress tensor is isotropic (eq. 33: sigma = P_ext 1): each mean component within 3 standard
//   errors of P_ext 1 (a sign or factor error in eq. 20, or a bias along the axes, fails this). One 100-disk
//   packing has only ~130 force-carrying contacts and a deviatoric stress of 5-20 % of P_ext (the paper's cell
//   keeps its square shape, so only the trace is driven; per packing every component reaches P_ext once the
//   shape is free too: tst_periodic_free_shape);
// - Fig. 9 left: the contact normals are "very close to uniform" ("a small but definite deviation (around 3%)"
//   along the cell's axes): each bin of kBins over [0, 180) deg must hold its uniform share within 10 %.
//
// Why an ensemble: one packing's ~22 contacts per 30-degree bin have a Poisson scatter (~21 %) twice the 10 %
// allowed. The bound means something only once a bin expects ~900 contacts (10 % = 3 standard deviations):
// kPackings = 40 packings of ~130 contacts in 6 bins. The same pooled contacts also show the paper's axis effect,
// folded by the square's symmetry.
// The packings relax once (for the first check) on parallel threads; each writes its own result, so the outcome is the
// same on any number of cores. ~150 CPU-seconds: registered with label `statistics`, which the core-only CI pass
// skips (the full build runs it).
#include "PeriodicRuns.h"
#include "analysis/PackingDistributions.h"
#include "model/World.h"
#include "periodic/StressTensor.h"

#include <QTest>

#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

using namespace granular;

namespace {

constexpr int kPackings = 40;
constexpr int kBins = 6;     // 30 degrees
constexpr int kFolded = 12;  // 15 degrees, folded onto [0, 45] deg from the nearest axis

struct RelaxedReference {
    bool relaxed = false;
    std::int64_t steps = 0;
    double innerPressure = 0.0;     ///< P_in* of the iteration (eq. 27), Pa
    std::array<double, 3> sigma{};  ///< sigma_xx, sigma_yy, sigma_xy of eq. 20, Pa
    std::vector<double> coarse;     ///< contacts per 30-degree bin
    std::vector<double> fine;       ///< contacts per 15-degree bin
};

}  // namespace

class PeriodicContactNormalsTest : public QObject {
    Q_OBJECT

private slots:
    void referenceEnsembleRelaxes();
    void referenceEnsembleRelaxesToTheExternalPressure();
    void referenceEnsembleHasUniformNormals();

private:
    /// The kPackings packings, relaxed by the first check that needs them.
    const std::vector<RelaxedReference>& packings();

    std::vector<RelaxedReference> packings_;
};

const std::vector<RelaxedReference>& PeriodicContactNormalsTest::packings()
{
    if (!packings_.empty()) {
        return packings_;
    }
    packings_.resize(kPackings);
    periodic_test::forEachInParallel(kPackings, [&](int k) {
        const auto run = periodic_test::relax(periodic_test::referenceSystem(k + 1));
        const World& world = run.simulation.world();
        RelaxedReference& r = packings_[static_cast<std::size_t>(k)];
        r.relaxed = run.relaxed;
        r.steps = run.steps;
        r.innerPressure = world.cell->innerPressure;
        const Eigen::Matrix3d sigma = stressTensor(world);
        r.sigma = {sigma(0, 0), sigma(1, 1), sigma(0, 1)};
        r.coarse = analysis::contactNormalHistogram(world, kBins).counts;
        r.fine = analysis::contactNormalHistogram(world, kFolded).counts;
    });
    return packings_;
}

void PeriodicContactNormalsTest::referenceEnsembleRelaxes()
{
    const std::vector<RelaxedReference>& relaxed = packings();
    std::int64_t steps = 0;
    for (int k = 0; k < kPackings; ++k) {
        const RelaxedReference& r = relaxed[static_cast<std::size_t>(k)];
        QVERIFY2(r.relaxed, ("seed " + std::to_string(k + 1) +
                             ": the stopping rule (mean speed and acceleration < 1e-10) was not met in " +
                             std::to_string(r.steps) + " steps")
                                .c_str());
        steps += r.steps;
    }
    std::printf("%d packings relaxed in %lld steps in all\n", kPackings, static_cast<long long>(steps));
}

void PeriodicContactNormalsTest::referenceEnsembleRelaxesToTheExternalPressure()
{
    const double pExt = 1.0;  // periodic2d's pressure.external
    std::array<double, 3> sum{};
    std::array<double, 3> sumSquares{};
    const std::vector<RelaxedReference>& relaxed = packings();
    for (int k = 0; k < kPackings; ++k) {
        const RelaxedReference& r = relaxed[static_cast<std::size_t>(k)];
        const std::string name = "seed " + std::to_string(k + 1);
        QVERIFY2(std::fabs(r.innerPressure - pExt) < 1e-6,
                 (name + ": eq. 27 P_in* = " + std::to_string(r.innerPressure) + " Pa, P_ext = 1 Pa").c_str());
        const double trace = 0.5 * (r.sigma[0] + r.sigma[1]);
        QVERIFY2(std::fabs(trace - pExt) < 1e-6,
                 (name + ": eq. 20/22 trace(sigma)/2 = " + std::to_string(trace) + " Pa, P_ext = 1 Pa").c_str());
        for (std::size_t c = 0; c < 3; ++c) {
            sum[c] += r.sigma[c];
            sumSquares[c] += r.sigma[c] * r.sigma[c];
        }
    }
    // Eq. 33: the ensemble's stress is P_ext 1.
    const std::array<double, 3> expected{pExt, pExt, 0.0};
    const std::array<const char*, 3> names{"sigma_xx", "sigma_yy", "sigma_xy"};
    for (std::size_t c = 0; c < 3; ++c) {
        const double mean = sum[c] / kPackings;
        const double spread = std::sqrt(std::max(0.0, (sumSquares[c] - kPackings * mean * mean) / (kPackings - 1)));
        const double standardError = spread / std::sqrt(static_cast<double>(kPackings));
        std::printf("eq. 33: mean %s = %.4f Pa (P_ext 1: %.4f), per-packing spread %.4f, standard error %.4f\n",
                    names[c], mean, expected[c], spread, standardError);
        QVERIFY2(std::fabs(mean - expected[c]) < 3.0 * standardError,
                 (std::string("eq. 33: mean ") + names[c] + " = " + std::to_string(mean) + " Pa over " +
                  std::to_string(kPackings) + " packings is more than 3 standard errors (" +
                  std::to_string(standardError) + ") from " + std::to_string(expected[c]))
                     .c_str());
    }
}

void PeriodicContactNormalsTest::referenceEnsembleHasUniformNormals()
{
    std::vector<double> coarse(kBins, 0.0);
    std::vector<double> fine(kFolded, 0.0);
    for (const RelaxedReference& r : packings()) {
        for (std::size_t b = 0; b < coarse.size(); ++b) {
            coarse[b] += r.coarse[b];
        }
        for (std::size_t b = 0; b < fine.size(); ++b) {
            fine[b] += r.fine[b];
        }
    }
    double total = 0.0;
    for (const double n : coarse) {
        total += n;
    }
    const double uniform = total / kBins;
    std::printf("%d packings, %.0f contacts\n", kPackings, total);
    std::printf("Fig. 9 left: contact normals per 30 deg over [0, 180) deg (uniform %.1f, Poisson scatter %.1f %%):",
                uniform, 100.0 / std::sqrt(uniform));
    double largest = 0.0;
    for (const double n : coarse) {
        std::printf(" %.0f", n);
        largest = std::max(largest, std::fabs(n / uniform - 1.0));
    }
    std::printf("\nFig. 9 left: largest deviation from uniform %.1f %% (10 %% allowed)\n", 100.0 * largest);
    QVERIFY2(uniform > 800.0, ("only " + std::to_string(uniform) +
                               " contacts per bin expected: too few for a 10 % bound to mean anything")
                                  .c_str());
    QVERIFY2(largest < 0.10, ("Fig. 9 left: a 30-degree bin of contact normals is " + std::to_string(100.0 * largest) +
                              " % from uniform (10 % allowed)")
                                 .c_str());

    // The paper's axis effect: 15-degree bins at the same angle from the nearest cell axis (0, 90 deg) are
    // equivalent in a square cell; folded, three bins run from the axes (0-15 deg) to the diagonals (30-45 deg).
    std::vector<double> folded(3, 0.0);
    for (int b = 0; b < kFolded; ++b) {
        const int fromAxis = std::min(b % 6, 5 - b % 6);  // 0: within 15 deg of an axis, 2: of a diagonal
        folded[static_cast<std::size_t>(fromAxis)] += fine[static_cast<std::size_t>(b)];
    }
    std::printf("Fig. 9 left, folded: 0-15 / 15-30 / 30-45 deg from the nearest axis: %.0f / %.0f / %.0f "
                "(axis over diagonal %+.1f %%; paper: ~+3 %%)\n",
                folded[0], folded[1], folded[2], 100.0 * (folded[0] / folded[2] - 1.0));
    for (const double n : folded) {
        QVERIFY2(std::fabs(n / (total / 3.0) - 1.0) < 0.10,
                 ("Fig. 9 left, folded: a bin holds " + std::to_string(n) + " of " + std::to_string(total) +
                  " contacts, more than 10 % from a third")
                     .c_str());
    }
}

QTEST_APPLESS_MAIN(PeriodicContactNormalsTest)
#include "tst_periodic_contact_normals.moc"
