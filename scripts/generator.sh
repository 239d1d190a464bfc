#!/usr/bin/env bash
# Sourced by build.sh and test.sh: cmake_generator DIR sets the array `generator` to the CMake generator arguments for
# the build folder DIR. A new folder gets Ninja, which compiles a target's sources while the libraries it links are
# still being built, where Make's generated makefiles wait for them: the sanitizer stage's build took 9 min 35 s with
# Ninja against 13 min 22 s with Make on CI's two cores (2026-12-01, the same sources). A folder configured before
# keeps the generator it has (CMake refuses to change it), and without ninja (setup.sh installs it) CMake's default.
cmake_generator() {
    generator=()
    if [[ ! -f "$1/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
        generator=(-G Ninja)
    fi
}
