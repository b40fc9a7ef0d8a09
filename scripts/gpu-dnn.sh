#!/usr/bin/env bash
# cuDNN, NCCL and cuFile on the GPU machine: a convolution forward and an all-reduce,
# a broadcast and an all-gather on one GPU, through cushim's modules for
# CUDA 13.0 in Rust (gpu/dnn) and in C++ (gpu/dnn.cpp), against the same C++
# linked directly (-lcudart -lcudnn -lnccl -lcupti; CUPTI's activity API
# records the convolution's kernels): every result's hash must be
# equal, bit for bit; cuFile's answers, and where its driver opens a read of
# a file into device memory, equal too. The libraries are found as the shims find them: the pip
# wheels of the machine's Python environment (nvidia/cudnn/lib,
# nvidia/nccl/lib), with no variable naming them. Then the first-call and
# steady-call costs per library, three runs each.
# cuTENSOR runs a contraction where the environment has it: the machine's
# has none, so its wheel may be carried in parts (target/ct-1/part, ...,
# in order), joined there and installed with pip, offline.
#   bash scripts/gpu-dnn.sh prepare   # here: builds target/gpu-dnn
#   bash scripts/gpu-dnn.sh           # there, with target/gpu-dnn carried
set -uo pipefail
cd "$(dirname "$0")/.."
g=target/gpu-dnn
libs="cudart cudnn nccl cupti nvtx cufile cutensor"

if [ "${1:-}" = prepare ]; then
    set -e
    rm -rf "$g" && mkdir -p "$g/bin" "$g/gen" "$g/cache"
    cargo build --quiet --release
    for lib in $libs; do
        ./target/release/cushim generate --lib "$lib" --cuda 13.0 --out "$g/gen" 2>/dev/null
        dir=$(./target/release/cushim fetch --lib "$lib" 13.0 | sed 's/^CUDA [^:]*: //')
        cp -r "$(dirname "$dir")" "$g/cache/"
    done
    (cd gpu/dnn && CUSHIM_DNN_DIR="$PWD/../../$g/gen" cargo build --quiet --release --offline --locked --target-dir ../../target/gpu-dnn-build)
    cp target/gpu-dnn-build/release/cushim-gpu-dnn target/release/cushim "$g/bin/"
    strip "$g"/bin/*
    du -sh "$g"
    exit 0
fi

work=/tmp/cushim-dnn
rm -rf "$work" && mkdir -p "$work"
chmod 700 "$g/cache"
export CUSHIM_CACHE_DIR="$PWD/$g/cache"
unset VIRTUAL_ENV CONDA_PREFIX CUDA_PATH CUDA_HOME
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -m pip list 2>/dev/null | grep -iE 'nvidia-(cuda-runtime|cudnn|nccl|cufile)'
site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
prefix=$(python3 -c 'import sys; print(sys.prefix)')
runtime="$site/nvidia/cu13/lib"
cudnn="$site/nvidia/cudnn/lib"
nccl="$site/nvidia/nccl/lib"
ls "$cudnn" "$nccl" | tr '\n' ' '; echo

status=0
# cuTENSOR's wheel, carried in parts: joined, and installed offline.
if ls target/ct-*/part >/dev/null 2>&1 && [ ! -f "$site/cutensor/lib/libcutensor.so.2" ]; then
    wheel="$work/cutensor_cu13-2.8.1-py3-none-manylinux2014_x86_64.whl"
    for part in $(ls -d target/ct-* | sort -t- -k2 -n); do cat "$part/part"; done > "$wheel"
    want=$(awk '$2 == "cutensor-cu13" && $3 == "2.8.1" {print $4; exit}' headers/pins-cutensor.txt)
    got=$(sha256sum "$wheel" | cut -d' ' -f1)
    if [ "$got" = "$want" ]; then
        echo "cuTENSOR wheel joined: sha256 $got, as pinned"
        python3 -m pip install -q --no-deps --no-index "$wheel" 2>&1 | tail -2
    else
        echo "FAIL: the joined wheel's sha256 $got is not the pinned $want"; status=1
    fi
fi
if [ -f "$site/cutensor/lib/libcutensor.so.2" ]; then have_tensor=1; else have_tensor=0; fi
echo "cuTENSOR in the environment: $have_tensor"

