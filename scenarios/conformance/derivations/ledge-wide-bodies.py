#!/usr/bin/env python3
"""ledge-wide-bodies: ledges just under, at and just above the snap distance walked off by bodies
of every width, with snap distances of 0.1, 0.155 and 0.2 m, at three speeds and two tick phases;
the scenario and its expectations from KCC-SPEC's rules alone.

    python3 scenarios/conformance/derivations/ledge-wide-bodies.py          # the lanes
    python3 scenarios/conformance/derivations/ledge-wide-bodies.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/ledge-wide-bodies.py --check  # exit 1 if it differs

ledge-heights sweeps heights and speeds with the default body (radius 0.4 m, snap 0.3 m). Here
the round base is wider than the ledge is high (radius 0.3 to 0.6 m on ledges 0.08 to 0.23 m), so
it rolls down the rim until it nearly touches the floor: for a ledge of height h the rim's contact
leans asin(sqrt(r^2 - (r - h)^2) / r) (36 to 62 degrees) where the base meets the floor, within the
default 58 degree stay limit on most lanes. Lanes 1.5 m apart along z; one ledge box per lane
group (its top at y = h, its edge at x = 0), the floor (top y = 0) beyond it. For each radius
(0.3, 0.4, 0.5, 0.6 m) and snap distance s (0.1, 0.155, 0.2 m), heights s - 0.02, s (within the
snap), s + 0.002, s + 0.01, s + 0.019 (within the snap plus the 0.02 m probe_skin, where the
floor could come within the ground probe's band) and s + 0.03 (beyond it); the stick along +x at
6.2, 3.1 and 1.55 m/s (stick 1, 0.575, 0.3625 with the 0.15 dead zone rescaled), each at two
tick phases (spawned half a tick's travel apart). Every body starts 0.6 m plus its radius (plus
its phase) back from the edge, one skin above the ledge.

KCC-SPEC ("Snap to ground"): a grounded body no longer touching ground sweeps down up to
snap_distance and lands on walkable ground if found; a drop beyond that is a fall. "Edges": the
body stays grounded while any part of its base is supported. So, at every width, speed and phase:
- a ledge up to the snap distance high is walked down without an airborne tick (airborne_ticks 0);
- a higher one is a fall: airborne at least one tick (airborne_ticks >= 1) (behaviour 12 and
  before: a base wider than the ledge was high snapped down the rim's own edge further than its
  roll goes, and took the floor up to probe_skin beyond the snap distance as ground);
- the body lands and ends one skin above the floor (0.1 mm), grounded, past the edge, at its
  ground speed (1 mm/s), with no penetration of the static geometry.
"""

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import ledge_lanes, main, scenario_text  # noqa: E402

TICKS = 90
RADII = (0.3, 0.4, 0.5, 0.6)
SNAPS = (0.1, 0.155, 0.2)
OVER = (-0.02, 0, 0.002, 0.01, 0.019, 0.03)


def write():
    groups = [(r, snap, round(snap + over, 6), "") for r in RADII for snap in SNAPS for over in OVER]
    world, chars, expects, rows = ledge_lanes(groups, TICKS)
    head = ["format: 1", "name: ledge-wide-bodies",
            'description: "Bodies of radius 0.3 to 0.6 m with snap distances of 0.1, 0.155 and 0.2 m walk off '
            'ledges from 0.02 m under to 0.03 m over their snap distance at 6.2, 3.1 and 1.55 m/s, two tick '
            'phases each. KCC-SPEC: a drop within the snap distance is snapped, so those ledges are walked '
            'down without an airborne tick; beyond it a ledge is a fall, at every width. All end one skin '
            'above the floor at their ground speed. Scenario and bounds: derivations/ledge-wide-bodies.py '
            '(--write)."',
            "tick_rate: 50", f"ticks: {TICKS}", "world:"]
    return scenario_text(head + world, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "ledge-wide-bodies", write)
