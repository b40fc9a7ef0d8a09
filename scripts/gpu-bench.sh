#!/usr/bin/env bash
# The benchmarks on the GPU machine, from the repository root with target/gpu
# (scripts/gpu-prepare.sh) carried: the first-call table (each scheme in its
# own process; C++ stubs built here) and the per-call table three times, all
# in one run. The log goes to $OUT/gpu-bench.log when OUT is set.
set -euo pipefail
cd "$(dirname "$0")/.."
g=target/gpu
work=/tmp/cushim-gpu-bench
rm -rf "$work" && mkdir -p "$work"
log=${OUT:-$work}/gpu-bench.log
unset CUSHIM_CUDA_LIBRARY CUSHIM_PER_THREAD_DEFAULT_STREAM
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  g++ -std=c++17 -O2 -I"$g/cache/cuda-13.5/include" -I"$g/pair" benches/cpp/first.cpp "$g/pair/cuda_shim.cpp" "$g/pair/cushim_runtime.cpp" \
      -ldl -pthread -o "$work/first-cpp"
  BIN_DIR="$g/bin" CPP_FIRST="$work/first-cpp" bash scripts/first-call.sh 21 3
  for r in 1 2 3; do
    echo
    echo "per-call table, repetition $r:"
    taskset -c 2 "$g/bin/cushim-bench-calls" table 5000000
  done
} 2>&1 | tee "$log"
