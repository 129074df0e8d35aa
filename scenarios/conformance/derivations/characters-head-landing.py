#!/usr/bin/env python3
"""characters-head-landing: the rows its expectations quote, from KCC-SPEC's rules and the
character rule (docs/controller.md, "Characters": another character's capsule is ground like
any surface within the walkable limits, and never a platform).

Lower bodies stand on the floor (feet y = 0.015: one skin), radius 0.4, height 1.8: the top
sphere's centre is at 0.015 + 1.8 - 0.4 = 1.415. A body dropped from feet y = 3 with its axis
dh from the lower one's rests one skin from that sphere along the normal: its base sphere's
centre 0.815 from 1.415, feet y = 1.415 + sqrt(0.815^2 - dh^2) - 0.4 (1.83 at dh = 0), if the
normal's angle asin(dh / 0.815) is within the enter limit (55 degrees: dh <= 0.6676).
Fall: each tick vy -= 9.81 * 0.02, then y += vy * 0.02 (semi-implicit Euler, from rest).
When the lower body walks away (stick 1 from tick 100: 0.018, 0.054, 0.108, 0.18, 0.27, 0.378,
0.502, 0.626, 0.75 m), the one on top is not carried: it keeps x = 0, stands on the sphere while
its normal is within the stay limit (58 degrees: dh <= 0.815 sin 58 = 0.6912, passed on tick
108) and then falls 1.815 m to the floor.
"""
import math

def fall_ticks(drop):
    y, vy, t = 0.0, 0.0, 0
    while True:
        vy -= 9.81 * 0.02
        y += vy * 0.02
        if -y >= drop:
            return t
        t += 1

for dh in (0.0, 0.3, 0.35):
    feet = 1.415 + math.sqrt(0.815 ** 2 - dh ** 2) - 0.4
    print(f"dh {dh}: rests at feet y {feet:.4f} ({math.degrees(math.asin(dh / 0.815)):.1f} degrees)")
print(f"centred drop from 3 to 1.83: lands on tick {fall_ticks(3 - 1.83)}")
print(f"0.7 off centre: {math.degrees(math.asin(0.7 / 0.815)):.1f} degrees, beyond the 55 degree enter limit")
print(f"off the head at tick 108: on the floor by tick {108 + fall_ticks(1.815) + 1}")
