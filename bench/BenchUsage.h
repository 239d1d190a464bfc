#pragma once
// The benches' command lines: positional arguments, the first usually the JSON file to write. An argument that starts
// with '-' is no such thing (`bench_md --help` wrote a file named "--help"): the bench prints its usage instead.

#include <charconv>
#include <cstdio>
#include <limits>
#include <optional>
#include <string_view>

namespace granular::bench {

/// For an argument `a` that starts with '-' and is no option of `program`: prints `usage` (after a line naming `a`,
/// ending with `why`, unless `a` is -h or --help) and returns the exit status, 0 for -h or --help, 2 for anything else.
inline int usageFor(const char* program, std::string_view a, const char* usage, const char* why = "")
{
    const bool asked = a == "-h" || a == "--help";
    if (!asked) {
        std::fprintf(stderr, "%s: no option '%.*s'%s\n", program, static_cast<int>(a.size()), a.data(), why);
    }
    std::fputs(usage, asked ? stdout : stderr);
    return asked ? 0 : 2;
}

/// Where an argument starts with '-': usageFor's status (the bench's arguments are all positional); otherwise -1, and
/// the bench goes on.
inline int usageStatus(int argc, char** argv, const char* usage)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a.starts_with('-')) {
            return usageFor(argv[0], a, usage, " (its arguments are positional)");
        }
    }
    return -1;
}

/// `text`, the value of argument `name` (e.g. "THREADS" or "--steps"), as a whole number; nothing, after a line naming
/// the argument and the accepted range, where it is not a whole number in [least, most] (a trailing "x" or ".5" is
/// refused, not cut off).
inline std::optional<long long> wholeValue(const char* program, const char* name, std::string_view text,
                                           long long least, long long most = std::numeric_limits<long long>::max())
{
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || value < least || value > most) {
        if (most == std::numeric_limits<long long>::max()) {
            std::fprintf(stderr, "%s: %s must be a whole number >= %lld, got '%.*s'\n", program, name, least,
                         static_cast<int>(text.size()), text.data());
        } else {
            std::fprintf(stderr, "%s: %s must be a whole number in [%lld, %lld], got '%.*s'\n", program, name, least,
                         most, static_cast<int>(text.size()), text.data());
        }
        return std::nullopt;
    }
    return value;
}

/// `text`, the value of argument `name`, as a number in (0, most] (e.g. seconds); nothing, after a line naming the
/// argument and the accepted range, where it is not one.
inline std::optional<double> positiveValue(const char* program, const char* name, std::string_view text, double most)
{
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || !(value > 0.0) || !(value <= most)) {
        std::fprintf(stderr, "%s: %s must be a number in (0, %g], got '%.*s'\n", program, name, most,
                     static_cast<int>(text.size()), text.data());
        return std::nullopt;
    }
    return value;
}

/// Positional argument `index` (argv[index]) as a whole number (wholeValue), `fallback` where the command line ends
/// before it.
inline std::optional<long long> wholeArgument(int argc, char** argv, int index, const char* name, long long fallback,
                                              long long least)
{
    if (argc <= index) {
        return fallback;
    }
    return wholeValue(argv[0], name, argv[index], least);
}

}  // namespace granular::bench
