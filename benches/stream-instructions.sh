#!/usr/bin/env bash
# Instructions per document (callgrind's Ir) of streaming against the
# one-shot check and against re-running check after every piece: the
# `STREAM_PROFILE` loop of tests/benches/stream.rs, with the start-up
# (the same run with zero iterations) subtracted. Needs valgrind.
# Usage: benches/stream-instructions.sh [CONTRACT ...]   (default: all six)
# STREAM_DRIVER=PATH measures an already built driver (a copy of an older
# build, say) instead of building one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
driver="${STREAM_DRIVER:-}"
if [ -z "$driver" ]; then
  (cd "$repo" && cargo bench -q -p contract-tests --bench stream --no-run 2>/dev/null)
  driver=$(ls -t "$target"/release/deps/stream-* | grep -v '\.d$' | head -1)
fi
contracts=("$@")
if [ ${#contracts[@]} -eq 0 ]; then
  contracts=(close_ticket settings triage ticket_extraction vacation invoice)
fi
ir() {
  STREAM_PROFILE="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$driver" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
docs() {
  python3 -c "import json; print(len(json.load(open('$here/documents.json'))['contracts']['$1']['valid']))"
}
echo "| contract | check Ir/doc | stream/1 | stream/4 | stream/16 | recheck/1 | recheck/4 | recheck/16 |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for c in "${contracts[@]}"; do
  n=200
  [ "$c" = invoice ] && n=10
  per=$(( n * $(docs "$c") ))
  base=$(ir "$c:check:1:0")
  check=$(( ($(ir "$c:check:1:$n") - base) / per ))
  row="| $c | $check"
  for mode in stream recheck; do
    for size in 1 4 16; do
      m=$n
      # Re-checking the invoice after every byte is slow even once.
      [ "$c" = invoice ] && [ "$mode" = recheck ] && m=1
      v=$(( ($(ir "$c:$mode:$size:$m") - base) / (m * $(docs "$c")) ))
      row+=" | $v ($(python3 -c "print(f'{$v/$check:.1f}')")×)"
    done
  done
  echo "$row |"
done
