#!/usr/bin/env python3
"""ledge-short-steps: wide bodies with a step height well under their radius walk off ledges
within and just beyond the snap distance, at three speeds and two tick phases; the scenario and
its expectations from KCC-SPEC's rules alone.

    python3 scenarios/conformance/derivations/ledge-short-steps.py          # the lanes
    python3 scenarios/conformance/derivations/ledge-short-steps.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/ledge-short-steps.py --check  # exit 1 if it differs

ledge-wide-bodies sweeps widths and snap distances with the default step height (0.35 m), above
every ledge it has. Here the step height (0.1, 0.15, 0.2 m) is under half the radius (0.4, 0.5,
0.6 m), so a round base rolling off the rim of a ledge 0.2 to 0.33 m high meets the rim, still at
a walkable angle, more than a step height above its feet: for a rim contact leaning a from the
vertical the rim is r (1 - cos a) above the feet, 0.5 r at 60 degrees (swarm seed 20261216 run
1232: radius 0.553 m, step height 0.192 m, a 0.296 m ledge under a 0.387 m snap). The snap
distance is the default 0.3 m; heights 0.2, 0.25, 0.29 and 0.3 m (within it) and 0.31 and 0.33 m
(beyond it); the stick along +x at 6.2, 3.1 and 1.55 m/s, each at two tick phases.

KCC-SPEC ("Snap to ground"): a grounded body no longer touching ground sweeps down up to
snap_distance and lands on walkable ground if found; a drop beyond that is a fall. The step
height limits what is climbed, not what is walked down. So, at every width, step height, speed and
phase (derivation.ledge_lanes):
- a ledge up to the snap distance high is walked down without an airborne tick (airborne_ticks 0)
  (behaviour 15: a rim snapped onto more than step_height above the feet was taken as ground by
  the snap and refused by the next tick's probe, select_ground's limit for edges a body reaches
  over: airborne 1 to 4 ticks off the rim);
- a higher one is a fall: airborne at least one tick;
- the body lands and ends one skin above the floor (0.1 mm), grounded, past the edge, at its
  ground speed (1 mm/s), with no penetration of the static geometry.
"""

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import ledge_lanes, main, scenario_text  # noqa: E402

TICKS = 100
RADII = (0.4, 0.5, 0.6)
STEPS = (0.1, 0.15, 0.2)
SNAP = 0.3
HEIGHTS = (0.2, 0.25, 0.29, 0.3, 0.31, 0.33)


def write():
    groups = [(r, SNAP, h, f", step_height: {step}") for r in RADII for step in STEPS for h in HEIGHTS]
    world, chars, expects, rows = ledge_lanes(groups, TICKS)
    head = ["format: 1", "name: ledge-short-steps",
            'description: "Bodies of radius 0.4 to 0.6 m with step heights of 0.1, 0.15 and 0.2 m (under half '
            'the radius) walk off ledges 0.2 to 0.33 m high under a 0.3 m snap distance at 6.2, 3.1 and 1.55 m/s, '
            'two tick phases each: rolling off, the rim meets the round base more than a step height above the '
            'feet at a walkable angle. KCC-SPEC: a drop within the snap distance is snapped (the step height '
            'limits climbing, not walking down), so those ledges are walked down without an airborne tick; beyond '
            'it a ledge is a fall. All end one skin above the floor at their ground speed. Scenario and bounds: '
            'derivations/ledge-short-steps.py (--write)."',
            "tick_rate: 50", f"ticks: {TICKS}", "world:"]
    return scenario_text(head + world, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "ledge-short-steps", write)
