#!/usr/bin/env bash
# Gate: compiler extensions (what MSVC would not compile) appear only in the guarded native block
# of core/math/include/fx/wide.h, between `#if FX_COMPILER_HAS_INT128` and its `#endif`, which
# FX_STANDARD_CPP_ONLY compiles out. Anywhere else in core/, geometry/, cli/ and capi/: no
# __int128 / __uint128_t, __builtin_*, inline assembly (asm, __asm, __asm__, with volatile or
# goto), __attribute__, __extension__, __declspec, __typeof__, `#pragma GCC` or _Pragma.
# Comments and string literals do not count (scripts/strip-comments.py blanks them line for line);
# code does however it is laid out. (Compiler-identifying macros such as __GNUC__ are standard
# practice and allowed.)
#   scripts/gate-standard-cpp.sh [ROOT]          exit 0 clean, 1 naming the offending lines
#   scripts/gate-standard-cpp.sh --self-test     extensions planted a dozen ways must each fail it
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pattern='__u?int128|__builtin_|\b(__)?asm(__)?\b|__attribute__|__extension__|__declspec|__typeof__|\b_Pragma\b|#[[:space:]]*pragma[[:space:]]+GCC\b'
scan() { # root
  local root=$1 hits f tmpd wide=core/math/include/fx/wide.h
  tmpd=$(mktemp -d)
  local files=()
  while IFS= read -r f; do
    if [ "$f" = "$wide" ]; then
      # Blank out the native block (nested #if/#endif counted) before matching.
      mkdir -p "$tmpd/$(dirname "$f")"
      awk 'BEGIN{d=0} { if (d==0 && $0 ~ /^#if FX_COMPILER_HAS_INT128/) {d=1; print ""; next}
           if (d>0) { if ($0 ~ /^#[[:space:]]*if/) d++; else if ($0 ~ /^#[[:space:]]*endif/) d--; print ""; next }
           print }' "$root/$f" >"$tmpd/$f"
      files+=("$tmpd/$f")
    else
      files+=("$root/$f")
    fi
  done < <(cd "$root" && find core geometry cli capi -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' -o -name '*.c' \) 2>/dev/null | sort)
  # One run over every file; the names printed relative to the root (wide.h's blanked copy too).
  hits=$(python3 "$here/strip-comments.py" "${files[@]}" | grep -E "^[^:]+:[0-9]+:.*($pattern)" |
         sed -e "s#^$tmpd/##" -e "s#^$root/##" || true)
  rm -rf "$tmpd"
  if [ -n "$hits" ]; then
    echo "gate-standard-cpp: compiler extensions outside the guarded block of core/math/include/fx/wide.h:"
    printf '%s\n' "$hits"
    return 1
  fi
  echo "gate-standard-cpp: core/, geometry/, cli/ and capi/ use no compiler extension outside wide.h's guarded native block"
}
if [ "${1:-}" = "--self-test" ]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/core/math/include/fx" "$tmp/geometry" "$tmp/cli" "$tmp/capi"
  cp "$root/core/math/include/fx/wide.h" "$tmp/core/math/include/fx/wide.h"
  scan "$tmp" >/dev/null || { echo "gate-standard-cpp: self-test: the gate refused the clean wide.h" >&2; exit 1; }
  # Look-alikes in comments and strings pass.
  printf '%s\n' '// __builtin_clz, asm("nop"), #pragma GCC, __int128' '/* __attribute__((x)) */' \
    'const char* kWhy = "no __int128 here, no asm(";' >"$tmp/geometry/clean.cpp"
  scan "$tmp" >/dev/null || { echo "gate-standard-cpp: self-test: look-alikes in comments failed it" >&2; exit 1; }
  while IFS='|' read -r dir planted; do
    printf '%b\n' "$planted" >"$tmp/$dir/planted.cpp"
    if scan "$tmp" >/dev/null; then
      echo "gate-standard-cpp: self-test: the gate missed '$planted': it cannot be trusted" >&2
      exit 1
    fi
    echo "gate-standard-cpp: self-test: caught: $planted"
    rm "$tmp/$dir/planted.cpp"
  done <<'PLANTS'
geometry|inline int lz(unsigned v) { return __builtin_clz(v); }
geometry|__extension__ typedef __int128 big;
geometry|inline void f() { __asm__("nop"); }
geometry|inline void f() { asm volatile("nop"); }
geometry|inline void f() { __asm("nop"); }
geometry|#pragma GCC optimize("O3")
geometry|_Pragma("GCC optimize(\\"O3\\")") inline int f() { return 1; }
geometry|typedef __uint128_t wide;
geometry|inline int f(int v)\n    __attribute__((noinline));
cli|inline int f() { return 1; } __declspec(noinline) int g();
capi|inline unsigned pop(unsigned v) { return __builtin_popcount(v); }
PLANTS
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
