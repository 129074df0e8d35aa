#!/usr/bin/env python3
"""stairs-long-strides: bodies narrow and wide run up stairs whose treads are shorter than one tick's
motion, straight and at 12 and 25 degrees off the stairs' axis, swept over treads, radii, stay
limits, speeds and tick phases at 30 Hz; the scenario and its bounds from KCC-SPEC's step rule and
the readings docs/controller.md names ("Step-up", "Wide bodies on short treads", "The reported
velocity").

    python3 scenarios/conformance/derivations/stairs-long-strides.py          # the rows
    python3 scenarios/conformance/derivations/stairs-long-strides.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/stairs-long-strides.py --check  # exit 1 if it differs

The findings (swarm seed 20261216 run 23471): six 0.302 m risers (step_height 0.416 m) on 0.253 m
treads, a body of radius 0.472 m (stay limit 40 degrees) running 8.603 m/s at 30 Hz: 0.287 m a
tick, more than a tread. The step-up's forward, the tick's whole blocked motion, passed the walkable
stretch of the next nosing (landing two risers up: too high, steep, or blocked raised by the next
riser) and was halved toward it only when motion had been held, so the body stopped at the second
riser for ever, its reported velocity zero; narrow bodies (radius 0.2 to 0.3 m) on such stairs at
such speeds stopped the same way, the raised forward blocked by the next riser (behaviour 16 (c)).
And (the same run, found by stick [0.6, 0.1275] on stairs yawed 12 degrees) a body approaching
such stairs at an angle, its stick 5 to 30 degrees off their axis, stopped at the first riser for
ever: its held step-up forward, raised, met the next nosing ahead and was slid along it as if it
were a wall beside the step, which kept almost nothing of the held motion (here, before the fix,
a 9 m/s body at 25 degrees read 3.80 m/s, 9 sin 25: only the sideways part). The controller now takes a nosing met by
the raised forward after step_min_forward (0.1 m) as ahead, over the step, and bisects the forward
(docs/controller.md, "Step-up"). A straight approach never meets that: hence the angled lanes.

Tick rate 30 Hz (the finding's): a stride (v * dt) longer than a tread needs v > 30 * run m/s at
30 Hz, 50 * run at 50 Hz, i.e. 6 to 9 m/s on these treads at 30 Hz but 10 to 15 m/s at 50 Hz,
past the 9 m/s used here; one scenario has one tick_rate, so 30 Hz reaches the class.

Each flight: 6 steps then a landing; (run, rise, step_height) = (0.2, 0.25, 0.35), (0.23, 0.3,
0.35), (0.253, 0.302, 0.416: the finding's) and (0.3, 0.25, 0.35) m, every rise under the step
height. On each, bodies of radius 0.25, 0.3, 0.4, 0.472 and 0.5 m with slope limits (enter, stay)
of (38, 40) (the finding's) and (55, 58) (the defaults) degrees and max_speed 9 m/s run up with
the stick's magnitude s at 0.575, 0.7875 and 1 (exactly 4.5, 6.75 and 9 m/s past the 0.15 dead
zone: strides of 0.15, 0.225 and 0.3 m, 0.5 to 1.5 treads), at two tick phases (spawned half a
stride along the stairs apart), 2 m before the first riser (full speed by then: 45 m/s^2 is 1.5
m/s a tick at 30 Hz). Every body runs straight up (stick [0, s]); the (38, 40) bodies run up at 12
and 25 degrees too (stick (s sin a, s cos a), each component cut to nine decimals: the speed
within 2e-8 m/s of the straight one's), drifting sideways (+x) at v sin a while climbing at
v cos a (0.45 to 1.47 treads a tick along the stairs). The (55, 58) bodies meet the angled class
too, less often; left straight to keep the scenario at 480 bodies (240 straight, 240 angled).

Room: lanes 1.5 m apart along x, in order the straight ones, then the 12 degree ones and the 25
degree ones, each by speed; every lane drifts sideways at least as far as the lane before it at
every tick (a flat walker from rest, asserted: the fastest 12 degree lane drifts 1.87 m/s, the
slowest 25 degree one 1.90), so as walkers lanes never come closer than their 1.5 m (two radii: at
most 1 m); the flights, their floors and landings are wide enough (asserted) that every body,
drifting at v sin a for the whole run (up to 7.29 m: 9 m/s at 25 degrees), keeps 1 m (MARGIN)
from their edges, and nothing slides any body along a wall. The margins take what the stairs add
(measured, behaviour 16: a body held at a riser at an angle slides its sideways part along it, and
the step then moves the held forward, sideways part included, again: up to 0.34 m more sideways
over six risers at 25 degrees; neighbouring lanes came within 1.31 m, 0.34 m between the bodies).

Geometry (a body in the plane of its walk, its round base of radius r; skin aside): the base rests
on a tread when the tread holds its lowest point clear of the next riser (run >= r when rise >= r,
else run >= sqrt(r^2 - (r - rise)^2)); otherwise it rests on two nosings, P and the next one up,
Q, a rise and a run apart, its centre r from both, the contact on P leaning theta_v from the
vertical (computed below, as stairs-wide-bodies does). KCC-SPEC's step rule accepts a landing that
is walkable, so that rest is walkable where theta_v is under the stay limit: asserted here by at
least 2 degrees on every flight, radius and limit (theta_v at most 32.7 degrees, radius 0.5 m on
the 0.2 m treads, 7.3 under the 40 degree stay limit). A landing on Q is walkable over a stretch of
forward from that rest (`window`, printed, along the stairs: at an angle a forward f moves f cos a
along them); a stride, 0.15 to 0.3 m, falls short of it or passes it (landing on the nosing after Q,
two risers up: more than step_height over the feet, or steep, or the raised forward blocked by
that riser).

KCC-SPEC: "a 0.20 m step must not stop the character at all" (every rise here is within
step_height); a step-up moves forward by the blocked motion and lands on walkable ground. The
readings (docs/controller.md, "Step-up", "Wide bodies on short treads"): a forward that lands on
the nosing too steeply holds the body at the riser with its motion kept; a forward that passes the
walkable stretch, or whose raised forward meets the next nosing after step_min_forward (ahead,
over the step, at any angle), is halved toward it and the body steps onto a walkable landing,
never further than the whole forward. A step ends the tick's pass (the forward is the whole
blocked motion, along the motion: cos a of it along the stairs), so a body climbs at most one
riser a tick; a stride along the stairs (v cos a dt) longer than a tread then costs
1 - run / (v cos a dt) of a tick at each riser, a shorter one at most the held tick. So every
body climbs every flight, at every angle:
- it reaches the landing no later than a flat walker from rest (the run speed rising 1.5 m/s a
  tick to v) walks the flight's length to the landing's edge along the stairs at cos a of its
  speed, plus one tick at each of the six risers and the landing's edge, and stays there,
  grounded, one skin above it (1 mm);
- it is grounded at every tick (airborne_ticks 0): a step accepted lands it on walkable ground, a
  step held or refused leaves it on the ground it has, and nothing on the way up is a drop;
- the reported velocity (docs/controller.md, "The reported velocity": a step climbed, a nosing
  rolled over and a riser held at take nothing, at any angle; no wall slides a body here) reads
  the run speed v, not only its part along the stairs, from the tick it is reached
  (ceil(v / 1.5) - 1) to the end (1e-4 m/s; the straight sticks' remap is exact in decimals, the
  angled ones' within 2e-8 m/s, the bound from the written decimals).
"""
import math

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import DEAD, SKIN, flight_lines, main, num, scenario_text  # noqa: E402

