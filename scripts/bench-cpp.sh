#!/usr/bin/env bash
# What the C++ pair costs: compile time and object size of the stubs for the
# full header, and the per-call cost against a direct call into the fake
# driver, all in one run. Prints a table.
#
#   scripts/bench-cpp.sh [CUDA version, default 13.5]
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-13.5}
work=target/bench-cpp
rm -rf "$work" && mkdir -p "$work/fake"

cargo build --quiet --release
include=$(./target/release/cushim fetch "$version" | sed 's/^CUDA [^:]*: //')
./target/release/cushim generate --cuda "$version" --lang cpp --out "$work" 2>/dev/null

# The fake driver, also as libcuda.so for -lcuda.
cc -shared -fPIC -O2 -o "$work/fake/libcuda.so.1" tests/fake/libcuda.c
ln -sf libcuda.so.1 "$work/fake/libcuda.so"

start=$(date +%s.%N)
g++ -std=c++17 -O2 -fPIC -I"$include" -I"$work" -c "$work/cuda_shim.cpp" -o "$work/cuda_shim.o"
end=$(date +%s.%N)
# The runtime every pair calls into, compiled once per program.
g++ -std=c++17 -O2 -fPIC -I"$work" -c "$work/cushim_runtime.cpp" -o "$work/cushim_runtime.o"
compile=$(echo "$end - $start" | bc)
read -r text data bss _ < <(size "$work/cuda_shim.o" | tail -1)

g++ -std=c++17 -O2 -I"$include" benches/cpp/call.cpp -L"$work/fake" -lcuda -ldl -o "$work/direct"
g++ -std=c++17 -O2 -I"$include" -I"$work" benches/cpp/call.cpp "$work/cuda_shim.o" "$work/cushim_runtime.o" -ldl -pthread -o "$work/stub"

export LD_LIBRARY_PATH="$PWD/$work/fake"
read -r direct raw1 < <(taskset -c 0 "$work/direct")
read -r stub raw2 < <(taskset -c 0 "$work/stub")

instructions() {  # instructions per call from callgrind, loop only: (I(2n) - I(n)) / n
    local n=200000 a b
    a=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" $n loop 2>&1 | sed -n 's/.*Collected : //p')
    b=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" $((2 * n)) loop 2>&1 | sed -n 's/.*Collected : //p')
    echo "scale=2; ($b - $a) / $n" | bc
}
if command -v valgrind >/dev/null; then
    idirect=$(instructions "$work/direct")
    istub=$(instructions "$work/stub")
else
    idirect=n/a
    istub=n/a
fi

ratio() { printf "%.3f" "$(echo "scale=4; $1 / $direct" | bc)"; }
echo "CUDA $version C++ stubs, $(nproc) cores, $(uname -m); call: cuDriverGetVersion into the fake driver"
echo
printf '| %-34s | %9s | %9s | %12s |\n' "scheme" "ns/call" "x direct" "instr/call"
printf '|%s|%s|%s|%s|\n' "------------------------------------" "-----------" "-----------" "--------------"
printf '| %-34s | %9.2f | %9s | %12s |\n' "direct linking (-lcuda)" "$direct" "1.000" "$idirect"
printf '| %-34s | %9.2f | %9s | %12s |\n' "raw pointer from dlsym" "$raw1" "$(ratio "$raw1")" "-"
printf '| %-34s | %9.2f | %9s | %12s |\n' "cushim C++ stub" "$stub" "$(ratio "$stub")" "$istub"
echo
echo "stubs for the full header: g++ -O2 compile ${compile}s; object text ${text} B, data ${data} B, bss ${bss} B"
