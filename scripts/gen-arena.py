#!/usr/bin/env python3
"""Generate the benchmark arena scenarios (issue 9) from the reference arena scene.

    scripts/gen-arena.py [SCENE_JSON] [--world-only] [--out-dir DIR] [--fxkcc BIN]

SCENE_JSON (default ../shared/reference/arena-scene.json relative to the repository) is the
reference arena as Jolt boxes: y up, `half` = half extents, `center`, `quat` = [x, y, z, w]
(active rotation, column vectors).  Output:

  --world-only   print only the `world:` block (boxes) to stdout and stop;
  otherwise      write DIR/arena-1.yaml and DIR/arena-64.yaml (DIR default scenarios/bench).

Boxes.  Each JSON box becomes `box: {id, center, half_extents, rotation: [yaw, pitch, roll]}`
(the loader's key for yaw/pitch/roll, degrees), ids 1.. in JSON order, the JSON name kept as a
YAML comment.  The project's convention (core/math/src/mat3.cpp,
Mat3::from_yaw_pitch_roll_degrees) is R = Ry(yaw) * Rx(pitch) * Rz(roll), column vectors:
roll about +z first, then pitch about +x, then yaw about +y, with the right-handed matrices
  Ry(a) = [[c,0,s],[0,1,0],[-s,0,c]], Rx(a) = [[1,0,0],[0,c,-s],[0,s,c]],
  Rz(a) = [[c,-s,0],[s,c,0],[0,0,1]].
Multiplying out, R[1][2] = -sin(pitch), (R[1][0], R[1][1]) = cos(pitch) (sin roll, cos roll),
(R[0][2], R[2][2]) = cos(pitch) (sin yaw, cos yaw); so from the (normalised) quaternion's
matrix: pitch = asin(-R12), roll = atan2(R10, R11), yaw = atan2(R02, R22) (no box is near
pitch +-90).  Computed with mpmath at 40 digits.

Rounding rule (the JSON holds float32 values printed with 9 significant digits, so every
number carries up to ~1e-7 relative noise):
  * lengths (centres, half extents): a value within 1e-6 m of a multiple of 0.001 m is that
    multiple (0.200000003 -> 0.2, 1.35000002 -> 1.35, 0.449999958 -> 0.45,
    10.6000004 -> 10.6); any other value is kept, printed with 9 decimals
    (1.28349364 -> 1.283493640);
  * angles: a value within 1e-4 degrees of a multiple of 0.001 degrees is that multiple
    (float32 quaternion components resolve ~1e-5 degrees: -74.99999194 -> -75), then put in
    (-180, 180]; any other value is kept with 9 decimals.
The conversion is verified: for every box the 8 corners from the JSON quaternion/centre/half
extents and from the written yaw/pitch/roll/centre/half extents (project convention) must
agree within 1e-6 m; the worst error is printed on stderr and the script fails otherwise.

Characters.  The course is a closed loop through every feature (see LOOP below), driven at
full stick (6.2 m/s) with jumps; it is steered in closed loop: each leg's stick and length
are computed from the position the real controller reached at the end of the previous leg
(the script runs `fxkcc run --csv` on the scenario built so far, one character), so the
route does not drift.  arena-1: one character that starts against the -z boundary wall,
slides along it, walks into the 90 degree corner and then runs the loop until tick 3000.
arena-64: character 1 is arena-1's; characters 2..64 run the same loop at 63 evenly spaced
phases: each is spawned where the loop's reference run stands on the floor at its phase
tick, with a tick-0 impulse that gives it the reference's velocity, and plays the loop's
input from that tick (cyclic).  Characters do not collide with each other.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import mpmath as mp

mp.mp.dps = 40
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICKS = 3000
# arena-64 runs 1000 ticks (20 s): its 64 characters, spread evenly over the loop's phases,
# cover every stretch of the course about 36 times, and the scenario stays below half of the
# whole suite's work, so `verify -j2` can keep both cores busy (docs/performance.md).
TICKS_64 = 1000
HZ = 50
SETTINGS = {  # issue 9: Jolt CharacterVirtual settings of the reference measurement
    "radius": "0.4", "height": "1.8", "max_slope_enter_deg": "55", "max_slope_stay_deg": "55",
    "step_height": "0.35", "snap_distance": "0.3",
}


# ----------------------------------------------------------------------------- geometry
def snap_len(v):
    m = mp.nint(v * 1000) / 1000
    return (m, True) if abs(v - m) <= mp.mpf("1e-6") else (v, False)


def snap_ang(v):
    m = mp.nint(v * 1000) / 1000
    if abs(v - m) <= mp.mpf("1e-4"):
        v, ok = m, True
    else:
        ok = False
    while v <= -180:
        v += 360
    while v > 180:
        v -= 360
    return v, ok


def fmt(v, exact):
    if exact:
        s = mp.nstr(v, 15, strip_zeros=True, min_fixed=-20, max_fixed=20)
        if "." in s:
            s = s.rstrip("0").rstrip(".")
        return "0" if s in ("-0", "") else s
    s = "%.9f" % float(v)  # 9 decimals; float64 holds these to ~1e-15 relative
    return "0" if float(s) == 0 else s


def quat_matrix(q):
    x, y, z, w = [mp.mpf(str(c)) for c in q]
    n = mp.sqrt(x * x + y * y + z * z + w * w)
    x, y, z, w = x / n, y / n, z / n, w / n
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def ypr_matrix(yaw, pitch, roll):
    """Mat3::from_yaw_pitch_roll_degrees: Ry(yaw) * (Rx(pitch) * Rz(roll))."""
    def ry(a):
        c, s = mp.cos(mp.radians(a)), mp.sin(mp.radians(a))
        return [[c, 0, s], [0, 1, 0], [-s, 0, c]]

    def rx(a):
        c, s = mp.cos(mp.radians(a)), mp.sin(mp.radians(a))
        return [[1, 0, 0], [0, c, -s], [0, s, c]]

    def rz(a):
        c, s = mp.cos(mp.radians(a)), mp.sin(mp.radians(a))
        return [[c, -s, 0], [s, c, 0], [0, 0, 1]]
    return matmul(ry(yaw), matmul(rx(pitch), rz(roll)))


def corners(center, half, r):
    out = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                loc = [sx * half[0], sy * half[1], sz * half[2]]
                out.append([center[i] + sum(r[i][k] * loc[k] for k in range(3)) for i in range(3)])
    return out


def convert(scene):
    """-> list of dicts (id, name, center, half, ypr as text) and the worst corner error."""
    boxes, worst = [], mp.mpf(0)
    for i, b in enumerate(scene):
        r = quat_matrix(b["quat"])
        pitch = mp.degrees(mp.asin(-r[1][2]))
        roll = mp.degrees(mp.atan2(r[1][0], r[1][1]))
        yaw = mp.degrees(mp.atan2(r[0][2], r[2][2]))
        ang = [snap_ang(a) for a in (yaw, pitch, roll)]
        cen = [snap_len(mp.mpf(str(c))) for c in b["center"]]
        hal = [snap_len(mp.mpf(str(h))) for h in b["half"]]
        txt = lambda vs: [fmt(v, ok) for v, ok in vs]
        box = {"id": i + 1, "name": b["name"], "center": txt(cen), "half": txt(hal),
               "ypr": txt(ang)}
        # check: corners from the JSON vs corners from what is written (parsed back)
        mine = corners([mp.mpf(s) for s in box["center"]], [mp.mpf(s) for s in box["half"]],
                       ypr_matrix(*[mp.mpf(s) for s in box["ypr"]]))
        ref = corners([mp.mpf(str(c)) for c in b["center"]], [mp.mpf(str(h)) for h in b["half"]], r)
        err = max(mp.sqrt(sum((p[k] - q[k]) ** 2 for k in range(3))) for p, q in zip(mine, ref))
        box["err"] = err
        worst = max(worst, err)
        boxes.append(box)
    return boxes, worst


def world_yaml(boxes):
    lines = ["world:  # scripts/gen-arena.py from the reference arena-scene.json; ids in JSON order"]
    for b in boxes:
        lines.append("  - box: {id: %d, center: [%s], half_extents: [%s], rotation: [%s]}  # %s"
                     % (b["id"], ", ".join(b["center"]), ", ".join(b["half"]), ", ".join(b["ypr"]),
                        b["name"]))
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- route
CORNER_REST = (1.585, -14.885)        # pressed into the 90 degree corner (faces x=2, z=-15.3)
APEX = (-10.6066, -10.6066)           # V-wedge apex (inner faces meet here)
BIS = (-math.sin(math.radians(60)), math.cos(math.radians(60)))   # into the V's opening
MOUTH = (APEX[0] + 7 * BIS[0], APEX[1] + 7 * BIS[1])
LEDGE_SE = (12.6, 8.6)
NW = (-math.sqrt(0.5), math.sqrt(0.5))
TAKEOFF = (LEDGE_SE[0] - 1.5 * NW[0], LEDGE_SE[1] - 1.5 * NW[1])

# Leg kinds: ("go", x, z) full stick toward the point (from where the body really is);
# ("dir", sx, sy, ticks) a fixed stick; ("jump",) jump on the next tick.
LOOP = [
    ("dir", 0.25, 1, 24),          # corner: slide north along corner_b (face x = 2), pressed into it
    ("dir", 0.25, -1, 30),         # back down it into the crease
    ("dir", 0.707107, -0.707107, 40),   # pressed into the corner
    ("dir", 0.25, 1, 24),          # and out along corner_b again
    ("go", 6, -9),
    ("go", 9.5, -7.6),
    ("jump",),                     # a periodic jump on the floor
    ("go", 15, -5.5),              # in front of the 30 degree ramp (rises toward +z from z = -2.6)
    ("go", 15, 1.9),               # up to near its top (h ~ 2.6 m; the top edge is at z = 2.6)
    ("go", 15, -5.0),              # back down
    ("go", 18.7, -3.0),            # round the ramp's east side
    ("go", 18.7, 3.5),
    ("go", LEDGE_SE[0] + 4 * -NW[0], LEDGE_SE[1] + 4 * -NW[1]),   # on the ledge's diagonal
    ("go", *TAKEOFF),
    ("jump",),                     # onto the 0.4 m ledge (above step height) along its diagonal
    ("go", 9.9, 11.3),
    ("go", 9.4, 9.4),              # walk about on the ledge
    ("go", 11.6, 11.9),
    ("go", 9.3, 11.9),
    ("go", 10.0, 13.6),            # off its north edge
    ("go", 4.6, 15.0),             # stairs: 10 x 0.2 m, climbing toward -x along z = 15
    ("go", -1.0, 15.0),            # up to the 9th/10th step (top 2 m, 0.3 m deep, drop behind)
    ("go", 4.4, 15.0),             # back down
    ("go", 2.0, 12.6),             # round the stairs' south side
    ("go", -2.5, 12.6),
    ("jump",),                     # a periodic jump on the floor
    ("go", -7.0, 12.6),
    ("go", -8.2, 12.4),            # under the low ceiling (x -13.6..-7.6, z 7.6..13.6, 2 m)
    ("go", -10.4, 11.0),
    ("jump",),                     # bumps the ceiling
    ("go", -12.6, 8.6),
    ("go", -13.7, 4.6),            # 50 degree ramp: rises toward -z from z = 1.29, x -17..-13
    ("go", -13.7, -0.6),           # up it (walkable: 50 < 55)
    ("go", -16.3, -0.6),           # across its face
    ("go", -16.3, 4.2),            # back down
    ("go", -18.9, 2.5),            # round its west side
    ("go", -18.9, -5.2),
    ("go", *MOUTH),                # the V-wedge's mouth (30 degrees, apex at (-10.6, -10.6))
    ("dir", -BIS[0], -BIS[1], 130),  # into the V until wedged, pressed
    ("go", *MOUTH),                # back out
    ("go", -17.8, -11.2),
    ("jump",),
    ("go", -11.0, -13.3),
    ("go", -7.0, -13.8),
    ("jump",),
    ("go", -1.6, -14.4),
    ("dir", 1, -0.25, 34),         # corner: slide +x along corner_a (face z = -15.3) into the crease
    ("dir", 0.707107, -0.707107, 100),  # pressed into the corner
]
PREFIX = [                         # arena-1 only: the boundary walls first
    ("dir", 1, -0.3, 40),          # slide +x along wall -z (face z = -49)
    ("go", -2.8, -20.0),
    ("go", -1.6, -14.4),
    ("dir", 1, -0.25, 34),
    ("dir", 0.707107, -0.707107, 60),
]
WALL_SPAWN = (-4.0, 0.015, -48.3)
CORNER_SPAWN = (CORNER_REST[0], 0.015, CORNER_REST[1])


def q6(v):
    return float("%.6f" % v)


class Route:
    def __init__(self, spawn):
        self.spawn = spawn
        self.sticks = []           # per tick (sx, sy)
        self.jumps = []

    def input_yaml(self, sticks=None, jumps=None, impulse=None, indent="      "):
        sticks = self.sticks if sticks is None else sticks
        jumps = self.jumps if jumps is None else jumps
        segs = []
        for s in sticks:
            if segs and segs[-1][1] == s:
                segs[-1][0] += 1
            else:
                segs.append([1, s])
        out = [indent + "segments:"]
        for n, s in segs:
            if s == (0.0, 0.0):
                out.append(indent + "  - {ticks: %d}" % n)
            else:
                out.append(indent + "  - {ticks: %d, stick: [%s, %s]}" % (n, fmtn(s[0]), fmtn(s[1])))
        if jumps:
            out.append(indent + "jumps: [%s]" % ", ".join(str(j) for j in jumps))
        if impulse:
            out.append(indent + "impulses: [{tick: 0, velocity: [%s, 0, %s]}]"
                       % (fmtn(impulse[0]), fmtn(impulse[1])))
        return "\n".join(out) + "\n"


def fmtn(v):
    s = "%.6f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def run_csv(fxkcc, text, stop=None):
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, dir="/tmp") as f:
        f.write(text)
        path = f.name
    try:
        cmd = [fxkcc, "run", path, "--csv", "-"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        rows = []
        hdr = None
        for line in p.stdout.splitlines():
            if line.startswith("#"):
                continue
            if line.startswith("tick,"):
                hdr = line.split(",")
                continue
            if hdr and line and line[0].isdigit():
                parts = line.split(",")
                if len(parts) == len(hdr):
                    rows.append(dict(zip(hdr, parts)))
        if not rows:
            sys.exit("fxkcc run failed:\n" + p.stdout[-2000:] + p.stderr[-2000:])
        return rows
    finally:
        os.unlink(path)


def scenario_text(name, desc, world, chars, ticks):
    out = ["format: 1", "name: %s" % name, "description: |"]
    out += ["  " + l for l in desc.strip().splitlines()]
    out += ["tick_rate: %d" % HZ, "ticks: %d" % ticks, "golden_every: 50"]
    text = "\n".join(out) + "\n" + world + "characters:\n"
    for c in chars:
        text += c
    return text


def char_yaml(cid, spawn, input_text, ghost=False):
    """ghost: collide_characters false (arena-64: the Jolt runs it is compared with do not
    collide characters with each other)."""
    items = (["collide_characters: false"] if ghost else []) + ["%s: %s" % kv for kv in SETTINGS.items()]
    s = "  - id: %d\n    spawn: [%s, %s, %s]\n    settings: {%s}\n    input:\n" % (
        cid, fmtn(spawn[0]), fmtn(spawn[1]), fmtn(spawn[2]), ", ".join(items))
    return s + input_text


def plan_go(p, v, q):
    """Full stick from p toward q with current velocity v: ticks that bring the body closest to
    q under the flat-ground model (accelerate 45 m/s^2, brake 60 m/s^2 against the motion)."""
    dx, dz = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dz)
    if d < 1e-6:
        return (0.0, 0.0), 0
    st = (q6(dx / d), q6(dz / d))
    tx, tz = 6.2 * st[0], 6.2 * st[1]
    x, z, vx, vz = p[0], p[1], v[0], v[1]
    best, bestn = d, 0
    for n in range(1, 2000):
        ex, ez = tx - vx, tz - vz
        e = math.hypot(ex, ez)
        a = (1.2 if (ex * vx + ez * vz) < 0 else 0.9)
        if e > 1e-12:
            k = min(1.0, a / e)
            vx, vz = vx + ex * k, vz + ez * k
        x, z = x + vx / HZ, z + vz / HZ
        r = math.hypot(q[0] - x, q[1] - z)
        if r < best:
            best, bestn = r, n
        elif r > best + 0.5:
            break
    return st, max(bestn, 1)


def build_route(fxkcc, world, spawn, legs, route=None):
    route = route or Route(spawn)
    for leg in legs:
        if leg[0] == "jump":
            route.jumps.append(len(route.sticks))
            continue
        if leg[0] == "dir":
            _, sx, sy, n = leg
            m = math.hypot(sx, sy)
            route.sticks += [(q6(sx / m), q6(sy / m))] * n
            continue
        # "go": measure where the body is now
        t = len(route.sticks)
        if t == 0:
            p, v = (spawn[0], spawn[2]), (0.0, 0.0)
        else:
            text = scenario_text("arena-plan", "planning", world,
                                 [char_yaml(1, spawn, route.input_yaml(
                                     jumps=[j for j in route.jumps if j < t]))], t)
            last = run_csv(fxkcc, text)[-1]
            p, v = (float(last["x"]), float(last["z"])), (float(last["vx"]), float(last["vz"]))
        st, n = plan_go(p, v, (leg[1], leg[2]))
        route.sticks += [st] * n
    return route


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scene", nargs="?", default=os.path.join(REPO, "..", "shared", "reference",
                                                             "arena-scene.json"))
    ap.add_argument("--world-only", action="store_true")
    ap.add_argument("--out-dir", default=os.path.join(REPO, "scenarios", "bench"))
    ap.add_argument("--fxkcc", default=os.path.join(REPO, "build", "cli", "fxkcc"))
    a = ap.parse_args()

    with open(a.scene) as f:
        scene = json.load(f)
    boxes, worst = convert(scene)
    for b in boxes:
        print("check: %-9s yaw/pitch/roll [%s] corner error %s m" % (
            b["name"], ", ".join(b["ypr"]), mp.nstr(b["err"], 3)), file=sys.stderr)
    print("check: worst corner error %s m over %d boxes (bound 1e-6 m)" % (
        mp.nstr(worst, 3), len(boxes)), file=sys.stderr)
    if worst > mp.mpf("1e-6"):
        sys.exit("conversion check failed")
    world = world_yaml(boxes)
    if a.world_only:
        sys.stdout.write(world)
        return

    # the loop, from rest in the corner; then arena-1 = wall prefix + loops
    loop = build_route(a.fxkcc, world, CORNER_SPAWN, LOOP)
    L = len(loop.sticks)
    one = build_route(a.fxkcc, world, WALL_SPAWN, PREFIX)
    while len(one.sticks) < TICKS:
        base = len(one.sticks)
        one.jumps += [base + j for j in loop.jumps]
        one.sticks += loop.sticks
    one.sticks = one.sticks[:TICKS]
    one.jumps = [j for j in one.jumps if j < TICKS]
    print("loop: %d ticks (%.1f s), %d jumps" % (L, L / HZ, len(loop.jumps)), file=sys.stderr)

    settings_txt = ("radius 0.4 m, height 1.8 m, max slope 55 degrees (enter = stay = 55: Jolt's "
                    "single limit, no hysteresis), step 0.35 m, snap 0.3 m, 50 Hz")
    route_txt = (
        "The course (a closed loop of %d ticks, driven at full stick, 6.2 m/s, with jumps): "
        "along and into the 90 degree corner, halfway up the 30 degree ramp and back down, a "
        "jump onto the 0.4 m ledge (above the step height) and a walk on it, up and down the "
        "10 stairs, a jump on the floor, a jump under the 2 m ceiling, up and down the 50 degree "
        "ramp (walkable: 50 < 55), into the 30 degree V-wedge until wedged, a jump, and back "
        "along the corner's wall into the corner." % L)
    os.makedirs(a.out_dir, exist_ok=True)
    desc1 = (
        "Benchmark workload (issue 9): the reference arena of Jolt Physics' "
        "CharacterVirtual::ExtendedUpdate measurement (shared/reference/arena-scene.json, "
        "converted by scripts/gen-arena.py: a 100 m floor with boundary walls, 30 and 50 degree "
        "ramps, a 0.4 m ledge, 10 stairs of 0.2 x 0.3 m, a 2 m ceiling, a 30 degree V-wedge and a "
        "90 degree corner) with one character, %s. It slides along the -z boundary wall, walks "
        "into the corner and then loops the course for 60 s. %s Feature shares: "
        "scripts/arena-shares.py." % (settings_txt, route_txt))
    text1 = scenario_text("arena-1", desc1, world,
                          [char_yaml(1, WALL_SPAWN, one.input_yaml())], TICKS)
    with open(os.path.join(a.out_dir, "arena-1.yaml"), "w") as f:
        f.write(text1)

    # arena-64: character 1 = arena-1's; 2..64 at 63 phases of the loop
    ref_text = scenario_text("arena-loop", "The course's loop once, from rest in the corner.",
                             world, [char_yaml(1, CORNER_SPAWN, loop.input_yaml())], L)
    if os.environ.get("ARENA_LOOP_OUT"):   # tuning aid: the loop alone, for arena-shares.py
        with open(os.environ["ARENA_LOOP_OUT"], "w") as f:
            f.write(ref_text)
    ref = run_csv(a.fxkcc, ref_text)
    chars = [char_yaml(1, WALL_SPAWN, one.input_yaml(one.sticks[:TICKS_64], [j for j in one.jumps if j < TICKS_64]),
                       ghost=True)]
    used = set()
    for k in range(63):
        o = 1 + (k * L) // 63
        # nearest tick (>= 1) where the reference stands on the floor (shape 1) at the start
        for d in range(L):
            cand = [c for c in (o + d, o - d) if 1 <= c < L and c not in used]
            cand = [c for c in cand if ref[c - 1]["ground_shape"] == "1" and ref[c - 1]["grounded"] == "1"
                    and abs(float(ref[c - 1]["y"]) - 0.015) < 1e-6 and ref[c]["grounded"] == "1"
                    and abs(float(ref[c]["y"]) - 0.015) < 1e-6]
            if cand:
                o = cand[0]
                break
        used.add(o)
        r0, r1 = ref[o - 1], ref[o]
        spawn = (float(r0["x"]), 0.015, float(r0["z"]))
        sticks = (loop.sticks[o:] + loop.sticks * 4)[:TICKS_64]
        jumps = sorted(j - o for j in loop.jumps if j >= o)
        for rep in range(1, 5):
            jumps += [rep * L - o + j for j in loop.jumps]
        jumps = sorted(j for j in jumps if 0 <= j < TICKS_64)
        st = sticks[0]
        m = math.hypot(*st)
        a0 = (0.9 * st[0] / m, 0.9 * st[1] / m) if m > 0 else (0.0, 0.0)
        imp = (float(r1["vx"]) - a0[0], float(r1["vz"]) - a0[1])
        chars.append(char_yaml(k + 2, spawn, loop.input_yaml(sticks, jumps, imp), ghost=True))
    desc64 = (
        "Benchmark workload (issue 9) at scale: the arena of arena-1 with 64 characters (ids "
        "1..64), %s. Character 1 is arena-1's; characters 2..64 run the same course at 63 evenly "
        "spaced phases (each spawned where the course's reference run stands on the floor at its "
        "phase, given that run's velocity by a tick-0 impulse, then playing the course's input "
        "from there, cyclically) for %d s, so together they touch the features in about the "
        "reference's proportions. Characters do not collide with each other (collide_characters: false, "
        "as in the Jolt reference runs this workload is compared with; docs/performance.md states the "
        "cost with collisions on). %s"
        % (settings_txt, TICKS_64 // HZ, route_txt))
    text64 = scenario_text("arena-64", desc64, world, chars, TICKS_64)
    with open(os.path.join(a.out_dir, "arena-64.yaml"), "w") as f:
        f.write(text64)
    print("wrote %s, %s" % (os.path.join(a.out_dir, "arena-1.yaml"),
                            os.path.join(a.out_dir, "arena-64.yaml")), file=sys.stderr)


if __name__ == "__main__":
    main()
