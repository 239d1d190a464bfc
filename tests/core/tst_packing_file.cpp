// Packings read from files (particles.file): LAMMPS/LIGGGHTS data files of atom style sphere and CSV, the
// up axis turned onto y, and bad files refused with one line naming the file, the line and what is wrong.
#include "model/World.h"
#include "scenario/ScenarioError.h"
#include "settings/Settings.h"
#include "setup/Lattice.h"
#include "setup/PackingFile.h"

#include <QTest>

#include <filesystem>
#include <fstream>
#include <string>

using namespace granular;

namespace {

constexpr const char* kData = "LIGGGHTS data file\n"
                              "\n"
                              " 2  atoms\n"
                              " 1  atom types\n"
                              "\n"
                              " -0.01 0.17 xlo xhi\n"
                              "\n"
                              "Atoms # sphere\n"
                              "\n"
                              "2 1 0.02 11.5 0.05 0.06 0.07\n"
                              "1 1 0.018 12.5 0.01 0.02 0.03 0 0 0\n"
                              "\n"
                              "Velocities\n"
                              "\n"
                              "1 0.1 0.2 0.3 1 2 3\n";

/// The message of the ScenarioError that parsing `text` throws, or "".
std::string errorOf(const std::string& text, const std::string& name = "p.data")
{
    try {
        (void)parsePacking(text, name, Axis::Y, 1000.0);
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return {};
}

/// The message of the ScenarioError that placing the grains of a CSV file `text` in a box of `size` with `walls`
/// throws, or "".
std::string placementErrorOf(const std::string& text, int dimension, BoxWalls walls = BoxWalls::Open)
{
    const auto path = std::filesystem::temp_directory_path() / "tst_packing_file_grains.csv";
    std::ofstream(path) << text;
    Settings settings;
    settings.particles.file = path.string();
    World world;
    world.dimension = dimension;
    std::string message;
    try {
        placeGrains(world, settings, Vec3(4.0, 4.0, dimension == 3 ? 4.0 : 0.0), walls);
    } catch (const ScenarioError& error) {
        message = error.what();
        message = message.substr(message.find(": grain") + 2);  // without the temporary path
    }
    std::filesystem::remove(path);
    return message;
}

}  // namespace

class PackingFileTest : public QObject {
    Q_OBJECT

private slots:
    void dataFileGivesGrainsByIdWithVelocities()
    {
        const Packing p = parsePacking(kData, "p.data", Axis::Y, 1000.0);
        QCOMPARE(p.grains.size(), std::size_t{2});
        // Sorted by atom id: id 1 first.
        QCOMPARE(p.grains[0].radius, 0.009);
        QCOMPARE(p.grains[0].density, 12.5);
        QCOMPARE(p.grains[0].position, Vec3(0.01, 0.02, 0.03));
        QCOMPARE(p.grains[0].velocity, Vec3(0.1, 0.2, 0.3));
        QCOMPARE(p.grains[0].angularVelocity, Vec3(1, 2, 3));
        QCOMPARE(p.grains[1].radius, 0.01);
        QCOMPARE(p.grains[1].velocity, Vec3::Zero());
    }

    void upAxisIsTurnedOntoYKeepingTheCyclicOrder()
    {
        const Packing z = parsePacking(kData, "p.data", Axis::Z, 1000.0);
        // z up: (x, y, z) -> (y, z, x).
        QCOMPARE(z.grains[0].position, Vec3(0.02, 0.03, 0.01));
        QCOMPARE(z.grains[0].velocity, Vec3(0.2, 0.3, 0.1));
        QCOMPARE(z.grains[0].angularVelocity, Vec3(2, 3, 1));
        const Packing x = parsePacking(kData, "p.data", Axis::X, 1000.0);
        QCOMPARE(x.grains[0].position, Vec3(0.03, 0.01, 0.02));  // x up: (x, y, z) -> (z, x, y)
    }

