#!/usr/bin/env bash
# Instructions per document (callgrind's Ir) for every contract, case and
# side of the decode benchmark: a count that other processes on the machine
# do not change, beside criterion's times. Uses the `decode_profile` driver
# (tests/benches/decode_profile.rs); needs valgrind.
# Usage: benches/callgrind.sh [CONTRACT ...]   (default: all six)
#        benches/callgrind.sh step              (the union groups: `Step` and the probe
#                                                union `Plan`, the tag first, in the middle
#                                                and last; `Move`, whose variants share their
#                                                first member; ours and A)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
(cd "$repo" && cargo bench -q -p contract-tests --bench decode_profile --no-run 2>/dev/null)
driver=$(ls -t "$target"/release/deps/decode_profile-* | grep -v '\.d$' | head -1)
contracts=("$@")
if [ ${#contracts[@]} -eq 0 ]; then
  contracts=(close_ticket settings triage ticket_extraction vacation invoice)
fi
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$driver" "$@" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
docs() {
  python3 -c "import json,sys; d=json.load(open('$here/documents.json'))['contracts']['$1']; print(len(d['valid']) if '$2'=='valid' else 1)"
}
if [ "${contracts[*]}" = step ]; then
  n=2000
  echo "| contract | case | ours Ir/doc | A Ir/doc | A/ours |"
  echo "|---|---|---:|---:|---:|"
  for case in tag_first tag_middle tag_last probe_first probe_middle probe_last shared_first shared_last; do
    # `Step` has four documents, the probe three.
    per=4 name=step
    case "$case" in probe_*) per=3 name=probe ;; shared_*) per=3 name=shared ;; esac
    row=()
    for side in ours a; do
      base=$(ir step "$case" "$side" 0)
      total=$(ir step "$case" "$side" "$n")
      row+=($(( (total - base) / (per * n) )))
    done
    label=${case#probe_}
    label=${label#shared_}
    label=${label/#first/tag first}
    label=${label/#middle/tag middle}
    label=${label/#last/tag last}
    echo "| $name | ${label/_/ } | ${row[0]} | ${row[1]} | $(python3 -c "print(f'{${row[1]}/${row[0]}:.2f}×')") |"
  done
  exit 0
fi
echo "| contract | case | ours Ir/doc | A Ir/doc | B Ir/doc | A/ours | B/ours |"
echo "|---|---|---:|---:|---:|---:|---:|"
for c in "${contracts[@]}"; do
  n=2000
  [ "$c" = invoice ] && n=100
  for case in valid one_error many_errors; do
    per=$(( n * $(docs "$c" "$case") ))
    row=()
    for side in ours a b; do
      base=$(ir "$c" "$case" "$side" 0)
      total=$(ir "$c" "$case" "$side" "$n")
      row+=($(( (total - base) / per )))
    done
    ratio() { python3 -c "print(f'{$1/$2:.2f}×')"; }
    echo "| $c | ${case/_/ } | ${row[0]} | ${row[1]} | ${row[2]} | $(ratio "${row[1]}" "${row[0]}") | $(ratio "${row[2]}" "${row[0]}") |"
  done
done
