#!/usr/bin/env bash
# The math libraries on the GPU machine: cudart, cuFFT, cuRAND, cuSPARSE and
# cuSOLVER through cushim's modules for CUDA 13.0, in Rust (gpu/math) and in
# C++ (gpu/math.cpp), against the same C++ linked directly (-lcudart -lcufft
# -lcurand -lcusparse -lcusolver): every result's hash must be equal, bit for
# bit. The libraries are found as the shims find them: the pip wheels of the
# machine's Python environment, with no variable naming them. Then the
# first-call and steady-call costs per library, three runs each.
#   bash scripts/gpu-math.sh prepare   # here: builds target/gpu-math
#   bash scripts/gpu-math.sh           # there, with target/gpu-math carried
set -uo pipefail
cd "$(dirname "$0")/.."
g=target/gpu-math
libs="cudart cufft curand cusparse cusolver"

if [ "${1:-}" = prepare ]; then
    set -e
    rm -rf "$g" && mkdir -p "$g/bin" "$g/gen" "$g/cache"
    cargo build --quiet --release
    for lib in $libs; do
        ./target/release/cushim generate --lib "$lib" --cuda 13.0 --out "$g/gen" 2>/dev/null
        dir=$(./target/release/cushim fetch --lib "$lib" 13.0 | sed 's/^CUDA [^:]*: //')
        cp -r "$(dirname "$dir")" "$g/cache/"
    done
    (cd gpu/math && CUSHIM_MATH_DIR="$PWD/../../$g/gen" cargo build --quiet --release --offline --locked --target-dir ../../target/gpu-math-build)
    cp target/gpu-math-build/release/cushim-gpu-math target/release/cushim "$g/bin/"
    strip "$g"/bin/*
    du -sh "$g"
    exit 0
fi

work=/tmp/cushim-math
rm -rf "$work" && mkdir -p "$work"
chmod 700 "$g/cache"
export CUSHIM_CACHE_DIR="$PWD/$g/cache"
unset VIRTUAL_ENV CONDA_PREFIX CUDA_PATH CUDA_HOME
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -m pip list 2>/dev/null | grep -iE 'nvidia-(cuda-runtime|cufft|curand|cusparse|cusolver|cublas|nvjitlink)'
site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
prefix=$(python3 -c 'import sys; print(sys.prefix)')
wheel="$site/nvidia/cu13/lib"
ls "$wheel" | grep -E 'cudart|cufft|curand|cusparse|cusolver' | tr '\n' ' '; echo

inc="-Iheaders/foreign"
for lib in $libs; do inc="$inc -I$g/cache/$lib-13.0/include"; done
echo "== C++ build through the stubs (no -lcudart, -lcufft, -lcurand, -lcusparse, -lcusolver)"
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra -Werror $inc -I"$g/gen" gpu/math.cpp "$g"/gen/*_shim.cpp "$g/gen/cushim_runtime.cpp" -ldl -pthread -o "$work/math-cpp" || exit 1
readelf -d "$work/math-cpp" | grep NEEDED
echo "== C++ linked directly"
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra -Werror $inc gpu/math.cpp -L"$wheel" -Wl,-rpath,"$wheel" \
    -l:libcudart.so.13 -l:libcufft.so.12 -l:libcurand.so.10 -l:libcusparse.so.12 -l:libcusolver.so.12 \
    -o "$work/math-direct" || exit 1

# The programs live in the Python environment's bin directory, as a tool
# installed there does; the search walks up from the executable to its
# site-packages (a virtual environment of our own where that is read-only).
bin="$prefix/bin"
tools=("$g/bin/cushim-gpu-math" "$work/math-cpp" "$g/bin/cushim")
if ! cp "${tools[@]}" "$bin/" 2>/dev/null; then
    venv=$work/venv
    python3 -m venv --without-pip "$venv"
    vsite=$(ls -d "$venv"/lib/python3*/site-packages)
    mkdir -p "$vsite/nvidia/cu13"
    ln -s "$wheel" "$vsite/nvidia/cu13/lib"
    bin="$venv/bin"
    cp "${tools[@]}" "$bin/"
    echo "(a virtual environment of our own: $bin is read-only)"
fi
echo "programs in $bin"

status=0
clean() { env -i PATH=/usr/bin:/bin HOME="$HOME" LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" CUSHIM_CACHE_DIR="$CUSHIM_CACHE_DIR" "$@"; }
echo "== Rust through the stubs"
clean "$bin/cushim-gpu-math" > "$work/rust.out" || status=1
cat "$work/rust.out"
echo "== C++ through the stubs"
clean "$bin/math-cpp" > "$work/cpp.out" || status=1
cat "$work/cpp.out"
echo "== C++ linked directly"
clean "$work/math-direct" > "$work/direct.out" || status=1
cat "$work/direct.out"
for out in rust cpp; do
    if [ -s "$work/$out.out" ] && cmp -s "$work/$out.out" "$work/direct.out"; then
        echo "ok: $out through the stubs equals the program linked directly, bit for bit"
    else
        echo "FAIL: $out differs from the program linked directly"; status=1
    fi
done
echo "== the system loader's trace (LD_DEBUG=files): cuSOLVER's stub loads its dependencies first, by path"
clean env LD_DEBUG=files "$bin/math-cpp" first cusolver 2>&1 | grep -E 'file=/.*(cusolver|cusparse|cublas|nvJitLink)' | sed 's/^ *[0-9]*: *//' | head -12

echo "== first call in a fresh process, wall ms (3 runs each: min med max)"
printf '%-9s %-22s %-22s\n' library stubs direct
for lib in $libs; do
    for build in "$bin/math-cpp" "$work/math-direct"; do
        for i in 1 2 3 4 5; do
            s=$(date +%s%N); clean "$build" first "$lib" >/dev/null || status=1; e=$(date +%s%N)
            echo $(( (e - s) / 1000 ))
        done | sort -n | sed -n '2p;3p;4p' | awk '{printf "%.1f ", $1/1000}' > "$work/t"
        eval "t_$(basename "$build" | tr - _)=\"\$(cat $work/t)\""
    done
    printf '%-9s %-22s %-22s\n' "$lib" "$t_math_cpp" "$t_math_direct"
done
echo "== first call in the process (us) and steady call (ns), 3 runs each"
for build in "$bin/math-cpp" "$work/math-direct"; do
    echo "-- $(basename "$build")"
    for i in 1 2 3; do clean "$build" time || status=1; done | sort
done
echo "== doctor --lib $libs (--cuda 13.0)"
clean "$bin/cushim" doctor --lib cudart,cufft,curand,cusparse,cusolver --cuda 13.0 || status=1
exit $status
