#!/usr/bin/env bash
# Speed versus peers: our bench_md (soft-particle DEM, case md_packing3d) against LAMMPS
# (GRANULAR, pair gran/hooke/history and pair granular) and LIGGGHTS 3.8 on the same system,
# one run after the other on this machine. Prints and saves a table of particle-steps/s
# (atoms x MD steps / loop time of the timed part only) and ours/theirs.
#
# Usage: bench/peers/run_peers.sh [RESULTS_FILE]        (default bench/peers/results.txt)
# Environment:
#   BENCH_MD   our benchmark binary        (default $REPO/build/bench/bench_md)
#   LMP        LAMMPS binary               (default lmp, Debian package lammps)
#   LIGGGHTS   LIGGGHTS binary             (default liggghts, Debian package liggghts)
#   NP         cores for the parallel runs (default: nproc); 1 skips them
#   EXACT      1 (default): also run LAMMPS's pair granular with our exact damping law; 0: skip
#   REPEAT     runs of each row, the best rate is kept (default 3: this machine is shared)
#   LOGDIR     where the tools' logs go    (default bench/peers/logs)
# A missing tool is reported as skipped; the script still exits 0.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
results=${1:-$here/results.txt}
bench_md=${BENCH_MD:-$repo/build/bench/bench_md}
lmp=${LMP:-lmp}
liggghts=${LIGGGHTS:-liggghts}
np=${NP:-$(nproc)}
exact=${EXACT:-1}
repeat=${REPEAT:-3}
logdir=${LOGDIR:-$here/logs}
mpirun=(mpirun --allow-run-as-root --oversubscribe -np "$np")

mkdir -p "$logdir"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
rows=()      # "tool|cores|rate|contacts|neighbours" per run
skips=()     # "skipped: ..." lines, printed under the table
ours_rate=""

note() { printf '%s\n' "$*" >&2; }

# "Loop time of X on P procs for S steps with A atoms" of the last run in a LAMMPS/LIGGGHTS log:
# prints A*S/X.
peer_rate() {
    grep 'Loop time of' "$1" | tail -n 1 |
        awk '{ for (i = 1; i <= NF; ++i) { if ($i == "of") t = $(i + 1); if ($i == "for") s = $(i + 1);
                                          if ($i == "with") a = $(i + 1) }
               printf "%.4e", a * s / t }'
}

# Contacts (last thermo column) at the start and the end of the timed run: "C0 -> C1". The start is
# taken from the settling run's last line (the same step): LAMMPS's thermo at the setup of the next
# run counts contacts from a stale occasional neighbour list.
peer_contacts() {
    awk 'NF >= 6 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9.e+-]+$/ {
             if (!($1 in seen)) { seen[$1] = $NF; order[n++] = $1 } }
         END { if (n >= 2) print seen[order[n - 2]] " -> " seen[order[n - 1]] }' "$1"
}

# Half-list neighbour pairs per atom of the last run (grain pairs only; walls need none there).
peer_neighbours() {
    grep 'Ave neighs/atom' "$1" | tail -n 1 | awk '{ print $NF }'
}

# Largest of the numbers on stdin (particle-steps/s of the repetitions).
best_of() {
    awk 'NR == 1 || $1 > best { best = $1 } END { if (NR) print best }'
}

# run_peer NAME CORES LOG COMMAND...: runs a LAMMPS-like tool REPEAT times (log LOG.N.log, the
# command gets "-log" appended) and records its best rate; contacts and neighbours of the last run.
run_peer() {
    local name=$1 cores=$2 log=$3
    shift 3
    local rep rates="" last=""
    for ((rep = 1; rep <= repeat; ++rep)); do
        last=$log.$rep.log
        note "== $name on $cores core(s), run $rep/$repeat: $* -log $last"
        if (cd "$here" && "$@" -log "$last") >"$last.screen" 2>&1 && grep -q 'Loop time of' "$last"; then
            rates+="$(peer_rate "$last")"$'\n'
        else
            note "   failed, see $last and $last.screen"
        fi
    done
    if [[ -z $rates ]]; then
        rows+=("$name|$cores|failed|-|-")
        return 0
    fi
    rows+=("$name|$cores|$(best_of <<<"$rates")|$(peer_contacts "$last")|$(peer_neighbours "$last")")
}

# MPI rows need mpirun and more than one core.
parallel=0
if ((np > 1)); then
    if command -v mpirun >/dev/null 2>&1; then
        parallel=1
    else
        skips+=("skipped: MPI runs, mpirun not installed (apt-get install openmpi-bin)")
    fi
fi

# ---- initial state shared by the peers: our exact lattice and radii ------------------------------
data=$logdir/packing3d.data
have_data=0
if command -v python3 >/dev/null 2>&1 && python3 "$here/make_packing3d.py" "$data"; then
    have_data=1
else
    note "python3 missing: LAMMPS draws its own radii (-var own 1), LIGGGHTS is skipped"
fi

