#!/usr/bin/env bash
# Instructions (callgrind's Ir) of streaming a 16 KiB `Notes` document
# against jsonmodem and the jiter re-parse, in 100, 1,000 and 5,000
# pieces, and of streaming in 16-byte pieces at 16 KiB and 1 MiB (per
# byte): the `RIVALS_PROFILE` loop of tests/benches/stream_rivals.rs, with
# the start-up (the same run with zero iterations) subtracted. Needs valgrind.
# Usage: benches/stream-rivals.sh
# RIVALS_DRIVER=PATH measures an already built driver instead of building one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
driver="${RIVALS_DRIVER:-}"
if [ -z "$driver" ]; then
  (cd "$repo" && cargo bench -q -p contract-tests --bench stream_rivals --no-run)
  driver=$(ls -t "$target"/release/deps/stream_rivals-* 2>/dev/null | grep -v '\.d$' | head -1 || true)
fi
if [ -z "$driver" ] || [ ! -x "$driver" ]; then
  echo "stream-rivals.sh: no driver to measure (${driver:-none found under $target/release/deps}); build it with 'cargo bench -p contract-tests --bench stream_rivals --no-run' or set RIVALS_DRIVER" >&2
  exit 1
fi
if ! RIVALS_PROFILE="check:16384:0:0" "$driver" 2>/dev/null | grep -q '^bytes '; then
  echo "stream-rivals.sh: $driver does not answer RIVALS_PROFILE (not the stream_rivals bench?)" >&2
  exit 1
fi
command -v valgrind >/dev/null || { echo "stream-rivals.sh: valgrind is not installed" >&2; exit 1; }
ir() {
  local count
  count=$(RIVALS_PROFILE="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$driver" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  if [ -z "$count" ]; then
    echo "stream-rivals.sh: the driver gave no instruction count for RIVALS_PROFILE=$1" >&2
    exit 1
  fi
  echo "$count"
}
# Instructions of one iteration of MODE:BYTES:PIECES, run ITERS times.
one() {
  local base run
  base=$(ir "$1:$2:$3:0")
  run=$(ir "$1:$2:$3:$4")
  if [ "$run" -le "$base" ]; then
    echo "stream-rivals.sh: $1 at $3 pieces counted nothing beyond start-up ($run <= $base)" >&2
    exit 1
  fi
  echo $(( (run - base) / $4 ))
}
ratio() { python3 -c "print(f'{$1/$2:,.1f}')"; }
k16=16384
check=$(one check $k16 0 20)
echo "16 KiB Notes document; check: $check instructions"
echo
echo "| pieces | ours | jsonmodem | jiter re-parse | jsonmodem / ours | jiter / ours | ours / check |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for n in 100 1000 5000; do
  o=$(one ours $k16 $n 10)
  m=$(one jsonmodem $k16 $n 3)
  j=$(one jiter $k16 $n 1)
  echo "| $n | $o | $m | $j | $(ratio "$m" "$o")× | $(ratio "$j" "$o")× | $(ratio "$o" "$check")× |"
done
echo
small=$(one ours $k16 0 10)
big=$(one ours 1048576 0 1)
bytes_small=$(RIVALS_PROFILE="check:$k16:0:0" "$driver" | sed -n 's/^bytes //p')
bytes_big=$(RIVALS_PROFILE="check:1048576:0:0" "$driver" | sed -n 's/^bytes //p')
ps=$(python3 -c "print(f'{$small/$bytes_small:.2f}')")
pb=$(python3 -c "print(f'{$big/$bytes_big:.2f}')")
echo "16-byte pieces: $ps instructions/byte at $bytes_small bytes, $pb at $bytes_big bytes ($(python3 -c "print(f'{$pb/$ps:.2f}')")×)"
