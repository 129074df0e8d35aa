#!/usr/bin/env python3
"""crowd-64-colliding: crowd-64's level, bodies and inputs with every body colliding, and the
expectations KCC-SPEC gives a colliding crowd.

    python3 scenarios/conformance/derivations/crowd-64-colliding.py          # the rows
    python3 scenarios/conformance/derivations/crowd-64-colliding.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/crowd-64-colliding.py --check  # exit 1 if it differs

The world and the characters are read from ../crowd-64.yaml (the ghosts' scenario: there every
body is `collide_characters: false` and must never be affected by another), with that setting
removed. What KCC-SPEC ("Other characters") and crowd-64's own derivations give colliding bodies:
- Inside the walls (faces +-18 less the 0.4 radius), never below the floor and never higher than
  the log's top (0.3) plus a skin: another character's head is 1.8 m up, far above the 0.35 m
  step height, so no body climbs another (KCC-SPEC: "by the same rules as static shapes").
- Solid to one another: no two bodies ever overlap (character_overlap 1 micrometre); nothing
  penetrated, no depenetration needed (the bodies spawn apart, on the floor).
- Never launched: no body faster than the run speed (6.2 m/s); a body falls off the log's flank
  once per crossing, at most 6 ticks (crowd-64's derivation), and flickers at most once.
- Row 1 (ids 1 to 8, on z = -14, alternately +x and -x, 4 m apart) is four head-on pairs: each
  pair stops with its axes 0.815 apart, 0.4075 either side of its midpoint (characters-head-on's
  rule), from the tick each has covered (4 - 0.815) / 2 = 1.5925 m, with no speed from the tick
  after (the overlap of the contact tick is resolved by pushes that keep the velocities; the next
  tick's slide meets the other body and clips it), until another body can first
  reach the row: the next row is 4 m away, and a body from rest covers 4 - 0.815 m no sooner than
  tick FREE below (after that the row may be jostled, and only the bounds above hold).
Not bounded here: back-and-forth (jitter). A body another moving body runs into is pushed by the
symmetric resolution, up to half the other's tick of motion; the notch oscillation the first run
of this scenario found (behaviour 13: 3.5 cm a tick) is bounded where it is isolated, in notches.
"""
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import ACC, DT, RUN_MAX, colliding_variant, main, num, scenario_text  # noqa: E402

SOURCE = Path(__file__).resolve().parent.parent / "crowd-64.yaml"
GAP = 4.0
HALF = 0.815 / 2


def covered_tick(dist):
    """The first tick at whose end a body from rest at stick 1 has covered dist."""
    v, x, t = 0.0, 0.0, 0
    while True:
        v = min(RUN_MAX, v + ACC)
        x += v * DT
        if x >= dist - 1e-9:
            return t
        t += 1


def write():
    head, chars = colliding_variant(
        SOURCE, "crowd-64-colliding",
        "crowd-64 with every body colliding (ghosts there): 64 bodies on an 8 x 8 grid walk for 3 s in 64 "
        "directions across a walled 36 m floor with pillars, a sphere, a 0.3 m log, a 0.2 m slab and a 10 "
        "degree hump, the first row head-on at each other in four pairs. Each must stay inside the walls and "
        "on the floor or the low features, never overlap another body or penetrate anything, never move "
        "faster than it runs; each pair of the first row stops pressed together 0.815 m apart about its "
        "midpoint until another body can reach the row. Rows: derivations/crowd-64-colliding.py.")
    contact = covered_tick((GAP - 0.815) / 2)
    free = covered_tick(GAP - 0.815)
    expects = [
        "  - x: [-17.6, 17.6]",
        "    z: [-17.6, 17.6]",
        "    y: [0, 0.316]",
        "  - metrics:",
        "      max_penetration: {max: 0.000001}",
        "      max_character_overlap: {max: 0.000001}",
        "      max_depenetration: {max: 0.000001}",
        "      max_horizontal_speed: {max: 6.2001}",
        "      flicker_count: {max: 1}",
        "      airborne_ticks: {max: 6}",
    ]
    rows = [f"row 1: pairs in contact from tick {contact}; another body can reach the row at tick {free}"]
    for pair in range(4):
        mid = -14 + GAP / 2 + 2 * GAP * pair
        for k, side in ((2 * pair + 1, -1), (2 * pair + 2, 1)):
            x = mid + side * HALF
            expects.append(f"  - {{character: {k}, ticks: [{contact}, {free - 1}], x: [{num(x - 0.0001)}, "
                           f"{num(x + 0.0001)}], z: [-14.0001, -13.9999]}}")
            expects.append(f"  - {{character: {k}, ticks: [{contact + 1}, {free - 1}], horizontal_speed: 0}}"
                           "   # the tick after: pressed into the other")
            rows.append(f"body {k}: x = {x:.4f} from tick {contact} to {free - 1}")
    return scenario_text(head, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "crowd-64-colliding", write)
