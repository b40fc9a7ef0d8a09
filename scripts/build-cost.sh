#!/usr/bin/env bash
# What a downstream crate pays to build, against cudarc with the same
# libraries: a clean `cargo build` (fresh target directory, registry already
# downloaded, offline) of a crate whose build.rs asks cushim (no optional
# feature: every library from the data the crate ships) for one, three or six
# libraries of CUDA 13.5, and of a crate that depends on cudarc 0.19 with the
# same libraries (dynamic loading, one CUDA version): the driver; the driver,
# NVRTC and cuBLAS; those with cuBLASLt, cuRAND and cuFFT (six that both
# have). Each as a library crate and as a binary, in the dev and the release
# profile; rounds interleaved.
#
# cushim comes as a user gets it (SOURCE `registry`, the default): this
# checkout packaged (`cargo package`) and served with cudarc and libloading
# from one local directory source in place of the registry, so that cargo
# builds both sides' dependencies alike (no incremental compilation, lints
# capped). SOURCE `path` depends on the checkout by path instead, as a crate
# of this workspace would: cargo then compiles cushim and its runtime
# incrementally, which costs them more.
# Usage: scripts/build-cost.sh [ROUNDS [PROFILES [COUNTS [SOURCE]]]]
#   defaults: 3 rounds, "dev release", "1 3 6" libraries, registry; e.g. `3 dev 1`.
set -euo pipefail
rounds=${1:-3}
profiles=${2:-dev release}
counts=${3:-1 3 6}
source=${4:-registry}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/cushim-build-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT

declare -A cushim_libs=(
  [1]="driver"
  [3]="driver nvrtc cublas"
  [6]="driver nvrtc cublas cublaslt curand cufft"
)
declare -A cudarc_features=(
  [1]='"driver"'
  [3]='"driver", "nvrtc", "cublas"'
  [6]='"driver", "nvrtc", "cublas", "cublaslt", "curand", "cufft"'
)
stem() { case $1 in driver) echo cuda ;; cublaslt) echo cublasLt ;; *) echo "$1" ;; esac; }

cudarc_dependency() { # features
  echo "cudarc = { version = \"0.19\", default-features = false, features = [\"std\", \"dynamic-loading\", \"cuda-13000\", $1] }"
}

# The directory source that stands in for the registry: cudarc, libloading
# and whatever else cushim needs from the registry as `cargo vendor` copies
# them, cushim and its runtime as `cargo package` packs them.
if [ "$source" = registry ]; then
  mkdir -p "$work/vendoring/src"
  touch "$work/vendoring/src/lib.rs"
  cat > "$work/vendoring/Cargo.toml" <<EOF
[package]
name = "vendoring"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
libloading = "0.9"
$(cudarc_dependency "${cudarc_features[6]}")
# For their own dependencies from the registry, whatever they are.
cushim = { path = "$repo", default-features = false }
cushim-runtime = { path = "$repo/cushim-runtime" }

