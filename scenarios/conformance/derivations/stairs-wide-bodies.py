#!/usr/bin/env python3
"""stairs-wide-bodies: bodies wider than the treads climb stairs whose nosings are steeper than their
stay limit, swept over radii, treads, slope limits, speeds and tick phases; the scenario and its
bounds from KCC-SPEC's step rule and the readings docs/controller.md names ("Step-up": wide
bodies; "The reported velocity").

    python3 scenarios/conformance/derivations/stairs-wide-bodies.py          # the rows
    python3 scenarios/conformance/derivations/stairs-wide-bodies.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/stairs-wide-bodies.py --check  # exit 1 if it differs

Each flight: 6 steps, then a landing: rise 0.3 m (under the 0.35 m step_height) and run 0.2, 0.25
or 0.3 m, and a fourth flight of rise 0.33 m and run 0.6 m walked with a snap_distance of 0.15 m. On each, bodies of radius 0.45, 0.5,
0.55 and 0.6 m with slope limits (enter, stay) of (40, 42), (42, 44) or (60, 62) degrees walk
straight up at 1.55, 3.1 and 6.2 m/s, at two tick phases, 2 m before the first riser.

Geometry (a body in the plane of its walk, its round base of radius r): no tread is as wide as the
base, so the base never rests on a tread; it rests on nosings. Where it touches two nosings at once
(P and the next one up, Q, a riser's rise and a tread's run apart) its centre is r from both, and
the contact on P leans from the vertical by theta_v (computed below). Walked forward from there the
base rolls over Q alone, its contact leaning from theta_q down to theta_v at the next two-nosing
rest. KCC-SPEC's step rule accepts a landing that is walkable, so a landing on Q is one where its
contact leans at most the stay limit: a stretch of forward, `window` below, that exists on every
flight here (theta_v is under the stay limit by at least 2 degrees; the derivation asserts it).
The body's one-tick forward (v * dt, 0.031 to 0.124 m) can fall short of it or pass it. The fourth
flight's treads are wider than the base's footprint (it can rest on them), and its risers nearly
as high as the step, and the snap distance is short: a slow body's landing on the step perches its base low on the nosing, the
contact near the stay limit, and it climbs on over the nosing (swarm seed 20261211 run 13666: a
body perched so, the nosing's height more than snap_distance above its feet, was refused the snap
back onto the nosing as if it were rolling off a ledge, and hopped).

The readings (docs/controller.md, "Step-up"): a forward that lands on the nosing too steeply holds
the body at the riser with its motion kept (behaviour 12); a held body whose whole forward passes
the walkable stretch halves the forward between the two (behaviour 13) and climbs, never further
than its speed takes it. So a body climbs every such flight, grounded at every tick (no step within
step_height is a hop): it ends on the landing (one skin above it, 1 mm), and reaches it no later than walking the flight's length at full speed with one tick
lost at each of the six risers and the landing's edge, after the ticks of acceleration (KCC-SPEC:
ground_accel * dt = 0.9 m/s a tick). The reported velocity: a riser the body is held at takes
nothing from it, so from the tick the run speed is reached to the end it reads the run speed
(1e-4 m/s).
"""
import math

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import ACC, DT, SKIN, flight_lines, main, num, scenario_text, stick_for  # noqa: E402

TICKS = 300
STEPS = 6
FLIGHTS = ((0.2, 0.3, None), (0.25, 0.3, None), (0.3, 0.3, None), (0.6, 0.33, 0.15))  # (run, rise, snap)
RADII = (0.45, 0.5, 0.55, 0.6)
LIMITS = ((40, 42), (42, 44), (60, 62))
SPEEDS = (1.55, 3.1, 6.2)
PHASES = 2
LANE = 1.5
START = 2.0


def two_nosing_lean(r, run, rise):
    """theta_v (degrees): the lean of the contact on the lower nosing where the base touches two."""
    d = math.hypot(run, rise)
    h = math.sqrt(r * r - d * d / 4)
    # centre = midpoint + h * the unit normal of the nosings' line that points up and back
    cz = run / 2 - h * rise / d
    cy = rise / 2 + h * run / d
    return math.degrees(math.atan2(-cz, cy))


def window(r, run, rise, stay):
    """The forward (m) from a two-nosing rest to the first and to the last landing on the next
    nosing that leans at most `stay` degrees (that nosing at horizontal distance
    run - (horizontal offset of the rest) from the centre)."""
    d = math.hypot(run, rise)
    h = math.sqrt(r * r - d * d / 4)
    cz = run / 2 - h * rise / d  # the centre, from the lower nosing P
    to_q = run - cz  # horizontal distance from the centre to Q
    first = to_q - r * math.sin(math.radians(stay))
    last = to_q - r * math.sin(math.radians(two_nosing_lean(r, run, rise)))
    return first, last


