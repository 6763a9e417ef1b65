#!/usr/bin/env bash
# Compile time of 100 contracts x 8 fields, ours against serde + schemars +
# garde (see generate.py). For each crate, in this order:
#   1. a clean `cargo build --timings` (dependencies included): the wall
#      and CPU time, and the crate's own unit time from cargo's timing report;
#   2. the crate alone rebuilt 5 times after one untimed rebuild (`touch
#      src/lib.rs`, dependencies already built, CARGO_INCREMENTAL=0 so
#      that nothing of the crate is reused): the medians of wall and CPU time (user + system, steadier
#      on a shared machine), the numbers that isolate the derives;
#   3. the macro expansion size (rustc's own pretty-printer of the expanded
#      crate), in bytes and lines per type.
# Debug profile, as `cargo build` does by default. Needs crates.io.
# Usage: benches/compile-time/run.sh [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${1:-$(mktemp -d)}"
# Each generated crate gets its own target directory, whatever the caller set.
unset CARGO_TARGET_DIR
python3 "$here/generate.py" "$out" "$repo"
echo "generated crates in $out"
for crate in ours stack; do
  dir="$out/$crate"
  (cd "$dir" && cargo fetch -q)
  (cd "$dir" && cargo clean -q)
  read -r wall cpu < <(cd "$dir" && python3 "$here/timed.py" cargo build -q --timings 2>/dev/null)
  own=$(python3 "$here/unit_time.py" "$dir/target/cargo-timings/cargo-timing.html" "$crate")
  echo "$crate: clean cargo build --timings: ${wall}s wall, ${cpu}s CPU; the crate's own unit: ${own}s"
  walls=()
  cpus=()
  # One untimed rebuild first: the switch to CARGO_INCREMENTAL=0 changes the
  # fingerprint of the path dependencies, which would make the first timed
  # rebuild rebuild them too.
  touch "$dir/src/lib.rs"
  (cd "$dir" && CARGO_INCREMENTAL=0 cargo build -q)
  for _ in 1 2 3 4 5; do
    touch "$dir/src/lib.rs"
    read -r wall cpu < <(cd "$dir" && CARGO_INCREMENTAL=0 python3 "$here/timed.py" cargo build -q)
    walls+=("$wall")
    cpus+=("$cpu")
  done
  mwall=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 3p)
  mcpu=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n 3p)
  echo "$crate: median of 5 rebuilds of the crate: ${mwall}s wall (runs: ${walls[*]}), ${mcpu}s CPU (runs: ${cpus[*]})"
done
for crate in ours stack; do
  expanded=$(cd "$out/$crate" && RUSTC_BOOTSTRAP=1 cargo rustc -q --lib -- -Zunpretty=expanded 2>/dev/null)
  bytes=$(printf '%s' "$expanded" | wc -c)
  lines=$(printf '%s\n' "$expanded" | wc -l)
  echo "$crate: expanded source $bytes bytes ($((bytes / 100)) per type), $lines lines ($((lines / 100)) per type)"
done
