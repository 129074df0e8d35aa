#!/usr/bin/env bash
# wasm32 under node against native x86-64, ns per character-tick on the same scenario: ROUNDS
# alternating pairs of `fxkcc bench --repeat REPEAT` (native, then wasm32), each giving its
# median; prints every pair, then the median of each side's medians, their ratio, the ratio of
# the fastest runs and the median of the rounds' own ratios (the machine is shared: single runs
# vary by 2x and more). Needs build/ and build-wasm32-emscripten/ (scripts/cross.sh
# wasm32-emscripten build; WASM=DIR/fxkcc.js for another). Outside the default test run.
#
#   scripts/bench-wasm-ratio.sh [SCENARIO] [ROUNDS] [REPEAT]   # default arena-1, 15, 41
# Each run warms up first, WARMUP repeats (default 200, both sides): node runs wasm code first as
# compiled in one quick pass and compiles its hot functions again, optimised, on background
# threads, which on a busy 2-core machine can take a while. With 2 repeats a wasm32 median was 3
# to 8x native; with 20 it swung between 1.0 and 2.5 times its fastest run from one run to the next
# (the timed runs started before the optimised code was in), with 200 (about 0.3 s) within 10 %.
set -euo pipefail
cd "$(dirname "$0")/.."
SC=${1:-scenarios/bench/arena-1.yaml}
ROUNDS=${2:-15}
REPEAT=${3:-41}
WARMUP=${WARMUP:-200}
NATIVE=build/cli/fxkcc
WASM=${WASM:-build-wasm32-emscripten/cli/fxkcc.js}
[ -x "$NATIVE" ] && [ -f "$WASM" ] || { echo "bench-wasm-ratio: build $NATIVE and $WASM first" >&2; exit 125; }
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
field() { sed -n "s/.*median \([0-9.]*\), min \([0-9.]*\).*/\\$1/p"; }
n_med=(); w_med=(); n_min=(); w_min=()
for r in $(seq 1 "$ROUNDS"); do
  n=$("$NATIVE" bench "$SC" --repeat "$REPEAT" --warmup "$WARMUP" | grep 'ns per character-tick')
  w=$(node "$WASM" bench "$SC" --repeat "$REPEAT" --warmup "$WARMUP" | grep 'ns per character-tick')
  n_med+=("$(field 1 <<<"$n")"); n_min+=("$(field 2 <<<"$n")")
  w_med+=("$(field 1 <<<"$w")"); w_min+=("$(field 2 <<<"$w")")
  echo "round $r: native median ${n_med[-1]} (min ${n_min[-1]}), wasm32 median ${w_med[-1]} (min ${w_min[-1]})"
done
python3 - "${n_med[*]}" "${w_med[*]}" "${n_min[*]}" "${w_min[*]}" <<'PY'
import statistics, sys
nm, wm, nn, wn = ([float(x) for x in a.split()] for a in sys.argv[1:5])
a, b = statistics.median(nm), statistics.median(wm)
print(f"median of medians: native {a:.1f} ns, wasm32 {b:.1f} ns, ratio {b / a:.2f}")
print(f"fastest runs: native {min(nn):.1f} ns, wasm32 {min(wn):.1f} ns, ratio {min(wn) / min(nn):.2f}")
print(f"median of the rounds' ratios (each round's wasm32 median / its native median): "
      f"{statistics.median([w / n for n, w in zip(nm, wm)]):.2f}")
PY
