#!/usr/bin/env bash
# Gate: compiler extensions (what MSVC would not compile) appear only in the guarded native block
# of core/math/include/fx/wide.h, between `#if FX_COMPILER_HAS_INT128` and its `#endif`, which
# FX_STANDARD_CPP_ONLY compiles out. Anywhere else in core/, geometry/ and cli/: no __int128,
# __builtin_*, inline assembly, __attribute__, __extension__, __declspec, __typeof__ or
# `#pragma GCC`. (Compiler-identifying macros such as __GNUC__ are standard practice and allowed.)
#   scripts/gate-standard-cpp.sh [ROOT]          exit 0 clean, 1 naming the offending lines
#   scripts/gate-standard-cpp.sh --self-test     proves the gate fails on a planted violation
set -euo pipefail
pattern='__int128|__builtin_|__asm__|\basm[[:space:]]*\(|__attribute__|__extension__|__declspec|__typeof__|#[[:space:]]*pragma[[:space:]]+GCC'
scan() { # root
  local root=$1 hits="" f
  while IFS= read -r f; do
    local lines
    if [ "$f" = "core/math/include/fx/wide.h" ]; then
      # Blank out the native block (nested #if/#endif counted) before matching.
      lines=$(awk 'BEGIN{d=0} { if (d==0 && $0 ~ /^#if FX_COMPILER_HAS_INT128/) {d=1; print ""; next}
                   if (d>0) { if ($0 ~ /^#[[:space:]]*if/) d++; else if ($0 ~ /^#[[:space:]]*endif/) d--; print ""; next }
                   print }' "$root/$f" | grep -nE "$pattern" || true)
    else
      lines=$(grep -nE "$pattern" "$root/$f" || true)
    fi
    # Comments do not count: drop // comments and lines that are part of a /* */ or /// block.
    lines=$(printf '%s\n' "$lines" | sed -E 's#//.*$##' | grep -vE '^[0-9]+:[[:space:]]*(/?\*)' | grep -E "$pattern" || true)
    [ -n "$lines" ] && hits+=$(printf '%s\n' "$lines" | sed "s#^#$f:#")$'\n'
  done < <(cd "$root" && find core geometry cli -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' \) 2>/dev/null | sort)
  if [ -n "$hits" ]; then
    echo "gate-standard-cpp: compiler extensions outside the guarded block of core/math/include/fx/wide.h:"
    printf '%s' "$hits"
    return 1
  fi
  echo "gate-standard-cpp: core/, geometry/ and cli/ use no compiler extension outside wide.h's guarded native block"
}
if [ "${1:-}" = "--self-test" ]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/core/math/include/fx" "$tmp/geometry" "$tmp/cli"
  cp "$root/core/math/include/fx/wide.h" "$tmp/core/math/include/fx/wide.h"
  scan "$tmp" >/dev/null || { echo "gate-standard-cpp: self-test: the gate refused the clean wide.h" >&2; exit 1; }
  for planted in 'inline int lz(unsigned v) { return __builtin_clz(v); }' '__extension__ typedef __int128 big;' \
                 'inline void f() { __asm__("nop"); }' '#pragma GCC optimize("O3")'; do
    printf '%s\n' "$planted" >"$tmp/geometry/planted.cpp"
    if scan "$tmp" >/dev/null; then
      echo "gate-standard-cpp: self-test: the gate missed '$planted': it cannot be trusted" >&2
      exit 1
    fi
  done
  rm "$tmp/geometry/planted.cpp"
  # Outside the guarded block, wide.h itself counts too.
  printf '%s\n' 'inline int lz(unsigned v) { return __builtin_clz(v); }' >>"$tmp/core/math/include/fx/wide.h"
  if scan "$tmp" >/dev/null; then
    echo "gate-standard-cpp: self-test: the gate missed a builtin after the guarded block" >&2
    exit 1
  fi
  echo "gate-standard-cpp: self-test: every planted extension is caught, the clean header passes"
  exit 0
fi
scan "${1:-$(cd "$(dirname "$0")/.." && pwd)}"
