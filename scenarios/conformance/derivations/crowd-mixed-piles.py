#!/usr/bin/env python3
"""crowd-mixed-piles: piles of 2 to 20 characters of mixed radii and heights released at one point,
within a few raw units of it, or within a millimetre of it, on a flat floor, some idle, some with
sticks; the scenario and its expectations from KCC-SPEC's rules alone.

    python3 scenarios/conformance/derivations/crowd-mixed-piles.py          # the piles' bounds
    python3 scenarios/conformance/derivations/crowd-mixed-piles.py --write  # (re)writes ../crowd-mixed-piles.yaml
    python3 scenarios/conformance/derivations/crowd-mixed-piles.py --check  # exit 1 if the file differs

Found by the swarm (seed 20261216, run 43676, shrunk): 17 characters of radii 0.27 to 0.6 and
heights 0.69 to 2.1 at one point. crowd-separation's piles are of one or two sizes; a pile of mixed
sizes is not a crowded cell (docs/controller.md, behaviour 11) so its bodies' casts meet one
another, and a wide body whose lower sphere stood deep inside a short body's upper sphere took
that body for ground (a start inside it, normal up), was pushed up along that plane by the
resolution and hung airborne with the floor 3 cm under it.

Every pile stands on one floor (top y = 0), SPACING m from the next (piles never meet: checked,
below). Every body has the spec's settings but its radius (0.25 to 0.6 m) and height (0.7 to
2.1 m, at least twice the radius), drawn from a fixed linear congruential sequence (SEED; no
randomness at run time), and spawns on the floor one skin up (y = 0.015). Size mixes:
    uniform     radius uniform in [0.25, 0.6], height uniform in [max(0.7, 2 r), 2.1];
    short-wide  in turn a short body (radius 0.25 to 0.35, height 0.7 to 0.9) and a wide tall one
                (radius 0.45 to 0.6, height 1.5 to 2.1): the wide body's lower sphere centre
                (0.46 to 0.62 m up) is above the short one's upper sphere centre (0.35 to 0.65 m up)
                or level with it, so, the two axes near, the short body's top is under the wide
                body's feet, deep inside it;
    few-wide    the same two kinds, one body in five wide and tall, the others short: a wide body
                stands in up to 14 short ones;
    spec-mixed  the spec's body (0.4, 1.8) in turn with a uniform one.
Placements: `point` (every body at one point; the point's decimals vary from pile to pile), `raw`
(each body 0 to 3 raw units, 2^-32 m, off the point on x and on z), `mm` (each body up to 1 mm off
it on x and on z). Idle piles hold no stick; in the others every third body or so holds a stick
(a direction of its own, magnitude 0.6 to 0.95) for the first PRESS ticks, then is idle.

What KCC-SPEC ("Other characters", "One tick") gives, and the bounds written here:
- Characters block and stand on each other by the rules of static shapes, and resolving them
  launches nobody (docs/controller.md, "Characters": pushes horizontal, capped at
  depenetration_cap, 0.2 m, velocities kept). So an idle body's velocity stays zero
  (horizontal_speed 0 at every tick), it moves at most the cap a tick (surface_speed <= 10 m/s),
  and a body with a stick never runs faster than max_speed (6.2 m/s) nor moves faster than that
  plus the cap.
- Nothing in a tick lifts an idle body: no input, no jump, gravity and the snap go down, the
  floor's depenetration pushes only up to the floor, the resolution pushes horizontally; so it
  stays on the floor (grounded, y = skin within 1 micrometre) at every tick.
- A body with a stick rises only by a step-up (at most step_height, 0.35 m) or by walking up a
  walkable surface. On another body's upper sphere, a body of radius r_s rests (one skin off)
  with a normal within the stay limit (58 degrees) only with its feet at least
  h_o - (r_s + r_o) (1 - cos 58) above the floor. Sticks go only to bodies for which that is more
  than step_height + 1 cm for every other body of the pile (the others stay idle): no walking
  or stepping onto a head is possible, and every body of every pile stays on the floor, grounded
  at y = skin, at every tick. (The docs' "another character's head is ground" then never
  applies; the finding was a body inside another taken for its ground.)
- Apart: every pile is apart, no two bodies overlapping by more than 1 cm (character_overlap,
  the swarm's crowd-apart tolerance) from tick T on, and by 1 mm at the last tick. T as in
  crowd-separation: ten times the least time the spread can take at the cap, plus 20 ticks,
  with every disc of the largest radius plus half a skin. Bodies told apart by size on one
  vertical line separate along x (docs/controller.md, "Bodies on one vertical line"), so a
  `point` or `raw` pile may spread along a line: its outermost body travels at least half the
  line's length (the sum of the discs' diameters) less one disc; a `mm` pile spreads in the
  plane: the disc of the densest packing (hexagonal, density 0.9069) less one disc. Piles with
  sticks add PRESS ticks and the 6 ticks a release from 6.2 m/s takes to stop.
- Piles never meet: every body stays within SPACING / 2 - 0.615 m of its pile's point along x
  and z (a check of the scenario's premise, not a rule of the spec).
Every body: no penetration of the static geometry.
"""
import math
import sys
from decimal import Decimal, localcontext

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import SKIN, main, num  # noqa: E402

