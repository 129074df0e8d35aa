#!/usr/bin/env python3
"""platform-crush: riders lifted by platforms into a ceiling slab wider than the platform, the
scenario and its expectations from KCC-SPEC's rules and the crush rule docs/controller.md names
("Crushed"; KCC-SPEC is silent on it).

    python3 scenarios/conformance/derivations/platform-crush.py          # the derivation's rows
    python3 scenarios/conformance/derivations/platform-crush.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/platform-crush.py --check  # exit 1 if it differs

Each lane: a platform 0.5 m thick (half-widths 1, 2.5 and 4 m) whose top starts at y = 0.5 on the
floor's level, rising at v (0.5 to 20 m/s) until its top is in the middle of a static slab
(thickness 0.05, 0.2 or 1 m) whose underside is at y = 3, then holding there. The slab is 1 m
wider than the platform on every side, so nothing that rides the platform can pass beside it. The
rider (radius 0.4, height 1.8, skin 0.015) stands on the platform's centre, or 0.3 m from its
edge.

KCC-SPEC, "Moving platforms": the platform carries its rider (state after tick t: the platform at
its pose of tick t + 1, the rider one skin above its top). The crush rule (docs/controller.md): a
platform never pushes its rider into or through a static solid; the carry stops a skin under the
ceiling, and when the platform rises on into the rider the rider leaves it only by a way that
enters no static solid (sideways off its edge) or not at all (the platform passes through it).
So, in every lane:
- riding: y = top(t + 1) + skin on every tick whose rider stays 5 cm or more under the slab
  (1e-4 m: the waypoints are exact decimals on a 50 Hz clock);
- never into the ceiling: y + 1.8 <= 3 (0.1 mm) on every tick, the rider never above the slab
  (it cannot reach past its edge: the slab is wider than the platform and anything beside the
  platform falls);
- never inside a static solid: max_penetration at most 1 mm.
"""
import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import main, num, scenario_text  # noqa: E402

RATE = 50
TICKS = 200
SKIN, HEIGHT = 0.015, 1.8
CEIL = 3.0
SPEEDS = (0.5, 2.0, 5.0, 10.0, 20.0)
HALVES = (1.0, 2.5, 4.0)
THICK = (0.05, 0.2, 1.0)


def lanes():
    k = 0
    for v in SPEEDS:
        for half in HALVES:
            for thick in THICK:
                for edge in (False, True):
                    yield k, v, half, thick, edge
                    k += 1


def top(v, stop_tick, t):
    return 0.5 + v * min(t, stop_tick) / RATE


def write():
    out = ["format: 1", "name: platform-crush",
           'description: "Riders lifted at 0.5 to 20 m/s by platforms 2 to 8 m wide into ceiling slabs 0.05 to '
           '1 m thick and wider than the platform, the platform rising on into the slab; the rider on its '
           'centre or 0.3 m from its edge. KCC-SPEC carries a rider; the crush rule (docs/controller.md, '
           'Crushed) never pushes it into or through a static solid: it rides until a skin under the '
           'ceiling, then is squeezed off sideways or the platform passes through it. '
           'Scenario and bounds: derivations/platform-crush.py (--write)."',
           f"tick_rate: {RATE}", f"ticks: {TICKS}", "world:",
           "  - box: {id: 1, center: [60, -0.5, 60], half_extents: [80, 0.5, 80]}   # floor, top y = 0"]
    plats, chars, expects, rows = ["platforms:"], [], [], []
    for k, v, half, thick, edge in lanes():
        ox, oz = 12.0 * (k % 10), 12.0 * (k // 10)
        ident = k + 1
        out.append(f"  - box: {{id: {1000 + k}, center: [{num(ox)}, {num(CEIL + thick / 2)}, {num(oz)}], "
                   f"half_extents: [{num(half + 1)}, {num(thick / 2)}, {num(half + 1)}]}}")
        # The top reaches the slab's middle at stop_tick (rounded up to a whole tick) and holds.
        goal = CEIL + thick / 2
        stop_tick = -(-round((goal - 0.5) * RATE * 1000) // round(v * 1000))
        end_y = top(v, stop_tick, stop_tick) - 0.25
        plats.append(f"  - id: {2000 + k}\n    half_extents: [{num(half)}, 0.25, {num(half)}]\n"
                     f"    waypoints:\n"
                     f"      - {{tick: 0, center: [{num(ox)}, 0.25, {num(oz)}]}}\n"
                     f"      - {{tick: {stop_tick}, center: [{num(ox)}, {num(end_y)}, {num(oz)}]}}")
        sx = ox + (half - 0.7 if edge else 0.0)
        chars.append(f"  - id: {ident}   # {v} m/s, platform half {half}, slab {thick}, "
                     f"{'near the edge' if edge else 'centre'}\n"
                     f"    spawn: [{num(sx)}, {num(0.5 + SKIN)}, {num(oz)}]")
        ride = [t for t in range(TICKS)
                if top(v, stop_tick, t + 1) + SKIN + HEIGHT <= CEIL - 0.05]
        assert ride and ride == list(range(len(ride))), (k, ride[:3])
        last = ride[-1]
        expects.append(f"  - ticks: [0, {last}]\n    character: {ident}\n    grounded: true\n"
                       f"    platform: {2000 + k}")
        for t in sorted({0, last // 2, last}):
            y = top(v, stop_tick, t + 1) + SKIN
            expects.append(f"  - tick: {t}\n    character: {ident}\n    y: [{y - 1e-4:.4f}, {y + 1e-4:.4f}]")
        expects.append(f"  - character: {ident}\n    y: {{max: {CEIL - HEIGHT + 1e-4:.4f}}}")
        expects.append(f"  - character: {ident}\n    metrics: {{max_penetration: {{max: 0.001}}}}")
        rows.append(f"lane {ident}: {v} m/s, platform half {half}, slab {thick}, "
                    f"{'edge' if edge else 'centre'}: rides to tick {last}, platform stops at tick "
                    f"{stop_tick}")
    out += plats
    return scenario_text(out, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "platform-crush", write)
