#!/usr/bin/env python3
"""step-height-wide-bodies: ledges just over and just under the step height, walked into by
bodies whose round base meets a ledge's edge at a walkable angle higher than their step height,
from KCC-SPEC's rules alone.

    python3 scenarios/conformance/derivations/step-height-wide-bodies.py          # the lanes
    python3 scenarios/conformance/derivations/step-height-wide-bodies.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/step-height-wide-bodies.py --check  # exit 1 if it differs

A body's round base (radius r, resting a skin up) meets an edge at a walkable angle (within the
stay limit) up to skin + (r + skin)(1 - cos stay) above the floor. For the spec's body (0.4 m,
58 degrees) that is 0.21 m, under its 0.35 m step height; for the bodies here (radius 0.45 to
0.9 m, stay limits 55 to 70 degrees, step heights 0.1 to 0.25 m) it is higher than the step
height, so that the ledges between the two test which rule wins.

Each lane (4 m apart along z, on one floor, top y = 0): a ledge 25 m deep and 3 m wide, its near
face 1 m ahead of the body's front; the body walks straight at it along +x (stick 1 or 0.6) for
the whole run (150 ticks: 18.4 m at 6.2 m/s, so it is still on a ledge it climbed at the end).

KCC-SPEC: "Step up (max step height)": a ledge no higher than the step height is climbed (the
body is on top of it, y = ledge + skin, by the end), a higher one blocks (the body never gets
onto it: y stays below the ledge's top less 2 mm, at every tick), whatever the angle the
round base meets the ledge's edge at (docs/controller.md, "No higher than a step", behaviour
15). Ledges: the step height plus 5 mm, 20 mm and 50 mm (blocked), and less 10 mm and 40 mm
(climbed; a height under the walkable edge's rise is rolled over, one over it stepped). Every
tick grounded, nothing penetrated.
"""
import math
import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import SKIN, main, num, scenario_text  # noqa: E402

TICKS = 150
SPACING = 4.0
BODIES = [(0.45, 70, 0.1), (0.6, 60, 0.15), (0.75, 65, 0.2), (0.9, 55, 0.25), (0.6, 70, 0.25)]
OFFSETS = (0.005, 0.02, 0.05, -0.01, -0.04)


def write():
    world = ["  - box: {id: 1, center: [14, -0.5, 98], half_extents: [18, 0.5, 102]}   # floor, top y = 0"]
    chars, expects, rows = [], [], []
    lane = 0
    for (r, stay, step) in BODIES:
        edge = SKIN + (r + SKIN) * (1 - math.cos(math.radians(stay)))
        for off in OFFSETS:
            for mag in (1.0, 0.6):
                lane += 1
                ox, oz = 0.0, SPACING * (lane - 1)
                h = round(step + off, 4)
                front = ox + r + 1.0  # the ledge's near face
                world.append(f"  - box: {{id: {100 + lane}, center: [{num(front + 12.5)}, {num(h / 2)}, {num(oz)}], "
                             f"half_extents: [12.5, {num(h / 2)}, 1.5]}}   # ledge {num(h)} m")
                settings = (f"{{radius: {num(r)}, height: {num(max(1.8, 2 * r + 0.2))}, max_slope_enter_deg: {stay}, "
                            f"max_slope_stay_deg: {stay}, step_height: {num(step)}}}")
                chars.append(f"  - {{id: {lane}, spawn: [{num(ox)}, 0.015, {num(oz)}], settings: {settings}, "
                             f"input: {{segments: [{{ticks: {TICKS}, stick: [{num(mag)}, 0]}}]}}}}")
                if off > 0:
                    expects.append(f"  - {{character: {lane}, y: {{max: {num(h - 0.002)}}}}}   "
                                   f"# {num(h)} m over step {num(step)}: blocked")
                    what = "blocked"
                else:
                    expects.append(f"  - {{character: {lane}, ticks: [{TICKS - 20}, {TICKS - 1}], "
                                   f"y: [{num(h + SKIN - 0.0001)}, {num(h + SKIN + 0.0001)}]}}   "
                                   f"# {num(h)} m under step {num(step)}: climbed")
                    what = "climbed" + (" (rolled over)" if h < edge else " (stepped)")
                rows.append(f"{lane:3d} r {r} stay {stay} step {step}: walkable edges up to {edge:.3f} m; "
                            f"ledge {h} m at stick {mag}: {what}")
    head = [
        "format: 1",
        "name: step-height-wide-bodies",
        'description: "Bodies of radius 0.45 to 0.9 m with stay limits of 55 to 70 degrees and step heights '
        'of 0.1 to 0.25 m, whose round base meets a ledge\'s edge at a walkable angle higher than their step '
        'height, walk into ledges 5, 20 and 50 mm over the step height (each must block: the body never gets '
        'onto it) and 10 and 40 mm under it (each climbed), at two speeds. KCC-SPEC: the step height is the '
        'highest ledge a body climbs, whatever the angle its base meets the edge at (docs/controller.md, '
        '\\"No higher than a step\\"). Rows: derivations/step-height-wide-bodies.py."',
        "tick_rate: 50",
        f"ticks: {TICKS}",
        "golden_every: 10",
        "world:",
    ] + world
    all_ticks = [
        "  - grounded: true",
        "  - metrics:",
        "      max_penetration: {max: 0.000001}",
        "      airborne_ticks: 0",
    ]
    return scenario_text(head, chars, all_ticks + expects), rows


if __name__ == "__main__":
    main(__file__, "step-height-wide-bodies", write)
