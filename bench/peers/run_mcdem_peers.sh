#!/usr/bin/env bash
# The multi-contact DEM side by side with LIGGGHTS 3.8's multicontact/halfspace on the paper's packing and
# protocol (the liggghts-doc example hydrogel_multicontact): our bench_mcdem (md and mcdem), then LIGGGHTS's
# plain Hertz and multicontact inputs cut to the same number of steps, one after the other on one core.
# Usage: bench/peers/run_mcdem_peers.sh [RESULTS_FILE]   (STEPS, default 30000: the first down-stroke)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
results=${1:-$here/results_mcdem.txt}
steps=${STEPS:-30000}
bench=${BENCH_MCDEM:-$repo/build/bench/bench_mcdem}
example=${EXAMPLE:-/usr/share/doc/liggghts/examples/LIGGGHTS/Tutorials_public/hydrogel_multicontact}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ ! -x $bench ]]; then
    echo "bench_mcdem not built ($bench): cmake --build build --target bench_mcdem" >&2
    exit 1
fi
if [[ ! -f $example/data/input.data ]]; then
    echo "skipped: the paper's packing is missing (apt-get install --no-install-recommends liggghts-doc)"
    exit 0
fi
echo "== ours: $bench ($steps steps)"
"$bench" "$example/data/input.data" "$steps" "$work/ours.json" | tee "$work/ours.txt"
ours_md=$(sed -n 's/^md .*: \([0-9.]*\) steps\/s.*/\1/p' "$work/ours.txt")
ours_mc=$(sed -n 's/^mcdem .*: \([0-9.]*\) steps\/s.*/\1/p' "$work/ours.txt")

liggghts_rate() {  # input file -> steps/s of its runs (LIGGGHTS's own loop times)
    local input=$1
    cp -r "$example" "$work/run" && mkdir -p "$work/run/post"
    # Keep the first stroke: `run 1`, then `run STEPS upto`.
    sed -e "s/^run[[:space:]]*\${ts_move} upto/run $steps upto/" -e '/^unfix piston_move/,$d' \
        "$example/$input" > "$work/run/in.cut"
    (cd "$work/run" && liggghts -in in.cut -log log.cut > /dev/null)
    awk '/^Loop time of/ {t += $4; n += $9} END {printf "%.1f\n", n / t}' "$work/run/log.cut"
    rm -rf "$work/run"
}

if command -v liggghts > /dev/null; then
    echo "== LIGGGHTS: in.hydrogel_default and in.hydrogel_multicontact, first $steps steps"
    lig_md=$(liggghts_rate in.hydrogel_default)
    lig_mc=$(liggghts_rate in.hydrogel_multicontact)
else
    echo "skipped: LIGGGHTS not installed (apt-get install --no-install-recommends liggghts liggghts-doc)"
    lig_md=""
    lig_mc=""
fi
{
    echo "Multi-contact DEM on the paper's packing (514 spheres), $steps steps of the compression protocol, one core"
    printf "%-34s %12s\n" "code" "steps/s"
    printf "%-34s %12s\n" "ours, md (Hertz)" "$ours_md"
    printf "%-34s %12s\n" "ours, mcdem (gamma 1.125)" "$ours_mc"
    [[ -n $lig_md ]] && printf "%-34s %12s\n" "LIGGGHTS, hertz" "$lig_md"
    [[ -n $lig_mc ]] && printf "%-34s %12s\n" "LIGGGHTS, multicontact/halfspace" "$lig_mc"
    awk -v a="$ours_md" -v b="$ours_mc" 'BEGIN {printf "ours: mcdem costs %.2fx md per step\n", a / b}'
    if [[ -n $lig_mc ]]; then
        awk -v a="$ours_mc" -v b="$lig_mc" 'BEGIN {printf "mcdem: ours / LIGGGHTS = %.1fx\n", a / b}'
        awk -v a="$ours_md" -v b="$lig_md" 'BEGIN {printf "Hertz: ours / LIGGGHTS = %.2fx\n", a / b}'
    fi
} | tee "$results"