    void csvWithAnyColumnOrderAndCrlf()
    {
        const Packing p =
            parsePacking("radius, x,y,z,vy\r\n0.01,1,2,3,-0.5\r\n\r\n0.02,4,5,6,0\r\n", "p.csv", Axis::Y, 900.0);
        QCOMPARE(p.grains.size(), std::size_t{2});
        QCOMPARE(p.grains[0].position, Vec3(1, 2, 3));
        QCOMPARE(p.grains[0].radius, 0.01);
        QCOMPARE(p.grains[0].density, 900.0);  // no density column: the scenario's
        QCOMPARE(p.grains[0].velocity, Vec3(0, -0.5, 0));
        QCOMPARE(p.grains[1].radius, 0.02);
        // A spreadsheet's "CSV UTF-8" starts with a byte-order mark: it was read as part of the first column's name.
        const Packing marked = parsePacking("\xEF\xBB\xBFx,y,z,radius\n1,2,3,0.01\n", "m.csv", Axis::Y, 900.0);
        QCOMPARE(marked.grains.size(), std::size_t{1});
        QCOMPARE(marked.grains[0].position, Vec3(1, 2, 3));
        const Packing spaced = parsePacking("\xEF\xBB\xBF\r\n\nx,y,z,radius\n1,2,3,0.01\n", "s.csv", Axis::Y, 900.0);
        QCOMPARE(spaced.grains.size(), std::size_t{1});
    }

    void badFilesNameTheLineAndWhatIsWrong()
    {
        const std::string broken = [] {
            std::string text = kData;
            text.replace(text.find("0.018"), 5, "-0.01");
            return text;
        }();
        QCOMPARE(errorOf(broken),
                 std::string("particles.file: p.data:11: diameter -0.01 is out of range; accepted: > 0 and <= 2e+06"));
        // The scenario keys' ranges hold for the file's columns too (a radius of 1e300 m blew up at the first step,
        // blaming the time step; a speed of 1e300 m/s gave null energies).
        QCOMPARE(errorOf("x,y,z,radius\n1,2,3,1e300\n", "p.csv"),
                 std::string("particles.file: p.csv:2: radius 1e300 is out of range; accepted: > 0 and <= 1e+06"));
        QCOMPARE(errorOf("x,y,z,radius,vx\n1,2,3,0.1,-1e300\n", "p.csv"),
                 std::string("particles.file: p.csv:2: vx -1e300 is out of range; accepted: -1e+06 to 1e+06"));
        QCOMPARE(errorOf("x,y,z,radius,density\n1,2,3,0.1,1e10\n", "p.csv"),
                 std::string("particles.file: p.csv:2: density 1e10 is out of range; accepted: > 0 and <= 1e+09"));
        std::string fields = kData;
        fields.replace(fields.find("0.05 0.06 0.07"), 14, "0.05 0.06");
        QVERIFY2(errorOf(fields).rfind("particles.file: p.data:10: 6 fields; accepted for atom style sphere", 0) == 0,
                 errorOf(fields).c_str());
        std::string twice = kData;
        twice.replace(twice.find("2 1 0.02"), 1, "1");
        QCOMPARE(errorOf(twice), std::string("particles.file: p.data:11: atom id 1 appears twice"));
        std::string count = kData;
        count.replace(count.find(" 2  atoms"), 9, " 3  atoms");
        QVERIFY2(errorOf(count).find("the header declares 3 atoms, the Atoms section has 2") != std::string::npos,
                 errorOf(count).c_str());
        // The header's count named as such (it read "atom id"), with the range of a count.
        std::string huge = kData;
        huge.replace(huge.find(" 2  atoms"), 9, " 99999999999999999999  atoms");
        QCOMPARE(errorOf(huge), std::string("particles.file: p.data:3: atom count '99999999999999999999'; accepted: a "
                                            "whole number from 1 to 9223372036854775807"));
        std::string section = kData;
        section.replace(section.find("Velocities"), 10, "Bonds");
        QVERIFY2(errorOf(section).find("section Bonds is not read; accepted: Atoms, Velocities") != std::string::npos,
                 errorOf(section).c_str());
        QCOMPARE(errorOf("x,y,z,radius\n1,2,3,abc\n", "p.csv"),
                 std::string("particles.file: p.csv:2: radius 'abc' is not a finite number"));
        QCOMPARE(
            errorOf("x,y,radius\n1,2,3\n", "p.csv"),
            std::string("particles.file: p.csv:1: no column 'z'; accepted: a header with x, y, z, radius[, density, "
                        "vx, vy, vz]"));
        QCOMPARE(
            errorOf("x,y,z,r\n", "p.csv"),
            std::string("particles.file: p.csv:1: unknown column 'r'; accepted: x, y, z, radius, density, vx, vy, vz"));
        QCOMPARE(errorOf("x,y,z,radius\n1,2,3\n", "p.csv"),
                 std::string("particles.file: p.csv:2: 3 fields; accepted: 4 as in the header"));
        QVERIFY(errorOf("", "p.csv").find("p.csv:1: the file is empty") != std::string::npos);
        for (const auto& message : {errorOf(broken), errorOf(fields), errorOf("x,y,z,radius\n1,2,3,nan\n", "p.csv")}) {
            QVERIFY(!message.empty() && message.find('\n') == std::string::npos);
        }
    }

