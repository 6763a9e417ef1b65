#!/usr/bin/env bash
# Instructions per document (callgrind's Ir) of the borrowed-strings
# benchmark (tests/benches/borrowed.rs): for the invoice and close-ticket,
# ours and serde_json's derive, borrowed (`&'a str`, `Cow<'a, str>`) and
# owned (`String`). Each figure is (Ir of N rounds − Ir of 0 rounds) / (N ×
# documents), so the setup (reading documents.json) cancels out; needs
# valgrind.
# Usage: benches/borrowed-callgrind.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
(cd "$repo" && cargo bench -q -p contract-tests --bench borrowed --no-run 2>/dev/null)
driver=$(ls -t "$target"/release/deps/borrowed-* | grep -v '\.d$' | head -1)
ir() {
  BORROWED_PROFILE="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$driver" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
docs() {
  python3 -c "import json; print(len(json.load(open('$here/documents.json'))['contracts']['$1']['valid']))"
}
echo "| contract | ours borrowed | serde borrowed | serde/ours | ours owned | serde owned | serde/ours |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for c in invoice close_ticket; do
  n=2000
  [ "$c" = invoice ] && n=200
  per=$(( n * $(docs "$c") ))
  row=()
  for side in "ours borrowed" "serde borrowed" "ours owned" "serde owned"; do
    base=$(ir "$c:$side:0")
    total=$(ir "$c:$side:$n")
    row+=($(( (total - base) / per )))
  done
  ratio() { python3 -c "print(f'{$1/$2:.2f}×')"; }
  echo "| $c | ${row[0]} | ${row[1]} | $(ratio "${row[1]}" "${row[0]}") | ${row[2]} | ${row[3]} | $(ratio "${row[3]}" "${row[2]}") |"
done
