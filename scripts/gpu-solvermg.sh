#!/usr/bin/env bash
# cuSOLVERMg on the GPU machine: gpu/solvermg.cpp (an LU and a Cholesky solve
# on one device) built on cushim's CUDA 13.0 pair (cusolverMg_shim.cpp and
# cushim_runtime.cpp, no -lcusolverMg) and the same program linked directly
# with -lcusolverMg: both must print the same lines, every component of the
# solutions bit for bit (%a). cudart is linked directly in both; the stubs
# find cuSOLVERMg as they would for a user: no variable names it (the
# directory of the loaded cudart, a member of its family, is the pip
# wheel's). The machine needs gcc/g++, a driver and the cu13 wheels of
# cuSOLVER, cuBLAS, nvJitLink and the runtime in its Python environment.
#   bash scripts/gpu-solvermg.sh prepare DIR   # here: DIR gets what the run needs
#   bash DIR/gpu-solvermg.sh DIR               # there, with DIR carried
# DIR holds no NVIDIA header in the repository: its include/ is a copy of
# the header cache's (never commit it).
set -uo pipefail

if [ "${1:-}" = prepare ]; then
    set -e
    dir=${2:?usage: gpu-solvermg.sh prepare DIR}
    cd "$(dirname "$0")/.."
    rm -rf "$dir" && mkdir -p "$dir/gen"
    cargo build --quiet --release
    ./target/release/cushim generate --lib cusolvermg --cuda 13.0 --lang cpp --out "$dir/gen" 2>/dev/null
    include=$(./target/release/cushim fetch --lib cusolvermg 13.0 | sed 's/^CUDA [^:]*: //')
    cp -r "$include" "$dir/include"
    cp -r headers/foreign "$dir/foreign"
    cp gpu/solvermg.cpp scripts/gpu-solvermg.sh "$dir/"
    du -sh "$dir"
    exit 0
fi

dir=$(cd "${1:?usage: gpu-solvermg.sh DIR}" && pwd)
work=/tmp/cushim-solvermg
rm -rf "$work" && mkdir -p "$work"
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -m pip list 2>/dev/null | grep -iE 'nvidia-(cuda-runtime|cusolver|cublas|nvjitlink)'
site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
wheel="$site/nvidia/cu13/lib"
ls "$wheel" 2>/dev/null | grep -E 'cudart|cusolver|cublas|nvJitLink' | tr '\n' ' '; echo
if [ ! -e "$wheel/libcusolverMg.so.12" ]; then
    echo "FAIL: this machine has no $wheel/libcusolverMg.so.12"
    exit 2
fi

flags=(-std=c++17 -O2 -Wall -Wextra -Werror -I"$dir/include" -I"$dir/foreign")
link=(-L"$wheel" -Wl,-rpath,"$wheel" -l:libcudart.so.13)
echo "== built on the stubs (no -lcusolverMg)"
g++ "${flags[@]}" -DCUSHIM_STUBS -I"$dir/gen" "$dir/solvermg.cpp" "$dir/gen/cusolverMg_shim.cpp" \
    "$dir/gen/cushim_runtime.cpp" "${link[@]}" -ldl -pthread -o "$work/stubs" || exit 1
readelf -d "$work/stubs" | grep NEEDED
if readelf -d "$work/stubs" | grep -q cusolverMg; then echo "FAIL: the stubs' program needs libcusolverMg"; exit 1; fi
echo "== linked directly (-lcusolverMg)"
g++ "${flags[@]}" "$dir/solvermg.cpp" "${link[@]}" -l:libcusolverMg.so.12 -o "$work/direct" || exit 1

clean() { env -i PATH=/usr/bin:/bin HOME="$HOME" "$@"; }
status=0
for build in stubs direct; do
    echo "== $build"
    clean "$work/$build" > "$work/$build.out" 2> "$work/$build.err" || status=1
    cat "$work/$build.out" "$work/$build.err"
done
if [ -s "$work/stubs.out" ] && cmp -s "$work/stubs.out" "$work/direct.out"; then
    echo "ok: the program on the stubs prints what the program linked directly prints"
else
    echo "FAIL: the two programs differ"; diff "$work/stubs.out" "$work/direct.out"; status=1
fi
echo "== the system loader's trace (LD_DEBUG=files): the stubs load cuSOLVERMg's dependencies first, by path"
clean env LD_DEBUG=files "$work/stubs" 2>&1 | grep -E 'file=/.*(cusolverMg|cublas|nvJitLink)' \
    | sed 's/^ *[0-9]*: *//' | head -8
exit $status
