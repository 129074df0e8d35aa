#!/usr/bin/env bash
# Gate: the deterministic layers (core/, geometry/) never mention floating point, the C math
# library or platform hashing outside comments. Exit 0 clean, 1 naming the offending lines.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
dirs=()
for d in core geometry; do [ -d "$d" ] && dirs+=("$d"); done
pattern='\b(float|double)\b|<cmath>|<math\.h>|std::hash|unordered_(map|set|multimap|multiset)'
# Drop // comments and lines inside /* */ blocks (those starting with '*' or '/*'), then match.
hits=$(grep -rnE --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.cc' "$pattern" "${dirs[@]}" \
  | sed -E 's#//.*$##' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*)' | grep -E "$pattern" || true)
if [ -n "$hits" ]; then
  echo "gate-no-float: floating point or platform hashing in a deterministic layer:"
  printf '%s\n' "$hits"
  exit 1
fi
echo "gate-no-float: ${dirs[*]} free of float, double, <cmath>, <math.h>, std::hash, unordered containers"
