#!/usr/bin/env bash
# Micro-benchmarks of the numeric layer: prints the mean ns per operation with Catch2's
# bootstrapped bounds. Usage: scripts/bench-math.sh [build-dir] [samples]. Outside the
# default test run.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
samples=${2:-50}
cmake --build "$dir" --target fx_bench >/dev/null
"$dir/bench/fx_bench" "[.bench][math]" --benchmark-samples "$samples" -r xml | python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.read())
print("%-40s %9s %9s %9s" % ("operation", "mean ns", "low", "high"))
for b in root.iter("BenchmarkResults"):
    m = b.find("mean")
    print("%-40s %9.1f %9.1f %9.1f" % (b.get("name"), float(m.get("value")),
          float(m.get("lowerBound")), float(m.get("upperBound"))))
'
