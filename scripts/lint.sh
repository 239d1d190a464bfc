#!/usr/bin/env bash
# Style checks, warnings as errors: clang-format over every C++ source of the project, and clang-tidy
# (.clang-tidy) over the sources of core/, io/, vtkio/, app/ and ui/ with the compile commands of BUILD_DIR.
# Usage: scripts/lint.sh [BUILD_DIR]   (default build/; it must have been configured)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cd "$root"
mapfile -t sources < <(find core io vtkio app ui tests bench -name '*.cpp' -o -name '*.h' | grep -v '^tests/support/' | sort)
echo "lint: clang-format on ${#sources[@]} files"
clang-format --dry-run --Werror "${sources[@]}"
echo "lint: clang-tidy on core/ io/ vtkio/ app/ ui/ (compile commands of $build)"
tidy=$(command -v run-clang-tidy-14 || command -v run-clang-tidy)
# GCC's -Wno-restrict is unknown to clang; it only silences a GCC false positive.
"$tidy" -p "$build" -j "$(nproc)" -quiet -extra-arg=-Wno-unknown-warning-option "$root/(core|io|vtkio|app|ui)/" \
    > "$build/clang-tidy.log" 2>&1 || {
    grep -E 'warning:|error:' "$build/clang-tidy.log" | sort -u
    echo "lint: clang-tidy found problems (full log: $build/clang-tidy.log)"
    exit 1
}
echo "lint: clean"
