#pragma once
// The benches' command lines: positional arguments, the first usually the JSON file to write. An argument that starts
// with '-' is no such thing (`bench_md --help` wrote a file named "--help"): the bench prints its usage instead.

#include <cstdio>
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

}  // namespace granular::bench
