#!/usr/bin/env bash
# Gate: compile every source of the deterministic layers with AArch64 GCC and
# -mgeneral-regs-only, under which any floating-point type or operation is a compile error.
# First proves the gate can fail (a probe using a double must be rejected), then compiles
# core/ and geometry/ sources. Exit 0 clean, 1 on a violation, 125 if the compiler is missing.
# Code GCC does not generate (a header's inline function no source calls, a branch only another
# target's preprocessor takes) is scripts/gate-compiled-types.py's: libclang's types of it all.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
CXX=${AARCH64_CXX:-aarch64-linux-gnu-g++}
if ! command -v "$CXX" >/dev/null 2>&1; then
  echo "gate-general-regs-only: $CXX not found (scripts/setup.sh installs g++-aarch64-linux-gnu)" >&2
  exit 125
fi
# -O0: the check is the same (GCC rejects a floating-point type wherever code uses one, at any
# level; at -O0 none is optimised away first) at a fraction of -O2's compile time.
flags=(-std=c++20 -O0 -mgeneral-regs-only -Wall -Wextra -Werror -c -o /dev/null)
includes=()
for inc in core/*/include geometry/include; do [ -d "$inc" ] && includes+=("-I$inc"); done

probe=$(mktemp --suffix=.cpp)
trap 'rm -f "$probe"' EXIT
printf 'double half(double x) { return x * 0.5; }\n' >"$probe"
if "$CXX" "${flags[@]}" "$probe" 2>/dev/null; then
  echo "gate-general-regs-only: the probe using double compiled: the gate cannot detect floating point" >&2
  exit 1
fi

status=0
count=0
while IFS= read -r src; do
  count=$((count + 1))
  if ! "$CXX" "${flags[@]}" "${includes[@]}" "$src"; then
    echo "gate-general-regs-only: $src does not compile without floating-point registers" >&2
    status=1
  fi
done < <(find core geometry -name '*.cpp' -not -path '*/test*' -not -path '*/bench*' 2>/dev/null | sort)
[ $status -eq 0 ] && echo "gate-general-regs-only: $count sources compile with $CXX -mgeneral-regs-only"
exit $status
