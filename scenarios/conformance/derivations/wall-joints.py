#!/usr/bin/env python3
"""wall-joints: walls made of boxes laid end to end, the scenario and its expectations from
KCC-SPEC's rules alone.

    python3 scenarios/conformance/derivations/wall-joints.py          # the derivation's rows
    python3 scenarios/conformance/derivations/wall-joints.py --write  # (re)writes ../wall-joints.yaml
    python3 scenarios/conformance/derivations/wall-joints.py --check  # exit 1 if the file differs

Each lane is a frame of its own: origin on a grid 40 m apart, turned by a yaw psi about +y
(local +x goes to (cos psi, 0, -sin psi), local +z to (sin psi, 0, cos psi): Mat3::rotation_y).
In it a wall runs along +x with its face at z = F, built of boxes 1.3 to 3.1 m long (the lengths
cycle, so the joints fall at every phase of a tick's motion), joined by one kind per lane:

    exact         end to end, touching
    overlap-1mm   each box runs 1 mm (50 mm) into the next
    gap-1mm       1 mm (5 mm) between boxes, far too narrow for a 0.4 m capsule
    tilt-5mrad    the faces a polyline turning +5 and -5 mrad in turn: kinks of 10 mrad at the
                  joints, concave and convex in turn

(Faces offset by a few millimetres are steps, surfaces of their own: the slide projects on the
step's edge, whose normal leans back against the motion, and what the body's velocity then is
belongs to the definition of the reported velocity, issue 50's last class; not swept here.)

A body holds the stick at theta degrees from the wall's direction into it for the whole run, on
the floor, or in the air (spawned 45 m up, falling the whole run), at a distance from the face
that lets it reach full speed before it reaches the wall (reach()).

KCC-SPEC and docs/controller.md, modelled tick by tick in the lane's frame (simulate()):
- Ground: the velocity points along the stick at the run speed, which rises 0.9 m/s a tick
  (45 m/s^2) to 6.2 and is not lowered by a wall. Air: h += stick * 0.24 (12 m/s^2), its length
  clamped to max(6.2, its length before); momentum kept. Each tick moves by h * dt (dt = 0.02).
- At the wall the slide removes the part of the motion into the face (the body rests one skin,
  0.015 m, from it) and the velocity loses the same part. Along the wall the motion is whole.
- A joint of faces in one plane (exact, overlap, gap) is no surface of its own (docs/
  controller.md, internal edges): the velocity and the progress are the flat wall's at every
  tick. Bounds: 1e-4 m/s on a velocity (the fixed-point model's rounding is below 1e-6), 1 mm
  on a position after 130 ticks; the decimal centres of turned boxes are rounded to 1e-6 m.
- Tilt: every face is a plane of its own and the body slides on the one it is on, at the flat
  model's speed with the wall turned by +delta or -delta (simulate(..., tilt)); a concave kink
  projects the velocity on the next face, keeping cos(2 delta) of it. Bounds: the horizontal
  speed from two ticks after contact between the slower face's speed times cos(2 delta) and the
  6.2 m/s clamp (1e-4 beyond each); at the last tick the progress between the two faces' models
  (the slower one's times cos delta, the polyline being longer than its chord) and the body one
  skin from the polyline's lateral spread, 1 mm.
Every lane: no tick at the iteration cap (the wall, a joint's edge and the floor need at most
three sweeps) and no penetration of the static geometry.
"""
import math

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import main, num  # noqa: E402

DT = 0.02
RUN = 6.2
R, SKIN = 0.4, 0.015
GROUND_ACC, AIR_ACC = 45 * DT, 12 * DT
TICKS = 130
THETAS = (3, 15, 45, 80)
KINDS = ("exact", "overlap-1mm", "overlap-50mm", "gap-1mm", "gap-5mm", "tilt-5mrad")
YAWS = (0, 17, 45, -120, 90, 200, -33, 138)
LENGTHS = (2.0, 1.3, 3.1, 2.45, 1.75, 2.8)
DELTA = 0.005  # tilt, rad
JOINT = {"exact": 0.0, "overlap-1mm": -0.001, "overlap-50mm": -0.05, "gap-1mm": 0.001,
         "gap-5mm": 0.005}


