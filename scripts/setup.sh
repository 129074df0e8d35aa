#!/usr/bin/env bash
# Installs whatever the build and the tests need and is missing. Idempotent: when everything
# is present it changes nothing and prints one line. Both README commands call it.
# On Debian/Ubuntu it uses apt-get (as root, or through sudo); elsewhere it names the packages.
set -euo pipefail

# Debian package -> a file that proves it is installed (cheaper and more robust than dpkg -s
# for packages that another package may provide).
declare -A NEED=(
  [cmake]=/usr/bin/cmake
  [ninja-build]=/usr/bin/ninja
  [g++]=/usr/bin/g++
  [catch2]=/usr/lib/cmake/Catch2/Catch2Config.cmake
  [libcli11-dev]=/usr/include/CLI/CLI.hpp
  [libyaml-cpp-dev]=/usr/include/yaml-cpp/yaml.h
  [libxxhash-dev]=/usr/include/xxhash.h
  [libfmt-dev]=/usr/include/fmt/format.h
  [g++-aarch64-linux-gnu]=/usr/bin/aarch64-linux-gnu-g++
  [python3]=/usr/bin/python3
  [python3-yaml]=/usr/lib/python3/dist-packages/yaml/__init__.py   # tests/ci/test_workflow.py reads the workflow
  [chromium]=/usr/bin/chromium   # e2e.Plot: renders `fxkcc plot` SVGs headless (tests/e2e/test_cli.py)
)

# Chrome or Chromium under another name serves the browser test just as well (GitHub's hosted
# runners ship Google Chrome; tests/e2e/test_cli.py looks for these names too).
for browser in chromium-browser google-chrome google-chrome-stable; do
  if command -v "$browser" >/dev/null 2>&1; then unset 'NEED[chromium]'; break; fi
done

missing=()
for pkg in $(printf '%s\n' "${!NEED[@]}" | sort); do
  [ -e "${NEED[$pkg]}" ] || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: no apt-get on this system; install these (or your platform's equivalents): ${missing[*]}" >&2
  exit 125
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "setup: need root to install ${missing[*]} (run as root or install them yourself)" >&2
    exit 125
  fi
fi
export DEBIAN_FRONTEND=noninteractive
# A stale or half-updated mirror index should not stop an install the current lists can serve.
$SUDO apt-get update -qq || echo "setup: apt-get update failed; installing from the package lists already here" >&2
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
