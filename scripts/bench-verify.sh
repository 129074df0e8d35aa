#!/usr/bin/env bash
# What `fxkcc verify` costs around the solve it checks (issue 55, docs/performance.md "The
# harness around the solve"): instructions counted by callgrind for one scenario verified against
# its goldens (hashes and trajectory CSV compared, every check on, one job), split into loading
# the scenario, the world's steps and the rest, each per character-tick; the steps also as
# `fxkcc bench` counts them alone (scripts/bench-callgrind.sh), the figure the targets are
# stated against. Outside the default test run.
#
#   scripts/bench-verify.sh [SCENARIO]   # default scenarios/bench/arena-64.yaml
#   FX_BENCH_BUILD=build-x scripts/bench-verify.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${FX_BENCH_BUILD:-build}
command -v valgrind >/dev/null || { echo "bench-verify: valgrind is not installed (apt-get install valgrind)" >&2; exit 125; }
cmake --build "$BUILD" --target fxkcc >/dev/null
SC=${1:-scenarios/bench/arena-64.yaml}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
line=$("$BUILD/cli/fxkcc" list "$SC")
ct=$(( $(awk -F'\t' '{print $2+0}' <<<"$line") * $(awk -F'\t' '{print $3+0}' <<<"$line") ))
valgrind --tool=callgrind --callgrind-out-file="$tmp/verify.out" \
  "$BUILD/cli/fxkcc" verify "$SC" -j 1 --no-progress >"$tmp/verify.txt" 2>"$tmp/vg.log" ||
  { cat "$tmp/verify.txt" "$tmp/vg.log" >&2; exit 125; }
valgrind --tool=callgrind --callgrind-out-file="$tmp/bench.out" --toggle-collect='fx::kcc::World::step*' \
  "$BUILD/cli/fxkcc" bench "$SC" --once >/dev/null 2>"$tmp/vg.log" || { cat "$tmp/vg.log" >&2; exit 125; }
# Inclusive counts of one function (the first line naming it) in an annotated profile.
inclusive() {
  callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
    awk -v f="$2" 'index($0, f) && !n++ {gsub(",", "", $1); print $1}'
}
total=$(callgrind_annotate "$tmp/verify.out" 2>/dev/null | awk '/PROGRAM TOTALS/ && !n++ {gsub(",", "", $1); print $1}')
load=$(inclusive "$tmp/verify.out" "fx::harness::load_scenario(")
step=$(inclusive "$tmp/verify.out" "fx::kcc::World::step(")
alone=$(callgrind_annotate "$tmp/bench.out" 2>/dev/null | awk '/PROGRAM TOTALS/ && !n++ {gsub(",", "", $1); print $1}')
python3 - "$SC" "$ct" "$total" "${load:-0}" "${step:-0}" "$alone" <<'PY'
import sys
sc, ct, total, load, step, alone = sys.argv[1], *map(int, sys.argv[2:])
per = lambda v: v / ct
print(f"{sc}: {ct} character-ticks")
print(f"  verify, whole run          {total:>14,d}  {per(total):8.0f} per character-tick")
print(f"  loading the scenario       {load:>14,d}  {per(load):8.0f}  ({100 * load / total:.1f} % of verify)")
print(f"  World::step in verify      {step:>14,d}  {per(step):8.0f}  (its trace events for the checks included)")
print(f"  the rest (checks, goldens) {total - load - step:>14,d}  {per(total - load - step):8.0f}")
print(f"  World::step alone (bench)  {alone:>14,d}  {per(alone):8.0f}")
print(f"  verify / World::step alone: {total / alone:.2f}x; verify / World::step in verify: {total / step:.2f}x")
PY
