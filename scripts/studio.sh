#!/usr/bin/env bash
# Quick start 1: install what is missing, build, and start Granular Studio.
# Usage: scripts/studio.sh [SCENARIO] [--set KEY=VALUE]... [--screenshot FILE.png]
# Without a display it runs under Xvfb, so that it can still be checked (e.g. with --screenshot).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" --target granular-studio granular
if [[ $# -eq 0 ]]; then
    set -- piston2d
fi
studio="$root/build/app/granular-studio"
# Qt warns on stderr when the runtime directory is missing (containers, CI); give it one.
if [[ -z "${XDG_RUNTIME_DIR:-}" ]]; then
    export XDG_RUNTIME_DIR="/tmp/runtime-$(id -u)"
    mkdir -p -m 700 "$XDG_RUNTIME_DIR"
fi
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
    exec "$studio" "$@"
fi
echo "studio: no display found, starting under Xvfb" >&2
exec xvfb-run -a -s "-screen 0 1600x1000x24" "$studio" "$@"
