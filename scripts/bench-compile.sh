#!/usr/bin/env bash
# What the generated code costs to compile, per library, for the newest
# release (13.5), side by side in one run with the anchors:
#   - C++: each committed pair at -O0 and -O2 (user CPU, object size; its
#     stubs in assembly, as on x86-64 ELF, which reads no header of a library
#     whose stubs are all assembly; at -O2 also with the headers read to check
#     the signatures, CUSHIM_CHECK_SIGNATURES, and as C++ stubs, as on other
#     platforms or with CUSHIM_NO_ASM_STUBS), the
#     runtime beside them (compiled once per program), and the floor: a file
#     that only includes the library's header (what any user of the library
#     pays to parse it);
#   - Rust: a crate that includes the library's module (the cushim-runtime
#     crate prebuilt, as a dependency is), against a crate that holds
#     cudarc's `sys` module of the same library for CUDA 13.0 (the newest it
#     has), taken from cargo's registry cache at run time; each a clean
#     rebuild of that one crate (`cargo clean -p`, then `cargo build`, dev
#     profile, no incremental compilation).
# Each figure is the median of REPS runs, with [min, max].
#   bash scripts/bench-compile.sh [REPS] [cpp]     (default 3; `cpp`: the C++ table alone)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
only=${2:-}
root=$PWD
work=$root/target/bench-compile
rm -rf "$work" && mkdir -p "$work"
gen=$root/generated/cuda-13.5
cargo build --quiet --release
cushim=$root/target/release/cushim

cudarc=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/cudarc-0.19.* 2>/dev/null | sort | tail -1 || true)
if [ -z "$cudarc" ]; then
    (cd benches/calls && cargo fetch --quiet)
    cudarc=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/cudarc-0.19.* | sort | tail -1)
fi

# user CPU seconds of a command, its output dropped
cpu() { /usr/bin/time -f %U "$@" 2>&1 >/dev/null | tail -1; }
stats() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f [%.2f, %.2f]", m, a[1], a[NR]}'; }
repeat() { for _ in $(seq "$reps"); do cpu "$@"; done | stats; }

declare -A stem=([driver]=cuda [nvrtc]=nvrtc [nvjitlink]=nvjitlink [nvml]=nvml [cublas]=cublas [cublaslt]=cublasLt)
declare -A header=([driver]=cuda.h [nvrtc]=nvrtc.h [nvjitlink]=nvJitLink.h [nvml]=nvml.h [cublas]=cublas_v2.h [cublaslt]=cublasLt.h)
declare -A anchor=([driver]=driver [nvrtc]=nvrtc [cublas]=cublas [cublaslt]=cublaslt)
libs=(driver nvrtc nvjitlink nvml cublas cublaslt)

inc_of() {
    local lib=$1
    if [ "$lib" = driver ]; then "$cushim" fetch 13.5; else "$cushim" fetch --lib "$lib" 13.5; fi | sed 's/^CUDA [^:]*: //'
}

echo "# Compile cost of the generated code, CUDA 13.5 ($reps runs each: median [min, max])"
echo
echo "## C++ (g++ -std=c++17 -c; user CPU s)"
echo
echo "| library | stubs (assembly) | pair -O0 | pair -O2 | object -O2 (bytes) | pair -O2, headers read (CUSHIM_CHECK_SIGNATURES) | pair -O2, C++ stubs (CUSHIM_NO_ASM_STUBS) | floor: the header alone -O2 |"
echo "|---|---|---|---|---|---|---|---|"
for lib in "${libs[@]}"; do
    s=${stem[$lib]}
    inc=$(inc_of "$lib")
    flags=(-std=c++17 -I"$inc" -I"$root/headers/foreign" -I"$gen")
    n=$(grep -c '^CUSHIM_\(FAST_\)\?STUB(' "$gen/${s}_shim.cpp" || true)
    fast=$(grep -c '^CUSHIM_FAST_STUB(' "$gen/${s}_shim.cpp" || true)
    o0=$(repeat g++ "${flags[@]}" -O0 -c "$gen/${s}_shim.cpp" -o "$work/$s-O0.o")
    o2=$(repeat g++ "${flags[@]}" -O2 -c "$gen/${s}_shim.cpp" -o "$work/$s-O2.o")
    size=$(stat -c %s "$work/$s-O2.o")
    checked=$(repeat g++ "${flags[@]}" -O2 -DCUSHIM_CHECK_SIGNATURES -c "$gen/${s}_shim.cpp" -o "$work/$s-checked.o")
    cxx=$(repeat g++ "${flags[@]}" -O2 -DCUSHIM_NO_ASM_STUBS -c "$gen/${s}_shim.cpp" -o "$work/$s-cxx.o")
    printf '#include <%s>\nint cushim_floor;\n' "${header[$lib]}" >"$work/floor-$s.cpp"
    floor=$(repeat g++ "${flags[@]}" -O2 -c "$work/floor-$s.cpp" -o "$work/floor-$s.o")
    echo "| $lib | $n ($fast) | $o0 | $o2 | $size | $checked | $cxx | $floor |"
