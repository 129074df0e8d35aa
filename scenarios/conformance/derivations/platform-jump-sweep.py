#!/usr/bin/env python3
"""platform-jump-sweep: jumps off moving platforms swept over the platform's velocity (sinking, still,
rising up to 20 m/s, with or without 5 m/s sideways in two directions) and two tick phases; the
scenario and its expectations from the rule docs/controller.md names ("Jumping off a moving
platform"; KCC-SPEC is silent on it).

    python3 scenarios/conformance/derivations/platform-jump-sweep.py          # the derivation's rows
    python3 scenarios/conformance/derivations/platform-jump-sweep.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/platform-jump-sweep.py --check  # exit 1 if it differs

Each lane: a platform 4 x 4 m, 0.5 m thick, its top at y = 10.25 at tick 0, moving at a constant
velocity (vx, vy, vz) for the whole run; the body (defaults: jump 5 m/s, gravity 9.81 m/s^2, skin
0.015, probe band 0.035) stands on it 0.6 m from its centre, carried, and jumps at tick J (20 or
21).

The rule: a jump takes the platform's velocity along, so in the platform's frame it is the jump
off still ground. There, the state after tick t having the platform at its pose of tick t + 1, the
body is 0.1 m up after the jump tick (the carry moved it with the platform, the jump 5 * 0.02),
then rises 0.02 * (5 - 0.1962 k) on the k-th tick after it. It is back at the platform's top on
the first tick k_land whose height would be at or below it; the probe may ground it one tick
before (within its band), and a landing is allowed a tick late (the platform moves first). So:
airborne on ticks J + 1 .. J + k_land - 2, grounded on the platform from J + k_land + 1 on, and at
tick J + k_land + 8 where it took off in the platform's frame: the platform's centre at pose t + 1
plus the body's offset (5 cm, plus one tick of the platform's horizontal motion), one skin above
the top (2 mm).
"""
import math

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import main, num, scenario_text  # noqa: E402

RATE = 50
DT = 1 / RATE
TICKS = 110
JUMP, G, SKIN = 5.0, 9.81, 0.015
VERTICAL = (-3.0, 0.0, 3.0, 7.0, 12.0, 20.0)
SIDEWAYS = ((0.0, 0.0), (5.0, 0.0), (-3.535534, 3.535534))
PHASES = (20, 21)
TOP0 = 10.25


def k_land():
    """The first tick after the jump tick whose height in the platform's frame is at or below 0."""
    h, k = JUMP * DT, 0
    while True:
        k += 1
        h += DT * (JUMP - G * DT * k)
        if h <= 0:
            return k


def write():
    out = ["format: 1", "name: platform-jump-sweep",
           'description: "Jumps off platforms moving at -3 to 20 m/s vertically, with 0 or 5 m/s sideways in two '
           'directions, at two tick phases. The rule of docs/controller.md (Jumping off a moving platform): a '
           'jump takes the platform\'s velocity along, so in the platform\'s frame it is the jump off still '
           'ground; it lands within a tick of that jump\'s landing, where it took off, and rides on. '
           'Scenario and bounds: derivations/platform-jump-sweep.py (--write)."',
           f"tick_rate: {RATE}", f"ticks: {TICKS}", "world:",
           "  - box: {id: 1, center: [0, -200.5, 0], half_extents: [10, 0.5, 10]}   # far below every platform"]
    plats, chars, expects, rows = ["platforms:"], [], [], []
    kl = k_land()
    k = 0
    for vy in VERTICAL:
        for vx, vz in SIDEWAYS:
            for jt in PHASES:
                ident = k + 1
                ox, oz = 60.0 * (k % 6), 60.0 * (k // 6)
                cy = TOP0 - 0.25
                end = (ox + vx * TICKS * DT, cy + vy * TICKS * DT, oz + vz * TICKS * DT)
                plats.append(f"  - id: {100 + k}   # ({vx}, {vy}, {vz}) m/s\n"
                             f"    half_extents: [2, 0.25, 2]\n    waypoints:\n"
                             f"      - {{tick: 0, center: [{num(ox)}, {num(cy)}, {num(oz)}]}}\n"
                             f"      - {{tick: {TICKS}, center: [{num(end[0])}, {num(end[1])}, {num(end[2])}]}}")
                off = (0.6, -0.4)
                chars.append(f"  - id: {ident}   # platform ({vx}, {vy}, {vz}) m/s, jump at {jt}\n"
                             f"    spawn: [{num(ox + off[0])}, {num(TOP0 + SKIN)}, {num(oz + off[1])}]\n"
                             f"    input: {{jumps: [{jt}]}}")
                air_to = jt + kl - 2
                land_from = jt + kl + 1
                check = jt + kl + 8
                assert check < TICKS
                expects.append(f"  - ticks: [{jt + 1}, {air_to}]\n    character: {ident}\n    grounded: false")
                expects.append(f"  - ticks: [{land_from}, {TICKS - 1}]\n    character: {ident}\n"
                               f"    grounded: true\n    platform: {100 + k}")
                s = (check + 1) * DT  # the platform at its pose of tick check + 1
                px, py, pz = ox + vx * s + off[0], TOP0 + vy * s + SKIN, oz + vz * s + off[1]
                slack = 0.05 + math.hypot(vx, vz) * DT
                expects.append(f"  - tick: {check}\n    character: {ident}\n"
                               f"    x: [{px - slack:.4f}, {px + slack:.4f}]\n"
                               f"    y: [{py - 0.002:.4f}, {py + 0.002:.4f}]\n"
                               f"    z: [{pz - slack:.4f}, {pz + slack:.4f}]")
                rows.append(f"body {ident}: platform ({vx}, {vy}, {vz}) m/s, jump at {jt}: airborne to "
                            f"{air_to}, grounded from {land_from}, back at its take-off point at {check}")
                k += 1
    out += plats
    return scenario_text(out, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "platform-jump-sweep", write)
