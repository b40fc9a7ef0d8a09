#!/usr/bin/env bash
# Builds here everything scripts/gpu-check.sh runs on the GPU machine (which
# has no Rust toolchain and no network) into target/gpu, to be carried there:
#   - cushim (for `doctor` and for generating from the machine's own header),
#   - the Rust check program, the call benchmark and the first-call binaries,
#   - the pinned 13.5 headers and the generated C++ pair.
# CUSHIM_GPU_INCLUDE may name a copy of the GPU machine's include directory.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/gpu
rm -rf "$out" && mkdir -p "$out/bin" "$out/cache" "$out/pair"

cargo build --quiet --release
(cd gpu && cargo build --quiet --release)
(cd benches/calls && cargo build --quiet --release)
(cd benches/first-call && cargo build --quiet --release)
cp target/release/cushim gpu/target/release/cushim-gpu-check benches/calls/target/release/cushim-bench-calls "$out/bin/"
cp benches/first-call/target/release/first-{direct,cushim,cudarc,dlopen} "$out/bin/"
strip "$out"/bin/*

include=$(./target/release/cushim fetch 13.5 | sed 's/^CUDA [^:]*: //')
cp -r "$(dirname "$include")" "$out/cache/"
./target/release/cushim generate --cuda 13.5 --lang cpp --out "$out/pair" 2>/dev/null
du -sh "$out"
