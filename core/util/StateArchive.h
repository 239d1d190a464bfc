#pragma once

#include "util/Vector.h"

#include <Eigen/Geometry>

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace granular {

/// A saved state that does not read back: truncated, or a count beyond what the record holds.
class StateError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A binary record of a state (checkpoints): values are appended in a fixed order and read back in the same
/// order by StateReader. Plain values are stored as their bytes (the record is for the same build on the same
/// kind of machine; the checkpoint file carries a version).
class StateWriter {
public:
    template <class T> void put(const T& value)
    {
        if constexpr (std::is_same_v<T, Vec3> || std::is_same_v<T, Mat3>) {
            for (Eigen::Index i = 0; i < value.size(); ++i) {
                put(value(i));
            }
        } else if constexpr (std::is_same_v<T, Eigen::AlignedBox3d>) {
            put(value.min());
            put(value.max());
        } else {
            static_assert(std::is_trivially_copyable_v<T>);
            std::array<char, sizeof(T)> bytes{};
            std::memcpy(bytes.data(), &value, sizeof(T));
            bytes_.append(bytes.data(), sizeof(T));
        }
    }
    void put(const std::string& text)
    {
        put(static_cast<std::uint64_t>(text.size()));
        bytes_.append(text);
    }
    template <class T> void putVector(const std::vector<T>& values)
    {
        put(static_cast<std::uint64_t>(values.size()));
        for (const T& v : values) {
            put(v);
        }
    }

    [[nodiscard]] const std::string& bytes() const { return bytes_; }

private:
    std::string bytes_;
};

/// Reads what a StateWriter wrote, in the same order. Throws StateError when the record ends too early.
class StateReader {
public:
    explicit StateReader(std::string_view bytes) : bytes_(bytes) {}

    template <class T> T get()
    {
        if constexpr (std::is_same_v<T, Vec3> || std::is_same_v<T, Mat3>) {
            T value;
            for (Eigen::Index i = 0; i < value.size(); ++i) {
                value(i) = get<double>();
            }
            return value;
        } else if constexpr (std::is_same_v<T, Eigen::AlignedBox3d>) {
            const Vec3 low = get<Vec3>();
            const Vec3 high = get<Vec3>();
            return Eigen::AlignedBox3d(low, high);
        } else {
            static_assert(std::is_trivially_copyable_v<T>);
            std::array<char, sizeof(T)> bytes{};
            take(bytes.data(), sizeof(T));
            T value{};
            std::memcpy(&value, bytes.data(), sizeof(T));
            return value;
        }
    }
    std::string getString()
    {
        const auto size = count(1);
        std::string text(bytes_.substr(position_, size));
        position_ += size;
        return text;
    }
    template <class T> std::vector<T> getVector()
    {
        std::vector<T> values(count(std::is_same_v<T, Vec3> ? 3 * sizeof(double) : sizeof(T)));
        for (T& v : values) {
            v = get<T>();
        }
        return values;
    }

    [[nodiscard]] bool atEnd() const { return position_ == bytes_.size(); }

private:
    void take(char* out, std::size_t size)
    {
        if (bytes_.size() - position_ < size) {
            throw StateError("the saved state ends too early");
        }
        std::memcpy(out, bytes_.data() + position_, size);
        position_ += size;
    }
    /// A count of elements of `size` bytes each that the rest of the record can hold.
    std::size_t count(std::size_t size)
    {
        const auto n = get<std::uint64_t>();
        if (n > (bytes_.size() - position_) / size) {
            throw StateError("the saved state counts more elements than it holds");
        }
        return static_cast<std::size_t>(n);
    }

    std::string_view bytes_;
    std::size_t position_ = 0;
};

}  // namespace granular
