#!/usr/bin/env bash
# Quick start 2: install what is missing, build everything and run the test suite with CTest, in two builds:
#  1. build-sanitize/: core, io and the CLI with neither Qt nor VTK (core needs neither), built by clang with
#     AddressSanitizer + UndefinedBehaviorSanitizer (float-cast-overflow included, every finding fatal); runs
#     the tests that take seconds (not the labels long, statistics, extended, peer, paper) and the libFuzzer targets of
#     the scenario loader and the particle-file loader for a bounded, seeded number of executions (label fuzz).
#     Without MPI: LeakSanitizer reports Open MPI's own allocations; the MPI test runs in build/.
#  2. build/: everything (Release, GCC), all tests but the labels peer and extended.
#  3. lint (scripts/lint.sh): clang-format and clang-tidy over the project's code, warnings as errors (clang-tidy
#     skips the units unchanged since it found them clean: .ci/clang-tidy-clean.txt).
# Each stage prints how long it took: CI's whole run should stay under 40 minutes.
# Not in CI: the peer comparisons (label peer: LIGGGHTS, ~12 min; Siconos where installed, ~5 s) run with
# GRANULAR_PEER_TESTS=1; the checks of minutes each (label extended: built-in periodic3d relaxing within its run.time)
# with GRANULAR_EXTENDED_TESTS=1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
jobs=$(nproc)
started=$SECONDS
stage_started=$SECONDS
# stage_done NAME: how long the stage took and the whole run so far (CI's run should stay under 40 minutes).
stage_done() {
    echo "== $1 took $(((SECONDS - stage_started) / 60)) min $(((SECONDS - stage_started) % 60)) s" \
         "(run so far $(((SECONDS - started) / 60)) min) =="
    stage_started=$SECONDS
}

echo "== sanitizers and fuzzing: core and the CLI without Qt and VTK, clang ASan + UBSan (build-sanitize/) =="
source "$root/scripts/generator.sh"
cmake_generator "$root/build-sanitize"
CC=clang CXX=clang++ cmake "${generator[@]}" -S "$root" -B "$root/build-sanitize" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DGRANULAR_BUILD_GUI=OFF -DGRANULAR_BUILD_BENCH=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON \
      -DCMAKE_DISABLE_FIND_PACKAGE_VTK=ON -DGRANULAR_SANITIZE=ON -DGRANULAR_FUZZ=ON -DGRANULAR_MPI=OFF \
      -DGRANULAR_OPENMP=OFF >/dev/null
# Only what this stage runs: the tests it selects (each test is its executable's target) and the CLI they call.
sanitize_labels="long|statistics|extended|peer|paper"
mapfile -t sanitize_tests < <(cd "$root/build-sanitize" && ctest -N -LE "$sanitize_labels" | awk '/Test +#/ {print $3}')
cmake --build "$root/build-sanitize" -j"$jobs" --target granular "${sanitize_tests[@]}"
(cd "$root/build-sanitize" && ctest --output-on-failure -j"$jobs" -LE "$sanitize_labels")
stage_done "sanitizers and fuzzing"

echo "== full build (build/) =="
bash "$root/scripts/build.sh"
cd "$root/build"
left_out=()
if [[ "${GRANULAR_PEER_TESTS:-0}" != "1" ]]; then
    left_out+=(peer)
fi
if [[ "${GRANULAR_EXTENDED_TESTS:-0}" != "1" ]]; then
    left_out+=(extended)
fi
exclude=()
if ((${#left_out[@]} > 0)); then
    exclude=(-LE "$(IFS='|'; echo "${left_out[*]}")")
fi
ctest --output-on-failure -j"$jobs" "${exclude[@]}"
stage_done "full build and tests"

echo "== lint: clang-format and clang-tidy (compile commands of build/) =="
bash "$root/scripts/lint.sh" "$root/build"
stage_done "lint"
