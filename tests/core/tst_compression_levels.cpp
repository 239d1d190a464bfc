// The compression protocol's level snapshots (analysis/CompressionLevels.h, Brodu et al. 2015, "Microscopic
// Variable Scaling"): every stroke records each of its levels 0 .. L once, in the order the plate meets them,
// whether or not a step falls on the turning point, and no later than the first step past the level.
#include "analysis/CompressionLevels.h"
#include "model/World.h"

#include <QTest>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace granular;

namespace {

constexpr int kLevels = 10;
constexpr std::int64_t kStrokes = 3;

/// A world whose plate follows a protocol of kStrokes strokes of 0.1 m in 1 s each, from t = 0.
World drivenPlate()
{
    World world;
    world.dimension = 3;
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), Vec3(1.0, 2.0, 1.0));
    Piston plate;
    plate.plane = PlaneWall{"plate", Vec3(0.0, 1.0, 0.0), -Vec3::UnitY()};
    PlateDrive drive;
    drive.approachFrom = 1.0;
    drive.top = 1.0;
    drive.bottom = 0.9;
    drive.strokeTime = 1.0;
    drive.strokes = kStrokes;
    plate.drive = drive;
    world.piston = plate;
    return world;
}

/// The snapshots of the protocol observed every `dt` seconds until `end`.
std::vector<analysis::CompressionLevel> observedEvery(double dt, double end)
{
    World world = drivenPlate();
    analysis::CompressionRecorder recorder(kLevels, 0.0);
    for (std::int64_t n = 0; static_cast<double>(n) * dt <= end; ++n) {
        world.time = static_cast<double>(n) * dt;
        world.piston->plane.point.y() = world.piston->drive->height(world.time);
        recorder.observe(world);
    }
    return recorder.snapshots();
}

}  // namespace

class CompressionLevelsTest : public QObject {
    Q_OBJECT

private slots:
    void everyStrokeRecordsEveryLevelOnce()
    {
        // Steps on the turning points; turning points between steps; small steps with the turns between them.
        for (const double dt : {0.25, 0.3, 0.0007}) {
            checkEveryLevelOnce(dt);
        }
    }

    void aRunEndingInsideAStrokeRecordsOnlyTheLevelsReached()
    {
        const auto snapshots = observedEvery(0.01, 1.5);  // half of the first up-stroke
        QCOMPARE(snapshots.size(), static_cast<std::size_t>(kLevels + 1 + kLevels / 2 + 1));
        QCOMPARE(snapshots.back().stroke, std::int64_t{2});
        QCOMPARE(snapshots.back().level, kLevels / 2);
    }

    /// A run stops by its stopping rule within half a step of the program's end, which may be just before it: the
    /// last stroke's last level is then recorded by finish().
    void theProgramsEndRecordsTheLastLevel()
    {
        World world = drivenPlate();
        analysis::CompressionRecorder recorder(kLevels, 0.0);
        const double dt = 0.01;
        const double end = world.piston->drive->end();  // 3 s
        for (std::int64_t n = 0; static_cast<double>(n) * dt < end - 0.004; ++n) {
            world.time = static_cast<double>(n) * dt + 0.006;  // the last step at 2.996 s, 0.4 mm short of the top
            world.piston->plane.point.y() = world.piston->drive->height(world.time);
            recorder.observe(world);
        }
        QCOMPARE(recorder.snapshots().size(), static_cast<std::size_t>(kStrokes * (kLevels + 1) - 1));
        recorder.finish(world);
        QCOMPARE(recorder.snapshots().size(), static_cast<std::size_t>(kStrokes * (kLevels + 1)));
        QCOMPARE(recorder.snapshots().back().stroke, kStrokes);
        QCOMPARE(recorder.snapshots().back().level, kLevels);
    }

private:
    static void checkEveryLevelOnce(double dt)
    {
        const auto snapshots = observedEvery(dt, 4.0);
        QCOMPARE(snapshots.size(), static_cast<std::size_t>(kStrokes * (kLevels + 1)));
        const double amplitude = 0.1;
        for (std::size_t k = 0; k < snapshots.size(); ++k) {
            const auto& s = snapshots[k];
            const auto stroke = static_cast<std::int64_t>(k / (kLevels + 1)) + 1;
            const auto meet = static_cast<int>(k % (kLevels + 1));
            const bool down = stroke % 2 == 1;
            std::string where = "snapshot ";
            where.append(std::to_string(k))
                .append(" at dt = ")
                .append(std::to_string(dt))
                .append(" s (stroke ")
                .append(std::to_string(s.stroke))
                .append(", level ")
                .append(std::to_string(s.level))
                .append(")");
            QVERIFY2(s.stroke == stroke, where.c_str());
            QVERIFY2(s.level == (down ? meet : kLevels - meet), where.c_str());
            // Recorded at the first step at or past the level: at most one step's travel away (speed 0.1 m/s).
            const double target = amplitude * s.level / kLevels;
            QVERIFY2(std::fabs(s.compression - target) <= 0.1 * dt + 1e-9, where.c_str());
            // ... and while the stroke lasted, or at the first step after it.
            QVERIFY2(s.time >= static_cast<double>(stroke - 1) - 1e-12 && s.time < static_cast<double>(stroke) + dt,
                     where.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(CompressionLevelsTest)
#include "tst_compression_levels.moc"