inc="-Iheaders/foreign"
for lib in $libs; do inc="$inc -I$g/cache/$lib-13.0/include"; done
echo "== C++ build through the stubs (no -lcudart, -lcudnn, -lnccl), with the pinned 13.0 headers"
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra -Werror $inc -I"$g/gen" gpu/dnn.cpp "$g"/gen/*_shim.cpp "$g/gen/cushim_runtime.cpp" -ldl -pthread -o "$work/dnn-cpp" || exit 1
readelf -d "$work/dnn-cpp" | grep NEEDED
echo "== C++ linked directly, with the machine's own headers"
direct_inc="-I$site/nvidia/cu13/include -I$site/nvidia/cudnn/include -I$site/nvidia/nccl/include -I/usr/local/cuda/include"
if [ "$have_tensor" = 1 ]; then
    tensor_direct="-I$site/cutensor/include -L$site/cutensor/lib -Wl,-rpath,$site/cutensor/lib -l:libcutensor.so.2"
else
    tensor_direct="-DNO_CUTENSOR"
fi
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra -Werror $direct_inc gpu/dnn.cpp \
    -L"$runtime" -L"$cudnn" -L"$nccl" -Wl,-rpath,"$runtime:$cudnn:$nccl" \
    -l:libcudart.so.13 -l:libcudnn.so.9 -l:libnccl.so.2 -l:libcupti.so.13 -l:libnvtx3interop.so.1 -l:libcufile.so.0 $tensor_direct -o "$work/dnn-direct" || exit 1

# The programs live in the Python environment's bin directory, as a tool
# installed there does; the search walks up from the executable to its
# site-packages (a virtual environment of our own where that is read-only).
bin="$prefix/bin"
tools=("$g/bin/cushim-gpu-dnn" "$work/dnn-cpp" "$g/bin/cushim")
if ! cp "${tools[@]}" "$bin/" 2>/dev/null; then
    venv=$work/venv
    python3 -m venv --without-pip "$venv"
    vsite=$(ls -d "$venv"/lib/python3*/site-packages)
    mkdir -p "$vsite/nvidia/cu13" "$vsite/nvidia/cudnn" "$vsite/nvidia/nccl"
    ln -s "$runtime" "$vsite/nvidia/cu13/lib"
    ln -s "$cudnn" "$vsite/nvidia/cudnn/lib"
    ln -s "$nccl" "$vsite/nvidia/nccl/lib"
    bin="$venv/bin"
    cp "${tools[@]}" "$bin/"
    echo "(a virtual environment of our own: $bin is read-only)"
fi
echo "programs in $bin"