HZ = 30
DT = 1 / HZ
ACC = 45 * DT  # KCC-SPEC's ground acceleration a tick at 30 Hz
MAX_SPEED = 9.0
TICKS = 60
STEPS = 6
FLIGHTS = ((0.2, 0.25, 0.35), (0.23, 0.3, 0.35), (0.253, 0.302, 0.416), (0.3, 0.25, 0.35))  # run, rise, step
RADII = (0.25, 0.3, 0.4, 0.472, 0.5)
LIMITS = ((38, 40), (55, 58))
STICKS = ("0.575", "0.7875", "1")
PHASES = 2
# Approach angles (degrees off the stairs' axis, the stick (s sin a, s cos a)): 0 for every body;
# the angled ones for the radii and limits below.
ANGLES = (0, 12, 25)
ANGLED_RADII = RADII
ANGLED_LIMITS = ((38, 40),)
LANE = 1.5
START = 2.0
MARGIN = 1.0  # the least room (m) between a body's side and the edge of its flight, floor or landing


def stick_of(s, angle):
    """The stick's decimals for magnitude s at `angle` degrees off +z (+x sideways), each component
    cut to nine decimals (so its magnitude is at most s, by less than 2e-9: the speed, within 2e-8
    m/s of the straight lanes', is reached at the same tick)."""
    if angle == 0:
        return "0", s
    a = math.radians(angle)
    return tuple(f"{math.floor(float(s) * f(a) * 1e9) / 1e9:.9f}".rstrip("0").rstrip(".")
                 for f in (math.sin, math.cos))


def speed_of(stick):
    """The run speed (m/s) a stick (its two decimals) asks for (KCC-SPEC: linear past the dead zone)."""
    m = min(math.hypot(float(stick[0]), float(stick[1])), 1.0)
    return (m - DEAD) / (1 - DEAD) * MAX_SPEED


