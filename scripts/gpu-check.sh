#!/usr/bin/env bash
# The real-GPU check, run on the GPU machine from the repository root with
# target/gpu (from scripts/gpu-prepare.sh) carried. It builds the C++ programs
# there, runs every check, and prints a table; the full log goes to
# $OUT/gpu-check.log when OUT is set.
set -uo pipefail
cd "$(dirname "$0")/.."
g=target/gpu
work=/tmp/cushim-gpu
rm -rf "$work" && mkdir -p "$work"
log=${OUT:-$work}/gpu-check.log
: >"$log"
export CUSHIM_CACHE_DIR="$PWD/$g/cache" LIBCLANG_PATH=${LIBCLANG_PATH:-/usr/lib/llvm-16/lib}
unset CUSHIM_CUDA_LIBRARY CUSHIM_PER_THREAD_DEFAULT_STREAM
stub_lib=/usr/local/cuda/lib64/stubs/libcuda.so
pinned_inc="$g/cache/cuda-13.5/include"
local_inc=/usr/local/cuda/include

results=()
check() {  # check NAME COMMAND...: runs it, keeps its output, records pass/fail
    local name=$1
    shift
    { echo "=== $name: $*"; } >>"$log"
    if "$@" >>"$log" 2>&1; then
        results+=("| $name | pass |")
    else
        results+=("| $name | FAIL |")
    fi
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$log" 2>&1

# The C++ pair from the machine's own header, generated here by cushim.
check "generate C++ pair from /usr/local/cuda/include" \
    "$g/bin/cushim" generate --cuda-path /usr/local/cuda --lang cpp,rust --out "$work/local-pair"
sha256sum "$local_inc/cuda.h" "$local_inc/cudaTypedefs.h" >>"$log"

# The kernel both programs load, as a C++ string for vector_add.cpp.
{ printf 'static const char *ptx = R"PTX('; cat gpu/vadd.ptx; printf ')PTX";\n'; } >"$work/vadd_ptx.h"
cxx() { g++ -std=c++17 -O2 -Wall -Wextra -Werror -I"$work" "$@" -ldl -pthread; }
check "g++ vector_add + pinned 13.5 pair" cxx -I"$pinned_inc" -I"$g/pair" gpu/vector_add.cpp "$g/pair/cuda_shim.cpp" "$g/pair/cushim_runtime.cpp" -o "$work/vadd-pinned"
check "g++ vector_add + local pair" cxx -I"$local_inc" -I"$work/local-pair" gpu/vector_add.cpp "$work/local-pair/cuda_shim.cpp" "$work/local-pair/cushim_runtime.cpp" -o "$work/vadd-local"
check "g++ vector_add (per-thread TU) + pinned pair" cxx -DCUDA_API_PER_THREAD_DEFAULT_STREAM -I"$pinned_inc" -I"$g/pair" gpu/vector_add.cpp "$g/pair/cuda_shim.cpp" "$g/pair/cushim_runtime.cpp" -o "$work/vadd-ptds"
check "g++ vector_add + pinned pair, linked mode (-DCUSHIM_CUDA_LINKED -lcuda)" cxx -DCUSHIM_CUDA_LINKED -I"$pinned_inc" -I"$g/pair" gpu/vector_add.cpp "$g/pair/cuda_shim.cpp" "$g/pair/cushim_runtime.cpp" -L/usr/local/nvidia/lib64 -L/lib -lcuda -o "$work/vadd-linked"
check "g++ call bench, direct -lcuda" g++ -std=c++17 -O2 -I"$local_inc" benches/cpp/call.cpp -L/usr/local/nvidia/lib64 -L/lib -lcuda -ldl -o "$work/call-direct"
check "g++ call bench, C++ stubs" cxx -I"$pinned_inc" -I"$g/pair" benches/cpp/call.cpp "$g/pair/cuda_shim.cpp" "$g/pair/cushim_runtime.cpp" -o "$work/call-stub"

R="$g/bin/cushim-gpu-check"
check "Rust run, pinned 13.5 module" "$R" run pinned
check "Rust run, local (13.0 header) module" "$R" run local
check "Rust run, per-thread (env)" env CUSHIM_PER_THREAD_DEFAULT_STREAM=1 "$R" run pinned
check "C++ run, pinned 13.5 pair" "$work/vadd-pinned" run
check "C++ run, local pair" "$work/vadd-local" run
check "C++ run, per-thread TU (_ptds/_ptsz exports)" "$work/vadd-ptds" run
check "C++ run, per-thread mode (env)" env CUSHIM_PER_THREAD_DEFAULT_STREAM=1 "$work/vadd-pinned" run
check "C++ run, linked mode: libcuda.so.1 NEEDED, no stubs" bash -c "readelf -d $work/vadd-linked | grep -q 'libcuda.so.1' && ! nm $work/vadd-linked | grep -q ' T cuInit' && $work/vadd-linked run"
check "Rust 13.5 module on this driver: too-old report" "$R" too-old
check "Rust stub library typed" env CUSHIM_CUDA_LIBRARY=$stub_lib "$R" stub
check "C++ stub library status" env CUSHIM_CUDA_LIBRARY=$stub_lib "$work/vadd-pinned" stub
check "audit 13.5 module, legacy" "$R" audit pinned
check "audit 13.5 module, per-thread" env CUSHIM_PER_THREAD_DEFAULT_STREAM=1 "$R" audit pinned
# OpenGL interop through headless EGL: the glvnd loaders come as .debs in .gl
# (see the device tool's notes), the vendor library is the driver's own.
if compgen -G ".gl/*.deb" >/dev/null; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
check "Rust GL buffer via headless EGL: register, map, fill, read back" "$R" gl
check "audit local module, legacy" "$R" audit local
check "audit local module, per-thread" env CUSHIM_PER_THREAD_DEFAULT_STREAM=1 "$R" audit local
check "doctor, pinned 13.5 header" "$g/bin/cushim" doctor --cuda 13.5
check "doctor, per-thread" "$g/bin/cushim" doctor --cuda 13.5 --stream per-thread
if env CUSHIM_CUDA_LIBRARY=$stub_lib "$g/bin/cushim" doctor --cuda 13.5 >>"$log" 2>&1; then
    results+=("| doctor refuses the stub | FAIL |")
else
    results+=("| doctor refuses the stub | pass |")
fi

# Benchmarks against the real driver.
{
    echo "=== call cost, real driver (Rust schemes)"
    taskset -c 2 "$g/bin/cushim-bench-calls" table 5000000
    echo "=== call cost, real driver (C++): ns direct, ns raw pointer"
    taskset -c 2 "$work/call-direct"
    echo "=== C++ stub: ns stub, ns raw pointer"
    taskset -c 2 "$work/call-stub"
    # First-call latency is measured by scripts/gpu-bench.sh, each scheme in
    # a process that does not link the driver; this binary links it.
} >>"$log" 2>&1

echo "| check | result |"
echo "|---|---|"
printf '%s\n' "${results[@]}"
echo
grep -E '^(driver |vector add|audit|13.5 module|first of them|stub detected|cuInit ->|library:|driver version:|header:|built with)' "$log" | sort | uniq -c | sed 's/^ *//'
echo
sed -n '/=== call cost, real driver (Rust schemes)/,$p' "$log"
