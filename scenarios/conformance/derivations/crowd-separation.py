#!/usr/bin/env python3
"""crowd-separation: characters released at one point, and crowds pressed against walls and
into corners, the scenario and its expectations from KCC-SPEC's rules alone.

    python3 scenarios/conformance/derivations/crowd-separation.py          # the lanes' bounds
    python3 scenarios/conformance/derivations/crowd-separation.py --write  # (re)writes ../crowd-separation.yaml
    python3 scenarios/conformance/derivations/crowd-separation.py --check  # exit 1 if the file differs

Each lane stands on one floor (top y = 0) 60 m from the next; walls run 25 m each way. Every body is colliding, spawned on
the floor one skin up (y = 0.015), and either idle for the whole run or holding its stick for the
first PRESS ticks (or the whole run) and then idle.

Families (the parameters each sweeps):
    point       N bodies at one point, idle: N in 2, 3, 5, 8, 17, 64; radius 0.4, and
                0.25 and 0.6 for two counts; the point's decimals vary from lane to lane.
    mixed       N bodies of two sizes (radius 0.3 and 0.5 in turn) at one point, idle.
    stacked     two or three bodies on one vertical line, overlapping: the lowest on the floor,
                the others spawned 0.6 m above one another, falling onto it.
    wall        N bodies (4, 8, 16) scattered over a 1 m square in front of a wall (its face
                0.5 m beyond the square), holding the stick into it, straight or 30 degrees off
                (a crowd sliding along the wall while pressed), for 50 ticks or the whole run;
                walls facing each of the four horizontal axes.
    corner      N bodies (6, 12) pressed into a corner of two walls along its diagonal.

What KCC-SPEC and docs/controller.md ("Characters") give, and the bounds written here:
- Characters are solid to one another; overlaps are resolved by horizontal pushes (half of what
  is missing, each way), capped at depenetration_cap (0.2 m) a tick, and the resolution launches
  nobody: velocities are kept. So an idle body's velocity stays zero (horizontal_speed 0 at
  every tick), no body moves faster than the cap allows (surface_speed <= 0.2 m * 50 Hz =
  10 m/s), nor faster than 6.2 m/s by its own stick plus the cap while pressed. A stacked body
  falls onto the round top of the one below and slides off it as off any capsule (KCC-SPEC:
  the same rules as static shapes): its velocity, clipped by that contact, is never longer than
  the fall's, sqrt(2 g h) from its spawn height h; surface_speed adds the cap's 10 m/s.
- The floor is under every body and the pushes are horizontal: every body on the floor stays
  grounded at y = 0.015 at every tick (the stacked lanes' upper bodies from their landing on:
  they fall at most sqrt(2 * 0.6 * 3 / 9.81) s, 40 ticks, plus the separation).
- A wall keeps one skin: no body ever nearer a wall's face than radius + skin (1 micrometre of
  rounding), pressed by its stick or pushed by the crowd (KCC-SPEC "The skin"; docs/controller.md:
  a push into a wall keeps its part along the wall).
- Apart: where the spec is silent, the reading this scenario names (docs/controller.md,
  "Characters"): every lane is apart, no two bodies overlapping by more than 1 mm
  (character_overlap), from tick T on, and by 1 micrometre at the last tick for the idle lanes.
  T is ten times the least time the spread can take plus 20 ticks: N discs of radius
  r + skin / 2 need at least the area of their densest packing (hexagonal, density 0.9069), a
  disc, a half disc against a wall, a quarter disc in a corner; its outermost body moves at most
  the cap a tick, and in a dense crowd the pushes around a body mostly cancel.
Every lane: no penetration of the static geometry.
"""
import math

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import main, num  # noqa: E402

DT = 0.02
HZ = 50
R, SKIN = 0.4, 0.015
CAP = 0.2
RUN = 6.2
TICKS = 200
PRESS = 50
SPACING = 60.0
PACKING = math.pi / (2 * math.sqrt(3))


def apart_tick(n, r, share):
    """T: ten times the ticks the outermost body needs at the cap, plus 20 (see above).
    share: 1 (a disc), 0.5 (against a wall), 0.25 (in a corner)."""
    disc = r + SKIN / 2
    radius = disc * math.sqrt(n / (PACKING * share))
    travel = max(radius - disc, 0.0)
    return 10 * math.ceil(travel / CAP) + 20