def walked(v, ticks):
    """The distance (m) a flat walker from rest covers in `ticks` ticks (its speed rising by ACC a
    tick to v)."""
    return sum(min(v, ACC * (k + 1)) * DT for k in range(ticks))


def tread_rest(r, run, rise):
    """Whether a tread holds the base's lowest point clear of the next riser and nosing."""
    return run >= (r if rise >= r else math.sqrt(r * r - (r - rise) ** 2))


def two_nosing_lean(r, run, rise):
    """theta_v (degrees): the lean of the contact on the lower nosing where the base touches two."""
    d = math.hypot(run, rise)
    assert d < 2 * r, (r, run, rise)
    h = math.sqrt(r * r - d * d / 4)
    cz = run / 2 - h * rise / d  # centre = midpoint + h * the nosings' line's normal, up and back
    cy = rise / 2 + h * run / d
    return math.degrees(math.atan2(-cz, cy))


def window(r, run, rise, stay):
    """The forward (m) from a two-nosing rest to the first and the last landing on the next nosing
    that leans at most `stay` degrees."""
    d = math.hypot(run, rise)
    h = math.sqrt(r * r - d * d / 4)
    to_q = run - (run / 2 - h * rise / d)  # horizontal distance from the centre to Q
    return (to_q - r * math.sin(math.radians(stay)),
            to_q - r * math.sin(math.radians(two_nosing_lean(r, run, rise))))


def lanes():
    """One flight's lanes in order of x: (angle, radius, limits, stick magnitude, phase). The angled
    ones after the straight ones, by angle, then by speed: every lane drifts sideways at least as
    far as the lane before it (asserted in write), so lanes 1.5 m apart never come closer."""
    out = [(0, r, lim, s, p) for r in RADII for lim in LIMITS for s in STICKS for p in range(PHASES)]
    for angle in ANGLES:
        if angle:
            out += [(angle, r, lim, s, p) for s in STICKS for r in ANGLED_RADII for lim in ANGLED_LIMITS
                    for p in range(PHASES)]
    return out


