#!/usr/bin/env bash
# Instructions per character-tick, counted by callgrind (stable on a noisy machine, unlike wall
# time): only the world's steps are counted (--toggle-collect on fx::kcc::World::step), not
# loading, building the scene or writing output. Outside the default test run.
#
#   scripts/bench-callgrind.sh [SCENARIO...]   # default: scenarios/bench/arena-1.yaml arena-64.yaml
#   FX_BENCH_BUILD=build-x scripts/bench-callgrind.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${FX_BENCH_BUILD:-build}
command -v valgrind >/dev/null || { echo "bench-callgrind: valgrind is not installed (apt-get install valgrind)" >&2; exit 125; }
cmake --build "$BUILD" --target fxkcc >/dev/null
[ $# -gt 0 ] || set -- scenarios/bench/arena-1.yaml scenarios/bench/arena-64.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-32s %14s %16s %14s\n' scenario "character-ticks" "instructions" "per char-tick"
for sc in "$@"; do
  # ticks x characters from the scenario itself (fxkcc list: name, ticks, characters, ...)
  line=$("$BUILD/cli/fxkcc" list "$sc")
  ticks=$(awk -F'\t' '{print $2+0}' <<<"$line")
  chars=$(awk -F'\t' '{print $3+0}' <<<"$line")
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect='fx::kcc::World::step*' \
    "$BUILD/cli/fxkcc" bench "$sc" --once >/dev/null 2>"$tmp/vg.log" || { cat "$tmp/vg.log" >&2; exit 125; }
  ir=$(callgrind_annotate "$tmp/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ && !n++ {gsub(",", "", $1); print $1}')
  ct=$((ticks * chars))
  printf '%-32s %14d %16d %14d\n' "$(basename "$sc" .yaml)" "$ct" "$ir" $(( (ir + ct / 2) / ct ))
done
