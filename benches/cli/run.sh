#!/usr/bin/env bash
# contract-check on a large file: throughput (lines per second) and peak RSS.
# Builds the release binary, writes SIZE_MB of vacation lines (the shipped
# examples, repeated) to a temporary file, runs the CLI on it with output to
# /dev/null, and prints wall time, lines per second and peak RSS.
# Usage: benches/cli/run.sh [SIZE_MB]   (default 1024)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
size_mb="${1:-1024}"
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
stats="$(mktemp)"
/usr/bin/time -f '%e %M' -o "$stats" "$bin" vacation "$file" > /dev/null 2> /dev/null || true
read -r seconds rss_kb < "$stats"
rm -f "$stats"
python3 - "$bytes" "$lines" "$seconds" "$rss_kb" <<'PY'
import sys
b, n, s, rss = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
print(f"input: {b / 2**20:.0f} MiB, {n} lines")
print(f"wall: {s:.2f} s, {n / s / 1e6:.2f} M lines/s, {b / s / 1e6:.0f} MB/s")
print(f"peak RSS: {rss / 1024:.1f} MiB")
PY
