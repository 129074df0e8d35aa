#!/usr/bin/env python3
"""Share of character-ticks touching each feature of the benchmark arena (issue 9).

    scripts/arena-shares.py SCENARIO.yaml [...] [--fxkcc BIN]

Runs `fxkcc run SCENARIO --trace -` (every tick; streamed line by line, never held) and, per
character per tick, collects the shape ids the solve touched: sweeps that hit (`sweep ...
flag=1 shape=N`), the ground probe's shape (`probe ... shape=N`), step attempts, snaps that
landed and landings (`snap flag=1 shape=N`, `landed shape=N`).  Shape ids are mapped to
features by the JSON names kept as comments on the scenario's `box:` lines (written by
scripts/gen-arena.py): floor; walls (wall+x, wall-x, wall+z, wall-z); corner (corner_a,
corner_b); wedge (wedge_a, wedge_b); ramp30; ramp50; ledge; stairs (step0..step9); ceiling.

Prints, per scenario, the share of character-ticks that touch only the floor, that touch
nothing (airborne, clear of everything), and that touch each feature (a tick can touch
several), next to the reference figures of issue 9 (Jolt CharacterVirtual on the same arena).
"""
import argparse
import os
import re
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FEATURES = ["walls", "corner", "wedge", "ramp30", "ramp50", "ledge", "stairs", "ceiling"]
REFERENCE = {"floor only": 48, "corner": 14, "ramp30": 5, "ramp50": 5, "ledge": 5, "wedge": 5,
             "stairs": 4}
BOX = re.compile(r"^\s*-\s*box:\s*\{\s*id:\s*(\d+),.*#\s*(\S+)\s*$")


def feature_of(name):
    if name == "floor":
        return "floor"
    if name.startswith("wall"):
        return "walls"
    if name.startswith("corner"):
        return "corner"
    if name.startswith("wedge"):
        return "wedge"
    if name.startswith("step"):
        return "stairs"
    if name in ("ramp30", "ramp50", "ledge", "ceiling"):
        return name
    return "other"


def shape_map(path):
    m = {}
    with open(path) as f:
        for line in f:
            g = BOX.match(line)
            if g:
                m[g.group(1)] = feature_of(g.group(2))
    if not m:
        sys.exit("%s: no `box: {id: N, ...}  # name` lines (generate it with scripts/gen-arena.py)"
                 % path)
    return m


def shares(fxkcc, path):
    shapes = shape_map(path)
    counts = {k: 0 for k in FEATURES + ["floor only", "nothing", "floor"]}
    total = 0
    per_char = {}
    key, touched = None, set()

    def close():
        nonlocal total
        if key is None:
            return
        total += 1
        if not touched:
            counts["nothing"] += 1
        elif touched == {"floor"}:
            counts["floor only"] += 1
        for f in touched:
            counts[f] = counts.get(f, 0) + 1
        pc = per_char.setdefault(key[1], {})
        for f in touched:
            pc[f] = pc.get(f, 0) + 1

    t0 = time.time()
    p = subprocess.Popen([fxkcc, "run", path, "--trace", "-"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1 << 20)
    for line in p.stdout:
        if not line.startswith("t="):
            continue
        # t=23 c=2 kind pass=.. it=.. reason=.. flag=F shape=S ...
        f = line.split(" ", 8)
        k = (f[0], f[1])
        if k != key:
            close()
            key, touched = k, set()
        kind, shape = f[2], f[7][6:]
        if shape == "-":
            continue
        flag = f[6][5:]
        if kind in ("sweep", "snap") and flag != "1":
            continue
        if kind in ("sweep", "probe", "step-attempt", "snap", "landed"):
            touched.add(shapes.get(shape, "other"))
    close()
    rc = p.wait()
    return counts, total, len(per_char), time.time() - t0, rc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenarios", nargs="+")
    ap.add_argument("--fxkcc", default=os.path.join(REPO, "build", "cli", "fxkcc"))
    a = ap.parse_args()
    results = []
    for s in a.scenarios:
        counts, total, chars, secs, rc = shares(a.fxkcc, s)
        results.append((os.path.basename(s), counts, total, chars, secs, rc))
    rows = ["floor only", "nothing"] + FEATURES
    head = "%-12s %9s" % ("feature", "reference") + "".join(" %14s" % r[0] for r in results)
    print(head)
    print("-" * len(head))
    for r in rows:
        ref = REFERENCE.get(r)
        line = "%-12s %9s" % (r, "%d%%" % ref if ref is not None else "-")
        for _, counts, total, *_ in results:
            line += " %13.1f%%" % (100.0 * counts.get(r, 0) / max(total, 1))
        print(line)
    for name, counts, total, chars, secs, rc in results:
        print("%s: %d character-ticks (%d characters), trace streamed in %.1f s, fxkcc exit %d"
              % (name, total, chars, secs, rc))


if __name__ == "__main__":
    main()
