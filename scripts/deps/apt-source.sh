#!/usr/bin/env bash
# Debian's source package PACKAGE, fetched once into SRCROOT with `apt-get source`; prints the
# unpacked tree (the newest SRCROOT/PACKAGE-<version> folder):
#   scripts/deps/apt-source.sh PACKAGE SRCROOT
# When apt has no deb-src entry, one is added that mirrors the deb entries of
# /etc/apt/sources.list.d/debian.sources (Types: deb-src). Idempotent: a tree already there is
# printed without any apt call. Exit 125 when the source cannot be had; 2 on bad usage.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/deps/apt-source.sh PACKAGE SRCROOT" >&2; exit 2; }
PKG=$1
SRCROOT=$2
mkdir -p "$SRCROOT"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
APT=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900)

find_source() { find "$SRCROOT" -maxdepth 1 -type d -name "$PKG-[0-9]*" | sort | tail -n 1; }
SRC=$(find_source)
if [ -n "$SRC" ] && [ -d "$SRC/debian" ]; then
  echo "$SRC"
  exit 0
fi
command -v dpkg-source >/dev/null || $SUDO "${APT[@]}" install -y -qq --no-install-recommends dpkg-dev >&2
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  base=/etc/apt/sources.list.d/debian.sources
  if [ ! -f "$base" ]; then
    echo "apt-source: no deb-src entry and no $base to derive one from; add a deb-src line for your mirror" >&2
    exit 125
  fi
  echo "apt-source: adding deb-src entries derived from $base" >&2
  sed -E 's/^Types:.*/Types: deb-src/' "$base" | $SUDO tee /etc/apt/sources.list.d/debian-src.sources >/dev/null
  $SUDO "${APT[@]}" update -qq >&2
fi
echo "apt-source: apt-get source $PKG into $SRCROOT" >&2
fetch_source() {
  local rc=0
  (cd "$SRCROOT" && apt-get source -qq "$PKG") >/dev/null 2>"$SRCROOT/apt-source-$PKG.err" || rc=$?
  grep -v "unsandboxed as root" "$SRCROOT/apt-source-$PKG.err" >&2 || true
  return $rc
}
# The index of deb-src may be absent (an entry added by hand, never updated): update once, retry.
fetch_source || { $SUDO "${APT[@]}" update -qq >&2 && fetch_source; } || exit 125
SRC=$(find_source)
[ -n "$SRC" ] && [ -d "$SRC/debian" ] || { echo "apt-source: apt-get source gave no $PKG tree" >&2; exit 125; }
echo "$SRC"
