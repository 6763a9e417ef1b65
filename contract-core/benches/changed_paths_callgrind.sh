#!/usr/bin/env bash
# Instructions per call and per byte (callgrind's Ir) of `changed_paths` on
# the benchmark's three documents, with the setup (a run of 0 iterations)
# subtracted: a count that other processes on the machine do not change.
# Uses the `changed_paths_profile` driver beside this file; needs valgrind.
# Usage: contract-core/benches/changed_paths_callgrind.sh [DRIVER [MODE]]
# DRIVER: `build` (the default) builds the driver here; or the path of a
# driver built elsewhere (a checkout of an older commit with this driver
# copied in). MODE: the driver's (see changed_paths_profile.rs): `text`
# counts `changed_paths_str` against the edited document as text (what an
# edit check runs) instead of `changed_paths`; `added`, `removed`,
# `added_text`, `removed_text` a member added to (removed from) every
# section.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
mode="${2:-}"
if [ $# -ge 1 ] && [ "$1" != build ]; then
  driver="$1"
else
  (cd "$repo" && cargo build -q --release --locked -p contract-core --bench changed_paths_profile)
  driver=$(ls -t "$target"/release/deps/changed_paths_profile-* | grep -v '\.d$' | head -1)
fi
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$driver" "$@" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
echo "| size | bytes | Ir/call | Ir/byte |"
echo "|---|---:|---:|---:|"
for size in 1KiB 64KiB 1MiB; do
  case $size in
    1KiB) n=2000 ;;
    64KiB) n=100 ;;
    1MiB) n=10 ;;
  esac
  bytes=$("$driver" "$size" 0 $mode | sed -n 's/.*: \([0-9]*\) bytes.*/\1/p')
  base=$(ir "$size" 0 $mode)
  total=$(ir "$size" "$n" $mode)
  python3 -c "c=($total-$base)/$n; print(f'| $size | {$bytes:,} | {c:,.0f} | {c/$bytes:.2f} |')"
done
