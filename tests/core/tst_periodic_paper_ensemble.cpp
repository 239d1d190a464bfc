// Shaebani et al. 2009, section 5, in the paper's own configuration: "larger samples with N = 1000 particles;
// otherwise, the default parameters", five packings, "all quantities reported hereafter represent
// average values over these systems". That is `periodic2d` with particles.count = 1000, seeds 1-5.
// Each packing must relax (mean speed and acceleration < 1e-10) with |P_in - P_ext| < 1e-6; then
// - eq. 33: the mean stress tensor is P_ext 1, its diagonal within 2 % of P_ext and its off-diagonal
//   within 2 % of P_ext (the paper found ~1 %);
// - Fig. 9 left: the contact normals of the five packings are uniform within 10 % in each of 12 bins of
//   15 degrees over [0, 180) (the paper saw a ~3 % excess along the cell axes).
// Both are statements about this ensemble: one 100-disk packing is 5-20 % anisotropic
// (tst_periodic_relaxation), one 1000-disk packing up to ~5 %.
//
// The five runs take ~27 CPU-minutes (19,000-37,000 steps each), more than CI can spend, so this test is
// registered only with -DGRANULAR_PAPER_TESTS=ON (label `paper`). The packings run on parallel threads.
#include "PeriodicRuns.h"
#include "analysis/PackingDistributions.h"
#include "model/World.h"
#include "periodic/StressTensor.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace granular;

namespace {

constexpr int kPackings = 5;
constexpr std::int64_t kParticles = 1000;
constexpr int kNormalBins = 12;
constexpr std::int64_t kMaxSteps = 80000;

/// What the test needs from one relaxed packing.
struct PackingResult {
    bool relaxed = false;
    std::int64_t steps = 0;
    double wallSeconds = 0.0;                          ///< s to relax, on its own thread
    double innerPressure = 0.0;                        ///< Pa, eq. 27's P_in* at the end
    Eigen::Matrix3d stress = Eigen::Matrix3d::Zero();  ///< Pa, eq. 20
    std::vector<double> normals;                       ///< contact normals per 15-degree bin
    double volumeFraction = 0.0;
};

PackingResult relaxPacking(std::int64_t seed)
{
    Scenario scenario = periodic_test::referenceSystem(seed);
    scenario.set("particles.count", kParticles);
    const auto start = std::chrono::steady_clock::now();
    const auto run = periodic_test::relax(scenario, kMaxSteps);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    const World& world = run.simulation.world();
    PackingResult result;
    result.relaxed = run.relaxed;
    result.steps = run.steps;
    result.wallSeconds = elapsed.count();
    result.innerPressure = world.cell->innerPressure;
    result.stress = stressTensor(world);
    result.normals = analysis::contactNormalHistogram(world, kNormalBins).counts;
    result.volumeFraction = analysis::packingStatistics(world).volumeFraction;
    return result;
}

}  // namespace

class PeriodicPaperEnsembleTest : public QObject {
    Q_OBJECT

private slots:
    void fivePackingsOfThousandDisksAreIsotropic();
};

void PeriodicPaperEnsembleTest::fivePackingsOfThousandDisksAreIsotropic()
{
    std::vector<PackingResult> results(kPackings);
    periodic_test::forEachInParallel(kPackings,
                                     [&](int k) { results[static_cast<std::size_t>(k)] = relaxPacking(k + 1); });

    const double pExt = 1.0;  // periodic2d's pressure.external
    Eigen::Matrix3d meanStress = Eigen::Matrix3d::Zero();
    std::vector<double> normals(kNormalBins, 0.0);
    for (int k = 0; k < kPackings; ++k) {
        const PackingResult& r = results[static_cast<std::size_t>(k)];
        const std::string name = "seed " + std::to_string(k + 1);
        std::printf("%s: %lld steps in %.0f s, phi %.4f, P_in %.9f Pa, sigma = [%.4f %.4f; %.4f %.4f] Pa\n",
                    name.c_str(), static_cast<long long>(r.steps), r.wallSeconds, r.volumeFraction, r.innerPressure,
                    r.stress(0, 0), r.stress(0, 1), r.stress(1, 0), r.stress(1, 1));
        QVERIFY2(r.relaxed,
                 (name + ": the stopping rule was not met in " + std::to_string(r.steps) + " steps").c_str());
        QVERIFY2(std::fabs(r.innerPressure - pExt) < 1e-6,
                 (name + ": eq. 27 P_in* = " + std::to_string(r.innerPressure) + " Pa, P_ext = 1 Pa").c_str());
        meanStress += r.stress / kPackings;
        for (std::size_t b = 0; b < normals.size(); ++b) {
            normals[b] += r.normals[b];
        }
    }

    std::printf("eq. 33: mean sigma = [%.4f %.4f; %.4f %.4f] Pa (paper: [1.00909 -0.01334; -0.01332 0.99091])\n",
                meanStress(0, 0), meanStress(0, 1), meanStress(1, 0), meanStress(1, 1));
    QVERIFY2(std::fabs(meanStress(0, 0) - pExt) < 0.02 * pExt && std::fabs(meanStress(1, 1) - pExt) < 0.02 * pExt,
             ("eq. 33: the mean stress's diagonal (" + std::to_string(meanStress(0, 0)) + ", " +
              std::to_string(meanStress(1, 1)) + ") is not within 2 % of P_ext = 1 Pa")
                 .c_str());
    QVERIFY2(std::fabs(meanStress(0, 1)) < 0.02 * pExt,
             ("eq. 33: the mean stress's off-diagonal " + std::to_string(meanStress(0, 1)) +
              " Pa is not within 2 % of P_ext")
                 .c_str());

    double total = 0.0;
    for (const double n : normals) {
        total += n;
    }
    const double uniform = total / kNormalBins;
    double largest = 0.0;
    std::printf("Fig. 9 left: contact normals per 15 deg over [0, 180) deg (uniform %.1f):", uniform);
    for (const double n : normals) {
        std::printf(" %.0f", n);
        largest = std::max(largest, std::fabs(n / uniform - 1.0));
    }
    std::printf("\nFig. 9 left: largest deviation from uniform %.1f %%\n", 100.0 * largest);
    QVERIFY2(largest < 0.10, ("Fig. 9 left: a 15-degree bin of contact normals is " + std::to_string(100.0 * largest) +
                              " % from uniform (10 % allowed)")
                                 .c_str());
}

QTEST_APPLESS_MAIN(PeriodicPaperEnsembleTest)
#include "tst_periodic_paper_ensemble.moc"
