#!/usr/bin/env bash
# What a desync on a CI runner needs to be diagnosed elsewhere (ci/github/workflows/fxkcc.yml runs
# it when a job fails, and uploads OUT):
#   scripts/ci-failure-bundle.sh FXKCC REPORT GOLDEN_TARGET OUT
# For every scenario that `fxkcc verify` reported as MISMATCH, STALE, MISSING or ERROR in REPORT
# (the verify step's table), OUT/<name>/ gets this runner's hash file and trajectory CSV of the
# scenario (`fxkcc run`), and, when the golden exists, the desync bundle against
# golden/GOLDEN_TARGET/<name>.hashes (`fxkcc desync SCENARIO GOLDEN --bundle`: first divergent
# tick, fields, solver trace; docs/desync.md). OUT/README.txt lists what was gathered.
# Exit code: 0 when something was gathered or nothing failed in REPORT; 2 on bad usage.
set -uo pipefail
[ $# -eq 4 ] || { echo "usage: scripts/ci-failure-bundle.sh FXKCC REPORT GOLDEN_TARGET OUT" >&2; exit 2; }
FXKCC=$1 REPORT=$2 TARGET=$3 OUT=$4
[ -f "$REPORT" ] || { echo "ci-failure-bundle: no report '$REPORT' (the verify step did not run)" >&2; exit 0; }
mkdir -p "$OUT"
# name -> scenario path, from `fxkcc list` (name, ticks, characters, path, description; tabs).
# A file and awk, not an associative array: the macOS job runs this with Apple's bash 3.2.
scenarios=$(mktemp "${TMPDIR:-/tmp}/fxkcc-bundle.XXXXXX") || exit 2
trap 'rm -f "$scenarios"' EXIT
"$FXKCC" list >"$scenarios" 2>/dev/null
path_of() { awk -F '\t' -v n="$1" '$1 == n { print $4; exit }' "$scenarios"; }
{
  echo "Gathered by scripts/ci-failure-bundle.sh from $REPORT (goldens of $TARGET)."
  echo
} >"$OUT/README.txt"
failed=0
while read -r status name _; do
  case "$status" in MISMATCH|STALE|MISSING|ERROR) ;; *) continue ;; esac
  failed=$((failed + 1))
  scenario=$(path_of "$name")
  if [ -z "$scenario" ]; then
    echo "$status $name: no scenario of that name in fxkcc list" >>"$OUT/README.txt"
    continue
  fi
  dir="$OUT/$name"
  mkdir -p "$dir"
  "$FXKCC" run "$scenario" --hashes "$dir/$name.hashes" --csv "$dir/$name.csv" >"$dir/run.txt" 2>&1
  line="$status $name ($scenario): this runner's $name.hashes and $name.csv"
  golden="golden/$TARGET/$name.hashes"
  if [ -f "$golden" ]; then
    "$FXKCC" desync "$scenario" "$golden" --bundle "$dir/desync" >"$dir/desync.txt" 2>&1
    line+=", desync.txt and the bundle desync/ against $golden"
  fi
  echo "$line" >>"$OUT/README.txt"
done <"$REPORT"
echo "$failed failing scenario(s)" >>"$OUT/README.txt"
cat "$OUT/README.txt"
exit 0
