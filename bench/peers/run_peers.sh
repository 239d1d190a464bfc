#!/usr/bin/env bash
# Speed versus peers: our bench_md (soft-particle DEM, case md_packing3d) against LAMMPS
# (GRANULAR, pair gran/hooke/history and pair granular) and LIGGGHTS 3.8 on the same system, on
# this machine. The runs go in rounds: a round runs every row once (ours on 1 and NP threads, then
# the peers), so that the rows of a round meet the same state of a shared machine. Prints and saves a
# table of particle-steps/s (atoms x MD steps / loop time of the timed part only), each row's best and
# median run, and ours/theirs as the median over the rounds of the ratio within each round (paired:
# what stands when the machine's speed drifts between rounds) beside the ratio of the best runs.
#
# Usage: bench/peers/run_peers.sh [RESULTS_FILE]        (default bench/peers/results.txt)
# Environment:
#   BENCH_MD   our benchmark binary        (default $REPO/build/bench/bench_md)
#   LMP        LAMMPS binary               (default lmp, Debian package lammps)
#   LIGGGHTS   LIGGGHTS binary             (default liggghts, Debian package liggghts)
#   NP         cores for the parallel runs (default: nproc); 1 skips them
#   EXACT      1 (default): also run LAMMPS's pair granular with our exact damping law; 0: skip
#   REPEAT     rounds (default 3: this machine is shared)
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

if ! [[ $repeat =~ ^[1-9][0-9]*$ ]]; then
    printf 'REPEAT must be a whole number of rounds >= 1, not "%s"\n' "$repeat" >&2
    exit 2
fi
if ! [[ $np =~ ^[1-9][0-9]*$ ]]; then
    printf 'NP must be a whole number of cores >= 1, not "%s"\n' "$np" >&2
    exit 2
fi

mkdir -p "$logdir"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
skips=() # "skipped: ..." lines, printed under the table

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

# The numbers on stdin, one a line, ascending; lines that are not numbers ("-": a failed run) left out.
rates_sorted() {
    grep -E '^[0-9]' | sort -g || true
}

