"""Builds the decode table of BENCHMARKS.md from one run's results.

Reads criterion's estimates for the `decode` benchmark (ours, A, B) and the
JSON lines printed by `benches/pydantic/run.sh` (C), and prints a Markdown
table: contract x case, the median ns per document of each side, and each
baseline's time divided by ours (> 1 means ours is faster). Then the goal
checks over those ratios.

Usage: python3 benches/report.py CRITERION_DIR PYDANTIC_JSONL
  CRITERION_DIR  $CARGO_TARGET_DIR/criterion (or target/criterion)
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = ["valid", "one error", "many errors"]
SIDES = {
    "ours": "ours",
    "A": "A serde derive",
    "B": "B value+jsonschema+rules",
}


def criterion_medians(root):
    """{(group_id, function_id): median ns per iteration} for every benchmark."""
    out = {}
    for dirpath, _, files in os.walk(root):
        if os.path.basename(dirpath) != "new" or "benchmark.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            estimates = json.load(f)
        out[(bench["group_id"], bench["function_id"])] = estimates["median"]["point_estimate"]
    return out


def pydantic_medians(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                row = json.loads(line)
                out[(row["contract"], row["case"])] = row["median_ns_per_doc"]
    return out


def fmt_ns(ns):
    if ns is None:
        return "—"
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def fmt_ratio(r):
    return "—" if r is None else f"{r:.2f}×"


def main():
    crit_dir, py_path = sys.argv[1], sys.argv[2]
    with open(os.path.join(HERE, "documents.json"), encoding="utf-8") as f:
        contracts = json.load(f)["contracts"]
    crit = criterion_medians(crit_dir)
    py = pydantic_medians(py_path)
    ratios = {side: {case: [] for case in CASES} for side in "ABC"}
    print("| contract | case | bytes/doc | ours ns/doc | A ns/doc | B ns/doc | C ns/doc | A/ours | B/ours | C/ours |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, docs in contracts.items():
        for case in CASES:
            n = len(docs["valid"]) if case == "valid" else 1
            if case == "valid":
                size = sum(len(d.encode()) for d in docs["valid"]) / n
            else:
                size = len(docs[case.replace(" ", "_")].encode())
            per_doc = {}
            for side, function in SIDES.items():
                ns = crit.get((f"{name}/{case}", function))
                per_doc[side] = None if ns is None else ns / n
            per_doc["C"] = py.get((name, case))
            row_ratios = {}
            for side in "ABC":
                if per_doc["ours"] and per_doc[side]:
                    row_ratios[side] = per_doc[side] / per_doc["ours"]
                    ratios[side][case].append(row_ratios[side])
                else:
                    row_ratios[side] = None
            print(f"| {name} | {case} | {size:,.0f} | {fmt_ns(per_doc['ours'])} | {fmt_ns(per_doc['A'])} | "
                  f"{fmt_ns(per_doc['B'])} | {fmt_ns(per_doc['C'])} | {fmt_ratio(row_ratios['A'])} | "
                  f"{fmt_ratio(row_ratios['B'])} | {fmt_ratio(row_ratios['C'])} |")
    print()
    print("Median of the ratios over the contracts (minimum in brackets):")
    print()
    print("| case | A/ours | B/ours | C/ours |")
    print("|---|---:|---:|---:|")
    for case in CASES:
        cells = []
        for side in "ABC":
            rs = ratios[side][case]
            cells.append(f"{statistics.median(rs):.2f}× ({min(rs):.2f}×)" if rs else "—")
        print(f"| {case} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
