#!/usr/bin/env bash
# Peak memory of contract-check on one 1 MiB line: the plain check against
# edit mode (settings contract, --baseline examples/data/settings.baseline.json
# --edit disable_email), for lines of several shapes, measured with
# /usr/bin/time -v (its "Maximum resident set size").
# Usage: benches/cli/edit-memory.sh
#        CONTRACT_CHECK=/path/to/contract-check benches/cli/edit-memory.sh
#        (measures that binary, e.g. one built from an earlier commit)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"
# shellcheck source=common.sh
. "$here/common.sh"
bin="$(contract_check_bin)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
# Each line is a settings document whose `channels` (or an unknown key
# `extra`) holds an array of many small values, padded with one run of
# spaces to exactly SIZE bytes: 1 MiB is the contract's max_bytes, the
# longest line still checked; one byte more is refused as too_large.
python3 - "$dir" <<'PY'
import sys
out = sys.argv[1]
MIB = 1 << 20
head = '{"notifications":{"email":false},"retry_limit":3,'
shapes = {
    "strings":     ('"channels":[', '"a",'),
    "objects":     ('"channels":[', '{"a":0},'),
    "arrays":      ('"channels":[', '[0],'),
    "unknown-key": ('"channels":["email","sms"],"extra":[', '{"a":0},'),
}
def write(name, line):
    with open(f"{out}/{name}.jsonl", "w") as f:
        f.write(line + "\n")
for name, (key, unit) in shapes.items():
    for label, size in (("1MiB", MIB), ("1MiB+1", MIB + 1)):
        prefix = head + key
        n = (size - len(prefix) - 2) // len(unit)
        line = prefix + (unit * n).rstrip(",") + "]}"
        line += " " * (size - len(line))
        assert len(line) == size
        write(f"{name}.{label}", line)
# Many members the baseline lacks: each one is a changed pointer.
members = head + '"channels":["email","sms"]'
i = 0
while len(members) < MIB - 20:
    members += ',"k%07d":0' % i
    i += 1
members += "}"
write("members.1MiB", members + " " * (MIB - len(members)))
# The approved edit padded with spaces: accepted, so its tree is built.
approved = '{"notifications":{"email":false},"retry_limit":3,"channels":["email","sms"]}'
write("approved.1MiB", approved + " " * (MIB - len(approved)))
PY
printf '%-24s %-6s %10s %8s\n' line mode 'peak RSS' wall
for file in "$dir"/*.jsonl; do
  name="$(basename "$file" .jsonl)"
  for mode in plain edit; do
    args=(settings "$file")
    if [ "$mode" = edit ]; then
      args+=(--baseline examples/data/settings.baseline.json --edit disable_email)
    fi
    /usr/bin/time -v -o "$dir/time" "$bin" "${args[@]}" > /dev/null 2>&1
    rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/time")
    wall=$(awk -F'): ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time")
    printf '%-24s %-6s %7.1f MB %8s\n' "$name" "$mode" "$(echo "$rss_kb / 1024" | bc -l)" "$wall"
  done
done
