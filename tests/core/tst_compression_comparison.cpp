// Brodu et al. 2015's measures between two compression runs (analysis/CompressionComparison.h, docs/REFERENCES.md:
// R_top at the largest compression, err_f over all compression levels, bhat and err_Z averaged over them), on the last
// loading/unloading cycle that both runs went through to its end: a stroke a run stopped inside, or the rest after
// the protocol, is no cycle to compare.
#include "analysis/CompressionComparison.h"

#include <QTest>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using namespace granular;
using analysis::CompressionLevel;
using analysis::CompressionRun;

namespace {

constexpr int kLevels = 10;
constexpr double kAmplitude = 0.03;  // m

/// The top force (N) at compression x (m) of a stroke: stiffer loading (down, odd strokes) than unloading.
double topForce(double x, std::int64_t stroke, double scale)
{
    return scale * (stroke % 2 == 1 ? 500.0 : 400.0) * x;
}

/// A run of `strokes` strokes sampled 100 times each, the last one stopped at `lastFraction` of its way (1: whole),
/// then `rest` samples of the rest after the protocol (labelled strokes + 1). Forces scaled by `scale`.
CompressionRun run(std::int64_t strokes, double lastFraction, int rest, double scale)
{
    CompressionRun r;
    for (std::int64_t s = 1; s <= strokes; ++s) {
        const bool down = s % 2 == 1;
        const double fraction = s == strokes ? lastFraction : 1.0;
        for (int i = 0; i < 100 && i <= static_cast<int>(100 * fraction); ++i) {
            const double along = kAmplitude * i / 100.0;
            const double x = down ? along : kAmplitude - along;
            r.compression.push_back(x);
            r.stroke.push_back(s);
            r.topForce.push_back(topForce(x, s, scale));
        }
        for (int meet = 0; meet <= kLevels; ++meet) {
            if (static_cast<double>(meet) / kLevels > fraction) {
                break;
            }
            CompressionLevel l;
            l.stroke = s;
            l.level = down ? meet : kLevels - meet;
            l.compression = kAmplitude * l.level / kLevels;
            l.topForce = topForce(l.compression, s, scale);
            l.coordinationAbove = 4.0 * scale;
            l.forces = {scale * 1.0, scale * 2.0, scale * 3.0};
            r.levels.push_back(l);
        }
    }
    for (int i = 0; i < rest; ++i) {
        r.compression.push_back(strokes % 2 == 1 ? kAmplitude : 0.0);
        r.stroke.push_back(strokes + 1);
        r.topForce.push_back(topForce(r.compression.back(), strokes, scale));
    }
    return r;
}

/// Whether compareCompression refuses the pair (no complete cycle in common).
bool refused(const CompressionRun& a, const CompressionRun& b)
{
    try {
        (void)analysis::compareCompression(a, b);
    } catch (const std::invalid_argument&) {
        return true;
    }
    return false;
}

}  // namespace

class CompressionComparisonTest : public QObject {
    Q_OBJECT

private slots:
    void aRunComparedWithItselfHasNoError()
    {
        const CompressionRun whole = run(4, 1.0, 20, 1.0);
        const auto c = analysis::compareCompression(whole, whole);
        QCOMPARE(c.loadingStroke, std::int64_t{3});
        QCOMPARE(c.unloadingStroke, std::int64_t{4});  // not the rest after the protocol (label 5)
        QCOMPARE(c.topRatio, 1.0);
        QCOMPARE(c.forceErrorLevels, 0.0);
        QCOMPARE(c.forceErrorUnloading, 0.0);
        QCOMPARE(c.levelsCompared, 2 * (kLevels + 1));  // every level of the cycle, loading and unloading
        QCOMPARE(c.bhattacharyya, 0.0);                 // -log sum sqrt(p p) = -log 1
        QCOMPARE(c.coordinationError, 0.0);
    }

