#!/usr/bin/env python3
"""stairs-velocity: the velocity a body reports while it climbs stairs, swept over rises, runs,
speeds and tick phases; the scenario and its expectations from KCC-SPEC's rules and the reading of
the reported velocity docs/controller.md names ("The reported velocity").

    python3 scenarios/conformance/derivations/stairs-velocity.py          # the derivation's rows
    python3 scenarios/conformance/derivations/stairs-velocity.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/stairs-velocity.py --check  # exit 1 if it differs

Each flight: 6 steps of rise 0.1, 0.2, 0.3 or 0.34 m (under the 0.35 m step_height) and run 0.25,
0.3 or 0.45 m, then a landing 30 m long (the fastest body covers 24.8 m in the run's 4 s, the slowest reaches it by 3.7 s). On each, bodies walk straight up at 1.55, 3.1, 4.65 and
6.2 m/s (the stick at a quarter to all of its range past the dead zone), each at three tick phases
(spawned a third of a tick's travel apart), 2 m before the first riser.

KCC-SPEC: on the ground the velocity points along the stick at the run speed, which rises by
ground_accel * dt = 0.9 m/s a tick from rest; "a 0.20 m step must not stop the character at all".
The reading (docs/controller.md): the reported velocity is the one the body carries into the next
tick, the input's less what the tick's surfaces took from it; a step climbed, a nosing rolled
over, and a riser the body is held at for its step take nothing. So from the tick the run speed
is reached (ceil(v / 0.9) - 1) to the end, on the flight, at each riser and on the landing, the
horizontal speed is v (1e-4 m/s: the stick's remap is exact within 1e-6), and the body ends on the
landing one skin above it (1 mm).
"""
import math

import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import ACC, DT, SKIN, flight_lines, main, num, scenario_text, stick_for  # noqa: E402

TICKS = 200
STEPS = 6
RISES = (0.1, 0.2, 0.3, 0.34)
RUNS = (0.25, 0.3, 0.45)
SPEEDS = (1.55, 3.1, 4.65, 6.2)


def write():
    out = ["format: 1", "name: stairs-velocity",
           'description: "Bodies walk up flights of six steps (rises 0.1 to 0.34 m, runs 0.25 to 0.45 m) at '
           '1.55 to 6.2 m/s, each speed at three tick phases. KCC-SPEC: the ground velocity is the run '
           'speed along the stick and steps must not stop the body; the reading of docs/controller.md '
           '(The reported velocity): a step climbed, a nosing rolled over and a riser the body is held at '
           'for its step take nothing from the velocity, so it reads the run speed at every tick of the '
           'climb. Scenario and bounds: derivations/stairs-velocity.py (--write)."',
           "tick_rate: 50", f"ticks: {TICKS}", "world:"]
    chars, expects, rows = [], [], []
    ident = 0
    flight = 0
    for rise in RISES:
        for run in RUNS:
            ox = 20.0 * flight
            foot_z = 3.0
            top = STEPS * rise
            land_from = foot_z + STEPS * run
            out += flight_lines(flight, ox, foot_z, STEPS, rise, run, floor=(20, 9, 25), stairs_width=16,
                                landing=(8, 15))
            lane = 0
            for v in SPEEDS:
                stick = stick_for(v)
                for phase in range(3):
                    ident += 1
                    x = ox - 6.6 + 1.2 * lane
                    z = foot_z - 2.0 - 0.4 - phase * v * DT / 3
                    chars.append(f"  - id: {ident}   # rise {rise}, run {run}, {v} m/s, phase {phase}/3\n"
                                 f"    spawn: [{num(x)}, {num(SKIN)}, {num(z)}]\n"
                                 f"    input: {{segments: [{{ticks: {TICKS}, stick: [0, {num(stick)}]}}]}}")
                    full = math.ceil(v / ACC - 1e-9) - 1
                    # On the landing (0.5 m past its edge) well before the end, and not off its far end.
                    assert (land_from + 0.5 - z) / v / DT + full < TICKS - 10, (ident, v, run)
                    assert z + v * TICKS * DT < land_from + 29.5, (ident, v)
                    expects.append(f"  - ticks: [{full}, {TICKS - 1}]\n    character: {ident}\n"
                                   f"    grounded: true\n"
                                   f"    horizontal_speed: [{v - 1e-4:.4f}, {v + 1e-4:.4f}]")
                    expects.append(f"  - tick: {TICKS - 1}\n    character: {ident}\n"
                                   f"    y: [{top + SKIN - 1e-3:.4f}, {top + SKIN + 1e-3:.4f}]")
                    lane += 1
            rows.append(f"flight {flight + 1}: rise {rise}, run {run}: 12 bodies, top {top:.2f} m")
            flight += 1
    return scenario_text(out, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "stairs-velocity", write)
