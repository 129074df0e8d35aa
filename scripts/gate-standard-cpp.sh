#!/usr/bin/env bash
# Gate: compiler extensions (what MSVC would not compile) appear only in the guarded native block
# of core/math/include/fx/wide.h, between `#if FX_COMPILER_HAS_INT128` and its `#endif`, which
# FX_STANDARD_CPP_ONLY compiles out. Anywhere else in core/, geometry/, cli/ and capi/: no
# __int128 / __uint128_t, __builtin_*, inline assembly (asm, __asm, __asm__, with volatile or
# goto), __attribute__, __extension__, __declspec, __typeof__, `#pragma GCC` or _Pragma.
# Comments and string literals do not count (scripts/strip-comments.py blanks them line for line);
# code does however it is laid out. (Compiler-identifying macros such as __GNUC__ are standard
# practice and allowed.)
# Then a strict compile decides what a token scan cannot see (case ranges, statement expressions,
# variable-length and zero-length arrays, `?:` with the middle left out, `\e`, `$` in names, ...):
# every source of core/, geometry/ and capi/src and every header alone (capi's C header also as
# C11), with FX_STANDARD_CPP_ONLY, by clang (-std=c++20 -pedantic-errors -Wgnu
# -Wlanguage-extension-token -Wgcc-compat -Wmicrosoft) and by GCC (-std=c++20 -pedantic-errors,
# which also refuses __int128 however it is spelled), warnings as errors, GNU dialects off.
#   scripts/gate-standard-cpp.sh [ROOT]          exit 0 clean, 1 naming the offending lines or
#                                                the compiler's error
#   scripts/gate-standard-cpp.sh --self-test     extensions planted a dozen ways must each fail it,
#                                                six of them (a case range, a statement expression,
#                                                arrays of variable and zero length, `?:`, `$`) in
#                                                no form the token scan knows
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
  strict_compile "$root"
}
# strict_compile ROOT: each unit compiled (syntax only) by both compilers in standard mode.
strict_compile() {
  local root=$1 units=() inc=() f d out
  for d in "$root"/core/*/include "$root"/geometry/include "$root"/capi/include; do [ -d "$d" ] && inc+=("-I$d"); done
  # capi/src checks the project's version (capi/CMakeLists.txt defines it from project()).
  local v
  v=$(sed -n 's/^project(fxkcc VERSION \([0-9]*\)\.\([0-9]*\)\.\([0-9]*\).*/\1 \2 \3/p' "$root/CMakeLists.txt" 2>/dev/null)
  read -r -a v <<<"${v:-0 0 0}"
  inc+=("-DFX_PROJECT_VERSION_MAJOR=${v[0]}" "-DFX_PROJECT_VERSION_MINOR=${v[1]}" "-DFX_PROJECT_VERSION_PATCH=${v[2]}")
  while IFS= read -r f; do units+=("$f"); done < <(cd "$root" &&
    find core geometry capi/src capi/include -type f \( -name '*.h' -o -name '*.cpp' \) \
      -not -path '*/test*' -not -path '*/bench*' 2>/dev/null | LC_ALL=C sort)
  out=$(mktemp -d)
  # One line per unit: compiler, language, file. A header is compiled through a unit that
  # includes it (compiled as the main file, `#pragma once` would be a warning).
  for f in "${units[@]}"; do
    echo "clang++ c++ $f"
    case "$f" in capi/include/fxkcc/*) ;; capi/include/*.h) echo "gcc c $f" ;; esac # fxkcc/: C++ headers
  done | INCS="${inc[*]}" ROOT="$root" OUT="$out" xargs -P "${JOBS:-2}" -L 1 bash -c '
    cc=$0 lang=$1 f=$2
    flags=(-fsyntax-only -Werror -Wall -Wextra -pedantic-errors -DFX_STANDARD_CPP_ONLY)
    if [ "$lang" = c ]; then flags+=(-x c -std=c11); else flags+=(-x c++ -std=c++20); fi
    [ "$cc" = clang++ ] && flags+=(-Wgnu -Wlanguage-extension-token -Wgcc-compat -Wmicrosoft)
    log="$OUT/$(echo "$cc-$lang-$f" | tr / _).log"
    case "$f" in
      *.h) unit=(-) ;;
      *) unit=("$f") ;;
    esac
    # shellcheck disable=SC2086 # the include flags are words
    if ! (cd "$ROOT" && printf "#include \"%s\"\n" "$ROOT/$f" | "$cc" "${flags[@]}" $INCS "${unit[@]}") >"$log" 2>&1; then
      echo "$cc $lang $f" >>"$OUT/failed"
    fi'
  if [ -s "$out/failed" ]; then
    echo "gate-standard-cpp: not standard C++ (or C) by a strict compile:"
    while read -r cc lang f; do
      echo "  $f ($cc, $lang):"
      sed -n 1,12p "$out/$(echo "$cc-$lang-$f" | tr / _).log" | sed 's/^/    /'
    done <"$out/failed"
    rm -rf "$out"
    return 1
  fi
  rm -rf "$out"
  echo "gate-standard-cpp: ${#units[@]} units compile as standard C++20 by clang (capi's header also as C11 by gcc), -pedantic-errors, GNU extensions warned as errors, FX_STANDARD_CPP_ONLY"
}
if [ "${1:-}" = "--self-test" ]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/core/math/include/fx" "$tmp/geometry/src" "$tmp/cli" "$tmp/capi/src"
  cp "$root/core/math/include/fx/wide.h" "$tmp/core/math/include/fx/wide.h"
  scan "$tmp" >/dev/null || { echo "gate-standard-cpp: self-test: the gate refused the clean wide.h" >&2; exit 1; }
  # Look-alikes in comments and strings pass.
  printf '%s\n' '// __builtin_clz, asm("nop"), #pragma GCC, __int128' '/* __attribute__((x)) */' \
    'const char* kWhy = "no __int128 here, no asm(";' >"$tmp/geometry/src/clean.cpp"
  scan "$tmp" >/dev/null || { echo "gate-standard-cpp: self-test: look-alikes in comments failed it" >&2; exit 1; }
  while IFS='|' read -r file planted; do
    printf '%b\n' "$planted" >"$tmp/$file"
    if scan "$tmp" >/dev/null; then
      echo "gate-standard-cpp: self-test: the gate missed '$planted' in $file: it cannot be trusted" >&2
      exit 1
    fi
    echo "gate-standard-cpp: self-test: caught in $file: $planted"
    rm "$tmp/$file"
  done <<'PLANTS'
geometry/src/planted.cpp|inline int lz(unsigned v) { return __builtin_clz(v); }
geometry/src/planted.cpp|__extension__ typedef __int128 big;
geometry/src/planted.cpp|inline void f() { __asm__("nop"); }
geometry/src/planted.cpp|inline void f() { asm volatile("nop"); }
geometry/src/planted.cpp|inline void f() { __asm("nop"); }
geometry/src/planted.cpp|#pragma GCC optimize("O3")
geometry/src/planted.cpp|_Pragma("GCC optimize(\\"O3\\")") inline int f() { return 1; }
geometry/src/planted.cpp|typedef __uint128_t wide;
geometry/src/planted.cpp|inline int f(int v)\n    __attribute__((noinline));
cli/planted.cpp|inline int f() { return 1; } __declspec(noinline) int g();
capi/src/planted.cpp|inline unsigned pop(unsigned v) { return __builtin_popcount(v); }
geometry/src/planted.cpp|inline int bucket(int v) {\n    switch (v) {\n    case 0 ... 9: return 0;\n    default: return 1;\n    }\n}
core/math/include/fx/planted.h|#pragma once\ninline int twice(int v) {\n    return ({ int t = v; t + t; });\n}
capi/src/planted.cpp|inline int last(int n) {\n    int scratch[n];\n    scratch[0] = n;\n    return scratch[0];\n}
geometry/src/planted.cpp|inline int pick(int a, int b) { return a\n    ?: b; }
geometry/src/planted.cpp|struct Tail { int n; int items[0]; };
capi/src/planted.cpp|inline int $count = 0;
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
