#!/usr/bin/env bash
# Issue 12, item 4: why a global stream capture on one thread makes another
# thread's cuCtxSynchronize/cuStreamCreate fail (900) more often through the
# stubs than with -lcuda. gpu/race/race.cpp is built three ways (-lcuda, the
# committed 13.5 stubs, the stubs generated with --resolve dlsym) and run as
# variants, one fresh process per run, interleaved (VARIANTS, default the
# first four; the last two split shim-cold's first calls by thread):
#   direct             linked to -lcuda
#   shim-cold          the committed stubs; every function of the race resolves on its first call, inside the race
#   shim-warm          the stubs; cushim_cuda_resolve_all() before the threads start
#   dlsym-cold         the --resolve dlsym stubs, cold
#   shim-warm-capture  the stubs; only the capturing thread's functions resolved before
#   shim-warm-other    the stubs; only the other thread's functions resolved before
# Each process runs iteration 0 (cold) and WARM more iterations (warm in every variant).
#
# Here, once (needs a cushim binary built from the same commit):
#   CUSHIM=/path/to/cushim bash scripts/gpu-race.sh prepare [COMMIT]
#   copies the pinned 13.5 headers to target/race/include, the committed
#   generated/cuda-13.5 pair at COMMIT (default HEAD) to target/race/proc, and
#   generates the dlsym pair into target/race/dlsym (target/ is git-ignored),
#   so that edits in the working tree do not change what is measured.
# On the GPU machine, with target/race carried: bash scripts/gpu-race.sh [RUNS] [SECONDS]
#   RUNS     the most fresh processes per variant and repeat (default 100)
#   SECONDS  the time for the three repeats (default 270); a repeat stops at a
#            whole round (one process of every variant) when its third is used up
#   WARM     warm iterations per process (default 20)
#   SKEW     each iteration one thread starts up to SKEW µs after the other,
#            pseudo-random from the round's seed, the same in every variant
#            (default 150; 0 releases both threads together)
#   RACE_FAKE=1  a dry run against gpu/race/fake_cuda.cpp, for a machine without a GPU
# The log goes to $OUT/h200-race.log when OUT is set, with the raw lines beside it.
set -uo pipefail
cd "$(dirname "$0")/.."
r=target/race

if [ "${1:-}" = prepare ]; then
    : "${CUSHIM:?set CUSHIM to a cushim binary}"
    commit=$(git rev-parse "${2:-HEAD}")
    rm -rf "$r/include" "$r/proc" "$r/dlsym" && mkdir -p "$r/include" "$r/proc"
    cp "${CUSHIM_CACHE_DIR:-$HOME/.cache/cushim}/cuda-13.5/include/"{cuda.h,cudaTypedefs.h} "$r/include/"
    for f in cuda_shim.h cuda_shim.cpp cushim_runtime.h cushim_runtime.cpp; do
        # Commits before the runtime was compiled once carry no runtime files.
        git show "$commit:generated/cuda-13.5/$f" >"$r/proc/$f" 2>/dev/null || rm -f "$r/proc/$f"
    done
    "$CUSHIM" generate --cuda 13.5 --lang cpp --resolve dlsym --out "$r/dlsym"
    echo "$commit" >"$r/commit"
    exit
fi

runs=${1:-100}
seconds=${2:-270}
warm=${WARM:-20}
export SKEW=${SKEW:-150}
work=/tmp/cushim-race
rm -rf "$work" && mkdir -p "$work"
out=${OUT:-$work}
read -r -a variants <<<"${VARIANTS:-direct shim-cold shim-warm dlsym-cold}"
declare -A cmd=(
    [direct]="$work/race-direct race"
    [shim-cold]="$work/race-proc race"
    [shim-warm]="$work/race-proc race --prewarm all"
    [shim-warm-capture]="$work/race-proc race --prewarm capture"
    [shim-warm-other]="$work/race-proc race --prewarm other"
    [dlsym-cold]="$work/race-dlsym race"
)