# The median of the ascending numbers on stdin; empty when there are none.
median() {
    awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The median over the rounds of A(round) / B(round), both lists one rate per round ("-" where a run
# failed: that round is left out); "-" when no round has both.
paired_ratio() {
    local m
    m=$(paste -d' ' <(tr ' ' '\n' <<<"$1") <(tr ' ' '\n' <<<"$2") |
        awk '$1 ~ /^[0-9]/ && $2 ~ /^[0-9]/ { print $1 / $2 }' | rates_sorted | median)
    if [[ -n $m ]]; then printf '%.2f\n' "$m"; else echo -; fi
}

# The ratio A / B of two rates to two decimals, "-" unless both are numbers.
ratio_of() {
    if [[ $1 =~ ^[0-9] && $2 =~ ^[0-9] ]]; then
        awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
    else
        echo -
    fi
}

# ---- the rows ---------------------------------------------------------------------------------------
# Row r: names[r] (table label), cores[r], kinds[r] (ours or peer), logs[r] (log prefix, .ROUND.log),
# commands[r] (the command's words joined by the unit separator 0x1f); rates[r] collects one rate per
# round, space-separated.
names=() cores=() kinds=() logs=() commands=() rates=()
add_row() {
    local name=$1 count=$2 kind=$3 log=$4
    shift 4
    names+=("$name") cores+=("$count") kinds+=("$kind") logs+=("$log") rates+=("")
    local IFS=$'\x1f'
    commands+=("$*")
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

# Initial state shared by the peers: our exact lattice and radii.
data=$logdir/packing3d.data
have_data=0
if command -v python3 >/dev/null 2>&1 && python3 "$here/make_packing3d.py" "$data"; then
    have_data=1
else
    note "python3 missing: LAMMPS draws its own radii (-var own 1), LIGGGHTS is skipped"
fi

# Ours: one solver thread, then NP (results identical, util/Parallel.h).
if [[ -x $bench_md ]]; then
    add_row "ours (bench_md)" 1 ours "$logdir/bench_md_t1" "$bench_md"
    if ((np > 1)); then
        add_row "ours (bench_md)" "$np" ours "$logdir/bench_md_t$np" "$bench_md"
    fi
else
    skips+=("skipped: ours, no bench_md at $bench_md (build target bench_md, or set BENCH_MD)")
fi

if command -v "$lmp" >/dev/null 2>&1; then
    lmp_in=(-in "$here/lammps/in.md_packing3d")
    if ((have_data)); then lmp_in+=(-var data "$data"); else lmp_in+=(-var own 1); fi
    add_row "lammps gran/hooke/history" 1 peer "$logdir/lammps_np1" "$lmp" "${lmp_in[@]}"
    if ((parallel)); then
        add_row "lammps gran/hooke/history" "$np" peer "$logdir/lammps_np$np" "${mpirun[@]}" "$lmp" "${lmp_in[@]}"
    fi
    if [[ $exact == 1 ]]; then
        add_row "lammps granular (exact law)" 1 peer "$logdir/lammps_exact_np1" "$lmp" "${lmp_in[@]}" -var law exact
    fi
    # The Debian build has no OPENMP package: -sf omp would fail, so it is not tried.
else
    skips+=("skipped: lammps not installed (apt-get install lammps)")
fi

if ! command -v "$liggghts" >/dev/null 2>&1; then
    skips+=("skipped: liggghts not installed (apt-get install liggghts)")
elif ((!have_data)); then
    skips+=("skipped: liggghts, python3 is needed to write its data file (apt-get install python3)")
else
    lig_in=(-in "$here/liggghts/in.md_packing3d" -var data "$data")
    add_row "liggghts hooke/stiffness" 1 peer "$logdir/liggghts_np1" "$liggghts" "${lig_in[@]}"
    if ((parallel)); then
        add_row "liggghts hooke/stiffness" "$np" peer "$logdir/liggghts_np$np" "${mpirun[@]}" "$liggghts" "${lig_in[@]}"
    fi
fi

# run_row R ROUND: runs row R once; prints its rate, or "-" if it failed.
run_row() {
    local r=$1 round=$2 log=${logs[$1]}.$2
    local -a argv
    IFS=$'\x1f' read -r -a argv <<<"${commands[$r]}"
    note "== round $round/$repeat: ${names[$r]} on ${cores[$r]} core(s)"
    if [[ ${kinds[$r]} == ours ]]; then
        # md_packing3d: N spheres, T solver threads, S MD steps in T s (1 run), C candidates, K contacts: R particle-steps/s
        if "${argv[@]}" "$log.json" "${cores[$r]}" >"$log.log" 2>&1; then
            grep 'particle-steps/s' "$log.log" | tail -n 1 | awk '{ print $(NF - 1) }'
            return 0
        fi
        note "   failed, see $log.log"
    elif (cd "$here" && "${argv[@]}" -log "$log.log") >"$log.log.screen" 2>&1 && grep -q 'Loop time of' "$log.log"; then
        peer_rate "$log.log"
        echo
        return 0
    else
        note "   failed, see $log.log and $log.log.screen"
    fi
    echo "-"
}

for ((round = 1; round <= repeat; ++round)); do
    for r in "${!names[@]}"; do
        rate=$(run_row "$r" "$round")
        note "   $rate particle-steps/s"
        rates[r]+="${rates[r]:+ }$rate"
    done
done

# ---- table ----------------------------------------------------------------------------------------
ours_row=() # cores -> our row with that many threads
for r in "${!names[@]}"; do
    if [[ ${kinds[$r]} == ours ]]; then ours_row[${cores[$r]}]=$r; fi
done
{
    echo "md_packing3d, 20000 spheres, 580 timed MD steps (dt = 0.01/29 s) after 2900 settling steps"
    echo "host: $(uname -n), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), $repeat rounds (each runs every row once);" \
        "load average at start $load_start, at end $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-28s %5s %11s %11s %8s %8s %18s %12s\n' tool cores best median paired best/best \
        "contacts t=1->1.2" neigh/atom
    echo "(particle-steps/s. paired: the median over the rounds of ours/theirs within a round, ours on as many"
    echo "threads as the peer's cores; best/best: the ratio of the best runs. Ours on NP threads: xS, its"
    echo "speed-up over ours on 1, paired and best/best)"
    bests=() medians=() # per row: its best and median run ("failed" when none)
    for r in "${!names[@]}"; do
        sorted=$(tr ' ' '\n' <<<"${rates[$r]}" | rates_sorted)
        if [[ -n $sorted ]]; then
            bests[r]=$(printf '%.4e' "$(tail -n 1 <<<"$sorted")")
            medians[r]=$(printf '%.4e' "$(median <<<"$sorted")")
        else
            bests[r]=failed medians[r]=failed
        fi
    done
    for r in "${!names[@]}"; do
        paired=- bestratio=- contacts=- neighbours=-
        last=${logs[$r]}.$repeat.log
        if [[ ${kinds[$r]} == ours ]]; then
            line=$(grep -s 'particle-steps/s' "$last" | tail -n 1 || true)
            if [[ -n $line ]]; then
                contacts="$(sed -n 's/.* \([0-9]*\) contacts:.*/\1/p' <<<"$line") (mean)"
                candidates=$(sed -n 's/.* \([0-9]*\) candidates,.*/\1/p' <<<"$line")
                atoms=$(sed -n 's/^md_packing3d: \([0-9]*\) spheres.*/\1/p' <<<"$line")
                neighbours="$(awk -v c="$candidates" -v n="$atoms" 'BEGIN { printf "%.3f", c / n }') (+walls)"
            fi
            one=${ours_row[1]:-}
            if [[ ${cores[$r]} != 1 && -n $one ]]; then
                paired="x$(paired_ratio "${rates[$r]}" "${rates[$one]}")"
                bestratio=$(ratio_of "${bests[$r]}" "${bests[$one]}")
                [[ $bestratio == - ]] || bestratio=x$bestratio
            fi
        else
            if [[ -f $last ]]; then
                contacts=$(peer_contacts "$last")
                neighbours=$(peer_neighbours "$last")
            fi
            same=${ours_row[${cores[$r]}]:-}
            if [[ -n $same ]]; then
                paired=$(paired_ratio "${rates[$same]}" "${rates[$r]}")
                bestratio=$(ratio_of "${bests[$same]}" "${bests[$r]}")
            fi
        fi
        printf '%-28s %5s %11s %11s %8s %8s %18s %12s\n' "${names[$r]}" "${cores[$r]}" "${bests[$r]}" "${medians[$r]}" \
            "$paired" "$bestratio" "${contacts:--}" "${neighbours:--}"
    done
    # Each tool's own speed-up on NP cores over its one core, paired within the rounds.
    speedups=""
    for r in "${!names[@]}"; do
        [[ ${cores[$r]} == 1 ]] && continue
        for o in "${!names[@]}"; do
            if [[ ${names[$o]} == "${names[$r]}" && ${cores[$o]} == 1 ]]; then
                speedups+="${speedups:+, }${names[$r]} x$(paired_ratio "${rates[$r]}" "${rates[$o]}")"
            fi
        done
    done
    if [[ -n $speedups ]]; then
        echo "speed-up on $np cores over one, paired within the rounds: $speedups"
    fi
    echo "each round's rates, in the rows' order:"
    for r in "${!names[@]}"; do
        printf '  %-28s %5s  %s\n' "${names[$r]}" "${cores[$r]}" "${rates[$r]}"
    done
    echo "ours: contacts = mean over the 20 timed solver steps (grain pairs + walls); neigh/atom = candidates"
    echo "(grain pairs + grain-wall) per grain. peers: contacts at the first and last timed step; neigh/atom ="
    echo "half-list grain pairs per grain as printed (with MPI and newton off, pairs across domains count twice)."
    for line in ${skips[@]+"${skips[@]}"}; do echo "$line"; done
    echo "logs: $logdir"
} | tee "$results"