def write():
    out = ["format: 1", "name: stairs-long-strides",
           'description: "Bodies of radius 0.25 to 0.5 m run at 4.5, 6.75 and 9 m/s (max_speed 9) at 30 Hz up '
           'flights of six risers (0.25 to 0.302 m, under step_height) on treads of 0.2 to 0.3 m, strides of 0.5 '
           'to 1.5 treads, with stay limits of 40 and 58 degrees, two tick phases each, straight up and (stay '
           'limit 40) at 12 and 25 degrees off the stairs\' axis, drifting sideways along wide flights (swarm seed '
           '20261216 run 23471: a 0.472 m body at 8.603 m/s stopped at the second riser for ever; at an angle, '
           'stick [0.6, 0.1275] on stairs yawed 12 degrees, a held step-up whose raised forward met the next '
           'nosing ahead was slid along it as a wall beside the step and the body stopped at the first riser for '
           'ever). KCC-SPEC: steps within step_height must not stop the body; the readings of docs/controller.md '
           '(Step-up; Wide bodies on short treads; The reported velocity): at most one riser a tick, each costing '
           'at most a tick of the motion along the stairs, grounded throughout, the velocity reading the run speed '
           'at every angle. Scenario and bounds: derivations/stairs-long-strides.py (--write)."',
           f"tick_rate: {HZ}", f"ticks: {TICKS}", "world:"]
    chars, expects, rows = [], [], []
    ident = 0
    order = lanes()
    drift = [math.sin(math.radians(a)) * walked(speed_of(stick_of(s, a)), TICKS) for a, _, _, s, _ in order]
    for k in range(1, len(order)):  # every lane drifts at least as far as the one before it, every tick
        (a0, _, _, s0, _), (a1, _, _, s1, _) = order[k - 1], order[k]
        for t in range(TICKS + 1):
            assert (math.sin(math.radians(a1)) * walked(speed_of(stick_of(s1, a1)), t)
                    >= math.sin(math.radians(a0)) * walked(speed_of(stick_of(s0, a0)), t) - 1e-9), (k, t)
    rmax = max(RADII)
    width = math.ceil(max(LANE * k + r + d for k, ((_, r, _, _, _), d) in enumerate(zip(order, drift)))
                      + rmax + 2 * MARGIN)
    land_hz = 12.0
    for flight, (run, rise, step) in enumerate(FLIGHTS):
        assert rise < step, (run, rise, step)
        ox = (width + 10) * flight
        foot_z = 3.0
        top = STEPS * rise
        land_from = foot_z + STEPS * run
        out += flight_lines(flight, ox, foot_z, STEPS, rise, run, floor=(10, width / 2 + 1, 16),
                            stairs_width=width, landing=(width / 2, land_hz))
        step_setting = f", step_height: {num(step)}" if step != 0.35 else ""
        strides = ", ".join(f"{speed_of(('0', s)) * DT / run:.2f}" for s in STICKS)
        rows.append(f"flight {flight + 1}: run {run}, rise {rise}, step_height {step}: strides {strides} treads")
        for r in RADII:
            for enter, stay in LIMITS:
                lean = two_nosing_lean(r, run, rise)
                assert lean <= stay - 2, (r, run, rise, lean, stay)  # the two-nosing rest is walkable
                if tread_rest(r, run, rise):
                    rows.append(f"  radius {r}, limits ({enter}, {stay}): rests on a tread")
                else:
                    first, last = window(r, run, rise, stay)
                    rows.append(f"  radius {r}, limits ({enter}, {stay}): on two nosings, lean {lean:.1f} deg, "
                                f"walkable landing {max(first, 0):.3f} to {last:.3f} m forward")
        groups = {}
        for lane, (angle, r, (enter, stay), s, phase) in enumerate(order):
            ident += 1
            stick = stick_of(s, angle)
            v = speed_of(stick)
            ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            full = math.ceil(v / ACC - 1e-9) - 1
            x = ox - width / 2 + MARGIN + rmax + LANE * lane
            z = foot_z - START - r - phase * v * ca * DT / PHASES
            # Room: the body's side, drifting sideways at v sin a for the whole run, stays MARGIN
            # inside the flight, its floor and its landing (all `width` wide, centred on ox).
            assert x - r >= ox - width / 2 + MARGIN - 1e-9, (ident, x)
            assert x + drift[lane] + r <= ox + width / 2 - MARGIN + 1e-9, (ident, x, drift[lane])
            chars.append(f"  - id: {ident}   # run {run}, rise {rise}, radius {r}, limits ({enter}, {stay}), "
                         f"{num(v)} m/s at {angle} deg ({v * ca * DT / run:.2f} treads a tick along the "
                         f"stairs), phase {phase}/{PHASES}\n"
                         f"    spawn: [{num(x)}, {num(SKIN)}, {num(z)}]\n"
                         f"    settings: {{radius: {num(r)}, max_slope_enter_deg: {enter}, "
                         f"max_slope_stay_deg: {stay}, max_speed: {num(MAX_SPEED)}{step_setting}}}\n"
                         f"    input: {{segments: [{{ticks: {TICKS}, stick: [{stick[0]}, {stick[1]}]}}]}}")
            # A flat walker from rest: the distance along the stairs covered by the end of tick k
            # (the run speed rising by ACC a tick up to v, cos a of it along the stairs) until the
            # centre is over the landing's edge.
            covered, speed, tick = 0.0, 0.0, -1
            while covered < land_from - z:
                tick += 1
                speed = min(v, speed + ACC)
                covered += speed * ca * DT
            reach = tick + STEPS + 1
            assert reach < TICKS - 10, (ident, reach)
            assert z + v * ca * TICKS * DT < land_from + 2 * land_hz - 1, ident  # not off its far end
            expects.append(f"  - ticks: [{full}, {TICKS - 1}]\n    character: {ident}\n"
                           f"    horizontal_speed: [{num(v - 1e-4)}, {num(v + 1e-4)}]")
            expects.append(f"  - {{character: {ident}, metrics: {{airborne_ticks: 0}}}}")
            expects.append(f"  - ticks: [{reach}, {TICKS - 1}]\n    character: {ident}\n"
                           f"    grounded: true\n"
                           f"    y: [{top + SKIN - 1e-3:.4f}, {top + SKIN + 1e-3:.4f}]")
            g = groups.setdefault(angle, {"ids": [], "reach": [], "sticks": {}})
            g["ids"].append(ident)
            g["reach"].append(reach)
            g["sticks"][s] = (stick, v, v * ca * DT / run, v * sa, drift[lane])
        for angle, g in groups.items():
            rows.append(f"  angle {angle} deg: bodies {g['ids'][0]}-{g['ids'][-1]}, on the landing by ticks "
                        f"{min(g['reach'])} to {max(g['reach'])}")
            rows += [f"    stick [{st[0]}, {st[1]}]: {v:.4f} m/s, {tr:.2f} treads a tick along the stairs, "
                     f"{side:.2f} m/s sideways ({d:.2f} m in the run)" for st, v, tr, side, d in g["sticks"].values()]
    rows.append(f"{ident} bodies, {len(expects)} expectations, {TICKS} ticks at {HZ} Hz; flights {width} m wide")
    return scenario_text(out, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "stairs-long-strides", write)
