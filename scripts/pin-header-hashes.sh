#!/usr/bin/env bash
# Rewrites headers/header-sha256.txt: downloads every wheel of
# headers/pins*.txt whole, once, with pip, checks it against its pinned
# sha256, and records the sha256 of each header that a fetch takes from it.
# A ranged fetch checks each header it reads against that file.
#
#   bash scripts/pin-header-hashes.sh
#   bash scripts/pin-header-hashes.sh cufft,curand   # only these libraries'
#                                                    # wheels; the rest is kept
#
# Downloads about 2 GB (the NVRTC and nvJitLink wheels weigh most); the
# staging directory is under the header cache (CUSHIM_CACHE_DIR, else
# XDG_CACHE_HOME/cushim, else ~/.cache/cushim) and is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
out=headers/header-sha256.txt
tmp="$out.$$.tmp"
trap 'rm -f "$tmp"' EXIT
if [ $# -gt 0 ]; then
    cargo run --quiet --example pin_header_hashes -- --add "$1" > "$tmp"
else
    cargo run --quiet --example pin_header_hashes > "$tmp"
fi
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out: $(grep -vc '^#' "$out") header lines" >&2
