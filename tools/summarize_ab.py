#!/usr/bin/env python3
"""Side-by-side table of an A/B run (tools/gpu_ab.sh): per sort size and
method, and per frame-benchmark count and stage, the base and new median ms
(the median over rounds of each run's median) and new / base."""
import csv
import statistics
import sys


def load(out, build, kind, rounds):
    runs = []
    for r in range(1, rounds + 1):
        try:
            with open(f"{out}/{build}_{kind}_{r}.csv") as f:
                runs.append(list(csv.DictReader(f)))
        except OSError:
            pass
    return runs


def medians(runs, key, value):
    values = {}
    for run in runs:
        for row in run:
            values.setdefault(key(row), []).append(float(row[value]))
    return {k: statistics.median(v) for k, v in values.items()}


def table(title, base, new, keys):
    print(f"\n{title}")
    print(f"{'':>28} {'base ms':>10} {'new ms':>10} {'new/base':>9}")
    for k in keys:
        b, n = base.get(k), new.get(k)
        if b is None or n is None:
            continue
        ratio = n / b if b > 0 else float("nan")
        print(f"{' '.join(map(str, k)):>28} {b:10.4f} {n:10.4f} {ratio:9.3f}")


def main():
    out, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2
    sort_key = lambda row: (int(row["count"]), row["method"])
    base_sort, new_sort = (medians(load(out, b, "sort", rounds), sort_key, "median_ms") for b in ("base", "new"))
    keys = sorted(k for k in new_sort if k[0] & (k[0] - 1) == 0 and k[1] != "seed001")
    table("sort (plume_bench)", base_sort, new_sort, keys)
    for stage in ("simulate_ms", "sort_ms", "draw_ms"):
        frame_key = lambda row: (int(row["count"]),)
        base_frame, new_frame = (medians(load(out, b, "frame", rounds), frame_key, stage) for b in ("base", "new"))
        table(f"frame (plume_frame_bench) {stage}", base_frame, new_frame, sorted(new_frame))


if __name__ == "__main__":
    main()
