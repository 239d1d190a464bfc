#include "cli/RunRecord.h"

#include "util/StateArchive.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace granular::cli {

namespace fs = std::filesystem;

const std::string* RunRecord::file(const std::string& name) const
{
    const auto found =
        std::find_if(files.begin(), files.end(), [&name](const auto& entry) { return entry.first == name; });
    return found == files.end() ? nullptr : &found->second;
}

std::string RunRecord::toBytes() const
{
    StateWriter out;
    out.put(seed);
    out.put(exitCode);
    out.put(message);
    out.put(static_cast<std::uint64_t>(files.size()));
    for (const auto& [name, content] : files) {
        out.put(name);
        out.put(content);
    }
    return out.bytes();
}

RunRecord RunRecord::fromBytes(const std::string& bytes)
{
    try {
        StateReader in(bytes);
        RunRecord record;
        record.seed = in.get<std::int64_t>();
        record.exitCode = in.get<int>();
        record.message = in.getString();
        const auto count = in.get<std::uint64_t>();
        for (std::uint64_t k = 0; k < count; ++k) {
            std::string name = in.getString();
            std::string content = in.getString();
            record.files.emplace_back(std::move(name), std::move(content));
        }
        if (!in.atEnd()) {
            throw StateError("bytes left after the record");
        }
        return record;
    } catch (const StateError& error) {
        throw std::runtime_error(std::string("a run's record is broken: ") + error.what());
    }
}

std::vector<std::pair<std::string, std::string>> readFiles(const fs::path& directory)
{
    std::vector<std::pair<std::string, std::string>> files;
    for (const auto& entry : fs::recursive_directory_iterator(directory)) {
        if (!entry.is_regular_file()) {
            continue;
        }
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream content;
        content << in.rdbuf();
        if (!in) {
            throw std::runtime_error(entry.path().string() + ": cannot be read back");
        }
        files.emplace_back(fs::relative(entry.path(), directory).generic_string(), content.str());
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace granular::cli
