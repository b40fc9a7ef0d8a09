#!/usr/bin/env bash
# First-call latency of each lazy scheme, each in its own fresh process that
# has not loaded the driver (only `direct` links it, so ld.so maps it before
# main). Two numbers per run: the first call inside the process (µs) and the
# whole process, exec to exit (ms), which is the fair comparison with
# direct linking. Rounds are interleaved; each prints median, min and max.
# Usage: scripts/first-call.sh [RUNS per round, default 21] [ROUNDS, default 3]
# BIN_DIR: where the first-* binaries are (default: benches/first-call/target/release).
# CPP_FIRST: an optional C++ program (the stubs' first call) to run as `cpp-stubs`.
set -euo pipefail
runs=${1:-21}
rounds=${2:-3}
bin=${BIN_DIR:-$(cd "$(dirname "$0")/.." && pwd)/benches/first-call/target/release}
schemes=(direct cushim cudarc dlopen)
declare -A prog
for s in "${schemes[@]}"; do prog[$s]="$bin/first-$s"; done
if [ -n "${CPP_FIRST:-}" ]; then schemes+=(cpp-stubs); prog[cpp-stubs]=$CPP_FIRST; fi

stats() { # numbers on stdin -> "median min max"
  sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f %.1f %.1f", m, a[1], a[NR]}'
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for r in $(seq 1 "$rounds"); do
  for i in $(seq 1 "$runs"); do
    for s in "${schemes[@]}"; do
      t0=$(date +%s%N)
      line=$("${prog[$s]}")
      t1=$(date +%s%N)
      set -- $line
      [ "$2" = 0 ] || { echo "$s: the first call failed: $line" >&2; exit 1; }
      echo "$1" >>"$work/$s.$r.in"
      awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f\n", ns / 1e6 }' >>"$work/$s.$r.proc"
    done
  done
done

echo "first call, $runs fresh processes per round, $rounds rounds interleaved"
printf '%-10s %-7s %28s %28s\n' scheme round "in process µs (med min max)" "whole process ms (med min max)"
for s in "${schemes[@]}"; do
  for r in $(seq 1 "$rounds"); do
    printf '%-10s %-7s %28s %28s\n' "$s" "$r" "$(stats <"$work/$s.$r.in")" "$(stats <"$work/$s.$r.proc")"
  done
done
