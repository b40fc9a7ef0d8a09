#!/usr/bin/env bash
# Torn output sets, as a user makes them: `generate` killed with SIGKILL at
# a random moment while it rewrites a directory with other options ("kill"),
# or while it writes a directory for the first time ("first"), and two
# `generate` runs with different options into one directory at once
# ("pair"). After
# each, the directory's files are sorted by the command their provenance
# line records, and `cushim check` must call every mixed or incomplete set
# stale (exit 3), and a whole set fresh (exit 0).
#
# Usage: scripts/torn-writes.sh [KILLS] [PAIRS]   (default 600 and 200;
# KILLS runs of each killed case)
# CUSHIM names the binary (default: target/release/cushim, built first).
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-600}
pairs=${2:-200}
if [ -z "${CUSHIM:-}" ]; then
    cargo build --release --quiet
    CUSHIM="${CARGO_TARGET_DIR:-target}/release/cushim"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wide=(generate --cuda 13.5)
narrow=(generate --cuda 13.5 --allow '^cuInit$')
# The set both commands write: three files that record their command, and
# the C++ runtime beside the pair, which records none.
files=(cuda.rs cuda_shim.h cuda_shim.cpp)
runtime=(cushim_runtime.h cushim_runtime.cpp)

# What the directory holds: "whole", "mixed" (files of two commands) or
# "incomplete" (a file of the set missing), by the files' own lines.
state() {
    local dir=$1 f commands=() n
    for f in "${files[@]}" "${runtime[@]}"; do
        [ -f "$dir/$f" ] || { echo incomplete; return; }
    done
    for f in "${files[@]}"; do
        commands+=("$(grep -m1 -o 'Regenerate with: .*' "$dir/$f")")
    done
    n=$(printf '%s\n' "${commands[@]}" | sort -u | wc -l)
    [ "$n" -eq 1 ] && echo whole || echo mixed
}

# check's verdict: fresh (0), stale (3) or other.
verdict() {
    local rc=0
    "$CUSHIM" check --dir "$1" > /dev/null 2>&1 || rc=$?
    case $rc in 0) echo fresh ;; 3) echo stale ;; *) echo "exit-$rc" ;; esac
}

declare -A seen
tally() { seen["$1 $2 -> $3"]=$(( ${seen["$1 $2 -> $3"]:-0} + 1 )); }

# The time the generate that is killed takes, for the kill's random moment.
t0=$(date +%s%N)
"$CUSHIM" "${narrow[@]}" --out "$work/timing" > /dev/null 2>&1
span=$(( ($(date +%s%N) - t0) / 1000 ))
echo "one generate (${narrow[*]}): $span us"

for i in $(seq 1 "$kills"); do
    dir="$work/kill-$i"
    "$CUSHIM" "${wide[@]}" --out "$dir" > /dev/null 2>&1
    "$CUSHIM" "${narrow[@]}" --out "$dir" > /dev/null 2>&1 &
    pid=$!
    # A random moment within the run (bash's sleep takes fractions).
    sleep "$(printf '0.%06d' $(( RANDOM * 32768 % (span + 1) )) )"
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    tally kill "$(state "$dir")" "$(verdict "$dir")"
    rm -rf "$dir"
done
# The first write into a directory, killed: part of a set, no other command.
for i in $(seq 1 "$kills"); do
    dir="$work/first-$i"
    "$CUSHIM" "${narrow[@]}" --out "$dir" > /dev/null 2>&1 &
    pid=$!
    sleep "$(printf '0.%06d' $(( RANDOM * 32768 % (span + 1) )) )"
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    if [ -d "$dir" ] && ls "$dir"/cuda* > /dev/null 2>&1; then
        tally first "$(state "$dir")" "$(verdict "$dir")"
    else
        tally first nothing-yet -
    fi
    rm -rf "$dir"
done
for i in $(seq 1 "$pairs"); do
    dir="$work/pair-$i"
    "$CUSHIM" "${wide[@]}" --out "$dir" > /dev/null 2>&1 &
    a=$!
    "$CUSHIM" "${narrow[@]}" --out "$dir" > /dev/null 2>&1 &
    b=$!
    wait "$a" "$b" || true
    tally pair "$(state "$dir")" "$(verdict "$dir")"
    rm -rf "$dir"
done
printf '%-5s %-10s    %-6s %s\n' case state check runs
for k in "${!seen[@]}"; do
    read -r what st arrow v <<< "$k"
    printf '%-5s %-10s -> %-6s %s\n' "$what" "$st" "$v" "${seen[$k]}"
done | sort
