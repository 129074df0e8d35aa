#!/usr/bin/env python3
"""steep-foot-angles: the rows its expectations quote, from KCC-SPEC's rules alone.

Ramps of 60 and 70 degrees rise toward +z from a foot at z = f (f = 10 k + 5 for ramp k). A
body (radius 0.4, feet one skin, 0.015 m, above the floor) holds the stick at theta degrees
from the foot's direction (+x) into the ramp. A slope steeper than the walkable limit is a wall
for the horizontal pass: the body stops one skin from it along its normal and slides along the
foot at the stick's component along it, 6.2 cos theta.
Touching the slope plane (normal (0, cos a, -sin a) through the foot) with the base sphere
(centre 0.415 above the floor): 0.415 cos a - sin a (z - f) = 0.4 + skin, so
z - f = (0.415 cos a - 0.415) / sin a. The contact point, 0.415 - 0.4 cos a above the floor,
is on the slope (above y = 0), so the slope's face is what the body meets.
Each body spawns 0.3 m in front of its rest, at x = -30; x moves by speed * cos theta * dt a
tick (speed rising 0.9 m/s a tick to 6.2), z reaches the rest when the summed into-wall motion
does.
"""
import math

ANGLES = (3, 8, 15, 30, 90)
SLOPES = (60, 70)
for a in SLOPES:
    ar = math.radians(a)
    rest = (0.415 * math.cos(ar) - 0.415) / math.sin(ar)
    for deg in ANGLES:
        th = math.radians(deg)
        speed, into, t_contact = 0.0, 0.0, None
        for t in range(120):
            speed = min(6.2, speed + 0.9)
            into += speed * math.sin(th) * 0.02
            if t_contact is None and into >= 0.3:
                t_contact = t
        print(f"slope {a}, theta {deg}: rest z - foot {rest:.5f}, in contact from tick {t_contact}, "
              f"slide {6.2 * math.cos(th):.4f} m/s")
