#!/usr/bin/env bash
# Quick start 2: install what is missing, build everything and run the whole test suite with CTest.
# Also builds core/ with Qt and VTK hidden from CMake and runs its tests there (core needs neither).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"

echo "== core without Qt and VTK (build-core-only/) =="
cmake -S "$root" -B "$root/build-core-only" -DCMAKE_BUILD_TYPE=Release -DGRANULAR_BUILD_GUI=OFF \
      -DGRANULAR_BUILD_BENCH=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON -DCMAKE_DISABLE_FIND_PACKAGE_VTK=ON >/dev/null
cmake --build "$root/build-core-only" -j"$(nproc)"
# Label `statistics` (long ensembles of packings) runs once, in the full build below.
(cd "$root/build-core-only" && ctest --output-on-failure -j"$(nproc)" -LE statistics)

echo "== full build (build/) =="
bash "$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure
