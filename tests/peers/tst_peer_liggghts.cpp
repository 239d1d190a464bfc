// The multi-contact DEM against its one public implementation, LIGGGHTS 3.8's `fix multicontact/halfspace`
// (Debian packages liggghts and liggghts-doc), on the paper's packing and protocol (Brodu et al. 2015; the
// example `hydrogel_multicontact`): LIGGGHTS runs its own two inputs (independent contacts and gamma = 1.125),
// `granular` runs mcdem_compress on the same packing with gamma = 0 and 1.125. At the largest compression of the
// second down-stroke the top forces agree within 10 %, and the curves of the second cycle (strokes 3 and 4)
// within 10 % RMS of LIGGGHTS's largest force. Takes ~10 minutes (LIGGGHTS's multicontact run is ~8.5 of them):
// label `peer`, skipped with a message when LIGGGHTS is not installed.
#include "CliProcess.h"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace granular::clitest;

namespace {

const fs::path kExample = "/usr/share/doc/liggghts/examples/LIGGGHTS/Tutorials_public/hydrogel_multicontact";

// The example's protocol (in.hydrogel_*): dt 1e-5 s, strokes of 30000 steps between these plate heights.
constexpr double kTimeStep = 1e-5;
constexpr long kStrokeSteps = 30000;
constexpr double kStart = 0.1676430125;
constexpr double kEnd = 0.1375165625;

/// One sample of a top-force curve: compression (m), stroke (1-based), force (N).
struct Sample {
    double compression = 0.0;
    int stroke = 0;
    double force = 0.0;
};

bool haveLiggghts()
{
    return std::system("command -v liggghts >/dev/null 2>&1") == 0 && fs::exists(kExample / "data" / "input.data");
}

/// LIGGGHTS's post/piston_force_*.txt: lines `step Fx Fy Fz` (Fz: the grains' push, up), each the mean over the
/// 100 steps up to `step`; the plate's height follows the protocol.
std::vector<Sample> readLiggghts(const fs::path& file)
{
    std::ifstream in(file);
    std::vector<Sample> samples;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream fields(line);
        long step = 0;
        double fx = 0.0;
        double fy = 0.0;
        double fz = 0.0;
        fields >> step >> fx >> fy >> fz;
        const int stroke = static_cast<int>((step + kStrokeSteps - 1) / kStrokeSteps);
        const double local = static_cast<double>(step - (stroke - 1) * kStrokeSteps) / kStrokeSteps;
        const double fraction = stroke % 2 == 1 ? local : 1.0 - local;
        samples.push_back({fraction * (kStart - kEnd), stroke, fz});
    }
    return samples;
}

/// Our series.csv: the columns compression, stroke and top_force.
std::vector<Sample> readOurs(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> names;
    std::istringstream header(line);
    for (std::string name; std::getline(header, name, ',');) {
        names.push_back(name);
    }
    const auto column = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    };
    const std::size_t c = column("compression");
    const std::size_t s = column("stroke");
    const std::size_t f = column("top_force");
    std::vector<Sample> samples;
    while (std::getline(in, line)) {
        std::vector<double> values;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) {
            values.push_back(std::stod(cell));
        }
        samples.push_back({values[c], static_cast<int>(std::lround(values[s])), values[f]});
    }
    return samples;
}

/// The force at the largest compression of a stroke.
double forceAtDeepest(const std::vector<Sample>& samples, int stroke)
{
    double deepest = -1.0;
    double force = std::nan("");
    for (const auto& s : samples) {
        if (s.stroke == stroke && s.compression > deepest) {
            deepest = s.compression;
            force = s.force;
        }
    }
    return force;
}

/// The force of a stroke at compression x, interpolated linearly.
double forceAt(const std::vector<Sample>& samples, int stroke, double x)
{
    std::vector<std::pair<double, double>> curve;
    for (const auto& s : samples) {
        if (s.stroke == stroke) {
            curve.emplace_back(s.compression, s.force);
        }
    }
    std::sort(curve.begin(), curve.end());
    if (curve.empty()) {
        return std::nan("");
    }
    if (x <= curve.front().first) {
        return curve.front().second;
    }
    for (std::size_t i = 1; i < curve.size(); ++i) {
        if (curve[i].first >= x) {
            const double span = curve[i].first - curve[i - 1].first;
            return span > 0.0
                       ? curve[i - 1].second + (curve[i].second - curve[i - 1].second) * (x - curve[i - 1].first) / span
                       : curve[i].second;
        }
    }
    return curve.back().second;
}

