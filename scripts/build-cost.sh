#!/usr/bin/env bash
# What a downstream crate pays to build: the crates in its tree and a clean
# release build (`cargo build --release`, fresh target directory, registry
# already downloaded), side by side in one run, rounds interleaved:
#   cushim-lean  build.rs: cushim, default-features = false, CUDA 13.5 as cushim
#                ships it rendered; main.rs includes the module and calls cuInit
#   cushim-emit  the same with the `emit` feature (generated from the shipped IR)
#   cushim-cli   the same with cushim's default features (the command line)
#   cudarc       cudarc 0.19, driver only, one CUDA version, dynamic loading;
#                main.rs calls cuInit through driver::result
# Usage: scripts/build-cost.sh [ROUNDS]   (default 3)
set -euo pipefail
rounds=${1:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/cushim-build-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT

make_crate() { # name, build-dependency line, dependency line, build.rs, main.rs
  mkdir -p "$work/$1/src"
  cat > "$work/$1/Cargo.toml" <<EOF
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$3

[build-dependencies]
$2

[workspace]
EOF
  printf '%s\n' "$4" > "$work/$1/build.rs"
  printf '%s\n' "$5" > "$work/$1/src/main.rs"
}

cushim_build='fn main() {
    if let Err(e) = cushim::Builder::new().cuda_version("13.5").languages(&[cushim::Language::Rust]).generate() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}'
cushim_main='#[allow(dead_code)]
mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}
fn main() {
    println!("{:?}", unsafe { cuda::Api::cuInit(0) });
}'
make_crate cushim-lean "cushim = { path = \"$repo\", default-features = false }" \
  'libloading = "0.9"' "$cushim_build" "$cushim_main"
make_crate cushim-emit "cushim = { path = \"$repo\", default-features = false, features = [\"emit\"] }" \
  'libloading = "0.9"' "$cushim_build" "$cushim_main"
make_crate cushim-cli "cushim = { path = \"$repo\" }" \
  'libloading = "0.9"' "$cushim_build" "$cushim_main"
make_crate cudarc '' \
  'cudarc = { version = "0.19", default-features = false, features = ["std", "driver", "dynamic-loading", "cuda-13000"] }' \
  'fn main() {}' \
  'fn main() {
    println!("{:?}", cudarc::driver::result::init());
}'

crates=(cushim-lean cushim-emit cushim-cli cudarc)
echo "crates in the tree (cargo tree -e normal,build, unique, the crate itself left out):"
for c in "${crates[@]}"; do
  (cd "$work/$c" && cargo generate-lockfile -q && cargo fetch -q)
  n=$(cd "$work/$c" && cargo tree -q -e normal,build --prefix none | sed 's/ (\*)$//; s/ (proc-macro)$//' \
      | grep -v "^$c v" | grep -v '^\[' | sort -u | grep -c .)
  printf '  %-12s %3d\n' "$c" "$n"
done

declare -A times
for r in $(seq 1 "$rounds"); do
  for c in "${crates[@]}"; do
    rm -rf "$work/target-$c"
    start=$(date +%s.%N)
    (cd "$work/$c" && CARGO_TARGET_DIR="$work/target-$c" cargo build -q --release --offline)
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc)
    times[$c]="${times[$c]:-} $t"
    printf 'round %d  %-12s %6.1f s\n' "$r" "$c" "$t"
  done
done

echo
echo "clean release build, $rounds rounds interleaved (seconds):"
printf '  %-12s %8s %8s %8s   %s\n' crate median min max "ratio to cudarc (median)"
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
base=$(echo "${times[cudarc]}" | median)
for c in "${crates[@]}"; do
  m=$(echo "${times[$c]}" | median)
  lo=$(echo "${times[$c]}" | tr ' ' '\n' | grep . | sort -g | head -1)
  hi=$(echo "${times[$c]}" | tr ' ' '\n' | grep . | sort -g | tail -1)
  printf '  %-12s %8.1f %8.1f %8.1f   %.2f\n' "$c" "$m" "$lo" "$hi" "$(echo "$m / $base" | bc -l)"
done
