// Packings read from files (particles.file): LAMMPS/LIGGGHTS data files of atom style sphere and CSV, the
// up axis turned onto y, and bad files refused with one line naming the file, the line and what is wrong.
#include "scenario/ScenarioError.h"
#include "setup/PackingFile.h"

#include <QTest>

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
    }

    void badFilesNameTheLineAndWhatIsWrong()
    {
        const std::string broken = [] {
            std::string text = kData;
            text.replace(text.find("0.018"), 5, "-0.01");
            return text;
        }();
        QCOMPARE(errorOf(broken),
                 std::string("particles.file: p.data:11: diameter -0.01 is not positive; accepted: > 0"));
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
