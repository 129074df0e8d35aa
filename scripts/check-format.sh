#!/usr/bin/env bash
# Gate: every C and C++ source of the tree (core/ geometry/ cli/ capi/ tests/ bench/ examples/)
# is formatted as .clang-format says, by clang-format 14 (Debian 12's; other major versions
# format some constructs differently, so their verdict would not be this tree's).
#   scripts/check-format.sh [ROOT]             check: exit 0 clean, 1 naming each file that differs
#                                              and its first differences, 77 without clang-format 14
#                                              (ctest reports the test as skipped, not passed)
#   scripts/check-format.sh --fix [ROOT]       format every source in place
#   scripts/check-format.sh --self-test        unformatted code of several kinds must each fail it
# The commit that applied the formatter to the whole tree is in .git-blame-ignore-revs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=check
case "${1:-}" in
  --fix) mode=fix; shift ;;
  --self-test) mode=self-test; shift ;;
esac
root=${1:-$(cd "$here/.." && pwd)}

find_clang_format() {
  local c
  for c in ${FXKCC_CLANG_FORMAT:-} clang-format-14 clang-format; do
    command -v "$c" >/dev/null 2>&1 || continue
    if "$c" --version | grep -qE 'version 14\.'; then echo "$c"; return 0; fi
  done
  return 1
}
if ! cf=$(find_clang_format); then
  found=$(command -v clang-format >/dev/null 2>&1 && clang-format --version || echo "none")
  echo "check-format: skipped: clang-format 14 is needed (found: $found); scripts/setup.sh installs it on Debian" >&2
  exit 77
fi

sources() {
  (cd "$1" && find core geometry cli capi tests bench examples -type f \
     \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' -o -name '*.c' -o -name '*.cc' \) 2>/dev/null | LC_ALL=C sort)
}

check_tree() {
  local tree=$1 files bad f
  mapfile -t files < <(sources "$tree")
  # One run over every file; only when it fails, the differing files and their first differences.
  if (cd "$tree" && "$cf" --style=file --dry-run --Werror "${files[@]}" >/dev/null 2>&1); then
    echo "check-format: ${#files[@]} sources formatted ($cf)"
    return 0
  fi
  bad=0
  for f in "${files[@]}"; do
    if ! (cd "$tree" && "$cf" --style=file --dry-run --Werror "$f" >/dev/null 2>&1); then
      bad=$((bad + 1))
      (cd "$tree" && "$cf" --style=file "$f" | diff -u --label "$f" --label "$f (formatted)" "$f" - | head -20) || true
    fi
  done
  echo "check-format: $bad file(s) not formatted as .clang-format says (scripts/check-format.sh --fix formats them)"
  return 1
}

case $mode in
  check) check_tree "$root" ;;
  fix)
    (cd "$root" && sources . | xargs "$cf" --style=file -i)
    echo "check-format: formatted $(sources "$root" | wc -l) sources" ;;
  self-test)
    # A scratch tree with the project's .clang-format and one formatted source; each case below
    # breaks its formatting a different way, and the check must fail on every one.
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cp "$root/.clang-format" "$tmp/"
    mkdir -p "$tmp/core/x"
    good='#include <cstdint>

namespace fx {

int64_t twice(int64_t v) {
    return v * 2;
}

} // namespace fx'
    printf '%s\n' "$good" >"$tmp/core/x/a.cpp"
    check_tree "$tmp" >/dev/null || { echo "self-test: a formatted file failed the check" >&2; exit 1; }
    fails=0
    while IFS='|' read -r name text; do
      printf '%b\n' "$text" >"$tmp/core/x/a.cpp"
      if check_tree "$tmp" >/dev/null; then
        echo "self-test: NOT caught: $name" >&2
        fails=$((fails + 1))
      else
        echo "self-test: caught: $name"
      fi
    done <<'CASES'
two-space indent|#include <cstdint>\n\nnamespace fx {\n\nint64_t twice(int64_t v) {\n  return v * 2;\n}\n\n} // namespace fx
tab indent|#include <cstdint>\n\nnamespace fx {\n\nint64_t twice(int64_t v) {\n\treturn v * 2;\n}\n\n} // namespace fx
pointer to the right|#include <cstdint>\n\nnamespace fx {\n\nint64_t twice(const int64_t *v) {\n    return *v * 2;\n}\n\n} // namespace fx
line over 100 columns|#include <cstdint>\n\nnamespace fx {\n\nint64_t twice(int64_t v) {\n    return v * 2 + v * 0 + v * 0 + v * 0 + v * 0 + v * 0 + v * 0 + v * 0 + v * 0 + v * 0 + v * 0 + v * 0;\n}\n\n} // namespace fx
includes out of order|#include <vector>\n#include <cstdint>\n\nnamespace fx {\n\nint64_t twice(int64_t v) {\n    return v * 2;\n}\n\n} // namespace fx
brace on its own line|#include <cstdint>\n\nnamespace fx {\n\nint64_t twice(int64_t v)\n{\n    return v * 2;\n}\n\n} // namespace fx
trailing whitespace|#include <cstdint>  \n\nnamespace fx {\n\nint64_t twice(int64_t v) {\n    return v * 2;\n}\n\n} // namespace fx
no space after if|#include <cstdint>\n\nnamespace fx {\n\nint64_t twice(int64_t v) {\n    if(v > 0) return v * 2;\n    return v * 2;\n}\n\n} // namespace fx
CASES
    [ "$fails" = 0 ] || exit 1
    echo "self-test: every unformatted case failed the check" ;;
esac
