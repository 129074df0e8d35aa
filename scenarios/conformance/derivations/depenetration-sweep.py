#!/usr/bin/env python3
"""depenetration-sweep: bodies spawned into walls and unions of boxes at many depths, and bodies
pinched in slots narrower than they are; the scenario and its expectations from KCC-SPEC's rules
and the readings docs/controller.md names (step 1, "Depenetrate", and "Pinched").

    python3 scenarios/conformance/derivations/depenetration-sweep.py          # the rows
    python3 scenarios/conformance/derivations/depenetration-sweep.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/depenetration-sweep.py --check  # exit 1 if it differs

Each lane is a frame of its own: origin on a grid 12 m apart, turned by a yaw psi about +y
(local +x goes to (cos psi, 0, -sin psi), local +z to (sin psi, 0, cos psi)). Every body stands on
the floor one skin above it (y = skin) and holds no stick.

Out of a wall (KCC-SPEC, step 0: the minimum translation that separates the capsule, at most
depenetration_cap a tick; collide-and-slide: never touch). A wall's face at local x = 0 facing -x
(a box x in [0, 1]); the body's axis at x = d - r, d deep. Two kinds:
    box     one box, z in [-2, 2]
    union   two boxes overlapping by 0.6 m, z in [-2, 0.3] and [-0.3, 2], the body at z = 0: each
            box's own minimum translation is straight out of the common face, so is the union's
The way out is along -x, and nowhere else (no drift along the face). The reading for the skin
(docs/controller.md): the push is the depth plus one skin, so the body rests at x = -(r + skin);
at the cap it goes cap a tick, except that a cap that would leave it out of the wall but less than
a skin from it stops 2 mm inside instead (the next tick finishes the way out and the skin).
modelled tick by tick in push_ticks(). Swept: depths from 1 cm to past twice the cap, caps and
skins (0.2 / 0.015 and 0.1 / 0.03), three yaws. Bounds: 0.5 mm on a position (the decimal
centres of turned boxes are rounded to 1e-6 m, the model is exact otherwise), and the speed at
most cap / dt.

Pinched (docs/controller.md, "Pinched"; KCC-SPEC is silent): a body between two walls closer than
its width, narrower by w from 2 cm to 0.3 m, centred or 0.4 w off centre. Every way out crosses a
wall or slides 2 m along the slot, so there is none: the body stays where it spawned for the whole
run (0.1 mm), never deeper than at its spawn (its deepest overlap is its spawn's, w / 2 + off).
"""
import math

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import main, num, scenario_text  # noqa: E402

DT = 0.02
R = 0.4
TICKS = 40
DEPTHS = (0.01, 0.05, 0.12, 0.17, 0.19, 0.2, 0.21, 0.3, 0.39, 0.45)
SETTINGS = ((0.2, 0.015), (0.1, 0.03))
KINDS = ("box", "union")
YAWS = (0, 30, 135)
STOP = 0.002
NARROWER = (0.02, 0.1, 0.2, 0.3)


def rot(psi_deg, x, z):
    c, s = math.cos(math.radians(psi_deg)), math.sin(math.radians(psi_deg))
    return x * c + z * s, -x * s + z * c


def push_ticks(d, cap, skin):
    """The body's local x after each tick: depth d into the face, pushed out and a skin on."""
    xs, left = [], d  # left: how deep the body still is
    x = d - R
    for _ in range(TICKS):
        if left > 0:
            want = left + skin
            if want <= cap:
                step = want
            elif cap > left - STOP and left > STOP:
                step = left - STOP
            else:
                step = cap
            x -= step
            left -= step
        xs.append(x)
    return xs


def box(ident, ox, oz, psi, cx, cz, hx, hz):
    wx, wz = rot(psi, cx, cz)
    return (f"  - box: {{id: {ident}, center: [{num(ox + wx)}, 1.5, {num(oz + wz)}], "
            f"half_extents: [{num(hx)}, 1.5, {num(hz)}], rotation: [{num(psi)}, 0, 0]}}")


def lanes():
    k = 0
    for cap, skin in SETTINGS:
        for kind in KINDS:
            for d in DEPTHS:
                for psi in YAWS:
                    yield k, ("wall", kind, d, cap, skin, psi)
                    k += 1
    for w in NARROWER:
        for off in (0.0, 0.4 * w):
            for psi in (0, 30):
                yield k, ("pinch", w, off, psi)
                k += 1


