#!/usr/bin/env bash
# Compile time of 100 contracts x 8 fields, ours against serde + schemars +
# garde. Each crate's dependencies are built first (not timed); then the
# crate itself is rebuilt from clean several times and the median recorded.
# Also prints the macro expansion size per contract.
# Usage: benches/compile-time/run.sh [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${1:-$(mktemp -d)}"
python3 "$here/generate.py" "$out" "$repo"
for crate in ours stack; do
  (cd "$out/$crate" && cargo build -q 2>/dev/null || cargo build)
  times=()
  for _ in 1 2 3 4 5; do
    touch "$out/$crate/src/lib.rs"
    start=$(date +%s.%N)
    (cd "$out/$crate" && cargo build -q)
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
  echo "$crate: median of 5 rebuilds of the crate: ${median}s (runs: ${times[*]})"
done
# Expansion size: rustc's own pretty-printer of the expanded crate.
for crate in ours stack; do
  bytes=$(cd "$out/$crate" && RUSTC_BOOTSTRAP=1 cargo rustc -q --lib -- -Zunpretty=expanded 2>/dev/null | wc -c)
  echo "$crate: expanded source $bytes bytes, $((bytes / 100)) bytes per type"
done
