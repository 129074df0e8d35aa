#!/usr/bin/env python3
"""slope-rims-short-steps: wide bodies with a step height under their radius walk up
walkable ramps of 30 to 58.5 degrees and over the convex rim onto a flat top, at three speeds
and two tick phases; the scenario and its expectations from KCC-SPEC's rules alone.

    python3 scenarios/conformance/derivations/slope-rims-short-steps.py          # the lanes
    python3 scenarios/conformance/derivations/slope-rims-short-steps.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/slope-rims-short-steps.py --check  # exit 1 if it differs

On ground leaning a a round base (radius r, resting a skin off it: its centre r + skin from the
ground along the normal) touches it r - (r + skin) cos a above its lowest point, so
(r + skin)(1 - cos a) above a skin below its feet (where level ground under it would be); rolling
over the rim at the top of a ramp of angle a it touches the rim at a walkable angle b in [0, a],
(r + skin)(1 - cos b) above that. With the step heights here (0.1, 0.15, 0.25 m) and radii
(0.4, 0.5, 0.6 m) that is more than a step height on the steeper ramps and less on the
shallower: r 0.6 on 58.5 degrees, 0.615 (1 - 0.522) = 0.294 m; r 0.4 on 30 degrees,
0.415 (1 - 0.866) = 0.056 m, less than every step height (the rows print it for every lane).
Swarm seed 20261216 run 23015: radius 0.577 m, step height 0.152 m, slope limits 59/60, walking up
a 60 degree face onto a slab's top, airborne 3 ticks at the rim with the rim 3.6 cm below.

Geometry. A floor (top y = 0). For each ramp angle a in ANGLES, one group of lanes 1.5 m apart
along z, walking along +x: a ramp box (rotation [90, -a, 0]: its top face rises toward +x, its
normal (-sin a, cos a, 0)) whose top face runs from below the floor through the foot at x = 0 up to
the rim at (H / tan a, H), H = 1.5 sin a to 0.1 mm (a 1.5 m ramp), 1 m thick so that it is solid
down to the floor under the whole ramp; and a flat top, a box from the floor to y = H from the rim
on for 16 m (its near top edge on the rim: the rim is the ramp box's upper edge and the top's
near edge). Every body: slope limits enter 59, stay 60 degrees (every ramp, at most 58.5, and the
top are walkable by the enter limit), the other settings KCC-SPEC's defaults (snap 0.3 m, skin
0.015 m); it spawns one skin above the floor, its front 0.3 m (plus the phase: a half tick's
travel) short of the foot, and holds the stick along +x at 6.2, 3.1 or 1.55 m/s (dead zone
remap) for the whole run (120 ticks). Walkable ground is walked at the flat speed along its
surface, reached at 45 m/s^2 (0.9 m/s a tick): in 120 ticks the slowest body covers
1.55 x 2.4 s less 0.013 m (its first tick at 0.9 m/s) = 3.707 m along its path, and needs at most
0.6 + 0.3 + 0.016 (phase) to the foot, 1.5 m up the ramp and 0.6 m past the rim: 3.016 m; the
fastest covers at most 6.2 x 2.4 = 14.88 m from x >= -0.962, so ends short of x = 13.92, more
than its radius short of the top's far end (H / tan a + 16 >= 16.78 m); both asserted below.

KCC-SPEC:
- "Slopes: walkable slopes are walked at full speed along the surface", and "Edges: with the
  capsule probe the character stays grounded while any part of its base is supported". The
  ground under the base is the floor, the ramp's face, the rim (touched at normals leaning 0 to
  a, all walkable: a <= 58.5 < 59) and the top: walkable all the way, with no ledge (the rim is
  a convex edge of the ground the body stands on, not a riser: the step height limits what is
  climbed at a blocking surface, not a walkable ground's own edge). So the body is never
  airborne (airborne_ticks 0: no hop over the rim, and no fall at it; behaviour 15 measured the
  rim from the feet alone and refused it, higher than step_height, as ground when
  (r + skin)(1 - cos b) > step_height: airborne over the rim). The step height so decides which
  lanes reach that class (the rows: "over"), never what is expected of them.
- Collide-and-slide keeps a skin to every surface ("never touch") and the snap lands the body
  on ground: it ends (tick 119) grounded, past the rim (feet x >= rim x + r: the whole base
  over the top) and one skin above the top (y = H + 0.015, within 0.1 mm), with no penetration of
  the static geometry (max_penetration <= 1e-6 m) at any tick.
"""
import math
import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import ACC, DT, LEDGE_SPEEDS, SKIN, main, num, scenario_text  # noqa: E402

TICKS = 120
ANGLES = (30, 40, 48, 54, 58.5)
RADII = (0.4, 0.5, 0.6)
STEPS = (0.1, 0.15, 0.25)
ENTER, STAY = 59, 60
RAMP = 1.5       # m along the slope, to 0.1 mm of rise
TOP = 16.0       # m of flat top past the rim
RUNUP = 0.3      # m from the body's front to the foot
THICK = 1.0      # m, the ramp box's thickness
LANE = 1.5       # m between lanes along z
PHASES = 2
GAP = 3.0        # m between groups along z (1.5 m from the outer lanes to the boxes' sides)


