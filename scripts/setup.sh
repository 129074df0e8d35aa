#!/usr/bin/env bash
# Installs whatever the build and the tests need and is missing. Idempotent: when everything
# is present it changes nothing and prints one line. Both README commands call it.
#   Debian 12 (where the test command runs) and Ubuntu 24.04: apt-get, as root or through sudo.
#   macOS: Homebrew (brew install of what is missing); without brew it names the formulae.
#   Elsewhere: it names the Debian packages to find equivalents of, exit 125.
set -euo pipefail

os_id=""
# shellcheck source=/dev/null
[ -r /etc/os-release ] && os_id=$(. /etc/os-release && echo "${ID:-}")

# A browser draws `fxkcc plot`'s SVG in e2e.Plot (tests/e2e/test_cli.py looks for these names,
# or $FXKCC_BROWSER). Debian packages chromium; Ubuntu's chromium is a snap (no deb to install
# in a container or on a runner without snapd): there the test draws the SVG with librsvg's
# rsvg-convert, a real SVG renderer, unless a Chrome or Chromium is already installed.
have_browser=0
for browser in ${FXKCC_BROWSER:-} chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$browser" >/dev/null 2>&1; then have_browser=1; break; fi
done
[ -x "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" ] && have_browser=1

if [ "$(uname -s)" = Darwin ]; then
  # macOS's own bash is 3.2: no associative arrays here. Homebrew formula:a file under brew's
  # prefix that proves it is installed (Homebrew's catch2 is v3; cmake/FxDependencies.cmake takes it).
  prefix=$(brew --prefix 2>/dev/null || echo /opt/homebrew)
  missing=""
  for pair in cmake:bin/cmake ninja:bin/ninja catch2:include/catch2/catch_all.hpp \
              cli11:include/CLI/CLI.hpp yaml-cpp:include/yaml-cpp/yaml.h xxhash:include/xxhash.h \
              fmt:include/fmt/format.h nlohmann-json:include/nlohmann/json.hpp; do
    [ -e "$prefix/${pair#*:}" ] || missing="$missing ${pair%%:*}"
  done
  command -v python3 >/dev/null 2>&1 || missing="$missing python@3"
  python3 -c "import yaml" 2>/dev/null || missing="$missing pyyaml" # tests/ci/test_workflow.py
  [ "$have_browser" = 1 ] || [ -e "$prefix/bin/rsvg-convert" ] || missing="$missing librsvg"
  if [ -z "$missing" ]; then echo "setup: all dependencies present"; exit 0; fi
  if ! command -v brew >/dev/null 2>&1; then
    echo "setup: install Homebrew, then: brew install$missing" >&2
    echo "setup: (and Xcode's command line tools for the compiler: xcode-select --install)" >&2
    exit 125
  fi
  echo "setup: brew install$missing"
  # shellcheck disable=SC2086 # one word per formula
  brew install $missing
  echo "setup: done"
  exit 0
fi

# Debian package -> files that prove it is installed, '|' between alternatives (cheaper and more
# robust than dpkg -s for packages that another package may provide).
declare -A NEED=(
  [cmake]=/usr/bin/cmake
  [ninja-build]=/usr/bin/ninja
  [g++]=/usr/bin/g++
  # v2 (Debian 12, header only) or v3 (Ubuntu 24.04, a library under the multiarch folder)
  [catch2]="/usr/lib/cmake/Catch2/Catch2Config.cmake|/usr/lib/$(uname -m)-linux-gnu/cmake/Catch2/Catch2Config.cmake|/usr/share/cmake/Catch2/Catch2Config.cmake"
  [libcli11-dev]=/usr/include/CLI/CLI.hpp
  [libyaml-cpp-dev]=/usr/include/yaml-cpp/yaml.h
  [libxxhash-dev]=/usr/include/xxhash.h
  [libfmt-dev]=/usr/include/fmt/format.h
  [nlohmann-json3-dev]=/usr/include/nlohmann/json.hpp   # JSON reports (records/json.h)
  [clang-format-14]=/usr/bin/clang-format-14   # scripts/check-format.sh (gate.clang_format)
  [g++-aarch64-linux-gnu]=/usr/bin/aarch64-linux-gnu-g++
  [python3]=/usr/bin/python3
  [python3-yaml]=/usr/lib/python3/dist-packages/yaml/__init__.py   # tests/ci/test_workflow.py reads the workflow
  [python3-clang]=/usr/lib/python3/dist-packages/clang/cindex.py   # libclang for scripts/gate-compiled-types.py
)
if [ "$have_browser" = 0 ]; then
  if [ "$os_id" = ubuntu ]; then NEED[librsvg2-bin]=/usr/bin/rsvg-convert
  else NEED[chromium]=/usr/bin/chromium; fi
fi
# The cross compiler serves the AArch64 leg of the test command, on an x86-64 host.
[ "$(uname -m)" = aarch64 ] && unset 'NEED[g++-aarch64-linux-gnu]'

present() {
  local alt
  IFS='|' read -ra alts <<<"$1"
  for alt in "${alts[@]}"; do [ -e "$alt" ] && return 0; done
  return 1
}
missing=()
for pkg in $(printf '%s\n' "${!NEED[@]}" | sort); do
  present "${NEED[$pkg]}" || missing+=("$pkg")
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
