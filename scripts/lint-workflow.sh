#!/usr/bin/env bash
# Checks the GitHub Actions workflow in ci/ against the workflow schema with action-validator
# (npm package @action-validator/cli, installed once into the deps cache). Proves first that
# the validator rejects a broken copy. Exit 0 valid, 1 invalid, 125 validator unavailable.
set -uo pipefail
cd "$(dirname "$0")/.."
CACHE=${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/npm
VALIDATOR="$CACHE/node_modules/.bin/action-validator"
if [ ! -x "$VALIDATOR" ]; then
  command -v npm >/dev/null || { echo "lint-workflow: npm not found" >&2; exit 125; }
  mkdir -p "$CACHE"
  npm install --silent --no-audit --no-fund --prefix "$CACHE" @action-validator/cli@0.6.0 >/dev/null 2>&1 ||
    { echo "lint-workflow: cannot install @action-validator/cli" >&2; exit 125; }
fi
broken=$(mktemp --suffix=.yml)
trap 'rm -f "$broken"' EXIT
sed 's/runs-on:/runz-on:/' ci/github/workflows/fxkcc.yml >"$broken"
if "$VALIDATOR" "$broken" >/dev/null 2>&1; then
  echo "lint-workflow: the validator accepted a broken workflow: it cannot be trusted" >&2
  exit 1
fi
status=0
for wf in ci/github/workflows/*.yml; do
  if "$VALIDATOR" "$wf"; then echo "lint-workflow: $wf is valid"; else status=1; fi
done
exit $status
