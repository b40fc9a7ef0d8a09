#!/usr/bin/env bash
# The driver through the CUDA runtime's entry point on the GPU machine: a
# driver module generated with `--resolve runtime-entry-point` (CUDA 13.0),
# in Rust (gpu/entry) and C++ (gpu/entry.cpp), against the same C++ linked
# with -lcuda. cushim opens no libcuda: it finds cudart (the pip wheel above
# the program), and cudart hands out the driver's functions; the system
# loader's trace shows who opened libcuda.
#   bash scripts/gpu-entry.sh prepare   # here: builds target/gpu-entry
#   bash scripts/gpu-entry.sh           # there, with target/gpu-entry carried
set -uo pipefail
cd "$(dirname "$0")/.."
g=target/gpu-entry

if [ "${1:-}" = prepare ]; then
    set -e
    rm -rf "$g" && mkdir -p "$g/bin" "$g/gen" "$g/cache"
    cargo build --quiet --release
    ./target/release/cushim generate --cuda 13.0 --resolve runtime-entry-point --out "$g/gen" 2>/dev/null
    dir=$(./target/release/cushim fetch 13.0 | sed 's/^CUDA [^:]*: //')
    cp -r "$(dirname "$dir")" "$g/cache/"
    (cd gpu/entry && CUSHIM_ENTRY_DIR="$PWD/../../$g/gen" cargo build --quiet --release --offline --locked --target-dir ../../target/gpu-entry-build)
    cp target/gpu-entry-build/release/cushim-gpu-entry target/release/cushim "$g/bin/"
    strip "$g"/bin/*
    du -sh "$g"
    exit 0
fi

work=/tmp/cushim-entry
rm -rf "$work" && mkdir -p "$work"
chmod 700 "$g/cache"
export CUSHIM_CACHE_DIR="$PWD/$g/cache"
unset VIRTUAL_ENV CONDA_PREFIX CUDA_PATH CUDA_HOME CUSHIM_CUDA_LIBRARY CUSHIM_CUDART_LIBRARY
inc="-I$g/cache/cuda-13.0/include -Iheaders/foreign"
site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
prefix=$(python3 -c 'import sys; print(sys.prefix)')
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra -Werror $inc -I"$g/gen" gpu/entry.cpp "$g/gen/cuda_shim.cpp" "$g/gen/cushim_runtime.cpp" -ldl -pthread -o "$work/entry-cpp" || exit 1
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra -Werror $inc gpu/entry.cpp -L/usr/local/nvidia/lib64 -l:libcuda.so.1 -o "$work/entry-direct" || exit 1
echo "== NEEDED of the program through the stubs (no libcuda, no libcudart)"
readelf -d "$work/entry-cpp" | grep NEEDED
bin="$prefix/bin"
tools=("$g/bin/cushim-gpu-entry" "$work/entry-cpp" "$g/bin/cushim")
if ! cp "${tools[@]}" "$bin/" 2>/dev/null; then
    venv=$work/venv
    python3 -m venv --without-pip "$venv"
    vsite=$(ls -d "$venv"/lib/python3*/site-packages)
    mkdir -p "$vsite/nvidia/cu13"
    ln -s "$site/nvidia/cu13/lib" "$vsite/nvidia/cu13/lib"
    bin="$venv/bin"
    cp "${tools[@]}" "$bin/"
fi
status=0
clean() { env -i PATH=/usr/bin:/bin HOME="$HOME" LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" CUSHIM_CACHE_DIR="$CUSHIM_CACHE_DIR" "$@"; }
for p in "$bin/cushim-gpu-entry" "$bin/entry-cpp" "$work/entry-direct"; do
    echo "== $(basename "$p")"
    clean "$p" > "$work/$(basename "$p").out" 2> "$work/$(basename "$p").err" || status=1
    cat "$work/$(basename "$p").out" "$work/$(basename "$p").err"
done
for p in cushim-gpu-entry entry-cpp; do
    if [ -s "$work/$p.out" ] && cmp -s "$work/$p.out" "$work/entry-direct.out"; then
        echo "ok: $p through cudart's entry point equals the program linked with -lcuda"
    else
        echo "FAIL: $p differs"; status=1
    fi
done
echo "== the system loader's trace (LD_DEBUG=files): who opens libcuda and libcudart"
clean env LD_DEBUG=files "$bin/entry-cpp" 2>&1 | grep -E 'file=.*(libcuda\.so|libcudart)' | grep -E 'needed by|dynamically loaded by' | sed 's/^ *[0-9]*: *//'
echo "== first call (us) and steady call (ns) of cuDriverGetVersion, 3 runs each"
for p in "$bin/entry-cpp" "$work/entry-direct"; do
    echo "-- $(basename "$p")"
    for i in 1 2 3; do clean "$p" time || status=1; done
done
echo "== doctor --resolve runtime-entry-point --cuda 13.0"
clean "$bin/cushim" doctor --resolve runtime-entry-point --cuda 13.0 2>&1 | grep -v "^cu[A-Za-z0-9_]* .* missing\|^cu[A-Za-z0-9_]*  " | head -40
exit $status