def simulate(theta_deg, air, lateral, tilt=0.0):
    """The spec's tick in the lane's frame, against a flat wall turned by `tilt` (rad) about the
    point where the body meets it. Returns per tick (velocity along, across, progress along the
    wall's own direction, in contact) and the contact tick."""
    th = math.radians(theta_deg) - tilt  # the stick's angle from the (turned) wall
    dirx, dirz = math.cos(th), math.sin(th)
    rest = lateral - R - SKIN
    ha, hb, run, pos, z, contact, rows = 0.0, 0.0, 0.0, 0.0, 0.0, None, []
    for t in range(TICKS):
        if air:
            before = math.hypot(ha, hb)
            ha, hb = ha + AIR_ACC * dirx, hb + AIR_ACC * dirz
            n = math.hypot(ha, hb)
            cap = max(RUN, before)
            if n > cap:
                ha, hb = ha * cap / n, hb * cap / n
        else:
            run = min(RUN, run + GROUND_ACC)
            ha, hb = run * dirx, run * dirz
        pos += ha * DT
        if z + hb * DT >= rest:
            z, hb = rest, 0.0
            if contact is None:
                contact = t
        else:
            z += hb * DT
        rows.append((ha, hb, pos, contact is not None))
    return rows, contact


def reach(theta_deg, acc):
    """The distance moved into the wall until the speed reaches 6.2 m/s."""
    speed, z = 0.0, 0.0
    while speed < RUN:
        speed = min(RUN, speed + acc)
        z += speed * math.sin(math.radians(theta_deg)) * DT
    return z


def lanes():
    k = 0
    for air in (False, True):
        for kind in KINDS:
            for theta in THETAS:
                yield k, air, kind, theta, YAWS[k % len(YAWS)]
                k += 1


def rot(psi_deg, x, z):
    c, s = math.cos(math.radians(psi_deg)), math.sin(math.radians(psi_deg))
    return x * c + z * s, -x * s + z * c



def wall(k, kind, face, box_h, psi, ox, oz):
    """The lane's boxes (YAML lines) and the faces' lateral extremes (local z)."""
    lines, x, z, i, lo, hi = [], -1.0, face, 0, face, face
    while x < 22.0:
        length = LENGTHS[i % len(LENGTHS)]
        a = (DELTA if i % 2 == 0 else -DELTA) if kind == "tilt-5mrad" else 0.0
        if kind == "tilt-5mrad":
            # The face from (x, z) to (x + L cos a, z + L sin a); the box behind it.
            ex, ez = x + length * math.cos(a), z + length * math.sin(a)
            cx, cz = (x + ex) / 2 - 0.25 * math.sin(a), (z + ez) / 2 + 0.25 * math.cos(a)
            lo, hi = min(lo, ez), max(hi, ez)
            x, z = ex, ez
        else:
            cx, cz = x + length / 2, face + 0.25
            x += length + JOINT.get(kind, 0.0)
        wx, wz = rot(psi, cx, cz)
        # A positive local turn a (toward +z) is a negative yaw (rotation_y turns +x to -z).
        yaw = psi - math.degrees(a)
        lines.append(f"  - box: {{id: {1000 + 100 * k + i}, center: [{num(ox + wx)}, {num(box_h)}, "
                     f"{num(oz + wz)}], half_extents: [{num(length / 2)}, {num(box_h)}, 0.25], "
                     f"rotation: [{num(yaw)}, 0, 0]}}")
        i += 1
    return lines, lo, hi


