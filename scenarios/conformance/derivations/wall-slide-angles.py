#!/usr/bin/env python3
"""wall-slide-angles: the rows its expectations quote, from KCC-SPEC's rules alone.

Body k stands 1 m from a wall (face at z = 6k + 1) and holds the stick at theta degrees from the
wall's direction (+x) into it, (cos theta, sin theta), for 100 ticks, then releases it.
Ground rules: the velocity points along the stick; the speed rises 0.9 m/s a tick to 6.2. At the
wall the slide removes the part of each tick's motion into it, so x moves by the stick's x part
every tick, before and after the contact: speed * cos theta * dt. Once on the wall the next
tick starts from the run speed again, so the slide runs at 6.2 cos theta with no loss.
Released, it brakes 1.2 m/s a tick from the speed it has (6.2 cos theta).
Rest beside the wall: one skin (0.015) from the face, z = 6k + 1 - 0.4 - 0.015.
"""
import math

ANGLES = (3, 8, 15, 30, 53, 75, 85)
for k, deg in enumerate(ANGLES):
    th = math.radians(deg)
    x, z, speed, contact = 0.0, 6.0 * k, 0.0, None
    rest_z = 6.0 * k + 1 - 0.4 - 0.015
    for t in range(100):
        speed = min(6.2, speed + 0.9)
        x += speed * math.cos(th) * 0.02
        z = min(z + speed * math.sin(th) * 0.02, rest_z)
        if contact is None and z >= rest_z:
            contact = t
    x99, vx, stop = x, 6.2 * math.cos(th), None
    for t in range(100, 120):
        vx = max(0.0, vx - 1.2)
        x += vx * 0.02
        if stop is None and vx == 0:
            stop = t
    print(f"theta {deg}: slide {6.2 * math.cos(th):.4f} m/s, wall contact tick {contact}, "
          f"rest z {rest_z:.4f}, x(99) {x99:.4f}, stopped at tick {stop}, rest x {x:.4f}")