/// RMS over strokes 3 and 4 of the difference of the curves at 50 compressions each, over LIGGGHTS's largest force.
double cycleError(const std::vector<Sample>& ours, const std::vector<Sample>& theirs)
{
    double largest = 0.0;
    for (const auto& s : theirs) {
        if (s.stroke == 3 || s.stroke == 4) {
            largest = std::max(largest, s.force);
        }
    }
    double sum = 0.0;
    int n = 0;
    for (const int stroke : {3, 4}) {
        for (int i = 1; i <= 50; ++i) {
            const double x = (kStart - kEnd) * i / 51.0;
            const double d = forceAt(ours, stroke, x) - forceAt(theirs, stroke, x);
            sum += d * d;
            ++n;
        }
    }
    return std::sqrt(sum / n) / largest;
}

struct Timed {
    Result result;
    double seconds = 0.0;
};

Timed timed(const std::string& command)
{
    const auto start = std::chrono::steady_clock::now();
    Timed t;
    t.result.exitCode = std::system(command.c_str());
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return t;
}

}  // namespace

class PeerLiggghtsTest : public QObject {
    Q_OBJECT

private slots:
    void paperPackingAgreesWithLiggghts()
    {
        if (!haveLiggghts()) {
            QSKIP("LIGGGHTS or its hydrogel_multicontact example is not installed (apt-get install "
                  "--no-install-recommends "
                  "liggghts liggghts-doc; scripts/setup.sh does it)");
        }
        const ScratchDirectory scratch;
        fs::copy(kExample, scratch.path / "example", fs::copy_options::recursive);
        const fs::path example = scratch.path / "example";
        fs::create_directories(example / "post");
        const fs::path data = example / "data" / "input.data";
        double liggghtsSeconds[2] = {0.0, 0.0};
        double oursSeconds[2] = {0.0, 0.0};
        const char* inputs[2] = {"in.hydrogel_default", "in.hydrogel_multicontact"};
        const char* gammas[2] = {"0", "1.125"};
        for (int k = 0; k < 2; ++k) {
            const Timed theirs = timed("cd '" + example.string() + "' && liggghts -in " + inputs[k] + " -log log." +
                                       inputs[k] + " >/dev/null 2>&1");
            QCOMPARE(theirs.result.exitCode, 0);
            liggghtsSeconds[k] = theirs.seconds;
            const fs::path run = scratch.path / (std::string("ours_") + gammas[k]);
            const Timed ours =
                timed(std::string("'") + GRANULAR_CLI_PATH + "' run mcdem_compress --quiet --set particles.file='" +
                      data.string() + "' --set particles.file_up_axis=z --set compression.settle_time=0" +
                      " --set mcdem.gamma=" + gammas[k] + " --out '" + run.string() + "'");
            QCOMPARE(ours.result.exitCode, 0);
            oursSeconds[k] = ours.seconds;
        }
        const auto theirs0 = readLiggghts(example / "post" / "piston_force_default.txt");
        const auto theirs1 = readLiggghts(example / "post" / "piston_force_multicontact.txt");
        const auto ours0 = readOurs(scratch.path / "ours_0" / "series.csv");
        const auto ours1 = readOurs(scratch.path / "ours_1.125" / "series.csv");
        const double f0 = forceAtDeepest(ours0, 3);
        const double f1 = forceAtDeepest(ours1, 3);
        const double g0 = forceAtDeepest(theirs0, 3);
        const double g1 = forceAtDeepest(theirs1, 3);
        const double e0 = cycleError(ours0, theirs0);
        const double e1 = cycleError(ours1, theirs1);
        std::printf("  second down-stroke, largest compression: gamma = 0: %.3f N (LIGGGHTS %.3f N, %+.1f %%); "
                    "gamma = 1.125: %.3f N (LIGGGHTS %.3f N, %+.1f %%)\n",
                    f0, g0, 100.0 * (f0 / g0 - 1.0), f1, g1, 100.0 * (f1 / g1 - 1.0));
        std::printf("  second cycle RMS: %.1f %% and %.1f %% of LIGGGHTS's largest force\n", 100.0 * e0, 100.0 * e1);
        std::printf("  gamma = 1.125 over gamma = 0: ours %.3f, LIGGGHTS %.3f\n", f1 / f0, g1 / g0);
        std::printf("  wall time: independent contacts %.1f s (LIGGGHTS %.1f s), multicontact %.1f s (LIGGGHTS %.1f s, "
                    "%.1fx ours)\n",
                    oursSeconds[0], liggghtsSeconds[0], oursSeconds[1], liggghtsSeconds[1],
                    liggghtsSeconds[1] / oursSeconds[1]);
        QVERIFY(std::fabs(f0 / g0 - 1.0) <= 0.10);
        QVERIFY(std::fabs(f1 / g1 - 1.0) <= 0.10);
        QVERIFY(e0 <= 0.10);
        QVERIFY(e1 <= 0.10);
        QVERIFY(f1 / f0 > 1.5);
    }
};

QTEST_APPLESS_MAIN(PeerLiggghtsTest)
#include "tst_peer_liggghts.moc"
