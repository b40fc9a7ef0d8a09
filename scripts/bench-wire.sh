#!/usr/bin/env bash
# Bytes on the network interface for one release's header fetch, as the
# kernel counts them (/proc/net/dev: received + sent, every interface but
# the loopback), pip's answers included. Each run starts from an empty
# header cache and an empty pip cache, so nothing is served from disk.
# Other traffic on the machine during a run counts too, so each run waits
# for a quiet interface (less than QUIET bytes, default 20000, in 2 s) and
# is run again when the 2 s after it are not quiet.
#
# Usage: scripts/bench-wire.sh [RUNS] [LIB:RELEASE]...
#   default: 3 runs of cublas:13.4 and nvrtc:13.4
# CUSHIM names the binary (default: target/release/cushim, built first).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(cublas:13.4 nvrtc:13.4)
if [ -z "${CUSHIM:-}" ]; then
    cargo build --release --quiet
    CUSHIM="${CARGO_TARGET_DIR:-target}/release/cushim"
fi

# Received plus sent bytes of every interface but lo.
wire() { awk 'NR > 2 { sub(":", " "); if ($1 != "lo") n += $2 + $10 } END { printf "%.0f\n", n }' /proc/net/dev; }

QUIET=${QUIET:-20000}
# The bytes of one 2 s window.
window() { local a b; a=$(wire); sleep 2; b=$(wire); echo $((b - a)); }
# Waits (up to 10 minutes) for a quiet window.
wait_quiet() {
    local n
    for _ in $(seq 1 300); do
        n=$(window)
        [ "$n" -lt "$QUIET" ] && return 0
    done
    echo "the interface never went quiet (last 2 s: $n bytes)" >&2
    exit 1
}

printf '%-12s %4s %12s %8s  %s\n' job run wire-bytes seconds "cushim's own line"
for job in "${jobs[@]}"; do
    lib=${job%%:*} release=${job##*:}
    for run in $(seq 1 "$runs"); do
        while :; do
            wait_quiet
            scratch=$(mktemp -d)
            a=$(wire); t0=$(date +%s.%N)
            CUSHIM_CACHE_DIR="$scratch/cache" PIP_CACHE_DIR="$scratch/pip" \
                "$CUSHIM" fetch --lib "$lib" "$release" 2> "$scratch/err" > /dev/null
            b=$(wire); t1=$(date +%s.%N)
            after=$(window)
            line=$(grep -o 'fetched .*' "$scratch/err" | tail -1 || true)
            rm -rf "$scratch"
            [ "$after" -lt "$QUIET" ] && break
            echo "($job run $run: other traffic right after it, $after bytes in 2 s; again)" >&2
        done
        printf '%-12s %4s %12s %8.1f  %s\n' "$job" "$run" "$((b - a))" "$(echo "$t1 - $t0" | bc)" "$line"
    done
done
