// The ParaView files of `granular run ... --set output.vtk=true`, read back with VTK's own XML reader: the
// collection's times are the series' times, the particle frames hold every grain with the values the series
// records for the probe, the force network's lines join the centres of the grains they name (to the nearest
// image in a periodic cell) and obey Coulomb's |f_t| <= mu f_n (Unger & Kertesz 2003, eq. 5), and the boundary
// geometry has the container's walls and the piston where the series says it is.
#include "CliProcess.h"
#include "CsvSeries.h"
#include "ParaviewFiles.h"

#include <nlohmann/json.hpp>

#include <QTest>
#include <QXmlStreamReader>

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

/// One <DataSet> of a .pvd collection.
struct CollectionEntry {
    double time = 0.0;
    int part = 0;
    std::string name;
    std::string file;
};

std::vector<CollectionEntry> readCollection(const fs::path& pvd)
{
    const std::string text = slurp(pvd);
    const std::regex dataSet(R"re(<DataSet timestep="([^"]+)" group="" part="(\d)" name="(\w+)" file="([^"]+)"/>)re");
    std::vector<CollectionEntry> entries;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), dataSet); it != std::sregex_iterator(); ++it) {
        entries.push_back({std::stod((*it)[1]), std::stoi((*it)[2]), (*it)[3], (*it)[4]});
    }
    return entries;
}

/// The data set of a .vtp file, read by VTK; nullptr when the reader fails.
vtkSmartPointer<vtkPolyData> readPolyData(const fs::path& file)
{
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName(file.c_str());
    reader->Update();
    if (reader->GetErrorCode() != 0 || reader->GetOutput() == nullptr) {
        return nullptr;
    }
    return reader->GetOutput();
}

double timeValue(vtkPolyData& data)
{
    vtkDataArray* time = data.GetFieldData()->GetArray("TimeValue");
    return time != nullptr ? time->GetTuple1(0) : std::nan("");
}

/// Runs the scenario with frames every `interval` s up to `time` s into `directory`.
bool runWithFrames(const std::string& scenario, const std::string& time, const std::string& interval,
                   const fs::path& directory, const std::string& extra = "")
{
    const Result r =
        runGranular("run " + scenario + " --quiet --set output.vtk=true --set run.time=" + time +
                    " --set output.interval=" + interval + " " + extra + " --out '" + directory.string() + "'");
    return r.exitCode == 0;
}

/// Checks the force network of one frame against its particles: ends at the centres (or the nearest images),
/// f_n > 0, |f_t| <= mu f_n. Returns the number of contacts.
vtkIdType checkContacts(vtkPolyData& contacts, vtkPolyData& particles, double friction, bool periodic)
{
    vtkDataArray* normal = contacts.GetCellData()->GetArray("normal_force");
    vtkDataArray* tangential = contacts.GetCellData()->GetArray("tangential_force");
    vtkDataArray* first = contacts.GetCellData()->GetArray("first");
    vtkDataArray* second = contacts.GetCellData()->GetArray("second");
    vtkDataArray* radius = particles.GetPointData()->GetArray("radius");
    if (normal == nullptr || tangential == nullptr || first == nullptr || second == nullptr || radius == nullptr) {
        return -1;
    }
    vtkCellArray* lines = contacts.GetLines();
    vtkNew<vtkIdList> ends;
    for (vtkIdType c = 0; c < contacts.GetNumberOfCells(); ++c) {
        lines->GetCellAtId(c, ends);
        if (ends->GetNumberOfIds() != 2) {
            return -1;
        }
        const auto i = static_cast<vtkIdType>(first->GetTuple1(c));
        const auto j = static_cast<vtkIdType>(second->GetTuple1(c));
        std::array<double, 3> a{};
        std::array<double, 3> b{};
        std::array<double, 3> ci{};
        std::array<double, 3> cj{};
        contacts.GetPoint(ends->GetId(0), a.data());
        contacts.GetPoint(ends->GetId(1), b.data());
        particles.GetPoint(i, ci.data());
        particles.GetPoint(j, cj.data());
        const double reach = radius->GetTuple1(i) + radius->GetTuple1(j);
        double length = 0.0;
        double fromFirst = 0.0;
        double toSecond = 0.0;
        for (int k = 0; k < 3; ++k) {
            const auto u = static_cast<std::size_t>(k);
            length += (b[u] - a[u]) * (b[u] - a[u]);
            fromFirst += (a[u] - ci[u]) * (a[u] - ci[u]);
            toSecond += (b[u] - cj[u]) * (b[u] - cj[u]);
        }
        // The line starts at the first grain's centre and is as long as the contact: centre to centre (or to
        // the nearest image, across the periodic boundary).
        if (std::sqrt(fromFirst) >= 1e-6 * reach || std::sqrt(length) > 1.001 * reach) {
            return -1;
        }
        if (!periodic && std::sqrt(toSecond) >= 1e-6 * reach) {
            return -1;
        }
        const double fn = normal->GetTuple1(c);
        const double ft = tangential->GetTuple1(c);
        if (!(fn > 0.0) || !(ft >= 0.0) || ft > friction * fn * (1.0 + 1e-3) + 1e-6 * fn) {
            return -1;
        }
    }
    return contacts.GetNumberOfCells();
}

}  // namespace

