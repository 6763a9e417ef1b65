"""Prints the duration (seconds) of one unit of a cargo `--timings` report.

Usage: python3 unit_time.py target/cargo-timings/cargo-timing.html CRATE_NAME
Reads the report's `const UNIT_DATA = [...]` JSON; prints `?` if the report
or the unit is missing (the format is cargo's, not a stable interface).
"""
import json
import re
import sys


def main():
    path, name = sys.argv[1], sys.argv[2]
    try:
        with open(path, encoding="utf-8") as f:
            html = f.read()
        match = re.search(r"const UNIT_DATA = (\[.*?\n\]);", html, re.S)
        units = json.loads(match.group(1)) if match else []
    except (OSError, ValueError):
        units = []
    durations = [u["duration"] for u in units if u.get("name") == name]
    print(f"{sum(durations):.2f}" if durations else "?")


if __name__ == "__main__":
    main()