done
rt=$(repeat g++ -std=c++17 -O2 -I"$gen" -c "$gen/cushim_runtime.cpp" -o "$work/runtime.o")
echo "| the runtime (once per program) | | | $rt | $(stat -c %s "$work/runtime.o") | | | |"
# The issue's bar: cuBLAS's pair against NVRTC's at -O2, two runs each, interleaved.
for i in 1 2; do
    for s in cublas nvrtc; do
        lib=$s
        printf '%s %s\n' "$s" "$(cpu g++ -std=c++17 -I"$(inc_of "$lib")" -I"$root/headers/foreign" -I"$gen" -O2 -c "$gen/${s}_shim.cpp" -o "$work/$s-bar.o")"
    done
done | awk '{t[$1]+=$2} END {printf "\ncuBLAS pair / NVRTC pair at -O2 (two runs each): %.2f / %.2f = %.1fx\n", t["cublas"]/2, t["nvrtc"]/2, t["cublas"]/t["nvrtc"]}'
echo
[ "$only" = cpp ] && exit 0

# A crate of one module, with its dependencies prebuilt.
crate() {  # crate DIR DEPENDENCIES FEATURES LIB_RS
    mkdir -p "$1/src"
    printf '[package]\nname = "bench-%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n%s\n[features]\n%s\n[workspace]\n' \
        "$(basename "$1")" "$2" "$3" >"$1/Cargo.toml"
    printf '%s\n' "$4" >"$1/src/lib.rs"
    (cd "$1" && CARGO_TARGET_DIR="$work/target" cargo build --quiet 2>/dev/null)
}
# A clean rebuild of the one crate, without incremental reuse.
rebuild() {
    (cd "$1" && CARGO_TARGET_DIR="$work/target" cargo clean --quiet -p "bench-$(basename "$1")" &&
        CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0 cpu cargo build --quiet)
}
repeat_rebuild() { for _ in $(seq "$reps"); do rebuild "$1"; done | stats; }

allow='#![allow(warnings, clippy::all)]'
# cudarc's sys modules call two helpers of their crate root; these stand in.
helpers='pub fn get_lib_name_candidates(name: &str) -> Vec<String> { vec![format!("lib{name}.so")] }
pub fn panic_no_lib_found<S: std::fmt::Debug>(name: &str, choices: &[S]) -> ! { panic!("{name}: {choices:?}") }'

echo
echo "## Rust (one crate holding the module, dev profile; user CPU s of its rebuild)"
echo
echo "| library | cushim module | cudarc 0.19 sys (cuda-13000) | cushim / cudarc |"
echo "|---|---|---|---|"
for lib in "${libs[@]}"; do
    s=${stem[$lib]}
    d=$work/ours-$lib
    crate "$d" "libloading = \"0.9\"
cushim-runtime = { path = \"$root/cushim-runtime\" }" "" "$allow
pub mod m { include!(\"$gen/$s.rs\"); }"
    ours=$(repeat_rebuild "$d")
    if [ -n "${anchor[$lib]:-}" ]; then
        a=$work/cudarc-$lib
        crate "$a" 'libloading = "0.9"' 'cuda-13000 = []
dynamic-loading = []
no-std = []
default = ["cuda-13000", "dynamic-loading"]' "$allow
#[path = \"$cudarc/src/${anchor[$lib]}/sys/mod.rs\"]
pub mod sys;
$helpers"
        theirs=$(repeat_rebuild "$a")
        ratio=$(awk -v a="${ours%% *}" -v b="${theirs%% *}" 'BEGIN {printf "%.2f", a / b}')
    else
        theirs="(cudarc has none)"
        ratio=""
    fi
    echo "| $lib | $ours | $theirs | $ratio |"
done
rtcrate=$work/runtime-alone
crate "$rtcrate" "cushim-runtime = { path = \"$root/cushim-runtime\" }" "" "$allow
pub use cushim_runtime::Library;"
(cd "$rtcrate" && CARGO_TARGET_DIR="$work/target" cargo clean --quiet -p cushim-runtime)
rt=$( (cd "$rtcrate" && CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0 cpu cargo build --quiet -p cushim-runtime) )
echo "| the cushim-runtime crate (once per program) | $rt (one run) | | |"
