#!/usr/bin/env bash
# The CPU-side benchmark suite, one run, one report (BENCHMARKS.md quotes it):
#   1. ns per call of every loader scheme against the fake driver (side by side);
#   2. instructions per call under callgrind (exact);
#   3. first-call latency in fresh processes;
#   4. generation time against bindgen's own parse of the same header;
#   5. clean release compile of a tiny crate using the 13.5 module vs cudarc.
# The C++ stubs have their own: scripts/bench-cpp.sh. The GPU rows come from
# scripts/gpu-check.sh on the H200.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-7}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

cargo build --quiet --release --bins --examples
(cd benches/calls && cargo build --quiet --release)
B=benches/calls/target/release/cushim-bench-calls
fake=$(ls -d benches/calls/target/release/build/cushim-bench-calls-*/out/fake | head -1)
export LD_LIBRARY_PATH="$PWD/$fake"
schemes="direct raw-static raw-pointer cushim-drop-in cushim-typed bindgen-style oncelock cudarc libloading-get"

echo "## 1. ns per call (fake driver, cuDriverGetVersion, one core)"
taskset -c 1 "$B" table 5000000
echo

echo "## 2. instructions per call (callgrind; includes the loop's own instructions)"
echo "| scheme | instr/call | over raw-static |"
echo "|---|---|---|"
raw=""
for s in $schemes; do
    a=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B" loop "$s" 100000 2>&1 | sed -n 's/.*Collected : //p')
    b=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B" loop "$s" 200000 2>&1 | sed -n 's/.*Collected : //p')
    per=$(( (b - a) / 100000 ))
    [ "$s" = raw-static ] && raw=$per
    echo "| $s | $per | $([ -n "$raw" ] && echo "+$((per - raw))" || echo "-") |"
done
echo

echo "## 3. first call, µs (median of $runs fresh processes; library load + first symbol)"
echo "| scheme | µs |"
echo "|---|---|"
for s in direct cushim-drop-in cushim-typed cushim-preload-all oncelock cudarc; do
    m=$(for _ in $(seq "$runs"); do "$B" first "$s"; done | median)
    echo "| $s | $m |"
done
echo

echo "## 4. generation time, s (median of $runs; CUDA 13.5, Rust and C++ output)"
inc=$(./target/release/cushim fetch 13.5 | sed 's/^CUDA [^:]*: //')
time_of() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo "scale=3; ($t1 - $t0) / 1000000000" | bc; }
gen=$(for _ in $(seq "$runs"); do time_of ./target/release/cushim generate --cuda 13.5 --out target/bench-gen; done | median)
bg=$(for _ in $(seq "$runs"); do time_of ./target/release/examples/bindgen_only "$inc"; done | median)
echo "| command | s |"
echo "|---|---|"
echo "| cushim generate --cuda 13.5 (rust,cpp) | $gen |"
echo "| bindgen alone, default settings, same header | $bg |"
echo "| ratio | $(echo "scale=2; $gen / $bg" | bc) |"
echo

echo "## 5. clean release build of a one-line binary (s)"
work=target/bench-compile
rm -rf "$work" && mkdir -p "$work/ours/src" "$work/cudarc/src"
cp generated/cuda-13.5/cuda.rs "$work/ours/src/cuda.rs"
cat >"$work/ours/Cargo.toml" <<TOML
[package]
name = "ours"
version = "0.0.0"
edition = "2021"
[dependencies]
libloading = "0.9"
[workspace]
TOML
cat >"$work/ours/src/main.rs" <<'RS'
mod cuda;
fn main() {
    let mut v = 0;
    println!("{:?}", unsafe { cuda::Api::cuDriverGetVersion(&mut v) });
}
RS
cat >"$work/cudarc/Cargo.toml" <<TOML
[package]
name = "theirs"
version = "0.0.0"
edition = "2021"
[dependencies]
cudarc = { version = "0.19", default-features = false, features = ["std", "driver", "dynamic-loading", "cuda-13000"] }
[workspace]
TOML
cat >"$work/cudarc/src/main.rs" <<'RS'
fn main() {
    let mut v = 0;
    println!("{:?}", unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut v) });
}
RS
(cd "$work/ours" && cargo fetch --quiet) && (cd "$work/cudarc" && cargo fetch --quiet)
ours=$(for _ in 1 2 3; do rm -rf "$work/ours/target"; (cd "$work/ours" && time_of cargo build --release --offline); done | median)
theirs=$(for _ in 1 2 3; do rm -rf "$work/cudarc/target"; (cd "$work/cudarc" && time_of cargo build --release --offline); done | median)
echo "| crate | s (median of 3) |"
echo "|---|---|"
echo "| generated 13.5 module (492 shims + bindgen types) + libloading | $ours |"
echo "| cudarc 0.19 driver::sys (cuda-13000, dynamic-loading) | $theirs |"
echo "| ratio | $(echo "scale=2; $ours / $theirs" | bc) |"
echo
echo "## 6. regenerate every pinned release (s, one run each, same headers)"
t0=$(date +%s%N)
./target/release/cushim generate --all --out target/bench-all >/dev/null 2>&1
t1=$(date +%s%N)
for v in $(grep -v '^#' headers/pins.txt | awk 'NF {print $1}'); do
    ./target/release/examples/bindgen_only "$(./target/release/cushim fetch "$v" | sed 's/^CUDA [^:]*: //')" >/dev/null
done
t2=$(date +%s%N)
echo "| command | s |"
echo "|---|---|"
echo "| cushim generate --all (16 releases, Rust and C++, plus the merged module) | $(echo "scale=2; ($t1 - $t0) / 1000000000" | bc) |"
echo "| bindgen alone on the same 16 headers | $(echo "scale=2; ($t2 - $t1) / 1000000000" | bc) |"
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -r)"
