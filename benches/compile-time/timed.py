"""Runs a command and prints its wall time and CPU time (user + system of
the command and its children), in seconds: `WALL CPU`.

CPU time is the steadier number on a shared machine: other processes
stretch the wall time of a build more than the work it does.
Usage: python3 timed.py CMD [ARG ...]
"""
import resource
import subprocess
import sys
import time


def main():
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = subprocess.call(sys.argv[1:])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter() - start
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{wall:.3f} {cpu:.3f}")
    sys.exit(code)


if __name__ == "__main__":
    main()