    void aStrokeTheRunStoppedInsideIsNotCompared()
    {
        // Stopped halfway through stroke 4: the last complete cycle is strokes 1 and 2. Comparing the partial
        // unloading stroke gave err_f = 0.14 for the same data.
        const auto c = analysis::compareCompression(run(4, 0.5, 0, 1.0), run(4, 1.0, 20, 1.0));
        QCOMPARE(c.loadingStroke, std::int64_t{1});
        QCOMPARE(c.unloadingStroke, std::int64_t{2});
        QCOMPARE(c.forceErrorLevels, 0.0);
        QCOMPARE(c.forceErrorUnloading, 0.0);
        // Three strokes and the rest: the rest is no unloading stroke (it gave err_f 0.2, the relaxation at the
        // bottom).
        const auto three = analysis::compareCompression(run(3, 1.0, 20, 1.0), run(4, 1.0, 20, 1.0));
        QCOMPARE(three.unloadingStroke, std::int64_t{2});
        QCOMPARE(three.forceErrorUnloading, 0.0);
    }

    void aRunStoppedInsideItsFirstStrokeHasNoCycle()
    {
        // Its deepest snapshot is level 5: the protocol's 10 come from the other run, and nothing is compared (it
        // compared as identical, R_top 1).
        const CompressionRun half = run(1, 0.5, 0, 1.0);
        const CompressionRun whole = run(4, 1.0, 20, 1.0);
        QVERIFY(refused(whole, half));
        QVERIFY(refused(half, whole));
        // Both stopped at the same depth of their first stroke: neither completed a stroke, so their deepest level is
        // no level count of the protocol (they compared as a complete stroke 1, R_top 1, err_f 0).
        QVERIFY(refused(half, half));
    }

    void aRunThatEndedWithItsProgramCompletesItsLastStroke()
    {
        // A run made before 2026-11-29 could lose the last turning level (stroke 4, level 0), and no row follows
        // the program's end: its stopping rule says the stroke was whole.
        CompressionRun older = run(4, 1.0, 0, 1.0);
        older.levels.pop_back();
        older.protocolEnded = true;
        const auto c = analysis::compareCompression(older, run(4, 1.0, 20, 1.0));
        QCOMPARE(c.unloadingStroke, std::int64_t{4});
        QCOMPARE(c.levelsCompared, 2 * (kLevels + 1) - 1);
        older.protocolEnded = false;  // stopped by run.time: the stroke may be cut, the cycle before is compared
        QCOMPARE(analysis::compareCompression(older, run(4, 1.0, 20, 1.0)).unloadingStroke, std::int64_t{2});
    }

    void theMeasuresOfAStifferRun()
    {
        // Forces 1.2 times the reference's at every level: R_top 1.2 at the deepest level; err_f the RMS of 0.2 F
        // over the cycle's 22 levels (N); Z_tau 4.8 against 4. Forces {1.2, 2.4, 3.6} against {1, 2, 3} in 20 bins up
        // to 3.6 N fall in bins 6, 13, 19 against 5, 11, 16: no bin in common, so sum sqrt(p q) = 0 and bhat is the
        // finite stand-in for infinity, -log 1e-300, at every level.
        const auto c = analysis::compareCompression(run(4, 1.0, 0, 1.2), run(4, 1.0, 0, 1.0));
        QVERIFY(std::fabs(c.topRatio - 1.2) < 1e-12);
        QVERIFY(std::fabs(c.topForce - topForce(kAmplitude, 3, 1.2)) < 1e-12);
        double squares = 0.0;
        for (const std::int64_t s : {std::int64_t{3}, std::int64_t{4}}) {
            for (int level = 0; level <= kLevels; ++level) {
                const double d = 0.2 * topForce(kAmplitude * level / kLevels, s, 1.0);
                squares += d * d;
            }
        }
        QVERIFY(std::fabs(c.forceErrorLevels - std::sqrt(squares / (2 * (kLevels + 1)))) < 1e-12);
        QVERIFY(std::fabs(c.coordinationError - 0.8) < 1e-12);
        QVERIFY(std::fabs(c.bhattacharyya - -std::log(1e-300)) < 1e-9);
    }