HZ = 50
CAP = 0.2
RUN = 6.2
STEP = 0.35
STAY = 58.0
TICKS = 400
PRESS = 40
STOP = 6
SPACING = 30.0
PER_ROW = 8
SEED = 20261216
PACKING = math.pi / (2 * math.sqrt(3))
APART, APART_END = 0.01, 0.001

# (count, mix, placement, sticks) for every pile: up to 12 bodies the three mixes, each at the
# three placements in turn; few-wide at 9, 12 and 17; 17 at each placement; 20 only at `mm` (spread
# along a line, 20 bodies could take longer than the run to be apart by the bound below)
PILES = []
for n in (2, 3, 4, 6, 9, 12):
    for mix in ("uniform", "short-wide", "spec-mixed"):
        k = len(PILES)
        PILES.append((n, mix, ("point", "raw", "mm")[(k + k // 3) % 3], k % 2 == 1))
PILES += [(9, "few-wide", "point", False), (12, "few-wide", "mm", True),
          (17, "uniform", "point", False), (17, "short-wide", "mm", True), (17, "spec-mixed", "raw", False),
          (17, "short-wide", "point", False), (17, "few-wide", "raw", False), (17, "few-wide", "mm", True),
          (20, "uniform", "mm", True), (20, "short-wide", "mm", False)]


class Lcg:
    """x <- (1664525 x + 1013904223) mod 2^32 (Numerical Recipes), from SEED."""

    def __init__(self, seed):
        self.x = seed % 2**32

    def unit(self):
        self.x = (1664525 * self.x + 1013904223) % 2**32
        return self.x / 2**32

    def uniform(self, lo, hi, decimals=3):
        return round(lo + (hi - lo) * self.unit(), decimals)

    def below(self, n):
        return int(self.unit() * n)


def body(rng, mix, i):
    """(radius, height) of the pile's i-th body."""
    if mix == "uniform" or (mix == "spec-mixed" and i % 2 == 1):
        r = rng.uniform(0.25, 0.6)
        h = rng.uniform(max(0.7, 2 * r), 2.1)
    elif mix == "spec-mixed":
        r, h = 0.4, 1.8
    elif (i % 2 == 0) if mix == "short-wide" else (i % 5 != 2):
        r = rng.uniform(0.25, 0.35)
        h = rng.uniform(max(0.7, 2 * r), 0.9)
    else:
        r = rng.uniform(0.45, 0.6)
        h = rng.uniform(1.5, 2.1)
    assert 0.25 <= r <= 0.6 and 0.7 <= h <= 2.1 and h >= 2 * r
    return r, h


def lowest_head(r_s, r_o, h_o):
    """The least height above the floor at which a body of radius r_s rests on the upper sphere of
    a body (r_o, h_o) standing on the floor with a walkable normal (within the stay limit)."""
    return h_o - (r_s + r_o) * (1 - math.cos(math.radians(STAY)))


def apart_tick(sizes, line, sticks):
    disc = max(r for r, _ in sizes) + SKIN / 2
    if line:
        travel = sum(r + SKIN / 2 for r, _ in sizes) - disc
    else:
        travel = disc * math.sqrt(len(sizes) / PACKING) - disc
    t = 10 * math.ceil(max(travel, 0.0) / CAP) + 20
    return t + (PRESS + STOP if sticks else 0)


def raw_text(base, units):
    """base (a 6-decimal number) plus `units` raw units (2^-32 m), as an exact decimal."""
    with localcontext() as ctx:
        ctx.prec = 60  # 2^-32 has 32 decimals: the sum is exact
        d = Decimal(num(base)) + Decimal(units) / Decimal(2**32)
    s = format(d, "f")
    return s.rstrip("0").rstrip(".") if "." in s else s


def crowded(sizes):
    """behaviour 11's test (docs/controller.md, "Crowded cells"), all centres in one cell."""
    area = sum(3 * round(r * 1000) ** 2 for r, _ in sizes)
    side = 2000 + 2 * round(max(r for r, _ in sizes) * 1000)
    return area > side * side or len(sizes) > 64


def write():
    rng = Lcg(SEED)
    chars, expects, rows = [], [], []
    cid = 0
    total_sticks = 0
    for k, (n, mix, place, sticks) in enumerate(PILES):
        ox, oz = SPACING * (k % PER_ROW), SPACING * (k // PER_ROW)
        frac = round((0.137 * (k + 1)) % 1, 3)
        px, pz = ox + frac, oz - frac / 2
        sizes = [body(rng, mix, i) for i in range(n)]
        stick = [None] * n
        if sticks:
            for i in range(n):
                if i % 3 != 1:
                    continue
                r_s = sizes[i][0]
                if all(lowest_head(r_s, r_o, h_o) > STEP + 0.01
                       for j, (r_o, h_o) in enumerate(sizes) if j != i):
                    ang = 2 * math.pi * rng.unit()
                    mag = rng.uniform(0.6, 0.95, 2)
                    stick[i] = (round(mag * math.cos(ang), 3), round(mag * math.sin(ang), 3))
        line = place != "mm"
        has_sticks = any(s is not None for s in stick)
        t_apart = apart_tick(sizes, line, has_sticks)
        assert t_apart <= TICKS - 20, (k, n, mix, place, t_apart)
        ids = []
        for i, ((r, h), s) in enumerate(zip(sizes, stick)):
            cid += 1
            ids.append(cid)
            if place == "point":
                sx, sz = num(px), num(pz)
            elif place == "raw":
                sx, sz = raw_text(px, rng.below(4)), raw_text(pz, rng.below(4))
            else:
                sx, sz = num(px + rng.uniform(-0.001, 0.001, 6)), num(pz + rng.uniform(-0.001, 0.001, 6))
            inp = "" if s is None else f", input: {{segments: [{{ticks: {PRESS}, stick: [{num(s[0])}, {num(s[1])}]}}]}}"
            chars.append(f"  - {{id: {cid}, spawn: [{sx}, 0.015, {sz}], settings: {{radius: {num(r)}, "
                         f"height: {num(h)}}}{inp}}}")
        reach = SPACING / 2 - 0.6 - SKIN
        for c, s in zip(ids, stick):
            if s is None:
                expects.append(f"  - {{character: {c}, horizontal_speed: 0, surface_speed: {{max: {num(CAP * HZ + 0.0001)}}}}}")
            else:
                expects.append(f"  - {{character: {c}, horizontal_speed: {{max: {num(RUN + 0.0001)}}}, "
                               f"surface_speed: {{max: {num(RUN + CAP * HZ + 0.0001)}}}}}")
            expects.append(f"  - {{character: {c}, grounded: true, y: [0.014999, 0.015001], "
                           f"x: [{num(px - reach)}, {num(px + reach)}], z: [{num(pz - reach)}, {num(pz + reach)}]}}")
            expects.append(f"  - {{ticks: [{t_apart}, {TICKS - 1}], character: {c}, character_overlap: {{max: {num(APART)}}}}}")
            expects.append(f"  - {{tick: {TICKS - 1}, character: {c}, character_overlap: {{max: {num(APART_END)}}}}}")
            expects.append(f"  - {{character: {c}, metrics: {{airborne_ticks: 0, max_penetration: {{max: 0.000001}}}}}}")
        nst = sum(s is not None for s in stick)
        total_sticks += nst
        rows.append(f"pile {k + 1}: N={n} {mix} at {place}, {nst} sticks{' (crowded cell)' if crowded(sizes) else ''}: "
                    f"characters {ids[0]}-{ids[-1]}, radii {num(min(r for r, _ in sizes))}-{num(max(r for r, _ in sizes))}, "
                    f"heights {num(min(h for _, h in sizes))}-{num(max(h for _, h in sizes))}, apart from tick {t_apart}")
    rows.append(f"{len(PILES)} piles, {cid} characters, {total_sticks} with sticks")
    nx = min(len(PILES), PER_ROW)
    nz = math.ceil(len(PILES) / PER_ROW)
    cx, cz = SPACING * (nx - 1) / 2, SPACING * (nz - 1) / 2
    head = ["format: 1", "name: crowd-mixed-piles",
            'description: "Piles of 2 to 20 characters of mixed radii (0.25 to 0.6 m) and heights (0.7 to '
            '2.1 m) released at one point, a few raw units or a millimetre off it, on a flat floor, idle or '
            'some with sticks (only bodies that cannot walk or step onto another\'s head). KCC-SPEC (other '
            'characters): the resolution separates them horizontally within the depenetration cap, launching '
            'nobody; nothing lifts a body off the floor, so every body stays grounded one skin above it at '
            'every tick, and each pile is apart (1 cm) from a tick derived from its packing. Scenario and '
            'bounds: derivations/crowd-mixed-piles.py (--write)."',
            f"tick_rate: {HZ}", f"ticks: {TICKS}", "world:",
            f"  - box: {{id: 1, center: [{num(cx)}, -0.5, {num(cz)}], half_extents: "
            f"[{num(cx + SPACING)}, 0.5, {num(cz + SPACING)}]}}   # floor, top y = 0"]
    text = "\n".join(head + ["characters:"] + chars + ["expect:"] + expects) + "\n"
    return text, rows


if __name__ == "__main__":
    main(__file__, "crowd-mixed-piles", write)
