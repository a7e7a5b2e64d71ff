#!/usr/bin/env python3
"""Prints a compact table of a plume_bench CSV: one row per count, one column
per variant and method (median GPU ms), plus the best direct plume figure's
ratio to seed 001."""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
columns = []
for r in rows:
    name = "seed001" if r["variant"] == "seed001" else f'{r["variant"]}/{r["method"]}'
    r["column"] = name
    if name not in columns:
        columns.append(name)
table = {}
for r in rows:
    table.setdefault(int(r["count"]), {})[r["column"]] = r
print("count".rjust(9), " ".join(c[-18:].rjust(18) for c in columns), "  best-direct x seed001")
for count in sorted(table):
    line = table[count]
    cells = []
    for c in columns:
        r = line.get(c)
        cells.append(("-" if r is None else f'{float(r["median_ms"]):.4f}{"" if r["correct"] == "1" else "!"}').rjust(18))
    direct = [float(r["median_ms"]) for r in line.values()
              if r["variant"] != "seed001" and r["method"] == "direct" and float(r["median_ms"]) > 0]
    seed = float(line["seed001"]["median_ms"]) if "seed001" in line else 0
    ratio = f"{seed / min(direct):.2f}" if direct and seed else "-"
    print(str(count).rjust(9), " ".join(cells), ratio.rjust(8))
