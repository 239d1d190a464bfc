#!/usr/bin/env bash
# Configures and builds into build/ (Release). Extra arguments are passed to `cmake --build`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/generator.sh"
cmake_generator "$root/build"
cmake "${generator[@]}" -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j"$(nproc)" "$@"
