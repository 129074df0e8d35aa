#!/usr/bin/env python3
"""ledge-heights: ledges just above the snap distance walked off at every speed and tick phase,
the scenario and its expectations from KCC-SPEC's rules alone.

    python3 scenarios/conformance/derivations/ledge-heights.py          # the lanes
    python3 scenarios/conformance/derivations/ledge-heights.py --write  # (re)writes ../ledge-heights.yaml
    python3 scenarios/conformance/derivations/ledge-heights.py --check  # exit 1 if the file differs

Lanes 2 m apart along z; one ledge box per height (its top at y = h, its edge at x = 0), the
floor (top y = 0) beyond it. Heights h: 0.2, 0.25, 0.27, 0.29 and 0.3 m, within the 0.3 m snap
distance, and 0.301, 0.305, 0.31, 0.315, 0.32, 0.33 and 0.36 m, above it; for each, the stick straight along +x at four speeds (6.2, 4.65,
3.1, 1.55 m/s: stick 1, 0.7875, 0.575, 0.3625 with the 0.15 dead zone rescaled) and three tick
phases (spawned 0, 1/3 and 2/3 of a tick's travel at that speed further back: the ticks fall at
different places relative to the edge). Every body starts 0.6 m (plus its phase) back from the
edge, one skin above the ledge.

KCC-SPEC ("Snap to ground"): a grounded body that is no longer touching ground sweeps down up to
0.3 m and lands on walkable ground if found ("without this, every walk down a slope or a step
becomes a string of small hops"); a drop beyond that is a fall. So:
- a body walking off a ledge up to 0.3 m high is never airborne (airborne_ticks 0), at every
  speed and phase (before behaviour 10 a slow walker rolling off the rim hopped: the rim's
  contact turned steeper than the stay limit and blocked the snap's sweep down);
- a body walking off a higher one is airborne for at least one tick (airborne_ticks >= 1), at
  every speed and phase (a ledge 0.3 to 0.32 m high was walked down grounded at some phases
  before behaviour 10: the floor came within the ground probe's band);
- it lands and ends one skin above the floor (y = 0.015, 0.1 mm of rounding), grounded, past the
  edge, at its ground speed (air keeps momentum and the landing on a level floor clips only the
  vertical part: horizontal_speed the stick's, 1 mm/s of rounding);
- no penetration of the static geometry.
"""

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import main, num  # noqa: E402

DT = 0.02
SKIN = 0.015
TICKS = 90
HEIGHTS = (0.2, 0.25, 0.27, 0.29, 0.3, 0.301, 0.305, 0.31, 0.315, 0.32, 0.33, 0.36)
SNAP = 0.3
SPEEDS = ((6.2, "1"), (4.65, "0.7875"), (3.1, "0.575"), (1.55, "0.3625"))
PHASES = 3
RUNUP = 0.6



def write():
    per_height = len(SPEEDS) * PHASES
    world = [f"  - box: {{id: 1, center: [10, -0.5, {num(per_height * len(HEIGHTS))}], "
             f"half_extents: [10, 0.5, {num(per_height * len(HEIGHTS) + 2)}]}}   # floor, top y = 0, x in [0, 20]"]
    chars, expects, rows = [], [], []
    cid = 0
    for hi, h in enumerate(HEIGHTS):
        z0 = hi * per_height * 2
        world.append(f"  - box: {{id: {hi + 2}, center: [-3, {num(h / 2)}, {num(z0 + per_height - 1)}], "
                     f"half_extents: [3, {num(h / 2)}, {num(per_height)}]}}   # ledge {h} m, edge at x = 0")
        for si, (v, stick) in enumerate(SPEEDS):
            for ph in range(PHASES):
                cid += 1
                z = z0 + 2 * (si * PHASES + ph)
                x = -(RUNUP + v * DT * ph / PHASES)
                chars.append(f"  - {{id: {cid}, spawn: [{num(x)}, {num(h + SKIN)}, {num(z)}], "
                             f"input: {{segments: [{{ticks: {TICKS}, stick: [{stick}, 0]}}]}}}}   "
                             f"# {h} m, {v} m/s, phase {ph}/{PHASES}")
                air = "{min: 1}" if h > SNAP else "0"
                expects.append(f"  - {{character: {cid}, metrics: {{airborne_ticks: {air}, "
                               f"max_penetration: {{max: 0.000001}}}}}}")
                expects.append(f"  - {{tick: {TICKS - 1}, character: {cid}, grounded: true, "
                               f"y: [{num(SKIN - 0.0001)}, {num(SKIN + 0.0001)}], x: {{min: 0.4}}, "
                               f"horizontal_speed: [{num(v - 0.001)}, {num(v + 0.001)}]}}")
                rows.append(f"character {cid}: ledge {h} m, {v} m/s, phase {ph}/{PHASES}")
    head = ["format: 1", "name: ledge-heights",
            'description: "Bodies walk off ledges 0.2 to 0.3 m high (within the 0.3 m snap distance) and '
            '0.301 to 0.36 m high (beyond it) at 6.2, 4.65, 3.1 and 1.55 m/s, each at three tick phases. '
            'KCC-SPEC: the snap covers drops up to 0.3 m, so the lower ledges are walked down without an '
            'airborne tick; beyond that a ledge is a fall, so every body is airborne at least one tick. All '
            'end one skin above the floor at their ground speed. Scenario and bounds: '
            'derivations/ledge-heights.py (--write)."',
            "tick_rate: 50", f"ticks: {TICKS}", "world:"]
    text = "\n".join(head + world + ["characters:"] + chars + ["expect:"] + expects) + "\n"
    return text, rows


if __name__ == "__main__":
    main(__file__, "ledge-heights", write)
