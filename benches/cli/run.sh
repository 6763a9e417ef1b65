#!/usr/bin/env bash
# contract-check on a large file: throughput (lines per second) and peak RSS.
# Builds the release binary, writes SIZE_MB of vacation lines (the shipped
# examples, repeated) to a temporary file, runs the CLI on it with output to
# /dev/null, and prints wall time, lines per second and peak RSS, for each
# number of threads given (`--jobs N`; 1 alone by default). With several,
# they run on the same file one after another and the speedup against the
# first is printed (the machine is shared: run them in the same call).
# Usage: benches/cli/run.sh [SIZE_MB [JOBS...]]   (default 1024 1)
#        benches/cli/run.sh 256 1 2
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
size_mb="${1:-1024}"
shift || true
jobs_list=("$@")
[ "${#jobs_list[@]}" -gt 0 ] || jobs_list=(1)
cd "$repo"
cargo build -q --release -p contract-examples --bin contract-check
bin="${CARGO_TARGET_DIR:-$repo/target}/release/contract-check"
file="$(mktemp --suffix=.jsonl)"
trap 'rm -f "$file"' EXIT
python3 - "$file" "$size_mb" <<'PY'
import sys
path, size = sys.argv[1], int(sys.argv[2]) * 1024 * 1024
lines = open("examples/data/vacation.jsonl", "rb").read().splitlines(keepends=True)
block = b"".join(lines) * 64
with open(path, "wb") as f:
    written = 0
    while written < size:
        f.write(block)
        written += len(block)
PY
bytes=$(stat -c %s "$file")
lines=$(wc -l < "$file")
echo "input: $((bytes / 1048576)) MiB, $lines lines; load: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
first=""
for jobs in "${jobs_list[@]}"; do
  stats="$(mktemp)"
  /usr/bin/time -f '%e %M %U %S' -o "$stats" "$bin" vacation "$file" --jobs "$jobs" > /dev/null 2> /dev/null || true
  read -r seconds rss_kb user sys < "$stats"
  rm -f "$stats"
  [ -n "$first" ] || first="$seconds"
  python3 - "$jobs" "$lines" "$bytes" "$seconds" "$rss_kb" "$first" "$user" "$sys" <<'PY'
import sys
j, n, b, s, rss, first = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
cpu = float(sys.argv[7]) + float(sys.argv[8])
print(f"--jobs {j}: wall {s:.2f} s, {n / s / 1e6:.2f} M lines/s, {b / s / 1e6:.0f} MB/s, "
      f"CPU {cpu:.2f} s, peak RSS {rss / 1024:.1f} MiB, speedup {first / s:.2f}x against the first")
PY
done
