#!/usr/bin/env bash
# Style checks, warnings as errors: clang-format over every C++ source of the project, and clang-tidy
# (.clang-tidy) over the sources of core/, io/, vtkio/, app/ and ui/ with the compile commands of BUILD_DIR
# (the static analyzer over core/, io/ and app/ only; units unchanged since they were found clean are skipped: see
# below).
# Usage: scripts/lint.sh [BUILD_DIR]   (default build/; it must have been configured)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cd "$root"
mapfile -t sources < <(find core io vtkio app ui tests bench -name '*.cpp' -o -name '*.h' | grep -v '^tests/support/' | sort)
echo "lint: clang-format on ${#sources[@]} files"
clang-format --dry-run --Werror "${sources[@]}"
# clang-tidy skips the translation units whose every input is unchanged since it found them clean (keys in
# .ci/clang-tidy-clean.txt, kept in the repository; scripts/clang_tidy_cached.py says what a key covers). Commit the
# file after a clean lint, so that CI's fresh clone checks only what changed.
# The clang static analyzer (clang-analyzer-*, about a quarter of clang-tidy's time) runs over the solvers, the file
# loaders and the CLI; the Qt and VTK glue of ui/ and vtkio/ gets every other check.
python3 "$root/scripts/clang_tidy_cached.py" --build "$build" --cache "$root/.ci/clang-tidy-clean.txt" \
    --group 'core-io-app:core|io|app' --group 'ui-vtkio:ui|vtkio:-clang-analyzer-*' || {
    echo "lint: clang-tidy found problems (logs: $build/clang-tidy-*.log)"
    exit 1
}
echo "lint: clean"