class ParaviewFilesTest : public QObject {
    Q_OBJECT

private slots:
    void pistonRunReadsBackWithTheSeriesValues()
    {
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QVERIFY(runWithFrames("piston2d", "10", "5", out));
        const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
        const auto particles = summary["particles"].get<vtkIdType>();
        const auto series = granular::readCsv((out / "series.csv").string());
        const auto entries = readCollection(out / "run.pvd");
        QCOMPARE(entries.size(), 3 * series.rows.size());
        const std::size_t t = series.column("t");
        const std::size_t probeX = series.column("probe_x");
        const std::size_t probeY = series.column("probe_y");
        const std::size_t probeVy = series.column("probe_vy");
        const std::size_t pistonY = series.column("piston_y");
        vtkIdType contactsSeen = 0;
        for (std::size_t row = 0; row < series.rows.size(); ++row) {
            const auto& values = series.rows[row];
            const CollectionEntry& p = entries[3 * row];
            const CollectionEntry& c = entries[3 * row + 1];
            const CollectionEntry& b = entries[3 * row + 2];
            QCOMPARE(p.name, std::string("particles"));
            QCOMPARE(c.name, std::string("contacts"));
            QCOMPARE(b.name, std::string("boundaries"));
            QCOMPARE(p.time, values[t]);
            QCOMPARE(c.time, values[t]);
            auto grains = readPolyData(out / p.file);
            auto network = readPolyData(out / c.file);
            auto boundaries = readPolyData(out / b.file);
            QVERIFY(grains && network && boundaries);
            QCOMPARE(timeValue(*grains), values[t]);
            QCOMPARE(grains->GetNumberOfPoints(), particles);
            for (const char* name : {"radius", "velocity", "angular_velocity", "force_sum", "coordination", "id"}) {
                QVERIFY2(grains->GetPointData()->GetArray(name) != nullptr, name);
            }
            QCOMPARE(grains->GetPointData()->GetArray("velocity")->GetNumberOfComponents(), 3);
            // The probe is grain 0 (probe.index = 0): its position and velocity as the series has them (float).
            std::array<double, 3> x{};
            grains->GetPoint(0, x.data());
            QVERIFY(std::abs(x[0] - values[probeX]) <= 1e-6 * std::abs(values[probeX]) + 1e-9);
            QVERIFY(std::abs(x[1] - values[probeY]) <= 1e-6 * std::abs(values[probeY]) + 1e-9);
            const double vy = grains->GetPointData()->GetArray("velocity")->GetComponent(0, 1);
            QVERIFY(std::abs(vy - values[probeVy]) <= 1e-5 * std::abs(values[probeVy]) + 1e-9);
            // Radii within the scenario's range.
            const double* radiusRange = grains->GetPointData()->GetArray("radius")->GetRange();
            QVERIFY(radiusRange[0] >= 1.0 - 1e-6 && radiusRange[1] <= 2.0 + 1e-6 && radiusRange[1] > radiusRange[0]);
            const vtkIdType contacts = checkContacts(*network, *grains, 0.05, false);
            QVERIFY2(contacts >= 0, c.file.c_str());
            contactsSeen += contacts;
            // Coordination counts every force-carrying contact, so at least the network's lines at each grain.
            std::vector<int> lines(static_cast<std::size_t>(particles), 0);
            for (vtkIdType k = 0; k < contacts; ++k) {
                ++lines[static_cast<std::size_t>(network->GetCellData()->GetArray("first")->GetTuple1(k))];
                ++lines[static_cast<std::size_t>(network->GetCellData()->GetArray("second")->GetTuple1(k))];
            }
            for (vtkIdType i = 0; i < particles; ++i) {
                QVERIFY(grains->GetPointData()->GetArray("coordination")->GetTuple1(i) >=
                        lines[static_cast<std::size_t>(i)]);
            }
            // 2D boundaries: floor, left and right walls (0), the piston (1), the box's four edges (2); the
            // piston's segment lies at the series' piston height.
            vtkDataArray* kind = boundaries->GetCellData()->GetArray("boundary");
            QVERIFY(kind != nullptr);
            std::map<int, int> kinds;
            for (vtkIdType k = 0; k < boundaries->GetNumberOfCells(); ++k) {
                ++kinds[static_cast<int>(kind->GetTuple1(k))];
                if (static_cast<int>(kind->GetTuple1(k)) == 1) {
                    vtkNew<vtkIdList> ends;
                    boundaries->GetLines()->GetCellAtId(k, ends);
                    QCOMPARE(ends->GetNumberOfIds(), vtkIdType{2});
                    for (vtkIdType e = 0; e < 2; ++e) {
                        std::array<double, 3> y{};
                        boundaries->GetPoint(ends->GetId(e), y.data());
                        QVERIFY(std::abs(y[1] - values[pistonY]) <= 1e-6 * std::abs(values[pistonY]));  // float points
                    }
                }
            }
            QCOMPARE(kinds[0], 3);
            QCOMPARE(kinds[1], 1);
            QCOMPARE(kinds[2], 4);
        }
        QVERIFY2(contactsSeen > 100, std::to_string(contactsSeen).c_str());
    }

