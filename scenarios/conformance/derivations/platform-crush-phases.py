#!/usr/bin/env python3
"""platform-crush-phases: the crush rule of platform-crush swept over where the ceiling stands
against the platform's steps (tick phases of the rise), the rise a tick, and two riders, the
scenario and its expectations from KCC-SPEC's rules and the crush rule docs/controller.md names
("Crushed"; KCC-SPEC is silent on it).

    python3 scenarios/conformance/derivations/platform-crush-phases.py          # the rows
    python3 scenarios/conformance/derivations/platform-crush-phases.py --write  # (re)writes it
    python3 scenarios/conformance/derivations/platform-crush-phases.py --check  # exit 1 if not

platform-crush holds the ceiling at y = 3 and its speeds at round numbers, so the carry's last
tick under the ceiling ends the same way in every lane. Here the slab's underside is a whole
number of the platform's rises (2 or 3) above the rider's head at spawn, and a few phases of a
raw unit to 0.4 micrometres under that: there, the last carry stops a skin under the slab and the
platform closes on the rider by exactly that skin, so depenetration's push out of the platform
leaves the rider touching the slab to within rounding (swarm seed 20261228 run 80616: the next
tick's escape out of platform and slab went up through the slab at the cap, 0.4 m into it in two
ticks). Rises 0.05 to 0.3 m a tick at 60 Hz; the rider KCC-SPEC's (radius 0.4, height 1.8, skin
0.015, cap 0.1) or that run's (radius 0.279, height 1.159, skin 0.017, cap 0.208). Each lane: a
platform 0.4 m thick, half-width 4 m (no way out sideways within a tick's cap), its top starting
at y = 0.9 under the rider and rising until it is in the middle of a slab 0.3 m thick that is 1 m
wider than the platform on every side, then holding there; the rider on its centre.

KCC-SPEC, "Moving platforms": the platform carries its rider. The crush rule: a platform never
pushes its rider into or through a static solid; the carry stops a skin under the ceiling, and
when the platform rises on into the rider, the rider is not pushed into the ceiling (the platform
passes through it). So, in every lane:
- riding: grounded on the platform on every tick whose rider stays 5 cm or more under the slab;
- never into the ceiling: y + height <= the slab's underside (0.1 mm) on every tick;
- never inside a static solid: max_penetration at most 1 mm.
"""
import math
import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import main, num, scenario_text  # noqa: E402

RATE = 60
TICKS = 24
THICK = 0.3
HALF = 4.0
TOP0 = 0.9
RISES = (0.05, 0.1, 0.125, 0.15, 0.178, 0.2, 0.25, 0.3)  # m a tick
GAPS = (2, 3)  # rises between the rider's head at spawn and the slab's underside
# The slab's underside this much off the whole number of rises: at and just under it, the carry's
# last cut leaves the rider touching the slab to within the numbers' rounding (1e-10 m is about
# half a raw unit of Q31.32).
PHASES = (2e-9, 0.0, -2e-9, -1e-8, -1e-7, -4e-7)
# (name, radius, height, skin, depenetration cap): KCC-SPEC's body and a small one.
RIDERS = (("spec", 0.4, 1.8, 0.015, None), ("small", 0.279, 1.159, 0.017, 0.208))


def fine(v):
    """v with ten decimals, no trailing zeros (the phases are below num()'s six)."""
    return f"{v:.10f}".rstrip("0").rstrip(".")


def lanes():
    k = 0
    for rider in RIDERS:
        for rise in RISES:
            for n in GAPS:
                for phase in PHASES:
                    yield k, rider, rise, n, phase
                    k += 1


def write():
    out = ["format: 1", "name: platform-crush-phases",
           'description: "Riders on platforms rising 0.05 to 0.3 m a tick at 60 Hz toward a slab whose '
           'underside is 2, 3 or 4 rises above the rider\'s head, the platform rising on into the slab; '
           'KCC-SPEC\'s rider and a small one (radius 0.279, height 1.159, depenetration cap 0.208: '
           'swarm seed 20261228 run 80616). The crush rule (docs/controller.md, Crushed): the carry '
           'stops a skin under the ceiling, and a platform rising on into the rider never pushes it '
           'into the ceiling. Scenario and bounds: derivations/platform-crush-phases.py (--write)."',
           f"tick_rate: {RATE}", f"ticks: {TICKS}", "world:",
           "  - box: {id: 1, center: [60.5, -0.5, 82.5], half_extents: [70, 0.5, 92]}   # floor, top y = 0"]
    plats, chars, expects, rows = ["platforms:"], [], [], []
    for k, (name, radius, height, skin, cap), rise, n, phase in lanes():
        ox, oz = 11.0 * (k % 12), 11.0 * (k // 12)
        ident = k + 1
        ceil = round(TOP0 + skin + height + n * rise, 6) + phase
        out.append(f"  - box: {{id: {1000 + k}, center: [{num(ox)}, {fine(ceil + THICK / 2)}, {num(oz)}], "
                   f"half_extents: [{num(HALF + 1)}, {num(THICK / 2)}, {num(HALF + 1)}]}}")
        # The platform (0.4 m thick) rises `rise` a tick until its top is in the slab's middle.
        stop_tick = math.ceil((ceil + THICK / 2 - TOP0) / rise - 1e-9)
        plats.append(f"  - id: {2000 + k}\n    half_extents: [{num(HALF)}, 0.2, {num(HALF)}]\n"
                     f"    waypoints:\n"
                     f"      - {{tick: 0, center: [{num(ox)}, {num(TOP0 - 0.2)}, {num(oz)}]}}\n"
                     f"      - {{tick: {stop_tick}, center: [{num(ox)}, {num(TOP0 - 0.2 + stop_tick * rise)}, "
                     f"{num(oz)}]}}")
        settings = ""
        if cap is not None:
            settings = (f"\n    settings: {{radius: {num(radius)}, height: {num(height)}, skin: {num(skin)}, "
                        f"depenetration_cap: {num(cap)}}}")
        chars.append(f"  - id: {ident}   # {name} rider, {rise} m a tick, the slab {n} rises above its head\n"
                     f"    spawn: [{num(ox)}, {num(TOP0)}, {num(oz)}]{settings}")
        # State after tick t: the platform at its pose of tick t + 1, the rider a skin above it.
        ride = [t for t in range(TICKS) if TOP0 + (t + 1) * rise + skin + height <= ceil - 0.05]
        if ride:
            expects.append(f"  - ticks: [0, {ride[-1]}]\n    character: {ident}\n    grounded: true\n"
                           f"    platform: {2000 + k}")
        expects.append(f"  - character: {ident}\n    y: {{max: {ceil - height + 1e-4:.6f}}}")
        expects.append(f"  - character: {ident}\n    metrics: {{max_penetration: {{max: 0.001}}}}")
        rows.append(f"lane {ident}: {name} rider, {rise} m a tick, ceiling {fine(ceil)}: rides to tick "
                    f"{ride[-1] if ride else '-'}, platform stops at tick {stop_tick}")
    out += plats
    return scenario_text(out, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "platform-crush-phases", write)
