#!/usr/bin/env bash
# Clean builds of the two generated crates in alternating order (ours,
# stack, stack, ours, ...), for a ratio that a shared machine's drift does
# not bias: each line is one clean `cargo build` (debug), its wall and CPU
# seconds (timed.py). Usage: benches/compile-time/alternate.sh OUT_DIR [PAIRS]
# where OUT_DIR holds the crates of run.sh (or generate.py).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out=${1:?usage: alternate.sh OUT_DIR [PAIRS]}
n=${2:-3}
# Each generated crate has its own target directory, whatever the caller set.
unset CARGO_TARGET_DIR
for i in $(seq 1 $n); do
  if [ $((i % 2)) -eq 1 ]; then order="ours stack"; else order="stack ours"; fi
  for c in $order; do
    (cd "$out/$c" && cargo clean -q && read -r w u < <(python3 "$here/timed.py" cargo build -q 2>/dev/null) && echo "$i $c wall $w cpu $u")
  done
done
