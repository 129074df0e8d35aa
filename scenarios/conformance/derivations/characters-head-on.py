#!/usr/bin/env python3
"""characters-head-on: the rows its expectations quote, from KCC-SPEC's rules and the
character rule (docs/controller.md, "Characters").

Each pair spawns `gap` apart on one line (x = -gap/2 and +gap/2) and runs at the other at the
same speed. Ground: the speed rises 0.9 m/s a tick to v = 6.2 * (|stick| - 0.15) / 0.85, so a
body has covered Z(t) = 0.02 * sum_{k=0..t} min(v, 0.9 (k + 1)) after tick t. Colliding
characters keep one skin between them: they stop with their axes r1 + r2 + skin = 0.815 apart,
and by symmetry (same speed, the overlap of a tick split evenly) each stops 0.4075 from the
midpoint, 0 for every pair; the first tick at which each has covered (gap - 0.815) / 2 is the
contact tick. A runner into a body standing still stops 0.815 short of it; the standing body is
never moved (the runner meets it where it stands; nothing overlaps, nothing is pushed).
"""

def contact_tick(stick, cover):
    v = 6.2 * (stick - 0.15) / 0.85
    z, t = 0.0, 0
    while True:
        z += min(v, 0.9 * (t + 1)) * 0.02
        if z >= cover - 1e-9:
            return t, v
        t += 1

PAIRS = [(1.0, 10.0), (1.0, 10.05), (1.0, 10.1), (0.575, 10.0), (0.3625, 6.0), (1.0, 10.0)]
for k, (stick, gap) in enumerate(PAIRS):
    t, v = contact_tick(stick, (gap - 0.815) / 2)
    print(f"pair {k + 1}: {v:.2f} m/s, gap {gap}: in contact from tick {t}, x = -0.4075 and +0.4075")
t, v = contact_tick(1.0, 5 - 0.815)
print(f"runner: in contact from tick {t}, x = -0.815; the standing body stays at x = 0")
