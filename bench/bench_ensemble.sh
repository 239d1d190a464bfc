#!/usr/bin/env bash
# Wall time of an ensemble and a sweep: one run at a time (--jobs 1), local threads (every core), and mpirun -n N
# (N = the cores); prints the ratios to the serial time and saves them to bench_ensemble.txt (or $1). Checks on the
# way that the three give byte-identical ensemble.json, ensemble.csv and sweep.csv. Not a test.
# Usage: bench/bench_ensemble.sh [OUTPUT.txt]   (after scripts/build.sh; mpirun is skipped where it is missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
granular="$root/build/app/granular"
out_file=${1:-bench_ensemble.txt}
cores=$(nproc)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null; end=$(date +%s.%N); awk "BEGIN { print $end - $start }"; }
ratio() { awk "BEGIN { print $1 / $2 }"; }

ensemble=(ensemble periodic2d --quiet --seeds 1..8)
sweep=(sweep periodic2d --quiet --key pressure.external --values 0.25,0.5,1,2,4,8,16,32)
{
    echo "# $(date -u +%F) $(uname -n), $cores cores; periodic2d (Shaebani et al. 2009, 100 disks) relaxed per run"
    for what in ensemble sweep; do
        declare -n args=$what
        file=$([[ $what == ensemble ]] && echo ensemble.json || echo sweep.csv)
        serial=$(seconds "$granular" "${args[@]}" --jobs 1 --out "$scratch/$what-serial")
        threads=$(seconds "$granular" "${args[@]}" --out "$scratch/$what-threads")
        cmp -s "$scratch/$what-serial/$file" "$scratch/$what-threads/$file" || { echo "$what: threads differ"; exit 1; }
        printf '%-8s serial (--jobs 1) %7.2f s | %d threads %7.2f s (%.2fx serial)' "$what" "$serial" "$cores" \
            "$threads" "$(ratio "$threads" "$serial")"
        if command -v mpirun >/dev/null; then
            mpi=$(seconds mpirun --oversubscribe -n "$cores" "$granular" "${args[@]}" --out "$scratch/$what-mpi")
            cmp -s "$scratch/$what-serial/$file" "$scratch/$what-mpi/$file" || { echo "$what: MPI differs"; exit 1; }
            printf ' | mpirun -n %d %7.2f s (%.2fx serial)' "$cores" "$mpi" "$(ratio "$mpi" "$serial")"
        else
            printf ' | mpirun: not installed, skipped'
        fi
        printf '; %s identical\n' "$file"
    done
} | tee "$out_file"
