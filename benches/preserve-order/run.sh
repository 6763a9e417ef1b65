#!/usr/bin/env bash
# What serde_json's `preserve_order` costs: instructions (callgrind's Ir) per
# operation with the feature (as shipped) and without it. Builds two scratch
# copies of the committed tree (git archive HEAD) in $WORK (default a temp
# dir), one with the runtime's default feature `preserve_order` turned off,
# each with the driver in driver/ as an extra member; needs valgrind.
# Usage: benches/preserve-order/run.sh   (two release builds: several minutes)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
work="${WORK:-$(mktemp -d)}"
docs="$repo/benches/documents.json"
for side in with without; do
  rm -rf "${work:?}/$side" && mkdir -p "$work/$side"
  (cd "$repo" && git archive HEAD) | tar -x -C "$work/$side"
  cp -r "$here/driver" "$work/$side/driver"
  sed -i 's/members = \[\(.*\)\]/members = [\1, "driver"]/' "$work/$side/Cargo.toml"
  if [ "$side" = without ]; then
    sed -i 's/^contract-runtime = { path = "contract-runtime", /contract-runtime = { default-features = false, path = "contract-runtime", /' "$work/$side/Cargo.toml"
    grep -q '^contract-runtime = { default-features = false' "$work/$side/Cargo.toml"
  fi
  (cd "$work/$side" && cargo build -q --release -p preserve-order-driver)
done
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" "$docs" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# contract op n documents-per-iteration
row() {
  local out=()
  for side in with without; do
    bin="$work/$side/target/release/preserve-order-driver"
    base=$(ir "$bin" "$1" "$2" 0)
    total=$(ir "$bin" "$1" "$2" "$3")
    out+=($(( (total - base) / ($3 * $4) )))
  done
  echo "| $1 | $2 | ${out[0]} | ${out[1]} | $(python3 -c "print(f'{${out[0]}/${out[1]}:.2f}×')") |"
}
echo "| contract | operation | with Ir | without Ir | with/without |"
echo "|---|---|---:|---:|---:|"
for c in close_ticket settings triage ticket_extraction vacation; do
  for op in decode encode encode_text; do row "$c" "$op" 500 3; done
  row "$c" schema 100 1
done
for c in vacation ticket_extraction invoice; do
  n=500 per=3
  [ "$c" = invoice ] && n=20 per=2
  for op in parse serde_value value_text fingerprint lookup; do row "$c" "$op" "$n" "$per"; done
done