def write():
    per_group = len(RADII) * len(STEPS) * len(LEDGE_SPEEDS) * PHASES
    width = (per_group - 1) * LANE + 2 * LANE  # the boxes' extent along z
    length = len(ANGLES) * (width + GAP)
    world = [f"  - box: {{id: 1, center: [7, -1, {num(length / 2)}], "
             f"half_extents: [12, 1, {num(length / 2 + 2)}]}}   # floor, top y = 0, x in [-5, 19]"]
    chars, expects, rows = [], [], []
    cid = 0
    for g, a in enumerate(ANGLES):
        ar = math.radians(a)
        h = round(RAMP * math.sin(ar), 4)
        rim_x = h / math.tan(ar)
        slope = h / math.sin(ar)  # the ramp's length from the foot to the rim
        z0 = g * (width + GAP) + LANE
        zc = z0 + (per_group - 1) * LANE / 2
        hl = (slope + 1) / 2  # the top face from 1 m of slope below the floor's top to the rim
        ht = THICK / 2
        u = (math.cos(ar), math.sin(ar))
        n = (-math.sin(ar), math.cos(ar))
        cx, cy = rim_x - hl * u[0] - ht * n[0], h - hl * u[1] - ht * n[1]
        assert h - 2 * hl * u[1] < 0 and THICK / math.cos(ar) > h  # buried foot; solid under the ramp
        world.append(f"  - box: {{id: {100 + g}, center: [{num(cx)}, {num(cy)}, {num(zc)}], "
                     f"half_extents: [{num(width / 2)}, {num(ht)}, {num(hl)}], rotation: [90, {num(-a)}, 0]}}"
                     f"   # ramp {num(a)} deg, foot x = 0, rim at x = {num(rim_x)}, y = {num(h)}")
        world.append(f"  - box: {{id: {200 + g}, center: [{num(rim_x + TOP / 2)}, {num(h / 2)}, {num(zc)}], "
                     f"half_extents: [{num(TOP / 2)}, {num(h / 2)}, {num(width / 2)}]}}   # top, y = {num(h)}")
        for r in RADII:
            for step in STEPS:
                rise = (r + SKIN) * (1 - math.cos(ar))
                first = cid + 1
                for v, stick in LEDGE_SPEEDS:
                    for ph in range(PHASES):
                        cid += 1
                        z = z0 + LANE * (cid - 1 - g * per_group)
                        x = -(RUNUP + r + v * DT * ph / PHASES)
                        # the slowest reaches x >= rim + r; the fastest stays on the top
                        covered = sum(min(v, ACC * (k + 1)) * DT for k in range(TICKS))
                        assert covered >= -x + slope + r
                        assert x + v * TICKS * DT <= rim_x + TOP - r
                        chars.append(f"  - {{id: {cid}, spawn: [{num(x)}, {num(SKIN)}, {num(z)}], "
                                     f"settings: {{radius: {num(r)}, step_height: {num(step)}, "
                                     f"max_slope_enter_deg: {ENTER}, max_slope_stay_deg: {STAY}}}, "
                                     f"input: {{segments: [{{ticks: {TICKS}, stick: [{stick}, 0]}}]}}}}   "
                                     f"# ramp {num(a)}, radius {r}, step {step}, {v} m/s, phase {ph}/{PHASES}")
                        expects.append(f"  - {{character: {cid}, metrics: {{airborne_ticks: 0, "
                                       f"max_penetration: {{max: 0.000001}}}}}}")
                        expects.append(f"  - {{tick: {TICKS - 1}, character: {cid}, grounded: true, "
                                       f"y: [{num(h + SKIN - 0.0001)}, {num(h + SKIN + 0.0001)}], "
                                       f"x: {{min: {num(rim_x + r)}}}}}")
                rows.append(f"lanes {first:3d}-{cid:3d}: ramp {num(a):>4} deg (rim y {num(h)}), radius {r}, "
                            f"step {step}: base touches {rise:.3f} m above its feet "
                            f"({'over' if rise > step else 'within'} the step height)")
    head = ["format: 1", "name: slope-rims-short-steps",
            'description: "Bodies of radius 0.4 to 0.6 m with step heights of 0.1, 0.15 and 0.25 m (slope limits '
            'enter 59, stay 60) walk up ramps of 30, 40, 48, 54 and 58.5 degrees and over the convex rim onto a '
            'flat top at 6.2, 3.1 and 1.55 m/s, two tick phases each: on the steeper ramps the round base touches '
            'its ground, and then the rim, more than a step height above its feet. KCC-SPEC: walkable ground is '
            'walked, and a body stays grounded while any part of its base is supported; the rim is its own '
            'ground\'s edge, not a ledge to climb. So no lane is ever airborne, and each ends grounded one skin '
            'above the top, past the rim, never in the static geometry. Scenario and bounds: '
            'derivations/slope-rims-short-steps.py (--write)."',
            "tick_rate: 50", f"ticks: {TICKS}", "world:"]
    return scenario_text(head + world, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "slope-rims-short-steps", write)
