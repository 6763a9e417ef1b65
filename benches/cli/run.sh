#!/usr/bin/env bash
# contract-check on a large file: throughput (lines per second) and peak RSS.
# Builds the release binary, writes SIZE_MB of vacation lines (the shipped
# examples, repeated) to a temporary file, runs the CLI on it with output to
# /dev/null, and prints wall time, lines per second, CPU time and peak RSS,
# for each number of threads given (`--jobs N`; 1 alone by default). With
# several, they run on the same file one after another and the speedup
# against the first is printed (the machine is shared: run them in the same
# call). Wall and CPU times are taken to the microsecond (Python's
# perf_counter and the children's rusage), not to /usr/bin/time's 10 ms.
#
# CONTRACT_CHECK=/path/to/contract-check runs that build instead of building
# this tree's. RT=1 runs each command under `chrt -f 50` (root only): on a
# machine shared with other builds, they can then not take the run's cores,
# which comes close to a quiet machine for the run's length (the kernel
# keeps 5 % of each second for them).
# Usage: benches/cli/run.sh [SIZE_MB [JOBS...]]   (default 1024 1)
#        benches/cli/run.sh 128 1 2 1 2
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
size_mb="${1:-1024}"
shift || true
jobs_list=("$@")
[ "${#jobs_list[@]}" -gt 0 ] || jobs_list=(1)
cd "$repo"
# shellcheck source=common.sh
. "$here/common.sh"
bin="$(contract_check_bin)"
file="$(mktemp --suffix=.jsonl)"
trap 'rm -f "$file"' EXIT
make_input "$file" "$size_mb"
python3 - "$bin" "$file" "${RT:-0}" "${jobs_list[@]}" <<'PY'
import os, resource, subprocess, sys, time
bin, path, rt, jobs_list = sys.argv[1], sys.argv[2], sys.argv[3] == "1", [int(j) for j in sys.argv[4:]]
size = os.path.getsize(path)
with open(path, "rb") as f:
    lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
load = " ".join(open("/proc/loadavg").read().split()[:3])
print(f"input: {size // 1048576} MiB, {lines} lines; load: {load}; "
      f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}{'; chrt -f 50' if rt else ''}")
first = None
for jobs in jobs_list:
    # /usr/bin/time for the peak RSS: the child of a fork of this Python
    # process would count Python's pages before its exec.
    rss_file = path + ".rss"
    command = ["/usr/bin/time", "-f", "%M", "-o", rss_file]
    command += ["chrt", "-f", "50"] if rt else []
    command += [bin, "vacation", path, "--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss = int(open(rss_file).read().split()[-1])  # KiB
    os.remove(rss_file)
    first = first or seconds
    print(f"--jobs {jobs}: wall {seconds:.3f} s, {lines / seconds / 1e6:.2f} M lines/s, "
          f"{size / seconds / 1e6:.0f} MB/s, CPU {cpu:.3f} s, peak RSS "
          f"{rss / 1024:.1f} MiB, speedup {first / seconds:.2f}x against the first")
PY
