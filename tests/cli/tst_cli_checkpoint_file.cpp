// Checkpoints that cannot be used (`granular resume DIR`): missing, truncated, corrupted, of another version or
// not a checkpoint at all are refused with exit 2 and one line naming what is wrong, leaving DIR untouched; keys
// that build a world cannot be changed on resume. Short enough for the sanitizer job (the long checks of resumed
// runs are in tst_cli_checkpoint.cpp).
#include "CliProcess.h"
#include "RunOutput.h"

#include <QTest>

#include <cerrno>
#include <stdexcept>
#include <system_error>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

/// A checkpoint of a short chain1d run in DIR/run; returns its path.
fs::path writeChainCheckpoint(const fs::path& directory)
{
    const fs::path run = directory / "run";
    const Result r =
        runGranular("run chain1d --quiet --set run.time=20 --checkpoint-every 10 --out '" + run.string() + "'");
    if (r.exitCode != 0) {
        return {};
    }
    return run / "checkpoint.bin";
}

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

void writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

class CliCheckpointFileTest : public QObject {
    Q_OBJECT

private slots:
    void badCheckpointsAreRefusedWithOneLine()
    {
        const ScratchDirectory dir;
        const fs::path checkpoint = writeChainCheckpoint(dir.path);
        QVERIFY(!checkpoint.empty());
        const std::string good = readBytes(checkpoint);
        QVERIFY(good.size() > 100);
        const std::string seriesBefore = slurp(checkpoint.parent_path() / "series.csv");
        const auto refused = [&](const std::string& bytes, const std::string& naming) {
            writeBytes(checkpoint, bytes);
            const Result r = runGranular("resume '" + checkpoint.parent_path().string() + "' --set run.time=30");
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(isOneLineNaming(r.err, naming), r.err.c_str());
            // Nothing of the directory is touched.
            QVERIFY(slurp(checkpoint.parent_path() / "series.csv") == seriesBefore);
        };
        refused(good.substr(0, good.size() / 2), "truncated");
        std::string flipped = good;
        flipped[good.size() / 2] = static_cast<char>(flipped[good.size() / 2] ^ 0x20);
        refused(flipped, "corrupted");
        std::string otherVersion = good;
        otherVersion[20] = 7;  // the version follows the 20-byte magic "GRANULAR-CHECKPOINT\n"
        refused(otherVersion, "version 7");
        refused("{\"solver\": {}}", "not a checkpoint");
        refused(std::string(), "not a checkpoint");
        // Grown to 3 GB (a sparse file): it was read whole into memory (6 GB, 20 s) before being refused; its
        // sections' sizes say at once that it is too long.
        writeBytes(checkpoint, good);
        fs::resize_file(checkpoint, std::uintmax_t{3} << 30U);
        const auto started = std::chrono::steady_clock::now();
        const Result grown = runGranular("resume '" + checkpoint.parent_path().string() + "' --set run.time=30");
        QCOMPARE(grown.exitCode, 2);
        QVERIFY2(isOneLineNaming(grown.err, "truncated or with trailing bytes (3221225472 bytes, its sections need " +
                                                std::to_string(good.size()) + ")"),
                 grown.err.c_str());
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
        fs::remove(checkpoint);
        const Result missing = runGranular("resume '" + checkpoint.parent_path().string() + "'");
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(isOneLineNaming(missing.err, "checkpoint.bin"), missing.err.c_str());
    }
    void theSameRunWritesTheSameCheckpoint()
    {
        // The last step's stage timings (wall time) were saved, and md's contact laws with the padding bytes after
        // their kind (whatever the memory held): two runs' checkpoints differed in them and in their checksums, while
        // their states were the same (chain1d by its timings, mcdem_compress by both).
        const ScratchDirectory dir;
        const fs::path first = writeChainCheckpoint(dir.path / "a");
        const fs::path second = writeChainCheckpoint(dir.path / "b");
        QVERIFY(!first.empty() && !second.empty());
        QVERIFY(readBytes(first) == readBytes(second));
        for (const char* run : {"c", "d"}) {
            const Result r = runWithCheckpoints("mcdem_compress", "0.01", "0.005", dir.path / run);
            QVERIFY2(r.exitCode == 0, r.err.c_str());
        }
        QVERIFY(readBytes(dir.path / "c" / "checkpoint.bin") == readBytes(dir.path / "d" / "checkpoint.bin"));
    }

    void resumeRefusesKeysThatBuildTheWorld()
    {
        const ScratchDirectory dir;
        const fs::path checkpoint = writeChainCheckpoint(dir.path);
        QVERIFY(!checkpoint.empty());
        const Result r =
            runGranular("resume '" + checkpoint.parent_path().string() + "' --set chain.count=7 --set run.time=30");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "chain.count"), r.err.c_str());
        const Result bad = runGranular("resume '" + checkpoint.parent_path().string() + "' --set run.time=-1");
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(isOneLineNaming(bad.err, "run.time"), bad.err.c_str());
    }

    // A checkpoint that cannot be written says why (the system's reason).
    void aFailedWriteNamesItsCause()
    {
        const ScratchDirectory dir;
        const fs::path notAFolder = dir.path / "plain";
        std::ofstream(notAFolder) << "a file, not a folder";
        std::string message;
        try {
            granular::writeFileAtomically(notAFolder / "checkpoint.bin", [](std::ostream& out) { out << "state"; });
        } catch (const std::runtime_error& error) {
            message = error.what();
        }
        QVERIFY2(message.find("cannot write") != std::string::npos &&
                     message.find(std::generic_category().message(ENOTDIR)) != std::string::npos,
                 message.c_str());
    }

    // A run's output file that cannot be written says why too ("writing ... failed" alone, before 2026-12-02): here
    // its folder's name is taken by a file in the staging folder; a full disk gives "No space left on device".
    void aFailedOutputFileNamesItsCause()
    {
        const ScratchDirectory dir;
        std::string message;
        try {
            granular::RunOutput output(dir.path / "run");
            output.write("frames", [](std::ostream& out) { out << "a file where a folder goes"; });
            output.write("frames/frame_0.vtp", [](std::ostream& out) { out << "frame"; });
        } catch (const std::runtime_error& error) {
            message = error.what();
        }
        QVERIFY2(message.find("--out: writing " + (dir.path / "run" / "frames" / "frame_0.vtp").string() + " failed (" +
                              std::generic_category().message(ENOTDIR) + ")") == 0,
                 message.c_str());
        QVERIFY(!fs::exists(dir.path / "run"));
    }
};

QTEST_APPLESS_MAIN(CliCheckpointFileTest)
#include "tst_cli_checkpoint_file.moc"
