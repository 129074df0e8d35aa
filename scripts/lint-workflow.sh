#!/usr/bin/env bash
# Checks the GitHub Actions workflows in ci/:
# 1. what the schema does not say (scripts/lint-workflow-rules.py, on the parsed YAML): no retired
#    runner label (macos-14, ubuntu-20.04, windows-2019 and older, in any form runs-on takes,
#    matrix includes among them), git installed before actions/checkout in every container job,
#    actions/* at v5 or later, and nothing bash 3.2 lacks in the scripts the macOS and Windows
#    jobs run. Its self-test first plants each violation, written several ways, in copies and
#    requires each copy refused;
# 2. the workflow schema, with action-validator (npm package @action-validator/cli, installed
#    once into the deps cache), which must first reject a broken copy.
# Exit 0 valid, 1 invalid, 125 validator unavailable (after the rules passed).
set -uo pipefail
cd "$(dirname "$0")/.."
self_test=$(python3 scripts/lint-workflow-rules.py --self-test 2>&1) ||
  { echo "$self_test"; echo "lint-workflow: the rules' self-test failed" >&2; exit 1; }
echo "$self_test" | tail -1
python3 scripts/lint-workflow-rules.py || exit 1
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
