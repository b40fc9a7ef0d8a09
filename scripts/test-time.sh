#!/usr/bin/env bash
# Wall time of the README's test command (`cargo test --locked`) for two
# commits, in one run on this machine: each from a clean target directory
# once, then warm, alternating, three times. Prints one table.
#
#   scripts/test-time.sh BEFORE [AFTER]     (AFTER defaults to HEAD)
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: scripts/test-time.sh BEFORE [AFTER]}
after=${2:-HEAD}
work=$(mktemp -d "${TMPDIR:-/tmp}/cushim-test-time.XXXXXX")
trap 'git worktree remove --force "$work/before" >/dev/null 2>&1 || true;
      git worktree remove --force "$work/after" >/dev/null 2>&1 || true;
      rm -rf "$work"' EXIT

git worktree add --detach "$work/before" "$before" >/dev/null 2>&1
git worktree add --detach "$work/after" "$after" >/dev/null 2>&1

# seconds of one `cargo test --locked` in checkout $1; the log goes to $2.
run() {
    local start end
    start=$(date +%s.%N)
    (cd "$1" && env -u CARGO_TARGET_DIR cargo test --locked >"$2" 2>&1) || {
        echo "cargo test failed in $1; see $2" >&2
        tail -30 "$2" >&2
        exit 1
    }
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

declare -A t
t[before,clean]=$(run "$work/before" "$work/before.clean.log")
t[after,clean]=$(run "$work/after" "$work/after.clean.log")
for i in 1 2 3; do
    t[before,$i]=$(run "$work/before" "$work/before.$i.log")
    t[after,$i]=$(run "$work/after" "$work/after.$i.log")
done

printf '%-8s %-12s %10s %10s %10s %10s  %s\n' side commit "clean s" "warm 1" "warm 2" "warm 3" "tests"
for side in before after; do
    rev=$(git -C "$work/$side" rev-parse --short HEAD)
    tests=$(grep -Eo '^test result: ok\. [0-9]+ passed' "$work/$side.3.log" | awk '{s+=$4} END {print s}')
    printf '%-8s %-12s %10.1f %10.1f %10.1f %10.1f  %s passed\n' "$side" "$rev" \
        "${t[$side,clean]}" "${t[$side,1]}" "${t[$side,2]}" "${t[$side,3]}" "$tests"
done
