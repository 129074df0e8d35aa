#!/usr/bin/env python3
"""notches: bodies running into the notch between two obstacles that stand closer than a body's
width (two round pillars, two characters standing side by side, a wedge of two walls), from
KCC-SPEC's rules alone.

    python3 scenarios/conformance/derivations/notches.py          # the lanes' rest points
    python3 scenarios/conformance/derivations/notches.py --write  # (re)writes ../notches.yaml
    python3 scenarios/conformance/derivations/notches.py --check  # exit 1 if the file differs

Every runner (radius 0.4, skin 0.015) spawns on a flat floor (top y = 0) one skin up, on the line
through its lane's rest point along its stick, S metres short of it (S: 3 m plus a phase of up to
a tick's travel, lane by lane), and holds the stick for the whole run (150 ticks).

Families (the parameters each sweeps):
    pillars     two vertical capsules (static shapes) of radius R (0.2, 0.4, 0.7), their surfaces
                g apart (0, 0.3, 0.6; narrower than the body), the notch's axis at a yaw of its
                lane (0 to 340 degrees); stick 1 (6.2 m/s) and 0.6 (3.28 m/s).
    characters  the same with two idle colliding characters of radius R (0.3, 0.4, 0.5), g 0 and
                0.3 apart: the notch of the crowd (crowd-64-colliding found it).
    wedge       two walls (boxes) meeting at an apex at an opening angle a (20, 45, 70, 85
                degrees), the notch's axis along +z; stick 1 and 0.6.
Each at three stick directions: along the notch's axis, and turned from it by half and by 0.9 of
the half-angle of the cone of pushes the two surfaces can take (below), narrowed so that the
straight path into the rest point touches neither obstacle first (round obstacles: at most 90
degrees less that half-angle; the wedge: the spawn inside it, 5 cm clear of both walls).

What KCC-SPEC gives:
- Collide-and-slide keeps one skin from what it meets, along the contact's normal: the body
  rests where it is r + skin from both surfaces. Two round obstacles of radius R whose axes are
  D = 2R + g apart: on the notch's axis, sqrt((R + r + skin)^2 - (D/2)^2) from the axes'
  midpoint. Two walls meeting at an opening angle a: on the bisector, (r + skin) / sin(a/2) from
  the apex.
- At rest there, the surfaces' normals n1, n2 take every push into the cone they span: a stick
  inside the cone of -n1 and -n2 (half-angle asin((D/2) / (R + r + skin)) for round
  obstacles, 90 - a/2 degrees for the wedge) has no part that enters neither surface: the motion
  stops ("With three planes that constrain the motion, stop"; two planes and the floor here), and
  so does the velocity (the same projection applied to it): horizontal_speed 0.
- The rest is reached no later than T = (ticks to cover S on flat ground) + 25 (the slide along
  the first surface is slower than the run, and never longer than a straight run of S / cos of
  the cone's half-angle); from T on the body stays at the rest point (1 mm in the wedge, where
  the crease's two-plane solve rounds; 0.1 mm elsewhere), and never moves back and forth (jitter
  0: the reading "Notches" of docs/controller.md, which KCC-SPEC's "the body jitters" forbids).
- On the floor every tick (grounded, y one skin), nothing penetrated, no character overlapped;
  the idle characters are never moved (the runner stops a skin from them, nothing overlaps).
"""
import math
import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import ACC, DEAD, DT, RUN_MAX, SKIN, main, num, scenario_text  # noqa: E402

R_BODY = 0.4
TICKS = 150
SPACING = 10.0
OFFSETS = (0.0, 0.5, 0.9)


def run_ticks(stick, dist):
    """Ticks (counted from tick 0) a body from rest needs to cover dist on flat ground."""
    v_max = RUN_MAX * (stick - DEAD) / (1 - DEAD)
    v, x, t = 0.0, 0.0, 0
    while x < dist:
        v = min(v_max, v + ACC)
        x += v * DT
        t += 1
    return t