def write():
    out = ["format: 1", "name: depenetration-sweep",
           'description: "Bodies spawned 1 cm to 0.45 m into a wall, and into the common face of two '
           'overlapping boxes, with two caps and skins and three yaws; and bodies in slots 2 cm to 0.3 m '
           'narrower than they are. KCC-SPEC step 0 and docs/controller.md: out along the minimum '
           'translation, at most the cap a tick, ending one skin from the face (a cap that would end '
           'within the skin stops 2 mm inside, and the next tick finishes), never drifting along the '
           'face; a pinched body (the reading named in docs/controller.md, Pinched) stays where it is. '
           'Scenario and bounds: derivations/depenetration-sweep.py (--write)."',
           "tick_rate: 50", f"ticks: {TICKS}", "world:",
           "  - box: {id: 1, center: [60, -0.5, 60], half_extents: [80, 0.5, 80]}   # floor, top y = 0"]
    chars, expects, rows = [], [], []
    end = TICKS - 1
    for k, lane in lanes():
        ox, oz = 12.0 * (k % 12), 12.0 * (k // 12)
        ident = k + 1
        base = 1000 + 10 * k
        if lane[0] == "wall":
            _, kind, d, cap, skin, psi = lane
            if kind == "box":
                out.append(box(base, ox, oz, psi, 0.5, 0.0, 0.5, 2.0))
            else:
                out.append(box(base, ox, oz, psi, 0.5, -0.85, 0.5, 1.15))
                out.append(box(base + 1, ox, oz, psi, 0.5, 0.85, 0.5, 1.15))
            sx, sz = rot(psi, d - R, 0.0)
            chars.append(f"  - id: {ident}   # {kind}, {d} m deep, cap {cap}, skin {skin}, yaw {psi}\n"
                         f"    spawn: [{num(ox + sx)}, {num(skin)}, {num(oz + sz)}]\n"
                         f"    settings: {{depenetration_cap: {num(cap)}, skin: {num(skin)}}}")
            xs = push_ticks(d, cap, skin)
            done = next(t for t in range(TICKS) if abs(xs[t] + R + skin) < 1e-12)
            assert done < end - 5, (k, done)
            for t in range(done + 1):
                wx, wz = rot(psi, xs[t], 0.0)
                head = f"  - ticks: [{t}, {end}]" if t == done else f"  - tick: {t}"
                expects.append(f"{head}\n    character: {ident}\n"
                               f"    x: [{ox + wx - 5e-4:.4f}, {ox + wx + 5e-4:.4f}]\n"
                               f"    z: [{oz + wz - 5e-4:.4f}, {oz + wz + 5e-4:.4f}]")
            expects.append(f"  - character: {ident}\n    grounded: true\n"
                           f"    y: [{skin - 1e-4:.4f}, {skin + 1e-4:.4f}]\n"
                           f"    surface_speed: {{max: {cap / DT + 1e-3:.4f}}}")
            rows.append(f"body {ident}: {kind} {d} m deep, cap {cap}, skin {skin}, yaw {psi}: "
                        f"out a skin from the face at tick {done}, x {xs[done]:.4f} (local)")
        else:
            _, w, off, psi = lane
            half_gap = R - w / 2
            for side in (-1, 1):
                out.append(box(base + (side + 1) // 2, ox, oz, psi, side * (half_gap + 0.5), 0.0, 0.5, 2.0))
            sx, sz = rot(psi, off, 0.0)
            chars.append(f"  - id: {ident}   # pinched, {w} m narrower, {num(off)} m off centre, yaw {psi}\n"
                         f"    spawn: [{num(ox + sx)}, 0.015, {num(oz + sz)}]")
            deepest = w / 2 + off
            expects.append(f"  - character: {ident}\n    grounded: true\n"
                           f"    x: [{ox + sx - 1e-4:.4f}, {ox + sx + 1e-4:.4f}]\n"
                           f"    y: [0.0149, 0.0151]\n"
                           f"    z: [{oz + sz - 1e-4:.4f}, {oz + sz + 1e-4:.4f}]")
            expects.append(f"  - character: {ident}\n    metrics:\n"
                           f"      max_penetration: {{max: {deepest + 1e-4:.4f}}}\n"
                           f"      max_depenetration: {{max: 0.0001}}")
            rows.append(f"body {ident}: pinched, {w} m narrower, {off:.3f} off centre, yaw {psi}: "
                        f"stays, {deepest:.3f} m deep at most")
    return scenario_text(out, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "depenetration-sweep", write)