clean() { env -i PATH=/usr/bin:/bin HOME="$HOME" LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" CUSHIM_CACHE_DIR="$CUSHIM_CACHE_DIR" NCCL_NVLS_ENABLE=0 "$@"; }
echo "== Rust through the stubs"
clean "$bin/cushim-gpu-dnn" > "$work/rust.out" || status=1
cat "$work/rust.out"
echo "== C++ through the stubs"
clean "$bin/dnn-cpp" > "$work/cpp.out" || status=1
cat "$work/cpp.out"
echo "== C++ linked directly"
clean "$work/dnn-direct" > "$work/direct.out" || status=1
cat "$work/direct.out"
for out in rust cpp; do
    if [ -s "$work/$out.out" ] && cmp -s "$work/$out.out" "$work/direct.out"; then
        echo "ok: $out through the stubs equals the program linked directly, bit for bit"
    else
        echo "FAIL: $out differs from the program linked directly"; status=1
    fi
done
echo "== CUPTI's activity API records the convolution's kernels"
for build in "$bin/cushim-gpu-dnn" "$bin/dnn-cpp" "$work/dnn-direct"; do
    clean "$build" trace > "$work/trace-$(basename "$build").out" || status=1
    echo "$(basename "$build"): $(cat "$work/trace-$(basename "$build").out")"
done
if cmp -s "$work/trace-cushim-gpu-dnn.out" "$work/trace-dnn-direct.out" && cmp -s "$work/trace-dnn-cpp.out" "$work/trace-dnn-direct.out" && grep -q 'kernels [1-9]' "$work/trace-dnn-direct.out"; then
    echo "ok: the same kernels recorded through the stubs (Rust, C++) as linked directly"
else
    echo "FAIL: the kernels recorded differ"; status=1
fi
echo "== NVTX range calls: with the library (the stubs find the wheel's libnvtx3interop.so.1), and without it"
for build in "$bin/cushim-gpu-dnn" "$bin/dnn-cpp" "$work/dnn-direct"; do
    echo "$(basename "$build"): $(clean "$build" nvtx)" | tee "$work/nvtx-$(basename "$build").out"
done
for build in "$bin/cushim-gpu-dnn" "$bin/dnn-cpp"; do
    echo "$(basename "$build") without NVTX (CUSHIM_NVTX_LIBRARY names no file): $(clean env CUSHIM_NVTX_LIBRARY=/nonexistent/libnvtx3interop.so.1 "$build" nvtx)" || status=1
done
if [ "$(cut -d: -f2 "$work/nvtx-cushim-gpu-dnn.out")" = "$(cut -d: -f2 "$work/nvtx-dnn-direct.out")" ] && [ "$(cut -d: -f2 "$work/nvtx-dnn-cpp.out")" = "$(cut -d: -f2 "$work/nvtx-dnn-direct.out")" ]; then
    echo "ok: NVTX answers through the stubs as linked directly"
else
    echo "FAIL: NVTX answers differ"; status=1
fi
echo "== cuFile: its version, cuFileDriverOpen, and a 1 MiB read into device memory where the driver opens"
for build in "$bin/cushim-gpu-dnn" "$bin/dnn-cpp" "$work/dnn-direct"; do
    (cd "$work" && clean "$build" file > "$work/file-$(basename "$build").out") || status=1
    echo "-- $(basename "$build")"; cat "$work/file-$(basename "$build").out"
done
if [ -s "$work/file-dnn-direct.out" ] && cmp -s "$work/file-cushim-gpu-dnn.out" "$work/file-dnn-direct.out" && cmp -s "$work/file-dnn-cpp.out" "$work/file-dnn-direct.out"; then
    echo "ok: cuFile answers through the stubs (Rust, C++) as linked directly"
else
    echo "FAIL: cuFile answers differ"; status=1
fi
echo "== cuTENSOR: a contraction, its compute descriptor the library's exported CUTENSOR_COMPUTE_DESC_32F"
if [ "$have_tensor" = 1 ]; then
    for build in "$bin/cushim-gpu-dnn" "$bin/dnn-cpp" "$work/dnn-direct"; do
        clean "$build" tensor > "$work/tensor-$(basename "$build").out" || status=1
        echo "$(basename "$build"): $(cat "$work/tensor-$(basename "$build").out")"
    done
    if [ -s "$work/tensor-dnn-direct.out" ] && cmp -s "$work/tensor-cushim-gpu-dnn.out" "$work/tensor-dnn-direct.out" && cmp -s "$work/tensor-dnn-cpp.out" "$work/tensor-dnn-direct.out"; then
        echo "ok: the contraction through the stubs (Rust, C++) equals the program linked with -lcutensor, bit for bit"
    else
        echo "FAIL: the contractions differ"; status=1
    fi
else
    echo "cuTENSOR is not in this environment (and no parts were carried): skipped"
fi
echo "== the system loader's trace (LD_DEBUG=files): cuDNN's graph library and sublibraries, loaded by path from its directory"
clean env LD_DEBUG=files "$bin/dnn-cpp" first cudnn 2>&1 | grep -E 'file=/.*cudnn' | sed 's/^ *[0-9]*: *//' | head -12

echo "== first call in a fresh process, wall ms (5 runs each: the middle three)"
printf '%-9s %-22s %-22s\n' library stubs direct
first_libs="cudnn nccl cufile cupti nvtx"
[ "$have_tensor" = 1 ] && first_libs="$first_libs cutensor"
for lib in $first_libs; do
    for build in "$bin/dnn-cpp" "$work/dnn-direct"; do
        for i in 1 2 3 4 5; do
            s=$(date +%s%N); clean "$build" first "$lib" >/dev/null || status=1; e=$(date +%s%N)
            echo $(( (e - s) / 1000 ))
        done | sort -n | sed -n '2p;3p;4p' | awk '{printf "%.1f ", $1/1000}' > "$work/t"
        eval "t_$(basename "$build" | tr - _)=\"\$(cat $work/t)\""
    done
    printf '%-9s %-22s %-22s\n' "$lib" "$t_dnn_cpp" "$t_dnn_direct"
done
echo "== first call in the process (us) and steady call (ns), 3 runs each"
for build in "$bin/dnn-cpp" "$work/dnn-direct"; do
    echo "-- $(basename "$build")"
    for i in 1 2 3; do clean "$build" time || status=1; done | sort
done
echo "== doctor --lib cudnn,nccl,cupti,cufile (--cuda 13.0)"
clean "$bin/cushim" doctor --lib cudnn,nccl,cupti,cufile --cuda 13.0 | head -120 || status=1
exit $status
