#!/usr/bin/env bash
# What a header fetch moves: each library's headers of CUDA 12.9 and 13.5
# (or every pinned release with --all) fetched into a fresh private cache,
# the ranged way, with the whole wheels' sizes beside; then cuBLAS, which
# cushim does not pin, measured the same way (--whole also downloads those
# wheels whole and compares the headers).
#
#   bash scripts/bench-fetch.sh [--all] [--whole]
set -euo pipefail
cd "$(dirname "$0")/.."
releases=(12.9 13.5)
whole=()
for a in "$@"; do
    case "$a" in
        --all) releases=(--all) ;;
        --whole) whole=(--whole) ;;
        *) echo "usage: $0 [--all] [--whole]" >&2; exit 2 ;;
    esac
done
cargo build --quiet --bin cushim --example pin_header_hashes
target="${CARGO_TARGET_DIR:-target}/debug"
cache="$(mktemp -d)"   # mode 700, as the cache must be
trap 'rm -rf "$cache"' EXIT
export CUSHIM_CACHE_DIR="$cache"
for lib in driver nvrtc nvml nvjitlink; do
    "$target/cushim" fetch --lib "$lib" "${releases[@]}" 2>&1 >/dev/null | grep -E '^cushim: (fetched|.*downloading the whole)'
done
cublas=(cublas_api.h cublas_v2.h cublas.h cublasLt.h cublasXt.h nvblas.h)
for spec in nvidia-cublas-cu12==12.9.2.10 nvidia-cublas==13.10.0.20; do
    "$target/examples/pin_header_hashes" --measure "$spec" "${cublas[@]}" "${whole[@]}" | grep -v '^  ranged\|^  whole'
done
