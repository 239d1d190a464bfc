#pragma once
// The benches' command lines: positional arguments, the first usually the JSON file to write. An argument that starts
// with '-' is no such thing (`bench_md --help` wrote a file named "--help"): the bench prints its usage instead.

#include <cstdio>
#include <string_view>

namespace granular::bench {

/// Where an argument starts with '-': prints `usage` and returns the exit status (0 for -h or --help, 2 for anything
/// else, with a line naming it); otherwise -1, and the bench goes on.
inline int usageStatus(int argc, char** argv, const char* usage)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (!a.starts_with('-')) {
            continue;
        }
        const bool asked = a == "-h" || a == "--help";
        if (!asked) {
            std::fprintf(stderr, "%s: no option '%s' (its arguments are positional)\n", argv[0], argv[i]);
        }
        std::fputs(usage, asked ? stdout : stderr);
        return asked ? 0 : 2;
    }
    return -1;
}

}  // namespace granular::bench