def lanes():
    out = []
    for i, n in enumerate((2, 3, 5, 8, 17, 64)):
        out.append(("point", dict(n=n, r=R, frac=(0.137 * (i + 1)) % 1)))
    out.append(("point", dict(n=17, r=0.25, frac=0.731)))
    out.append(("point", dict(n=8, r=0.6, frac=0.419)))
    out.append(("mixed", dict(n=6, frac=0.283)))
    out.append(("mixed", dict(n=13, frac=0.907)))
    out.append(("stacked", dict(n=2, frac=0.5)))
    out.append(("stacked", dict(n=3, frac=0.061)))
    for j, (n, face, off, whole) in enumerate((
            (4, "+z", 0, False), (8, "-z", 30, False), (16, "+x", 0, False), (8, "-x", -30, False),
            (8, "+z", 30, True), (16, "-z", 0, True), (4, "+x", -30, True), (16, "-x", 30, True))):
        out.append(("wall", dict(n=n, face=face, off=off, whole=whole, seed=j)))
    for j, (n, whole) in enumerate(((6, False), (12, False), (12, True))):
        out.append(("corner", dict(n=n, whole=whole, seed=10 + j)))
    return out


AXES = {"+z": (0.0, 1.0), "-z": (0.0, -1.0), "+x": (1.0, 0.0), "-x": (-1.0, 0.0)}


def scatter(n, seed):
    """n points over [-0.5, 0.5]^2, a fixed sequence (Weyl, irrational steps), distinct."""
    pts = []
    for i in range(n):
        u = (0.5 + (i + 1) * 0.6180339887 + seed * 0.3183) % 1
        v = (0.5 + (i + 1) * 0.7548776662 + seed * 0.1415) % 1
        pts.append((round(u - 0.5, 3), round(v - 0.5, 3)))
    return pts