def write():
    out = ["format: 1", "name: stairs-wide-bodies",
           'description: "Bodies of radius 0.45 to 0.6 m walk up flights of six 0.3 m risers whose treads '
           '(0.2 to 0.3 m) are narrower than their base, and of 0.33 m risers on 0.6 m treads (snap 0.15 m), with slope '
           'limits (enter, stay) of (40, 42), (42, 44) and (60, 62) degrees, at 1.55, 3.1 and 6.2 m/s, two '
           'tick phases each. KCC-SPEC: '
           'steps within step_height are climbed onto walkable landings; the readings of docs/controller.md '
           '(Step-up: wide bodies; The reported velocity): each riser costs at most a tick and the velocity '
           'reads the run speed throughout. Scenario and bounds: derivations/stairs-wide-bodies.py (--write)."',
           "tick_rate: 50", f"ticks: {TICKS}", "world:"]
    chars, expects, rows = [], [], []
    ident = 0
    lanes = len(RADII) * len(LIMITS) * len(SPEEDS) * PHASES
    width = lanes * LANE + 2
    for flight, (run, rise, snap) in enumerate(FLIGHTS):
        ox = (width + 10) * flight
        foot_z = 3.0
        top = STEPS * rise
        land_from = foot_z + STEPS * run
        out += flight_lines(flight, ox, foot_z, STEPS, rise, run, floor=(28, width / 2 + 1, 33),
                            stairs_width=width, landing=(width / 2, 25))
        pitch = math.degrees(math.atan2(rise, run))
        snap_setting = f", snap_distance: {num(snap)}" if snap else ""
        lane = 0
        for r in RADII:
            assert 2 * r > run, (r, run)  # wider than a tread: never resting on one
            for enter, stay in LIMITS:
                lean = two_nosing_lean(r, run, rise)
                first, last = window(r, run, rise, stay)
                assert lean <= stay - 2, (r, run, lean, stay)  # a walkable landing on each nosing
                rows.append(f"run {run}, rise {rise}: radius {r}, limits ({enter}, {stay}): nosings' pitch {pitch:.1f} deg, "
                            f"two-nosing lean {lean:.1f} deg, walkable landing {first:.3f} to {last:.3f} m "
                            f"forward")
                for v in SPEEDS:
                    stick = stick_for(v)
                    full = math.ceil(v / ACC - 1e-9) - 1
                    for phase in range(PHASES):
                        ident += 1
                        x = ox - width / 2 + 1 + LANE * lane
                        z = foot_z - START - r - phase * v * DT / PHASES
                        chars.append(f"  - id: {ident}   # run {run}, rise {rise}, radius {r}, limits ({enter}, {stay}), "
                                     f"{v} m/s, phase {phase}/{PHASES}\n"
                                     f"    spawn: [{num(x)}, {num(SKIN)}, {num(z)}]\n"
                                     f"    settings: {{radius: {num(r)}, max_slope_enter_deg: {enter}, "
                                     f"max_slope_stay_deg: {stay}{snap_setting}}}\n"
                                     f"    input: {{segments: [{{ticks: {TICKS}, stick: [0, {num(stick)}]}}]}}")
                        # Walking from rest: the distance covered by the end of tick k (the run speed
                        # rises by ACC a tick up to v) until the centre is over the landing's edge.
                        dist = land_from - z
                        covered, speed, tick = 0.0, 0.0, -1
                        while covered < dist:
                            tick += 1
                            speed = min(v, speed + ACC)
                            covered += speed * DT
                        reach = tick + STEPS + 1
                        assert reach < TICKS - 10 and z + v * TICKS * DT < land_from + 49, (ident, reach)
                        expects.append(f"  - ticks: [{full}, {TICKS - 1}]\n    character: {ident}\n"
                                       f"    horizontal_speed: [{v - 1e-4:.4f}, {v + 1e-4:.4f}]")
                        expects.append(f"  - {{character: {ident}, metrics: {{airborne_ticks: 0}}}}")
                        expects.append(f"  - ticks: [{reach}, {TICKS - 1}]\n    character: {ident}\n"
                                       f"    grounded: true\n"
                                       f"    y: [{top + SKIN - 1e-3:.4f}, {top + SKIN + 1e-3:.4f}]")
                        lane += 1
    return scenario_text(out, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "stairs-wide-bodies", write)