# ---- ours: one solver thread, then NP (results identical, util/Parallel.h) --------------------------
declare -A ours_rates=()  # cores -> best particle-steps/s
if [[ -x $bench_md ]]; then
    ours_cores=(1)
    if ((np > 1)); then ours_cores+=("$np"); fi
    for cores in "${ours_cores[@]}"; do
        rates=""
        for ((rep = 1; rep <= repeat; ++rep)); do
            note "== ours on $cores thread(s), run $rep/$repeat: $bench_md"
            "$bench_md" "$logdir/bench_md_t$cores.$rep.json" "$cores" | tee "$logdir/bench_md_t$cores.$rep.log" >&2
            # md_packing3d: N spheres, T solver threads, S MD steps in T s, C candidates, K contacts: R particle-steps/s
            line=$(grep 'particle-steps/s' "$logdir/bench_md_t$cores.$rep.log" | tail -n 1)
            rates+="$(awk '{ print $(NF - 1) }' <<<"$line")"$'\n'
        done
        ours_rates[$cores]=$(best_of <<<"$rates")
        contacts=$(sed -n 's/.* \([0-9]*\) contacts:.*/\1/p' <<<"$line")
        candidates=$(sed -n 's/.* \([0-9]*\) candidates,.*/\1/p' <<<"$line")
        atoms=$(sed -n 's/^md_packing3d: \([0-9]*\) spheres.*/\1/p' <<<"$line")
        per_atom=$(awk -v c="$candidates" -v n="$atoms" 'BEGIN { printf "%.3f", c / n }')
        rows+=("ours (bench_md)|$cores|${ours_rates[$cores]}|$contacts (mean)|$per_atom (+walls)")
    done
    ours_rate=${ours_rates[1]}
else
    skips+=("skipped: ours, no bench_md at $bench_md (build target bench_md, or set BENCH_MD)")
fi

# ---- LAMMPS ---------------------------------------------------------------------------------------
if command -v "$lmp" >/dev/null 2>&1; then
    lmp_in=(-in "$here/lammps/in.md_packing3d")
    if ((have_data)); then lmp_in+=(-var data "$data"); else lmp_in+=(-var own 1); fi
    run_peer "lammps gran/hooke/history" 1 "$logdir/lammps_np1" \
        "$lmp" "${lmp_in[@]}"
    if ((parallel)); then
        run_peer "lammps gran/hooke/history" "$np" "$logdir/lammps_np$np" \
            "${mpirun[@]}" "$lmp" "${lmp_in[@]}"
    fi
    if [[ $exact == 1 ]]; then
        run_peer "lammps granular (exact law)" 1 "$logdir/lammps_exact_np1" \
            "$lmp" "${lmp_in[@]}" -var law exact
    fi
    # The Debian build has no OPENMP package: -sf omp would fail, so it is not tried.
else
    skips+=("skipped: lammps not installed (apt-get install lammps)")
fi

# ---- LIGGGHTS -----------------------------------------------------------------------------------
if ! command -v "$liggghts" >/dev/null 2>&1; then
    skips+=("skipped: liggghts not installed (apt-get install liggghts)")
elif ((!have_data)); then
    skips+=("skipped: liggghts, python3 is needed to write its data file (apt-get install python3)")
else
    lig_in=(-in "$here/liggghts/in.md_packing3d" -var data "$data")
    run_peer "liggghts hooke/stiffness" 1 "$logdir/liggghts_np1" \
        "$liggghts" "${lig_in[@]}"
    if ((parallel)); then
        run_peer "liggghts hooke/stiffness" "$np" "$logdir/liggghts_np$np" \
            "${mpirun[@]}" "$liggghts" "${lig_in[@]}"
    fi
fi

# ---- table ----------------------------------------------------------------------------------------
{
    echo "md_packing3d, 20000 spheres, 580 timed MD steps (dt = 0.01/29 s) after 2900 settling steps"
    echo "host: $(uname -n), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), best of $repeat runs each;" \
        "load average at start $load_start, at end $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-30s %5s %16s %12s %18s %12s\n' tool cores particle-steps/s ours/theirs "contacts t=1->1.2" neigh/atom
    echo "(ours/theirs: our rate on as many threads as the peer's cores; ours on NP threads: xS, its speed-up)"
    for row in ${rows[@]+"${rows[@]}"}; do
        IFS='|' read -r tool cores rate contacts neighbours <<<"$row"
        ratio=-
        ours_same=${ours_rates[$cores]:-}
        if [[ $rate =~ ^[0-9.e+-]+$ && $ours_same =~ ^[0-9.e+-]+$ && $tool != ours* ]]; then
            ratio=$(awk -v a="$ours_same" -v b="$rate" 'BEGIN { printf "%.2f", a / b }')
        elif [[ $tool == ours* && $cores != 1 && $rate =~ ^[0-9.e+-]+$ && $ours_rate =~ ^[0-9.e+-]+$ ]]; then
            ratio="x$(awk -v a="$rate" -v b="$ours_rate" 'BEGIN { printf "%.2f", a / b }')"
        fi
        printf '%-30s %5s %16s %12s %18s %12s\n' "$tool" "$cores" "$rate" "$ratio" "$contacts" "$neighbours"
    done
    echo "ours: contacts = mean over the 20 timed solver steps (grain pairs + walls); neigh/atom = candidates"
    echo "(grain pairs + grain-wall) per grain. peers: contacts at the first and last timed step; neigh/atom ="
    echo "half-list grain pairs per grain as printed (with MPI and newton off, pairs across domains count twice)."
    for line in ${skips[@]+"${skips[@]}"}; do echo "$line"; done
    echo "logs: $logdir"
} | tee "$results"
