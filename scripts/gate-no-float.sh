#!/usr/bin/env bash
# Gate: the deterministic layers (core/, geometry/) hold no floating point, no C math library and
# no platform hashing, in code: comments, string and character literals do not count
# (scripts/strip-comments.py blanks them, line for line), everything else does, however it is laid
# out (a product on a line that starts with `*` included). Looked for:
#   - floating types: float, double (long double too), _FloatN, __fp16, __bf16, __float128,
#     _DecimalN, std::floatN_t / std::bfloat16_t;
#   - floating literals: 0.5, .5, 5., 1e-3, 0x1p-3, with or without a suffix;
#   - the math library: <cmath>, <math.h>, <cfloat>, <float.h>, <stdfloat>, and its functions
#     called through std:: or as builtins (std::sqrt(2) is a double however the 2 is written);
#   - std::hash and unordered containers (their order is the platform's).
#   scripts/gate-no-float.sh [ROOT]        exit 0 clean, 1 naming the offending lines
#   scripts/gate-no-float.sh --self-test   violations written a dozen ways must each fail it, and
#                                          a clean file full of look-alikes in comments and
#                                          strings must pass
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
types='\b(float|double)\b|\b_Float[0-9]+x?\b|\b__fp16\b|\b__bf16\b|\b__float(80|128)\b|\b__ibm128\b|\b_Decimal(32|64|128)\b|\bstd::b?float[0-9]+_t\b'
literals='(^|[^A-Za-z0-9_.])([0-9][0-9'"'"']*\.[0-9'"'"']*([eE][+-]?[0-9]+)?|\.[0-9][0-9'"'"']*([eE][+-]?[0-9]+)?|[0-9][0-9'"'"']*[eE][+-]?[0-9]+|0[xX][0-9a-fA-F'"'"']*\.?[0-9a-fA-F'"'"']*[pP][+-]?[0-9]+)[fFlL]?\b'
headers='<(cmath|math\.h|cfloat|float\.h|stdfloat)>'
functions='\b(std::|__builtin_)(sqrt|cbrt|pow|exp2?|expm1|log(2|10|1p)?|sin|cos|tan|asin|acos|atan2?|sinh|cosh|tanh|hypot|floor|ceil|round|lround|llround|trunc|fabs|fmod|remainder|fma|fmin|fmax|nearbyint|rint|lrint|llrint|ldexp|frexp|modf|scalbn|copysign|nextafter|isnan|isinf|isfinite|signbit)[fl]?[[:space:]]*\('
hashing='std::hash\b|unordered_(map|set|multimap|multiset)'
pattern="$types|$literals|$headers|$functions|$hashing"

scan() { # ROOT DIR...
  local root=$1 hits
  shift
  local files=()
  # Every file but the build's own (a .inc, .ipp or .inl one is code too).
  mapfile -t files < <(cd "$root" && find "$@" -type f ! -name 'CMakeLists.txt' ! -name '*.md' 2>/dev/null | LC_ALL=C sort)
  [ ${#files[@]} -gt 0 ] || { echo "gate-no-float: no sources under $*" >&2; return 1; }
  hits=$(cd "$root" && python3 "$here/strip-comments.py" "${files[@]}" | grep -E "^[^:]+:[0-9]+:.*($pattern)" || true)
  if [ -n "$hits" ]; then
    echo "gate-no-float: floating point, the math library or platform hashing in a deterministic layer:"
    printf '%s\n' "$hits"
    return 1
  fi
  echo "gate-no-float: $* free of floating types and literals, the math library, std::hash and unordered containers (${#files[@]} files)"
}

if [ "${1:-}" = "--self-test" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/core"
  # Clean: look-alikes in comments and literals, member access, digit separators, versions.
  cat >"$tmp/core/clean.cpp" <<'CLEAN'
// A double-check of float-free code: 0.5, 1e-3, std::sqrt(2), <cmath>, std::hash.
/* A block comment: double x = 0.25;
 * its continuation: float y = .5f; std::unordered_map<int, int> m;
 */
#include <cstdint>
/// Returns v * 2 (not v * 2.0).
int64_t twice(int64_t v) { return v * 2; } // 1.0e3 in a trailing comment
const char* kVersion = "fxkcc 0.1.0, 1e-3 m, double";
const char kDot = '.';
const int64_t kMillion = 1'000'000;
const int64_t kMask = 0xFFFF'FFFF;
const char16_t kWide = u'.'; // a prefixed character literal: '.' is not a number
struct P { int64_t x; };
int64_t get(const P& p) { return p.x + kMillion; }
CLEAN
  scan "$tmp" core >/dev/null || { echo "gate-no-float: self-test: the clean file failed:" >&2; scan "$tmp" core >&2; exit 1; }
  fails=0
  while IFS='|' read -r name code; do
    printf '%b\n' "$code" >"$tmp/core/planted.cpp"
    if scan "$tmp" core >/dev/null; then
      echo "self-test: NOT caught: $name" >&2
      fails=$((fails + 1))
    else
      echo "self-test: caught: $name"
    fi
  done <<'CASES'
a double|double half(int v) { return v / 2; }
a long double on a line that starts with a star|int f(int v) {\n    return v\n    * sizeof(long double); }
a product with 0.5 on a continuation line|int f(int v) {\n    return v\n        * 0.5; }
a literal without a leading digit|int f(int v) { return v * .5f; }
an exponent literal|int f(int v) { return v > 1e-3; }
a hex float|int f(int v) { return v > 0x1p-3; }
code after a block comment on one line|/* note */ float g = 0;
std::sqrt of an integer|#include <algorithm>\nint f(int v) { return static_cast<int>(std::sqrt(v)); }
a builtin math function|int f(int v) { return static_cast<int>(__builtin_floor(v)); }
the C math header|#include <math.h>
a half-precision type|_Float16 h;
x87's extended type|__float80 e;
a product after a prefixed character literal|char16_t k = u'k'; int f(int v) { return v * 0.75; }
std::hash|#include <functional>\nstd::size_t f(int v) { return std::hash<int>{}(v); }
an unordered set|#include <unordered_set>\nstd::unordered_set<int> s;
CASES
  rm -f "$tmp/core/planted.cpp"
  printf 'constexpr long kSkin = static_cast<long>(0.01 * 4294967296.0);\n' >"$tmp/core/tuning.inc"
  if scan "$tmp" core >/dev/null; then
    echo "self-test: NOT caught: a literal in a .inc file" >&2
    fails=$((fails + 1))
  else
    echo "self-test: caught: a literal in a .inc file"
  fi
  [ "$fails" = 0 ] || exit 1
  echo "self-test: every planted violation failed the gate; the clean file passed"
  exit 0
fi

root=${1:-$(cd "$here/.." && pwd)}
dirs=()
for d in core geometry; do [ -d "$root/$d" ] && dirs+=("$d"); done
scan "$root" "${dirs[@]}"
