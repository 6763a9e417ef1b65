#!/usr/bin/env bash
# `--jobs N` in instructions, which other processes on the machine do not
# change: callgrind counts each thread of contract-check on SIZE_MB of
# vacation lines, once with --jobs 1 and once with --jobs N, and prints the
# total of each, the calling thread's share (reading and writing, the part
# that does not run in parallel) and the speedup that N cores would give if
# the threads' instructions took the same time: T1 / max(largest thread,
# total / min(N, cores)). Needs valgrind. CONTRACT_CHECK=/path/to/contract-check
# counts that build instead of building this tree's.
# Usage: benches/cli/jobs-callgrind.sh [SIZE_MB [N]]   (default 4 2)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
size_mb="${1:-4}"
n="${2:-2}"
cd "$repo"
# shellcheck source=common.sh
. "$here/common.sh"
bin="$(contract_check_bin)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
make_input "$dir/in.jsonl" "$size_mb"
for jobs in 1 "$n"; do
  valgrind --tool=callgrind --separate-threads=yes \
    --callgrind-out-file="$dir/cg.$jobs.%p" "$bin" vacation "$dir/in.jsonl" --jobs "$jobs" \
    > /dev/null 2> "$dir/log.$jobs"
done
python3 - "$dir" "$n" "$(wc -l < "$dir/in.jsonl")" <<'PY'
import glob, os, sys
d, n, lines = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def threads(jobs):
    counts = []
    for f in sorted(glob.glob(os.path.join(d, f"cg.{jobs}.*"))):
        for line in open(f):
            if line.startswith("summary:"):
                counts.append(int(line.split()[1]))
    return counts
one, many = threads(1), threads(n)
t1, tn = sum(one), sum(many)
cores = min(n, os.cpu_count() or 1)
bound = max(max(many), tn / cores)
print(f"{lines} lines; --jobs 1: {t1:,} instructions ({t1 / lines:,.0f} per line)")
print(f"--jobs {n}: {tn:,} instructions (+{100 * (tn - t1) / t1:.1f}%), threads {', '.join(f'{c:,}' for c in many)}")
print(f"calling thread: {100 * many[0] / tn:.1f}% of the total")
print(f"speedup on {cores} cores if instructions were time: {t1 / bound:.2f}x "
      f"(balanced workers: {t1 / max(many[0], tn / cores):.2f}x)")
PY
