// The layers of core/ (docs/ARCHITECTURE.md, "Layers of core/"): every #include of a core file points to
// its own folder or to a folder of lower rank, and every folder of core/ has a rank.
#include <QTest>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

/// folder -> rank, from the table after the `<!-- layers` marker of docs/ARCHITECTURE.md.
std::map<std::string, int> layerRanks()
{
    std::ifstream in(fs::path(GRANULAR_SOURCE_DIR) / "docs" / "ARCHITECTURE.md");
    std::map<std::string, int> ranks;
    std::string line;
    bool inTable = false;
    const std::regex row("^\\|\\s*(\\d+)\\s*\\|\\s*([a-z_]+)\\s*\\|");
    while (std::getline(in, line)) {
        if (line.rfind("<!-- layers", 0) == 0) {
            inTable = true;
            continue;
        }
        if (!inTable) {
            continue;
        }
        std::smatch match;
        if (std::regex_search(line, match, row)) {
            ranks[match[2].str()] = std::stoi(match[1].str());
        } else if (!ranks.empty() && line.rfind('|', 0) != 0) {
            break;
        }
    }
    return ranks;
}

}  // namespace

class LayersTest : public QObject {
    Q_OBJECT

private slots:
    void everyFolderHasARank()
    {
        const auto ranks = layerRanks();
        QVERIFY2(ranks.size() >= 10, "no layer table found in docs/ARCHITECTURE.md");
        for (const auto& entry : fs::directory_iterator(fs::path(GRANULAR_SOURCE_DIR) / "core")) {
            if (entry.is_directory()) {
                const std::string folder = entry.path().filename().string();
                QVERIFY2(ranks.count(folder) == 1, ("core/" + folder + " is missing from the layer table").c_str());
            }
        }
    }

    void includesPointDown()
    {
        const auto ranks = layerRanks();
        // A quoted include of a project folder: `# include "folder/...`.
        const std::regex include(std::string("^\\s*") + '#' + "\\s*include\\s*\"([a-z_]+)/");
        std::vector<std::string> violations;
        int checked = 0;
        for (const auto& entry : fs::recursive_directory_iterator(fs::path(GRANULAR_SOURCE_DIR) / "core")) {
            const auto ext = entry.path().extension();
            if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) {
                continue;
            }
            const std::string folder = entry.path().parent_path().filename().string();
            const auto own = ranks.find(folder);
            if (own == ranks.end()) {
                continue;  // reported by everyFolderHasARank
            }
            std::ifstream in(entry.path());
            std::string line;
            int number = 0;
            while (std::getline(in, line)) {
                ++number;
                std::smatch match;
                if (!std::regex_search(line, match, include)) {
                    continue;
                }
                ++checked;
                const auto target = ranks.find(match[1].str());
                if (target == ranks.end() || target->second > own->second) {
                    std::ostringstream v;
                    v << "core/" << folder << "/" << entry.path().filename().string() << ":" << number << " includes "
                      << match[1].str() << "/ (" << (target == ranks.end() ? "no layer" : "a higher layer") << ")";
                    violations.push_back(v.str());
                }
            }
        }
        QVERIFY(checked > 100);
        for (const auto& v : violations) {
            std::fprintf(stderr, "%s\n", v.c_str());
        }
        QVERIFY2(violations.empty(), (std::to_string(violations.size()) + " includes point up").c_str());
    }
};

QTEST_APPLESS_MAIN(LayersTest)
#include "tst_layers.moc"