    void periodicContactsReachTheNearestImage()
    {
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QVERIFY(runWithFrames("periodic2d", "20", "10", out));
        const auto entries = readCollection(out / "run.pvd");
        QCOMPARE(entries.size(), std::size_t{9});
        auto grains = readPolyData(out / entries[6].file);
        auto network = readPolyData(out / entries[7].file);
        auto cell = readPolyData(out / entries[8].file);
        QVERIFY(grains && network && cell);
        const auto scenario = nlohmann::json::parse(slurp(out / "scenario.json"));
        const double friction = scenario["contact"]["friction"].get<double>();
        const vtkIdType contacts = checkContacts(*network, *grains, friction, true);
        QVERIFY(contacts > 50);
        // The cell: four edges, kind 2, no walls or piston.
        QCOMPARE(cell->GetNumberOfCells(), vtkIdType{4});
        QCOMPARE(cell->GetCellData()->GetArray("boundary")->GetRange()[0], 2.0);
    }

    void threeDimensionalWallsArePolygons()
    {
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QVERIFY(runWithFrames("piston3d", "0.02", "0.01", out));
        const auto entries = readCollection(out / "run.pvd");
        QVERIFY(!entries.empty());
        auto boundaries = readPolyData(out / entries.back().file);
        QVERIFY(boundaries);
        // Floor and four side walls (0) and the piston (1) as polygons, the box's twelve edges (2) as lines.
        QCOMPARE(boundaries->GetNumberOfPolys(), vtkIdType{6});
        QCOMPARE(boundaries->GetNumberOfLines(), vtkIdType{12});
        auto grains = readPolyData(out / entries[entries.size() - 3].file);
        QVERIFY(grains);
        const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
        QCOMPARE(grains->GetNumberOfPoints(), summary["particles"].get<vtkIdType>());
    }

    void aCollectionOfAnyFileNameIsWellFormedXml()
    {
        // The names went into the attributes as they were: Export frame as "salt & pepper.pvd" wrote file="salt &
        // pepper_particles.vtp", which no XML reader (ParaView's) accepts.
        const std::string name = R"(salt & pepper <"1">)";
        const granular::vtkio::FrameFiles files{name + "_particles.vtp", name + "_contacts.vtp",
                                                name + "_boundaries.vtp"};
        std::ostringstream out;
        granular::vtkio::writeCollection(out, {{0.5, files}});
        QXmlStreamReader xml(QString::fromStdString(out.str()));
        std::vector<std::string> read;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QStringLiteral("DataSet")) {
                read.push_back(xml.attributes().value(QStringLiteral("file")).toString().toStdString());
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(read, (std::vector<std::string>{files.particles, files.contacts, files.boundaries}));
    }

    void theCompressionPlateIsThePiston()
    {
        // The boundary kind was read from the wall's name ("piston"): the compression setup's driven plate ("plate")
        // was written, and drawn in the studio, as a wall (kind 0), and no boundary had kind 1.
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QVERIFY(runWithFrames("mcdem_compress", "0.002", "0.002", out));
        const auto entries = readCollection(out / "run.pvd");
        QVERIFY(!entries.empty());
        auto boundaries = readPolyData(out / entries.back().file);
        QVERIFY(boundaries);
        vtkDataArray* kind = boundaries->GetCellData()->GetArray("boundary");
        QVERIFY(kind != nullptr);
        int plates = 0;
        for (vtkIdType c = 0; c < kind->GetNumberOfTuples(); ++c) {
            plates += kind->GetTuple1(c) == 1.0 ? 1 : 0;
        }
        QCOMPARE(plates, 1);
    }
};

QTEST_GUILESS_MAIN(ParaviewFilesTest)
#include "tst_paraview_files.moc"
