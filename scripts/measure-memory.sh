#!/usr/bin/env bash
# Peak memory of a long run (docs/reliability.md): the 30-minute soak scenario stretched to
# 10^5 and 10^6 ticks (expectations removed; after its input ends at tick 90,000 the body
# stands, and every tick is still solved, hashed and written), run with the per-tick hashes and
# the trajectory CSV written to disk. Memory must stay flat in the number of
# ticks: both streams go to disk as the run goes. Outside the default test run.
#   scripts/measure-memory.sh [BUILD_DIR]     (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
command -v /usr/bin/time >/dev/null || { echo "measure-memory: /usr/bin/time is missing (apt-get install time)" >&2; exit 125; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=scenarios/conformance/long-run-30min.yaml
printf '%-10s %14s %10s %14s %12s\n' ticks "peak RSS (KB)" seconds "CSV bytes" "hash bytes"
for n in 100000 1000000; do
  sed -e "s/^ticks: .*/ticks: $n/" -e '/^expect:/,$d' "$src" >"$tmp/long-$n.yaml"
  /usr/bin/time -f "%M %e" -o "$tmp/time" "$BUILD/cli/fxkcc" run "$tmp/long-$n.yaml" --hashes "$tmp/h" --csv "$tmp/c" >/dev/null
  read -r rss secs <"$tmp/time"
  printf '%-10s %14s %10s %14s %12s\n' "$n" "$rss" "$secs" "$(wc -c <"$tmp/c")" "$(wc -c <"$tmp/h")"
done
