#!/usr/bin/env bash
# Table sizes per piece count: positions (both sides to move), WDL and DTW bytes,
# bytes per position and positions per byte.
# Usage: bash scripts/table-sizes.sh VARIANT PIECES DIR   (DIR as given to `damka gen --dir`)
set -euo pipefail
variant=$1 pieces=$2 dir=$3
damka=${DAMKA:-"$(dirname "$0")/../target/release/damka"}
"$damka" slices --variant "$variant" --pieces "$pieces" --json | python3 -c '
import json, os, sys
dir = sys.argv[1]
rows = {}
for line in sys.stdin:
    s = json.loads(line)
    if "pieces" not in s:
        continue
    r = rows.setdefault(s["pieces"], [0, 0, 0])
    r[0] += s["positions"]
    for i, kind in ((1, "wdl"), (2, "dtw")):
        path = os.path.join(dir, s["name"] + "." + kind + ".dkt")
        if os.path.exists(path):
            r[i] += os.path.getsize(path)
print("| pieces | positions | WDL bytes | WDL bytes/position | WDL positions/byte | DTW bytes | DTW bytes/position | DTW positions/byte |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
total = [0, 0, 0]
def row(name, r):
    print(f"| {name} | {r[0]:,} | {r[1]:,} | {r[1]/r[0]:.4f} | {r[0]/r[1]:.1f} | {r[2]:,} | {r[2]/r[0]:.3f} | {r[0]/r[2]:.1f} |")
for p in sorted(rows):
    row(p, rows[p])
    total = [a + b for a, b in zip(total, rows[p])]
row("all", total)
' "$dir/$variant"