    /// Grains a scenario cannot start from: a 2D disk off the plane z = 0 (it fell through the others), and grains
    /// placed into each other or into the floor and sides beyond 10 % of a radius (they were taken silently).
    void grainsTheScenarioCannotHoldAreRefused()
    {
        QCOMPARE(placementErrorOf("x,y,z,radius\n1,0.5,0,0.5\n1,2,5,0.5\n", 2),
                 std::string("grain 2 has z = 5 m, vz = 0 m/s or a spin about x or y: a 2D scenario's disks move in "
                             "the plane z = 0; accepted: z = 0, vz = 0, wx = wy = 0 but for round-off (1e-9 of the "
                             "radius, speed or spin), or world.dimension = 3"));
        // Round-off off the plane (a file's own, or of the up-axis turn) is taken as the plane.
        QCOMPARE(placementErrorOf("x,y,z,radius,vx,vz\n1,0.5,1e-17,0.5,1,1e-17\n", 2), std::string());
        QVERIFY(placementErrorOf("x,y,z,radius,vz\n1,0.5,0,0.5,3\n", 2).find("vz = 3 m/s") != std::string::npos);
        QCOMPARE(placementErrorOf("x,y,z,radius\n1,0.5,1,0.5\n1,0.6,1,0.5\n", 3),
                 std::string("grain 1 and grain 2 overlap by 0.9 m (radii 0.5 and 0.5 m); accepted: at most 10 % of "
                             "the smaller radius"));
        QCOMPARE(placementErrorOf("x,y,z,radius\n1,0.3,1,0.5\n", 3),
                 std::string("grain 1 of radius 0.5 m overlaps the box's floor or a side wall by 0.2 m; accepted: at "
                             "most 10 % of its radius (box.width, box.depth: the box's sides)"));
        QVERIFY(!placementErrorOf("x,y,z,radius\n0.3,1,1,0.5\n", 3).empty());  // into the left wall
        // Within the tolerance (a settled soft packing), and past the sides where the box has none: accepted.
        QCOMPARE(placementErrorOf("x,y,z,radius\n1,0.48,1,0.5\n1.98,0.5,1,0.5\n", 3), std::string());
        QCOMPARE(placementErrorOf("x,y,z,radius\n0.1,1,1,0.5\n", 3, BoxWalls::Floor), std::string());
        QCOMPARE(placementErrorOf("x,y,z,radius\n1,0,1,0.5\n", 3, BoxWalls::None), std::string());
        // A grain far larger than the others is held against every one (it put them all in one cell: 15 s for 1e5).
        QCOMPARE(placementErrorOf("x,y,z,radius\n2,2,2,1.5\n0.2,0.2,0.2,0.1\n3.7,0.2,0.2,0.1\n", 3), std::string());
        QVERIFY(!placementErrorOf("x,y,z,radius\n2,2,2,1.5\n0.2,0.2,0.2,0.1\n3.3,2,2,0.1\n", 3).empty());
    }

    void missingFileIsNamed()
    {
        try {
            (void)readPackingFile("/nonexistent/packing.data", Axis::Y, 1.0);
            QFAIL("expected a ScenarioError");
        } catch (const ScenarioError& error) {
            QCOMPARE(std::string(error.what()),
                     std::string("particles.file: /nonexistent/packing.data: cannot be read (missing or not a readable "
                                 "file)"));
        }
    }
};

QTEST_APPLESS_MAIN(PackingFileTest)
#include "tst_packing_file.moc"
