#!/usr/bin/env bash
# First-call and steady-call cost of each library through cushim's C++ stubs
# against direct linking, on the GPU machine (run after scripts/gpu-family.sh,
# whose build directory and environment it reuses):
#   bash scripts/bench-family.sh [RUNS per round, default 21] [ROUNDS, default 3]
# Both builds live in the Python environment's bin directory, so the stubs
# search as a user's program there does; the direct build has an rpath to the
# same wheel directory. Every run is a fresh process; rounds interleave the
# builds; each cell is median [min, max] over the runs.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-21}
rounds=${2:-3}
g=target/gpu-family
work=/tmp/cushim-family-bench
rm -rf "$work" && mkdir -p "$work"
site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
bin=$(python3 -c 'import sys; print(sys.prefix)')/bin
libs="$site/nvidia/cu13/lib"
inc=""
for entry in cuda-13.0 nvrtc-13.0 nvjitlink-13.0 nvml-13.0 cublas-13.0; do inc="$inc -I$g/cache/$entry/include"; done
inc="$inc -Iheaders/foreign"
declare -A stub=([nvrtc]=nvrtc [nvjitlink]=nvjitlink [nvml]=nvml [cublas]=cublas [cublaslt]=cublasLt)
declare -A soname=([nvrtc]=libnvrtc.so.13 [nvjitlink]=libnvJitLink.so.13 [nvml]=libnvidia-ml.so.1 [cublas]=libcublas.so.13 [cublaslt]=libcublasLt.so.13)
for l in "${!stub[@]}"; do
    define="-DWITH_$(echo "$l" | tr a-z A-Z)"
    # shellcheck disable=SC2086
    g++ -std=c++17 -O2 $inc "$define" -I"$g/gen" benches/cpp/family_bench.cpp "$g/gen/${stub[$l]}_shim.cpp" "$g/gen/cushim_runtime.cpp" \
        -ldl -pthread -o "$bin/family-bench-stubs-$l" || exit 1
    # shellcheck disable=SC2086
    g++ -std=c++17 -O2 $inc "$define" benches/cpp/family_bench.cpp -L/usr/local/nvidia/lib64 -L"$libs" \
        -Wl,-rpath,"$libs" "-l:${soname[$l]}" -o "$bin/family-bench-direct-$l" || exit 1
done
clean() { env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" "$@"; }
stats() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f [%.1f, %.1f]", m, a[1], a[NR]}'; }
for lib in nvrtc nvjitlink nvml cublas cublaslt; do
    for r in $(seq 1 "$rounds"); do
        for i in $(seq 1 "$runs"); do
            for build in direct stubs; do
                t0=$(date +%s%N)
                line=$(clean "$bin/family-bench-$build-$lib" first "$lib") || { echo "$build $lib: $line" >&2; exit 1; }
                t1=$(date +%s%N)
                echo "${line%% *}" >>"$work/$lib.$build.$r.first"
                awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f\n", ns / 1e6 }' >>"$work/$lib.$build.$r.proc"
            done
        done
        for build in direct stubs; do
            for i in 1 2 3; do
                line=$(clean "$bin/family-bench-$build-$lib" steady "$lib" 2000000) || exit 1
                echo "${line%% *}" >>"$work/$lib.$build.$r.steady"
            done
        done
    done
done
echo "C++ stubs against direct linking; $runs fresh processes a round, $rounds rounds; median [min, max]"
printf '| library | build | round | first call (µs) | whole process (ms) | steady call (ns) |\n|---|---|---|---|---|---|\n'
for lib in nvrtc nvjitlink nvml cublas cublaslt; do
    for build in direct stubs; do
        for r in $(seq 1 "$rounds"); do
            printf '| %s | %s | %s | %s | %s | %s |\n' "$lib" "$build" "$r" "$(stats <"$work/$lib.$build.$r.first")" \
                "$(stats <"$work/$lib.$build.$r.proc")" "$(stats <"$work/$lib.$build.$r.steady")"
        done
    done
done