[workspace]
EOF
  (cd "$work/vendoring" && { cargo vendor -q --offline --versioned-dirs "$work/vendor" >/dev/null 2>&1 ||
    cargo vendor -q --versioned-dirs "$work/vendor" >/dev/null; })
  (cd "$repo" && cargo package -q --workspace --no-verify --allow-dirty --offline --target-dir "$work/package" 2>/dev/null)
  for crate in "$work"/package/package/*.crate; do
    tar -xzf "$crate" -C "$work/vendor"
    sum=$(sha256sum "$crate" | cut -d' ' -f1)
    printf '{"files":{},"package":"%s"}\n' "$sum" > "$work/vendor/$(basename "$crate" .crate)/.cargo-checksum.json"
  done
  cushim_build_dependency='cushim = { version = "=0.1.0", default-features = false }'
  cushim_dependencies='libloading = "0.9"
cushim-runtime = "=0.1.0"'
else
  cushim_build_dependency="cushim = { path = \"$repo\", default-features = false }"
  cushim_dependencies="libloading = \"0.9\"
cushim-runtime = { path = \"$repo/cushim-runtime\" }"
fi

make_crate() { # name, kind (lib|bin), build-dependency, dependencies, build.rs, source
  mkdir -p "$work/$1/src"
  cat > "$work/$1/Cargo.toml" <<EOF
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$4

[build-dependencies]
$3

[workspace]
EOF
  if [ "$source" = registry ]; then
    mkdir -p "$work/$1/.cargo"
    cat > "$work/$1/.cargo/config.toml" <<EOF
[source.crates-io]
replace-with = "local"

[source.local]
directory = "$work/vendor"
EOF
  fi
  printf '%s\n' "$5" > "$work/$1/build.rs"
  if [ "$2" = lib ]; then
    printf '%s\n' "$6" > "$work/$1/src/lib.rs"
  else
    printf '%s\nfn main() {\n    println!("{}", all());\n}\n' "$6" > "$work/$1/src/main.rs"
  fi
}

crates=()
for n in $counts; do
  build='fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap());'
  code=''
  calls=''
  for l in ${cushim_libs[$n]}; do
    s=$(stem "$l")
    build+="
    if let Err(e) = cushim::Builder::new().library(\"$l\").cuda_version(\"13.5\")
        .languages(&[cushim::Language::Rust]).out_dir(out.join(\"$l\")).generate() {
        eprintln!(\"{e}\");
        std::process::exit(1);
    }"
    code+="#[allow(dead_code, non_snake_case)]
pub mod $l {
    include!(concat!(env!(\"OUT_DIR\"), \"/$l/$s.rs\"));
}
"
    calls+="$l::preload_all().is_ok() & "
  done
  build+='
}'
  code+="pub fn all() -> bool {
    ${calls}true
}"
  cudarc_source="pub fn all() -> bool {
    cudarc::driver::result::init().is_ok()
}"
  for kind in lib bin; do
    make_crate "cushim-$n-$kind" $kind "$cushim_build_dependency" "$cushim_dependencies" "$build" "$code"
    make_crate "cudarc-$n-$kind" $kind '' "$(cudarc_dependency "${cudarc_features[$n]}")" \
      'fn main() {}' "$cudarc_source"
    crates+=("cushim-$n-$kind" "cudarc-$n-$kind")
  done
done

for c in "${crates[@]}"; do
  # The registry as cached here first; the network only when it lacks a crate.
  (cd "$work/$c" && { cargo generate-lockfile -q --offline 2>/dev/null || cargo generate-lockfile -q; } && cargo fetch -q)
done

declare -A times
for r in $(seq 1 "$rounds"); do
  for profile in $profiles; do
    for c in "${crates[@]}"; do
      rm -rf "$work/target-$c"
      start=$(date +%s.%N)
      (cd "$work/$c" && CARGO_TARGET_DIR="$work/target-$c" cargo build -q --offline --profile "$profile")
      end=$(date +%s.%N)
      times[$profile/$c]="${times[$profile/$c]:-} $(echo "$end - $start" | bc)"
    done
    echo "round $r, $profile: done" >&2
  done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
spread() { tr ' ' '\n' | grep . | sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {printf "%.1f-%.1f", lo, hi}'; }
echo
echo "clean cargo build, $rounds rounds interleaved, cushim from the $source, wall seconds: median [min-max]"
echo
echo "| profile | crate | libraries | cushim (no feature) | cudarc 0.19 | cushim / cudarc |"
echo "|---|---|---|---|---|---|"
for profile in $profiles; do
  for kind in lib bin; do
    for n in $counts; do
      a=${times[$profile/cushim-$n-$kind]}
      b=${times[$profile/cudarc-$n-$kind]}
      ma=$(echo "$a" | median)
      mb=$(echo "$b" | median)
      printf '| %s | %s | %s | %.1f [%s] | %.1f [%s] | %.2f |\n' "$profile" "$kind" "$n" \
        "$ma" "$(echo "$a" | spread)" "$mb" "$(echo "$b" | spread)" "$(echo "$ma / $mb" | bc -l)"
    done
  done
done
