#!/usr/bin/env bash
# tests/js/types-test.sh JS_DIR: compiles tests/js/types_test.ts against the module's TypeScript
# declarations (JS_DIR/fxkcc.d.ts) with tsc --strict, then runs it under node with the module.
# tsc comes from Debian's node-typescript (installed by scripts/targets/wasm32-emscripten.sh).
set -euo pipefail
JS_DIR=$1
HERE=$(cd "$(dirname "$0")" && pwd)
command -v tsc >/dev/null || { echo "types-test: tsc not found (apt-get install node-typescript)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$JS_DIR"/fxkcc.js "$JS_DIR"/fxkcc.d.ts "$JS_DIR"/fxkcc_wasm.js "$HERE/types_test.ts" "$tmp/"
(cd "$tmp" && tsc --strict --noImplicitAny --target es2020 --lib es2020,dom --module commonjs types_test.ts)
node "$tmp/types_test.js"