def write():
    world, chars, expects, rows = [], [], [], []
    cid = 0
    for k, (family, a) in enumerate(lanes()):
        ox, oz = SPACING * (k % 6), SPACING * (k // 6)
        ids = []
        idle = family in ("point", "mixed", "stacked") or not a["whole"]
        if family in ("point", "mixed"):
            px, pz = ox + a["frac"], oz - a["frac"] / 2
            radii = [a["r"]] * a["n"] if family == "point" else [0.3 if i % 2 == 0 else 0.5 for i in range(a["n"])]
            for i, r in enumerate(radii):
                cid += 1
                ids.append(cid)
                settings = "" if r == R else f", settings: {{radius: {num(r)}}}"
                chars.append(f"  - {{id: {cid}, spawn: [{num(px)}, 0.015, {num(pz)}]{settings}}}")
            big = max(radii)
            t_apart = apart_tick(a["n"], big, 1.0)
            desc = f"{family} N={a['n']} radius {'/'.join(sorted({num(r) for r in radii}))}"
            grounded_from = 0
        elif family == "stacked":
            px, pz = ox + a["frac"], oz + a["frac"]
            for i in range(a["n"]):
                cid += 1
                ids.append(cid)
                chars.append(f"  - {{id: {cid}, spawn: [{num(px)}, {num(0.015 + 0.6 * i)}, {num(pz)}]}}")
            fall = math.ceil(math.sqrt(2 * 0.6 * (a["n"] - 1) / 9.81) * HZ)
            t_apart = apart_tick(a["n"], R, 1.0) + fall
            grounded_from = t_apart
            desc = f"stacked N={a['n']}"
        else:
            if family == "wall":
                nx, nz = AXES[a["face"]]
                walls = [(nx, nz)]
                ang = math.radians(a["off"])
                # the stick: into the wall, turned by off about +y
                sx, sz = nx * math.cos(ang) - nz * math.sin(ang), nz * math.cos(ang) + nx * math.sin(ang)
                share = 0.5
            else:
                walls = [(1.0, 0.0), (0.0, 1.0)]
                sx, sz = math.sqrt(0.5), math.sqrt(0.5)
                share = 0.25
            # faces 0.5 m beyond the square's side the wall faces
            for (nx, nz) in walls:
                fx, fz = ox + nx * 1.0, oz + nz * 1.0   # the face's point on the lane's axis
                cx, cz = fx + nx * 0.25, fz + nz * 0.25
                hx = 0.25 if nx != 0 else 25.0
                hz = 0.25 if nz != 0 else 25.0
                if family == "corner":
                    # each wall from 4 m back to 1.5 m beyond the lane's axis, through the other
                    # wall's slab: the corner is closed
                    cx = fx + nx * 0.25 + (0 if nx != 0 else -1.25)
                    cz = fz + nz * 0.25 + (0 if nz != 0 else -1.25)
                    hx = 0.25 if nx != 0 else 2.75
                    hz = 0.25 if nz != 0 else 2.75
                world.append(f"  - box: {{id: {100 + 2 * k + len(world) % 2}, center: [{num(cx)}, 1.5, {num(cz)}], "
                             f"half_extents: [{num(hx)}, 1.5, {num(hz)}]}}")
            ticks = TICKS if a["whole"] else PRESS
            for (u, v) in scatter(a["n"], a["seed"]):
                cid += 1
                ids.append(cid)
                chars.append(f"  - {{id: {cid}, spawn: [{num(ox + u)}, 0.015, {num(oz + v)}], "
                             f"input: {{segments: [{{ticks: {ticks}, stick: [{num(sx)}, {num(sz)}]}}]}}}}")
            t_apart = apart_tick(a["n"], R, share)
            grounded_from = 0
            for (nx, nz) in walls:
                # never nearer the face than radius + skin
                face = (ox + nx * 1.0) if nx != 0 else (oz + nz * 1.0)
                axis = "x" if nx != 0 else "z"
                sign = nx if nx != 0 else nz
                limit = face - sign * (R + SKIN) + sign * 0.000001
                bound = f"{{max: {num(limit)}}}" if sign > 0 else f"{{min: {num(limit)}}}"
                for c in ids:
                    expects.append(f"  - {{character: {c}, {axis}: {bound}}}")
            desc = (f"{family} N={a['n']}" + (f" facing {a['face']} stick {a['off']} deg" if family == "wall" else "")
                    + (" pressed the whole run" if a["whole"] else f" pressed {PRESS} ticks"))
        t_apart = min(t_apart, TICKS - 1)
        for c in ids:
            if family in ("point", "mixed"):
                expects.append(f"  - {{character: {c}, horizontal_speed: 0, surface_speed: {{max: {num(CAP * HZ + 0.0001)}}}}}")
            elif family == "stacked":
                # falling onto the round top of the one below, the velocity is clipped by it: never
                # longer than the fall's speed from the highest spawn, sqrt(2 g h)
                fall_v = math.sqrt(2 * 9.81 * 0.6 * (a["n"] - 1))
                expects.append(f"  - {{character: {c}, horizontal_speed: {{max: {num(fall_v + 0.0001)}}}, "
                               f"surface_speed: {{max: {num(CAP * HZ + fall_v + 0.0001)}}}}}")
            else:
                expects.append(f"  - {{character: {c}, horizontal_speed: {{max: {num(RUN + 0.0001)}}}, "
                               f"surface_speed: {{max: {num(RUN + CAP * HZ + 0.0001)}}}}}")
            if grounded_from == 0:
                expects.append(f"  - {{character: {c}, grounded: true, y: [0.014999, 0.015001]}}")
            else:
                expects.append(f"  - {{ticks: [{grounded_from}, {TICKS - 1}], character: {c}, grounded: true, "
                               f"y: [0.014999, 0.015001]}}")
            expects.append(f"  - {{ticks: [{t_apart}, {TICKS - 1}], character: {c}, character_overlap: {{max: 0.001}}}}")
            if idle:
                expects.append(f"  - {{tick: {TICKS - 1}, character: {c}, character_overlap: {{max: 0.000001}}}}")
            expects.append(f"  - {{character: {c}, metrics: {{max_penetration: {{max: 0.000001}}}}}}")
        rows.append(f"lane {k + 1}: {desc}: characters {ids[0]}-{ids[-1]}, apart from tick {t_apart}")
    head = ["format: 1", "name: crowd-separation",
            'description: "Characters released at one point (2 to 64, three sizes, two sizes mixed, on one '
            'vertical line) and crowds pressed against a wall (each of four facings, straight or 30 degrees '
            'off) or into a corner, for 50 ticks or the whole run. KCC-SPEC (other characters) and '
            'docs/controller.md (Characters): the resolution separates them with horizontal pushes capped at '
            'depenetration_cap, ties broken as documented, launching nobody; every body stays grounded on the '
            'floor, never enters a wall\'s skin, and the crowd is apart (1 mm) from a tick derived from its '
            'densest packing. Scenario and bounds: derivations/crowd-separation.py (--write)."',
            "tick_rate: 50", f"ticks: {TICKS}", "world:",
            "  - box: {id: 1, center: [150, -0.5, 120], half_extents: [200, 0.5, 160]}   # floor, top y = 0"]
    text = "\n".join(head + world + ["characters:"] + chars + ["expect:"] + expects) + "\n"
    return text, rows


if __name__ == "__main__":
    main(__file__, "crowd-separation", write)