build() {
    local cxx=(g++ -std=c++17 -O2 -Wall -Wextra -pthread -I"$r/include")
    # The driver's own libcuda.so first; the toolkit stub only to link against.
    local libs=(-L/usr/local/nvidia/lib64 -L/usr/lib/x86_64-linux-gnu -L/lib -L/usr/local/cuda/lib64/stubs)
    if [ "${RACE_FAKE:-0}" = 1 ]; then
        mkdir -p "$work/fake"
        "${cxx[@]}" -fPIC -shared gpu/race/fake_cuda.cpp -Wl,-soname,libcuda.so.1 -o "$work/fake/libcuda.so.1"
        ln -sf libcuda.so.1 "$work/fake/libcuda.so"
        libs=(-L"$work/fake")
        export LD_LIBRARY_PATH="$work/fake"
    fi
    "${cxx[@]}" gpu/race/race.cpp "${libs[@]}" -lcuda -ldl -o "$work/race-direct" &
    "${cxx[@]}" -DRACE_SHIM -I"$r/proc" gpu/race/race.cpp "$r/proc/cuda_shim.cpp" $(ls "$r/proc/cushim_runtime.cpp" 2>/dev/null) -ldl -o "$work/race-proc" &
    "${cxx[@]}" -DRACE_SHIM -I"$r/dlsym" gpu/race/race.cpp "$r/dlsym/cuda_shim.cpp" "$r/dlsym/cushim_runtime.cpp" -ldl -o "$work/race-dlsym" &
    g++ -std=c++17 -O2 gpu/race/summarize.cpp -o "$work/summarize" &
    wait
    for b in race-direct race-proc race-dlsym summarize; do
        [ -x "$work/$b" ] || { echo "build failed: $b"; exit 1; }
    done
    for b in race-direct race-proc race-dlsym; do
        echo "$b links: $(ldd "$work/$b" | awk '/libcuda/ {print $1}' | tr '\n' ' ')"
    done
}

# One round: one fresh process of every variant, the order rotated by $2,
# all with the same seed (so the same skews).
round() {
    local rep=$1 index=$2 n=${#variants[@]} k v
    for ((k = 0; k < n; k++)); do
        v=${variants[$(((index + k) % n))]}
        timeout 30 ${cmd[$v]} --warm "$warm" --skew "$SKEW" --seed $((rep * 100000 + index)) |
            sed "s/^/variant=$v repeat=$rep round=$index /"
    done
}

main() {
    nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader 2>&1
    echo "runs<=$runs per variant and repeat, $seconds s for 3 repeats, $warm warm iterations per process, skew ±$SKEW µs"
    echo "stubs: generated/cuda-13.5 at $(cat "$r/commit"); dlsym pair generated from the same commit"
    build

    echo
    echo "== probe: calls made while the main thread holds a global capture open (one capture per call)"
    for b in direct proc dlsym; do
        echo "-- race-$b"
        timeout 30 "$work/race-$b" probe
    done

    echo
    echo "== cost: 5 fresh processes per build"
    for i in 1 2 3 4 5; do
        for b in direct proc dlsym; do
            timeout 30 "$work/race-$b" cost | sed "s/^/variant=$b /"
        done
    done >"$work/cost.txt"
    "$work/summarize" <"$work/cost.txt"

    # One round alone decides how many lanes (concurrent processes, at most 3)
    # the repeats need to reach RUNS in their time.
    local t0 t1 share lanes
    t0=$(date +%s%N)
    round 0 0 >"$work/calibration.txt"
    t1=$(date +%s%N)
    share=$(((seconds - (t1 - t0) / 1000000000) / 3))
    lanes=$(awk -v ns=$((t1 - t0)) -v runs="$runs" -v share="$share" \
        'BEGIN { l = int(runs * ns / 1e9 / share) + 1; if (l > 3) l = 3; print l }')
    echo
    echo "== race: one round of ${#variants[@]} processes took $(((t1 - t0) / 1000000)) ms;" \
        "$lanes lane(s) of interleaved rounds, $share s per repeat"
    : >"$work/lines.txt"
    for rep in 1 2 3; do
        local deadline=$(($(date +%s) + share))
        for ((lane = 0; lane < lanes; lane++)); do
            (
                for ((i = lane; i < runs; i += lanes)); do
                    [ "$(date +%s)" -lt "$deadline" ] || break
                    round "$rep" "$i"
                done >"$work/lane-$rep-$lane.txt"
            ) &
        done
        wait
        cat "$work"/lane-"$rep"-*.txt >>"$work/lines.txt"
    done
    grep -v -e '^variant=[^ ]* repeat=[0-9]* round=[0-9]* it=' -e ' exitcrash ' -e ' aftercrash ' "$work/lines.txt" |
        sort | uniq -c | sed 's/^/unexpected: /'
    echo
    echo "crash frames (library+offset, innermost first), by where they happened:"
    grep -o 'crash.*frames=[^ ]*\|fails=[A-Z]*@[^ ]* crash=1 frames=[^ ]*' "$work/lines.txt" | sed 's/ signal=[A-Z]*//' |
        sort | uniq -c | sort -rn | head -20
    "$work/summarize" "${variants[@]}" <"$work/lines.txt"
    [ "$out" = "$work" ] || cp "$work/lines.txt" "$work/cost.txt" "$work/calibration.txt" "$out/"
}

main 2>&1 | tee "$out/h200-race.log"
