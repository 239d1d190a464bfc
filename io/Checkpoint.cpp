#include "Checkpoint.h"

#include "RunOutput.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

namespace granular {

namespace {

constexpr std::string_view kMagic = "GRANULAR-CHECKPOINT\n";

std::uint64_t fnv1a(std::string_view bytes)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const unsigned char c : bytes) {
        hash ^= c;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

template <class T> void append(std::string& out, T value)
{
    std::array<char, sizeof(T)> bytes{};
    std::memcpy(bytes.data(), &value, sizeof(T));
    out.append(bytes.data(), bytes.size());
}

template <class T> bool take(std::string_view& in, T& value)
{
    if (in.size() < sizeof(T)) {
        return false;
    }
    std::memcpy(&value, in.data(), sizeof(T));
    in.remove_prefix(sizeof(T));
    return true;
}

template <class T> bool read(std::istream& in, T& value)
{
    std::array<char, sizeof(T)> bytes{};
    if (!in.read(bytes.data(), bytes.size())) {
        return false;
    }
    std::memcpy(&value, bytes.data(), sizeof(T));
    return true;
}

/// Refuses a file whose length is not what its sections' sizes add up to (truncated, or with bytes appended: a
/// checkpoint grown to gigabytes was read whole into memory before), reading only the header and the sizes; `in`
/// back at the start. A header that cannot be read is left to the full reading, which says what is wrong.
void checkLength(std::ifstream& in, const std::string& name, std::uintmax_t fileLength)
{
    std::string magic(kMagic.size(), '\0');
    std::uint32_t version = 0;
    std::uint64_t expected = kMagic.size() + sizeof(version);
    bool complete = static_cast<bool>(in.read(magic.data(), static_cast<std::streamsize>(magic.size()))) &&
                    magic == kMagic && read(in, version);
    for (int section = 0; complete && section < 3; ++section) {
        std::uint64_t size = 0;
        complete = read(in, size) && size <= fileLength && expected + sizeof(size) + size <= fileLength;
        expected += sizeof(size) + size;
        complete = complete && static_cast<bool>(in.seekg(static_cast<std::streamoff>(size), std::ios::cur));
    }
    expected += sizeof(std::uint64_t);  // the checksum
    if (complete && expected != fileLength) {
        throw CheckpointError(name + ": truncated or with trailing bytes (" + std::to_string(fileLength) +
                              " bytes, its sections need " + std::to_string(expected) + ")");
    }
    in.clear();
    in.seekg(0);
}

}  // namespace

void writeCheckpoint(const std::filesystem::path& path, const Checkpoint& checkpoint)
{
    std::string bytes(kMagic);
    append(bytes, checkpoint.version);
    for (const std::string* section : {&checkpoint.scenarioJson, &checkpoint.simulation, &checkpoint.session}) {
        append(bytes, static_cast<std::uint64_t>(section->size()));
        bytes += *section;
    }
    append(bytes, fnv1a(bytes));
    writeFileAtomically(
        path, [&bytes](std::ostream& out) { out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); });
}

Checkpoint readCheckpoint(const std::filesystem::path& path)
{
    const std::string name = path.string();
    std::error_code error;
    std::ifstream in;
    if (std::filesystem::is_regular_file(path, error)) {
        in.open(path, std::ios::binary);
    }
    if (!in.is_open() || !in) {
        throw CheckpointError(name + ": no checkpoint to read (missing or not a readable file)");
    }
    checkLength(in, name, std::filesystem::file_size(path, error));
    std::ostringstream text;
    text << in.rdbuf();
    const std::string bytes = text.str();
    std::string_view rest(bytes);
    if (rest.substr(0, kMagic.size()) != kMagic) {
        throw CheckpointError(name + ": not a checkpoint of granular (no magic number)");
    }
    rest.remove_prefix(kMagic.size());
    std::uint32_t version = 0;
    if (!take(rest, version)) {
        throw CheckpointError(name + ": truncated after the magic number");
    }
    if (version < kOldestCheckpointVersion || version > kCheckpointVersion) {
        throw CheckpointError(name + ": version " + std::to_string(version) +
                              " is not read by this granular; accepted: " + std::to_string(kOldestCheckpointVersion) +
                              " to " + std::to_string(kCheckpointVersion));
    }
    Checkpoint checkpoint;
    checkpoint.version = version;
    for (std::string* section : {&checkpoint.scenarioJson, &checkpoint.simulation, &checkpoint.session}) {
        std::uint64_t size = 0;
        if (!take(rest, size) || size > rest.size()) {
            throw CheckpointError(name + ": truncated (" + std::to_string(bytes.size()) + " bytes)");
        }
        section->assign(rest.substr(0, size));
        rest.remove_prefix(size);
    }
    std::uint64_t checksum = 0;
    if (!take(rest, checksum) || !rest.empty()) {
        throw CheckpointError(name + ": truncated or with trailing bytes (" + std::to_string(bytes.size()) + " bytes)");
    }
    const std::size_t covered = bytes.size() - sizeof(checksum);
    if (fnv1a(std::string_view(bytes).substr(0, covered)) != checksum) {
        throw CheckpointError(name + ": corrupted (its checksum does not match)");
    }
    return checkpoint;
}

}  // namespace granular
