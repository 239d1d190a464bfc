#!/usr/bin/env bash
# Style checks, warnings as errors: clang-format over every C++ source of the project, and clang-tidy
# (.clang-tidy) over the sources of core/, io/, vtkio/, app/ and ui/ with the compile commands of BUILD_DIR
# (the static analyzer over core/, io/ and app/ only: see below).
# Usage: scripts/lint.sh [BUILD_DIR]   (default build/; it must have been configured)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cd "$root"
mapfile -t sources < <(find core io vtkio app ui tests bench -name '*.cpp' -o -name '*.h' | grep -v '^tests/support/' | sort)
echo "lint: clang-format on ${#sources[@]} files"
clang-format --dry-run --Werror "${sources[@]}"
tidy=$(command -v run-clang-tidy-14 || command -v run-clang-tidy)
# tidy NAME DIRECTORIES [EXTRA...]: clang-tidy (.clang-tidy's checks) over the sources under DIRECTORIES (a regex of
# top-level folders), log in $build/clang-tidy-NAME.log. GCC's -Wno-restrict is unknown to clang; it only silences a
# GCC false positive.
tidy() {
    local name=$1 directories=$2
    shift 2
    echo "lint: clang-tidy on $name (compile commands of $build)"
    "$tidy" -p "$build" -j "$(nproc)" -quiet -extra-arg=-Wno-unknown-warning-option "$@" "$root/($directories)/" \
        > "$build/clang-tidy-$name.log" 2>&1 || {
        grep -E 'warning:|error:' "$build/clang-tidy-$name.log" | sort -u
        echo "lint: clang-tidy found problems (full log: $build/clang-tidy-$name.log)"
        exit 1
    }
}
# The clang static analyzer (clang-analyzer-*, about a quarter of clang-tidy's time) runs over the solvers, the file
# loaders and the CLI; the Qt and VTK glue of ui/ and vtkio/ gets every other check. That keeps CI's whole run under
# its 40 minutes on a two-core machine (the analyzer over ui/ and vtkio/ added ~2 min).
tidy core-io-app 'core|io|app'
tidy ui-vtkio 'ui|vtkio' '-checks=-clang-analyzer-*'
echo "lint: clean"
