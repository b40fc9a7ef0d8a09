#!/usr/bin/env bash
# The family check on the GPU machine: NVRTC compiles a kernel, nvJitLink
# links it, the driver launches it, cuBLAS and cuBLASLt multiply 4096x4096
# matrices (the SGEMM checked bit for bit against the same C++ linked with
# -lcublas) and NVML reports the device, in Rust (gpu/family) and in C++
# (gpu/family.cpp), through cushim's modules for CUDA 13.0 only. The libraries are found as the shims find them: the pip
# wheels the machine's Python environment holds, with no variable naming them.
#   bash scripts/gpu-family.sh prepare   # here: builds target/gpu-family
#   bash scripts/gpu-family.sh           # there, with target/gpu-family carried
set -uo pipefail
cd "$(dirname "$0")/.."
g=target/gpu-family

if [ "${1:-}" = prepare ]; then
    set -e
    rm -rf "$g" && mkdir -p "$g/bin" "$g/gen" "$g/cache"
    cargo build --quiet --release
    for lib in driver nvrtc nvjitlink nvml cublas cublaslt; do
        ./target/release/cushim generate --lib "$lib" --cuda 13.0 --out "$g/gen" 2>/dev/null
        if [ "$lib" != driver ]; then ./target/release/cushim fetch --lib "$lib" 13.0 >/dev/null; fi
    done
    cache=$(./target/release/cushim fetch 13.0 | sed 's/^CUDA [^:]*: //')
    for entry in cuda-13.0 nvrtc-13.0 nvjitlink-13.0 nvml-13.0 cublas-13.0; do
        cp -r "$(dirname "$(dirname "$cache")")/$entry" "$g/cache/"
    done
    (cd gpu/family && CUSHIM_FAMILY_DIR="$PWD/../../$g/gen" cargo build --quiet --release --offline --locked --target-dir ../../target/gpu-family-build)
    cp target/gpu-family-build/release/cushim-gpu-family target/release/cushim "$g/bin/"
    strip "$g"/bin/*
    du -sh "$g"
    exit 0
fi

work=/tmp/cushim-family
rm -rf "$work" && mkdir -p "$work"
chmod 700 "$g/cache"
export CUSHIM_CACHE_DIR="$PWD/$g/cache"
unset VIRTUAL_ENV CONDA_PREFIX CUDA_PATH CUDA_HOME CUSHIM_NVRTC_LIBRARY CUSHIM_NVJITLINK_LIBRARY CUSHIM_NVML_LIBRARY CUSHIM_CUDA_LIBRARY
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total,temperature.gpu --format=csv,noheader
echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
python3 -m pip show nvidia-cuda-nvrtc nvidia-nvjitlink 2>/dev/null | grep -E '^(Name|Version|Location)'
site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
prefix=$(python3 -c 'import sys; print(sys.prefix)')
ls "$site/nvidia/cu13/lib" 2>/dev/null | grep -E 'nvrtc|nvJitLink' || ls -d "$site"/nvidia/*/lib

echo "== C++ build (no -lnvrtc, -lnvJitLink, -lcuda, -lnvidia-ml, -lcublas, -lcublasLt)"
inc=""
for entry in cuda-13.0 nvrtc-13.0 nvjitlink-13.0 nvml-13.0 cublas-13.0; do inc="$inc -I$g/cache/$entry/include"; done
inc="$inc -Iheaders/foreign"
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra -Werror $inc -I"$g/gen" gpu/family.cpp "$g"/gen/*_shim.cpp "$g/gen/cushim_runtime.cpp" -ldl -pthread -o "$work/family-cpp" || exit 1
readelf -d "$work/family-cpp" | grep NEEDED
libs="$site/nvidia/cu13/lib"
# The same source linked to the libraries themselves, for the SGEMM's bits.
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra -Werror -DFAMILY_DIRECT $inc gpu/family.cpp -L/usr/local/nvidia/lib64 -L"$libs" \
    -Wl,-rpath,"$libs" -l:libcuda.so.1 -l:libnvrtc.so.13 -l:libnvJitLink.so.13 -l:libnvidia-ml.so.1 -l:libcublas.so.13 -l:libcublasLt.so.13 \
    -o "$work/family-direct" || exit 1

# The programs live in the Python environment's bin directory, as a tool
# installed there does; the search walks up from the executable to its
# site-packages. Where that directory is read-only, a virtual environment of
# our own gets the same wheel files.
bin="$prefix/bin"
# cushim itself (for doctor) travels only when the carried tree has room for it.
tools=("$g/bin/cushim-gpu-family" "$work/family-cpp")
[ -x "$g/bin/cushim" ] && tools+=("$g/bin/cushim")
if ! cp "${tools[@]}" "$bin/" 2>/dev/null; then
    venv=$work/venv
    python3 -m venv --without-pip "$venv"
    vsite=$(ls -d "$venv"/lib/python3*/site-packages)
    mkdir -p "$vsite/nvidia/cu13/lib"
    cp -a "$site"/nvidia/cu13/lib/libnvrtc* "$site"/nvidia/cu13/lib/libnvJitLink* "$site"/nvidia/cu13/lib/libcublas* "$vsite/nvidia/cu13/lib/"
    bin="$venv/bin"
    cp "${tools[@]}" "$bin/"
    echo "(copied the wheel files into $venv: $bin is read-only)"
fi
echo "programs in $bin"

status=0
clean() { env -i PATH=/usr/bin:/bin HOME="$HOME" LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" CUSHIM_CACHE_DIR="$CUSHIM_CACHE_DIR" "$@"; }
echo "== Rust"
clean "$bin/cushim-gpu-family" || status=1
echo "== C++"
clean "$bin/family-cpp" | tee "$work/cpp.out" || status=1
echo "== C++ linked directly"
clean "$work/family-direct" | tee "$work/direct.out" || status=1
sum() { grep -o 'fnv1a=[0-9a-f]*' "$1"; }
if [ -n "$(sum "$work/cpp.out")" ] && [ "$(sum "$work/cpp.out")" = "$(sum "$work/direct.out")" ]; then
    echo "ok: the stubs' SGEMM equals -lcublas's bit for bit ($(sum "$work/cpp.out"))"
else
    echo "FAIL: SGEMM checksums differ: $(sum "$work/cpp.out") vs $(sum "$work/direct.out")"; status=1
fi
echo "== doctor"
if [ -x "$bin/cushim" ]; then
    clean "$bin/cushim" doctor --lib driver,nvrtc,nvjitlink,nvml,cublas,cublaslt --cuda 13.0 || status=1
else
    echo "(cushim was not carried: no doctor this run)"
fi
echo "== nvidia-smi"
nvidia-smi --query-gpu=name,memory.total,temperature.gpu --format=csv,noheader
exit $status
