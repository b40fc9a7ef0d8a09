#!/usr/bin/env bash
# The cudart pair as nvcc's runtime (GPU machine with nvcc; no Rust needed).
# Builds each program of gpu/nvcc twice with nvcc, once against the
# real runtime (-cudart shared) and once against the pair (-cudart none plus
# cudart_shim.cpp and cushim_runtime.cpp), runs both, and prints a table:
#   - the __cuda* symbols each nvcc object leaves undefined (nm -u), and
#     those of them the pair does not define (must be none);
#   - whether both builds print the same output;
#   - the pair's build run without cudart (CUSHIM_CUDART_LIBRARY naming a
#     missing file): it must reach main and answer the typed error (303).
# vector_add is also built with relocatable device code (-rdc=true and a
# device link, whose stub registers the fat binary), and templated with the
# per-thread default stream (its launches call __cudaLaunchKernel_ptsz).
#
#   bash scripts/gpu-nvcc.sh PAIR_DIR [WORK_DIR]
#
# PAIR_DIR holds cudart_shim.{h,cpp} and cushim_runtime.{h,cpp} of the
# toolkit's release (generated/cuda-13.0 for nvcc 13.0). NVCC names nvcc
# (default: the one on PATH, else /usr/local/cuda/bin/nvcc); NVCC_ARCH the
# GPU architecture (default sm_90, the H100 and H200). Exits 1 if any row
# fails.
set -u
here=$(cd "$(dirname "$0")/../gpu/nvcc" && pwd)
pair=$(cd "${1:?usage: gpu-nvcc.sh PAIR_DIR [WORK_DIR]}" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cuda=$(cd "$(dirname "$nvcc")/.." && pwd)
arch=${NVCC_ARCH:-sm_90}
echo "nvcc: $("$nvcc" --version | grep -i release)"
echo "pair: $(sed -n 2p "$pair/cudart_shim.cpp" | cut -c1-40)"

g++ -std=c++17 -O2 -I"$pair" -I"$cuda/include" -c "$pair/cudart_shim.cpp" -o "$work/cudart_shim.o" || exit 1
g++ -std=c++17 -O2 -I"$pair" -c "$pair/cushim_runtime.cpp" -o "$work/cushim_runtime.o" || exit 1
nm --defined-only "$work/cudart_shim.o" | awk '$3 ~ /^__cuda/ {print $3}' | sort -u > "$work/defined.txt"
: > "$work/needed.txt"

# needed OBJECT...: the __cuda* symbols the objects leave undefined, those
# that one of them defines for another (the link stub's) left out.
needed() {
    comm -23 <(nm -u "$@" | awk '$2 ~ /^__cuda/ {print $2}' | sort -u) \
        <(nm --defined-only "$@" | awk '$3 ~ /^__cuda/ {print $3}' | sort -u)
}

# build NAME SOURCE [NVCC FLAGS...]: both builds of one program, and in
# NAME.needed the __cuda* symbols its objects leave undefined. With
# -rdc=true, a device link (nvcc -dlink) adds the object of nvcc's link stub.
build() {
    local name=$1 src=$2 objects
    shift 2
    "$nvcc" -arch="$arch" -O2 "$@" -c "$src" -o "$work/$name.o" || return 1
    objects=("$work/$name.o")
    if [[ " $* " != *" -rdc=true "* ]]; then
        needed "${objects[@]}" > "$work/$name.needed"
        "$nvcc" -arch="$arch" "$@" "${objects[@]}" -cudart shared -o "$work/$name.shared" || return 1
        "$nvcc" -arch="$arch" "$@" "${objects[@]}" -cudart none \
            "$work/cudart_shim.o" "$work/cushim_runtime.o" -ldl -o "$work/$name.none" || return 1
        return
    fi
    # Relocatable device code: the device link by hand, the host link by g++.
    "$nvcc" -arch="$arch" -dlink "$work/$name.o" -o "$work/$name.dlink.o" || return 1
    objects+=("$work/$name.dlink.o")
    needed "${objects[@]}" > "$work/$name.needed"
    g++ "${objects[@]}" -L"$cuda/lib64" -lcudart -o "$work/$name.shared" || return 1
    g++ "${objects[@]}" "$work/cudart_shim.o" "$work/cushim_runtime.o" -ldl -o "$work/$name.none" || return 1
}

fail=0
printf '\n%-20s %-8s %-10s %-9s %-9s %-6s %-11s %s\n' program needed 'pair lacks' 'shared rc' 'none rc' same 'libcudart?' 'without cudart'
for src in "$here"/*.cu rdc ptsz; do
    case $src in
    rdc) name=vector_add-rdc flags=(-rdc=true) src=$here/vector_add.cu ;;
    ptsz) name=templated-ptsz flags=(--default-stream per-thread) src=$here/templated.cu ;;
    *) name=$(basename "$src" .cu) flags=() ;;
    esac
    build "$name" "$src" "${flags[@]}" || { echo "$name: build failed"; fail=1; continue; }
    cat "$work/$name.needed" >> "$work/needed.txt"
    lacks=$(comm -23 "$work/$name.needed" "$work/defined.txt" | tr '\n' ' ')
    "$work/$name.shared" > "$work/$name.shared.txt" 2>&1
    rc_shared=$?
    "$work/$name.none" > "$work/$name.none.txt" 2>&1
    rc_none=$?
    if cmp -s "$work/$name.shared.txt" "$work/$name.none.txt"; then same=yes; else same=NO; fi
    if ldd "$work/$name.none" | grep -q libcudart; then linked=YES; else linked=no; fi
    CUSHIM_CUDART_LIBRARY=/nonexistent/libcudart.so.13 "$work/$name.none" > "$work/$name.absent.txt" 2>&1
    rc_absent=$?
    absent="rc $rc_absent: $(head -1 "$work/$name.absent.txt")"
    printf '%-20s %-8s %-10s %-9s %-9s %-6s %-11s %s\n' "$name" "$(wc -l < "$work/$name.needed")" "${lacks:-none}" \
        "$rc_shared" "$rc_none" "$same" "$linked" "$absent"
    if [ -n "$lacks" ] || [ "$rc_shared" != 0 ] || [ "$rc_none" != 0 ] || [ "$same" != yes ] \
        || [ "$linked" != no ] || [ "$rc_absent" != 0 ] \
        || ! grep -q '^first call: cudaErrorSharedObjectInitFailed (303)$' "$work/$name.absent.txt"; then
        fail=1
    fi
done

echo
echo "__cuda* symbols the objects need: $(sort -u "$work/needed.txt" | tr '\n' ' ')"
echo "defined by the pair and needed by none of them: $(comm -23 "$work/defined.txt" <(sort -u "$work/needed.txt") | tr '\n' ' ')"
for f in "$work"/*.shared.txt; do
    echo "--- $(basename "$f" .shared.txt) (-cudart shared):"
    cat "$f"
done
for f in "$work"/*.none.txt; do
    if ! cmp -s "$f" "${f%.none.txt}.shared.txt"; then
        echo "--- $(basename "$f" .none.txt) (-cudart none, differs):"
        cat "$f"
    fi
done
[ "$fail" = 0 ] && echo "ALL ROWS PASS" || echo "SOME ROWS FAIL"
exit "$fail"
