#!/usr/bin/env bash
# Gate: no source file under core/, geometry/, cli/ or capi/ is longer than 600 lines (one idea a
# file: docs/architecture.md, "The rooms of the solve"). Exit 0 clean, 1 naming each longer file.
#   scripts/gate-file-length.sh [ROOT]
#   scripts/gate-file-length.sh --self-test    a 601-line file must fail it, a 600-line one pass
set -euo pipefail
limit=600
scan() { # ROOT
  local long
  long=$(cd "$1" && find core geometry cli capi -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' -o -name '*.c' \) \
           -exec awk -v max="$limit" 'END { if (NR > max) print FILENAME ": " NR " lines" }' {} \; 2>/dev/null | LC_ALL=C sort)
  if [ -n "$long" ]; then
    echo "gate-file-length: source files over $limit lines (split them by responsibility):"
    printf '%s\n' "$long"
    return 1
  fi
  echo "gate-file-length: no source file under core/, geometry/, cli/ or capi/ over $limit lines"
}
if [ "${1:-}" = "--self-test" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/core" "$tmp/cli/x"
  seq 600 | sed 's#^#// #' >"$tmp/core/ok.h"
  scan "$tmp" >/dev/null || { echo "self-test: a 600-line file failed it" >&2; exit 1; }
  seq 601 | sed 's#^#// #' >"$tmp/cli/x/long.cpp"
  if scan "$tmp" >/dev/null; then echo "self-test: a 601-line file passed it" >&2; exit 1; fi
  echo "self-test: a 601-line file fails the gate, a 600-line one passes"
  exit 0
fi
scan "${1:-$(cd "$(dirname "$0")/.." && pwd)}"
