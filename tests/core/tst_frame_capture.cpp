// What a frame (sim/Frame.h) shows of each grain: the VTK frames' `overlap` array and the studio's colouring by
// overlap. It must be the overlap at the frame's own positions, as the series' max_overlap of the same step is: contact
// dynamics' candidates keep the gap of their detection, before the step moved the grains, and a frame built from it
// showed the row before's overlaps (chain1d at t = 5 s: 0.00167 m against the series' 0.00204 m).
#include "BuiltinScenarios.h"
#include "contact/ContactGeometry.h"
#include "scenario/Scenario.h"
#include "sim/Frame.h"
#include "sim/Simulation.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace granular;

namespace {

/// Per grain, the largest overlap of its force-carrying contacts at the world's positions, m, as floats.
std::vector<float> overlapsAtThePositions(const World& world)
{
    std::vector<float> overlap(world.particles.size(), 0.0F);
    for (const Contact& c : world.contacts) {
        if (c.force.dot(c.normal) <= 0.0) {
            continue;
        }
        const auto o = static_cast<float>(-separation(c, world).gap);
        auto& first = overlap[static_cast<std::size_t>(c.particle)];
        first = std::max(first, o);
        if (c.kind == ContactKind::Particle) {
            auto& second = overlap[static_cast<std::size_t>(c.partner)];
            second = std::max(second, o);
        }
    }
    return overlap;
}

std::string metres(double value)
{
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%.9g m", value);
    return text.data();
}

}  // namespace

class FrameCaptureTest : public QObject {
    Q_OBJECT

private slots:
    void overlapIsThatOfTheFramesPositions();
};

void FrameCaptureTest::overlapIsThatOfTheFramesPositions()
{
    // chain1d (contact dynamics), periodic2d (contact dynamics in a shrinking periodic cell), md_press (soft
    // spheres), mcdem_compress (multi-contact DEM): each step until 50 steps have changed an overlap.
    for (const char* name : {"chain1d", "periodic2d", "md_press", "mcdem_compress"}) {
        Simulation simulation(resolveScenario(name));
        double largestChange = 0.0;  // of a grain's overlap from one step to the next, m
        std::vector<float> before;
        int changing = 0;  // steps that changed an overlap
        for (int step = 0; step < 20000 && changing < 50; ++step) {
            simulation.step();
            const auto frame = simulation.frame();
            const std::vector<float> expected = overlapsAtThePositions(simulation.world());
            const float largest = *std::max_element(frame->overlap.begin(), frame->overlap.end());
            bool changed = false;
            for (std::size_t i = 0; i < expected.size(); ++i) {
                if (frame->overlap[i] != expected[i]) {
                    QFAIL((std::string(name) + ", step " + std::to_string(step + 1) + ", grain " + std::to_string(i) +
                           ": the frame's overlap " + metres(static_cast<double>(frame->overlap[i])) +
                           ", at its positions " + metres(static_cast<double>(expected[i])))
                              .c_str());
                }
                if (!before.empty() && expected[i] != before[i]) {
                    changed = true;
                    largestChange = std::max(largestChange, std::fabs(static_cast<double>(expected[i] - before[i])));
                }
            }
            // The series' largest overlap of the same step (contact dynamics takes it at the positions too).
            if (std::string(name) == "chain1d" || std::string(name) == "periodic2d") {
                QVERIFY2(std::fabs(static_cast<double>(largest) - simulation.lastStep().maxOverlap) <=
                             1e-6 * simulation.lastStep().maxOverlap + 1e-12,
                         (std::string(name) + ": frame " + metres(static_cast<double>(largest)) + ", series " +
                          metres(simulation.lastStep().maxOverlap))
                             .c_str());
            }
            before = expected;
            changing += changed ? 1 : 0;
        }
        std::printf("%s: t = %g s, largest change of a grain's overlap between steps %.3e m\n", name,
                    simulation.world().time, largestChange);
        QVERIFY2(changing == 50, name);  // the overlaps moved: the check above could tell the steps apart
    }
}

QTEST_APPLESS_MAIN(FrameCaptureTest)
#include "tst_frame_capture.moc"