def lanes():
    """One lane per runner: (family, parameters, the turn's fraction of the cone)."""
    out = []
    k = 0
    for radius in (0.2, 0.4, 0.7):
        for gap in (0.0, 0.3, 0.6):
            for stick in (1.0, 0.6):
                for frac in OFFSETS:
                    out.append(("pillars", dict(R=radius, g=gap, stick=stick, yaw=(k * 47) % 360), frac))
                    k += 1
    # Idle characters keep one skin between them: their surfaces a skin, or 0.3 m more, apart.
    for radius in (0.3, 0.4, 0.5):
        for gap in (SKIN, 0.3 + SKIN):
            for frac in OFFSETS:
                out.append(("characters", dict(R=radius, g=gap, stick=1.0, yaw=(k * 47) % 360), frac))
                k += 1
    for angle in (20, 45, 70, 85):
        for stick in (1.0, 0.6):
            for frac in OFFSETS:
                out.append(("wedge", dict(a=angle, stick=stick, yaw=0), frac))
    return out


def rot(yaw_deg, x, z):
    """(x, z) turned by yaw about +y: +z turns toward +x."""
    c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    return x * c + z * s, -x * s + z * c


def write():
    world = ["  - box: {id: 1, center: [45, -0.5, 45], half_extents: [52, 0.5, 52]}   # floor, top y = 0"]
    chars, expects, rows = [], [], []
    cid, sid = 0, 10
    for lane, (family, a, frac) in enumerate(lanes()):
        ox, oz = SPACING * (lane % 10), SPACING * (lane // 10)
        yaw = a["yaw"]
        # The notch's axis points along +z' (the lane's frame turned by yaw): the obstacles ahead,
        # the runner behind; the notch's apex side toward +z'.
        if family == "wedge":
            half = math.radians(a["a"] / 2)
            apex = 2.0  # apex at z' = 2
            rest_z = apex - (R_BODY + SKIN) / math.sin(half)
            cone = 90.0 - a["a"] / 2
            length, overshoot, thick = 2.5, 0.3, 0.25
            for side in (1, -1):
                th = side * a["a"] / 2  # the wall's yaw (v-wedge-30's convention)
                ty = math.radians(th)
                dx, dz = math.sin(ty), math.cos(ty)  # along the wall, toward the apex
                nx, nz = math.cos(ty), -math.sin(ty)  # the wall's local +x
                # inner face: local +x for the left wall (side 1), local -x for the right one
                fx = 0.0 - (length - overshoot) * dx
                fz = apex - (length - overshoot) * dz
                cx, cz = fx - side * thick * nx, fz - side * thick * nz
                sid += 1
                world.append(f"  - box: {{id: {sid}, center: [{num(ox + cx)}, 1.5, {num(oz + cz)}], "
                             f"half_extents: [{num(thick)}, 1.5, {num(length)}], rotation: [{num(th)}, 0, 0]}}")
            # A turned runner must spawn inside the wedge, 5 cm clear of both walls: the cone is
            # narrowed to the largest turn whose spawn (3.2 m back) is.
            def inside(t, dist=3.2):
                depth = (rest_z - apex) * -1 + dist * math.cos(t)
                return dist * math.sin(t) <= depth * math.tan(half) - (R_BODY + SKIN) / math.cos(half) - 0.05
            tmax = 0.0
            while tmax + 0.01 <= cone and inside(math.radians(tmax + 0.01)):
                tmax += 0.01
            cone = tmax
            desc = f"wedge {a['a']} deg"
            rest = (ox, oz + rest_z)
            tol = 0.001
            idle_ids = []
        else:
            radius, gap = a["R"], a["g"]
            d = 2 * radius + gap
            reach = radius + R_BODY + SKIN
            back = math.sqrt(reach * reach - (d / 2) ** 2)
            cone = math.degrees(math.asin((d / 2) / reach))
            # Turned further than 90 degrees less the cone, the path into the rest point from
            # behind would cross the other obstacle's reach first: the runner met it, not the
            # notch. The turns stay within that (a runner then comes in touching neither).
            cone = min(cone, 90.0 - cone)
            centres = []
            for side in (1, -1):
                px, pz = rot(yaw, side * d / 2, 0.0)
                centres.append((ox + px, oz + pz))
            rx, rz = rot(yaw, 0.0, -back)
            rest = (ox + rx, oz + rz)
            tol = 0.0001
            idle_ids = []
            if family == "pillars":
                for (px, pz) in centres:
                    sid += 1
                    world.append(f"  - capsule: {{id: {sid}, a: [{num(px)}, -1, {num(pz)}], "
                                 f"b: [{num(px)}, 3, {num(pz)}], radius: {num(radius)}}}")
                desc = f"pillars R {num(radius)} gap {num(gap)}"
            else:
                for (px, pz) in centres:
                    cid += 1
                    idle_ids.append((cid, px, pz))
                    settings = "" if radius == R_BODY else f", settings: {{radius: {num(radius)}}}"
                    chars.append(f"  - {{id: {cid}, spawn: [{num(px)}, 0.015, {num(pz)}]{settings}}}   # idle")
                desc = f"characters R {num(radius)} gap {num(gap)}"
        for j in (0,):
            turn = frac * cone * (1 if lane % 2 == 0 else -1)
            # The stick: the notch's axis (+z' in the lane's frame) turned by `turn`.
            sx, sz = rot(yaw + turn, 0.0, 1.0)
            dist = 3.0 + 0.0413 * (lane % 5)
            spx, spz = rest[0] - sx * dist, rest[1] - sz * dist
            cid += 1
            mag = a["stick"]
            chars.append(f"  - {{id: {cid}, spawn: [{num(spx)}, 0.015, {num(spz)}], input: {{segments: "
                         f"[{{ticks: {TICKS}, stick: [{num(sx * mag)}, {num(sz * mag)}]}}]}}}}   # {desc}, "
                         f"turned {num(round(turn, 2))} deg")
            t_rest = run_ticks(mag, dist) + 25
            expects.append(f"  - {{character: {cid}, ticks: [{t_rest}, {TICKS - 1}], "
                           f"x: [{num(rest[0] - tol)}, {num(rest[0] + tol)}], "
                           f"z: [{num(rest[1] - tol)}, {num(rest[1] + tol)}], horizontal_speed: 0}}")
            rows.append(f"{cid:3d} {desc:34s} turned {turn:7.2f} of +-{cone:5.2f} deg: rest at "
                        f"({rest[0]:.4f}, {rest[1]:.4f}) from tick {t_rest}")
        for (i, px, pz) in idle_ids:
            expects.append(f"  - {{character: {i}, x: [{num(px - 0.000001)}, {num(px + 0.000001)}], "
                           f"z: [{num(pz - 0.000001)}, {num(pz + 0.000001)}], horizontal_speed: 0}}")
    head = [
        "format: 1",
        "name: notches",
        'description: "Runners held into the notch between two obstacles closer than a body\'s width '
        '(two round pillars of three radii and three gaps, two idle characters of three radii, a wedge of two '
        'walls at four opening angles), along the notch\'s axis and turned from it by half and 0.9 of the '
        'cone the two surfaces take, at two speeds and several yaws and tick phases. Each must come to rest '
        'where it is one skin from both surfaces and stay there, without moving back and forth (docs/controller.md, '
        '\\"Notches\\": a slide clipped by the second surface never points against the motion the pass started '
        'with); on the floor every tick, nothing penetrated or overlapped, the idle characters never moved. '
        'Rows: derivations/notches.py."',
        "tick_rate: 50",
        f"ticks: {TICKS}",
        "golden_every: 10",
        "world:",
    ] + world
    all_ticks = [
        "  - grounded: true",
        "    y: [0.0149, 0.0151]",
        "  - metrics:",
        "      max_penetration: {max: 0.000001}",
        "      max_character_overlap: {max: 0.000001}",
        "      jitter: 0",
        "      flicker_count: 0",
        "      airborne_ticks: 0",
        "      max_horizontal_speed: {max: 6.2001}",
    ]
    return scenario_text(head, chars, all_ticks + expects), rows


if __name__ == "__main__":
    main(__file__, "notches", write)
