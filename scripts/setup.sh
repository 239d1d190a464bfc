#!/usr/bin/env bash
# Idempotent setup: installs the Debian packages Granular Studio needs, and nothing when all are present.
# Usage: scripts/setup.sh [--core-only | --peers]
#   --core-only: what core/ and its tests need (no Qt, no VTK);
#   --peers: everything, plus the speed peers that bench/peers runs side by side (LAMMPS, Siconos); CI does not use them.
set -euo pipefail

# clang and its runtime libraries build the sanitizer and fuzzing job (scripts/test.sh).
core_packages=(build-essential cmake ninja-build libeigen3-dev nlohmann-json3-dev libcli11-dev clang clang-format clang-tidy clang-tools
               libclang-rt-14-dev)
# qt6-charts-dev, not libqt6charts6-dev: that is only a name it provides, which dpkg never lists as installed, so
# every run would call apt. ffmpeg encodes the studio's recordings as MP4 (View > Record; without it the PNG sequence stays alone);
# libpng-dev writes the recording's frames.
gui_packages=(qt6-base-dev libqt6opengl6-dev qt6-charts-dev libvtk9-dev libpng-dev
              mpi-default-dev openmpi-bin xvfb xauth libgl1-mesa-dri libglx-mesa0 fonts-dejavu-core ffmpeg)
# The peer that the multi-contact DEM is checked against (tests/peers, label peer). Its recommended package
# ParaView conflicts with libvtk9-dev's Python module: never install it with recommends.
peer_packages=(liggghts liggghts-doc)

# The speed peers of bench/peers (README there): LAMMPS with its GRANULAR package, and Siconos's fc3d solvers.
bench_peer_packages=(lammps libsiconos-numerics-dev)

case "${1:-}" in
    "" | --core-only | --peers) ;;
    *)
        echo "setup: unknown option '$1'; accepted: --core-only, --peers" >&2
        exit 2
        ;;
esac
packages=("${core_packages[@]}")
if [[ "${1:-}" != "--core-only" ]]; then
    packages+=("${gui_packages[@]}" "${peer_packages[@]}")
fi
if [[ "${1:-}" == "--peers" ]]; then
    packages+=("${bench_peer_packages[@]}")
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

echo "setup: installing missing Debian packages: ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