    void theBhattacharyyaDistanceOfOverlappingDistributions()
    {
        // bhat = -log sum_i sqrt(p_i q_i) (Brodu et al. 2015, "Models"). The run's forces {1, 1, 2, 3} N against the
        // reference's {1, 2, 3} N at every level: 20 bins up to 3 N put 1, 2, 3 N in bins 6, 13, 19, so p = (1/2, 1/4,
        // 1/4) and q = (1/3, 1/3, 1/3) there: bhat = -log(sqrt(1/6) + 2 sqrt(1/12)) = 0.0145, the mean over the
        // cycle's 22 levels of that same value.
        CompressionRun wider = run(4, 1.0, 0, 1.0);
        for (auto& level : wider.levels) {
            level.forces = {1.0, 1.0, 2.0, 3.0};
        }
        const auto c = analysis::compareCompression(wider, run(4, 1.0, 0, 1.0));
        const double expected = -std::log(std::sqrt(1.0 / 6.0) + 2.0 * std::sqrt(1.0 / 12.0));
        QCOMPARE(c.levelsCompared, 2 * (kLevels + 1));
        QVERIFY2(std::fabs(c.bhattacharyya - expected) < 1e-12,
                 ("bhat " + std::to_string(c.bhattacharyya) + ", expected " + std::to_string(expected)).c_str());
        // The same forces, one level of the cycle apart (stroke 3, level 4: {3, 3, 3} N, all in the last bin):
        // p = (1) there against q = (1/3, 1/3, 1/3), -log sqrt(1/3); the mean over 22 levels moves by that / 22.
        CompressionRun oneLevel = run(4, 1.0, 0, 1.0);
        for (auto& level : oneLevel.levels) {
            if (level.stroke == 3 && level.level == 4) {
                level.forces = {3.0, 3.0, 3.0};
            }
        }
        const auto d = analysis::compareCompression(oneLevel, run(4, 1.0, 0, 1.0));
        QVERIFY(std::fabs(d.bhattacharyya - -std::log(std::sqrt(1.0 / 3.0)) / (2 * (kLevels + 1))) < 1e-12);
    }

    /// The scaling law's least-squares line (top force = slope phi Z <f> + offset) over one kind of stroke: levels
    /// on the line 3 x + 0.5 give it back with r2 = 1, an up-stroke's level is left out of the loading fit, and a
    /// single level determines no line.
    void theScalingLineOfTheTopForce()
    {
        std::vector<CompressionLevel> levels;
        for (int k = 0; k < 5; ++k) {
            CompressionLevel l;
            l.stroke = 1;
            l.level = k;
            l.volumeFraction = 0.5 + 0.01 * k;
            l.coordination = 4.0 + k;
            l.meanForce = 0.1;
            l.topForce = 3.0 * l.volumeFraction * l.coordination * l.meanForce + 0.5;
            levels.push_back(l);
        }
        CompressionLevel up = levels.back();
        up.stroke = 2;
        up.topForce = 100.0;  // off the line: only the unloading fit sees it
        levels.push_back(up);
        const auto loading = analysis::fitTopForceScaling(levels, true);
        QVERIFY(loading.determined);
        QCOMPARE(loading.points, 5);
        QVERIFY(std::fabs(loading.slope - 3.0) < 1e-12);
        QVERIFY(std::fabs(loading.offset - 0.5) < 1e-12);
        QVERIFY(std::fabs(loading.r2 - 1.0) < 1e-12);
        // One up-stroke level: no line (the summary writes null, not a slope of 0).
        const auto unloading = analysis::fitTopForceScaling(levels, false);
        QCOMPARE(unloading.points, 1);
        QVERIFY(!unloading.determined);
        // Levels of one phi Z <f>: n sxx - sx^2 leaves a round-off of either sign, no line (it could read as one).
        std::vector<CompressionLevel> same;
        for (int k = 0; k < 7; ++k) {
            CompressionLevel l;
            l.stroke = 1;
            l.volumeFraction = 0.6137;
            l.coordination = 5.3791;
            l.meanForce = 0.0173;
            l.topForce = 0.1 * k;
            same.push_back(l);
        }
        QVERIFY(!analysis::fitTopForceScaling(same, true).determined);
    }
};

QTEST_APPLESS_MAIN(CompressionComparisonTest)
#include "tst_compression_comparison.moc"