def lane(k, air, kind, theta, psi):
    ox, oz = 40.0 * (k % 8), 40.0 * (k // 8)
    acc = AIR_ACC if air else GROUND_ACC
    lateral = round(R + SKIN + reach(theta, acc) + 0.05, 3)
    face = lateral
    world, lo, hi = wall(k, kind, face, 30.0 if air else 1.5, psi, ox, oz)
    th = math.radians(theta)
    sx, sz = rot(psi, math.cos(th), math.sin(th))
    ch = (f"  - id: {k + 1}   # {'air' if air else 'ground'}, {kind}, theta {theta}, yaw {psi}\n"
          f"    spawn: [{num(ox)}, {num(45.0 if air else 0.015)}, {num(oz)}]\n"
          f"    input: {{segments: [{{ticks: {TICKS}, stick: [{sx:.6f}, {sz:.6f}]}}]}}")
    rows, t_c = simulate(theta, air, lateral)
    assert t_c is not None, (k, "no contact")
    end = TICKS - 1
    checks = []
    rest_lo, rest_hi = lo - R - SKIN, hi - R - SKIN
    if kind == "tilt-5mrad":
        # Velocity on either face: the flat model with the wall turned by +-delta, the result
        # turned back into the lane's frame.
        vs = []
        for a in (DELTA, -DELTA):
            r, _ = simulate(theta, air, lateral, a)
            vs.append([(va * math.cos(a) - vb * math.sin(a), va * math.sin(a) + vb * math.cos(a))
                       for va, vb, _, _ in r])
        prog = [min(simulate(theta, air, lateral, a)[0][end][2] for a in (DELTA, -DELTA)),
                max(simulate(theta, air, lateral, a)[0][end][2] for a in (DELTA, -DELTA))]
        prog = [prog[0] * math.cos(DELTA), prog[1]]
    else:
        vs = [[(va, vb) for va, vb, _, _ in rows]]
        prog = [rows[end][2], rows[end][2]]
    if kind == "tilt-5mrad":
        # Whatever face the body is on, and across each kink (a concave one projects the
        # velocity on the next face, cos(2 delta) of it kept), it slides: the horizontal speed
        # stays between the slower face's along-face speed times cos(2 delta) and the clamp.
        low = min(min(math.hypot(*v[tt]) for tt in range(t_c + 2, end + 1)) for v in vs)
        checks.append(("ticks", t_c + 2, end,
                       {"horizontal_speed": (low * math.cos(2 * DELTA) - 1e-4, RUN + 1e-4)}))
    # Velocity bounds: every tick from two after contact (the tick of contact moves part of the
    # way) to the end, as ranges over windows where the model's velocity is steady within
    # 4e-4, else per tick (and every fifth tick once a dozen windows are written: the air lanes'
    # rising speed).
    def rng(t0, t1):
        xs, zs = [], []
        for tt in range(t0, t1 + 1):
            for v in vs:
                wx, wz = rot(psi, *v[tt])
                xs.append(wx)
                zs.append(wz)
        return (min(xs) - 1e-4, max(xs) + 1e-4), (min(zs) - 1e-4, max(zs) + 1e-4)
    t = t_c + 2 if kind != "tilt-5mrad" else end + 1
    while t <= end:
        u = t
        while u + 1 <= end:
            (a0, a1), (b0, b1) = rng(t, u + 1)
            if a1 - a0 > 6e-4 or b1 - b0 > 6e-4:
                break
            u += 1
        vx, vz = rng(t, u)
        checks.append(("ticks", t, u, {"vx": vx, "vz": vz}))
        t = u + 1
        if len(checks) > 12:
            t += 4
    # Position at the last tick: progress along the wall, one skin from the face (the faces'
    # spread), turned into world x and z intervals.
    x_lo, x_hi = prog[0] - 0.001, prog[1] + 0.001
    corners = [rot(psi, lx, lz) for lx in (x_lo, x_hi)
               for lz in (rest_lo - 1e-4, rest_hi + 1e-4)]
    px = (ox + min(p[0] for p in corners), ox + max(p[0] for p in corners))
    pz = (oz + min(p[1] for p in corners), oz + max(p[1] for p in corners))
    checks.append(("tick", end, end, {"x": px, "z": pz}))
    return world, ch, checks, t_c, rows


def write():
    out = ["format: 1", "name: wall-joints",
           'description: "Walls of boxes laid end to end (exact, overlapping by 1 and 50 mm, 1 and 5 mm '
           'apart, faces turned +-5 mrad in turn), 48 lanes each turned by '
           'its own yaw, a body sliding along each at 3, 15, 45 and 80 degrees from the wall, on the floor '
           'and falling through the air. KCC-SPEC and docs/controller.md (internal edges): a joint between '
           'faces in one plane is no surface of its own, so the slide keeps the flat wall\'s velocity and '
           'progress across every joint, and a face turned by 5 mrad is slid along. '
           'Scenario and bounds: derivations/wall-joints.py (--write)."',
           "tick_rate: 50", f"ticks: {TICKS}", "world:",
           "  - box: {id: 1, center: [140, -0.5, 100], half_extents: [200, 0.5, 200]}   # floor, top y = 0"]
    chars, expects, rows_out = [], [], []
    for k, air, kind, theta, psi in lanes():
        world, ch, checks, t_c, rows = lane(k, air, kind, theta, psi)
        out += world
        chars.append(ch)
        for what, t0, t1, fields in checks:
            head = f"  - ticks: [{t0}, {t1}]" if what == "ticks" and t1 > t0 else f"  - tick: {t0}"
            body = "".join(f"\n    {name}: [{lo:.4f}, {hi:.4f}]" for name, (lo, hi) in fields.items())
            expects.append(f"{head}\n    character: {k + 1}{body}")
        metrics = (f"  - character: {k + 1}\n    metrics:\n"
                   f"      ticks_at_cap: 0\n      max_penetration: {{max: 0.000001}}")
        if not air:
            metrics += "\n      airborne_ticks: 0"
        expects.append(metrics)
        rows_out.append(f"lane {k + 1}: {'air' if air else 'ground'} {kind} theta {theta} yaw {psi}: "
                        f"contact tick {t_c}, along-wall velocity at the end {rows[-1][0]:.4f} m/s, "
                        f"progress {rows[-1][2]:.4f} m")
    out.append("characters:")
    out += chars
    out.append("expect:")
    out += expects
    return "\n".join(out) + "\n", rows_out


if __name__ == "__main__":
    main(__file__, "wall-joints", write)
