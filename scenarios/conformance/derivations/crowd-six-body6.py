#!/usr/bin/env python3
"""Body 6 of crowd-six, along the wall (face x = -8, z in [-6, 6]), from KCC-SPEC's rules alone.

Stick (-1, 0.3): |stick| > 1 is clamped, direction u = (-0.958, 0.287), asked speed 6.2 m/s.
Ground: the velocity points along u at once; its speed moves from the run speed toward 6.2 by
0.9 m/s a tick (45 m/s^2); the wall removes the part of each tick's motion into it, so z moves by
u_z * speed * dt every tick and x stays at the wall. Air: + u * 12 * dt a tick (no braking), the
wall again removing the x part; a 5 m/s jump is airborne for 51 rows (jump tick to tick + 50) and
the landing tick's input update is still an air one. The run speed a landing starts from is the
horizontal speed the body has.
Prints the rows the expectations quote. Run: python3 crowd-six-body6.py
"""
import math

DT = 0.02
U = (-1 / math.hypot(1, 0.3), 0.3 / math.hypot(1, 0.3))
JUMPS = (20, 100, 140)               # 140 comes in the air: ignored
X_WALL = (-7.5851, -7.5849)          # beside the face: one skin from it, +-0.1 mm
z, run, vx, vz = -2.0, 0.0, 0.0, 0.0
dx = 0.0                             # x travelled after leaving the wall
air_last = -1                        # last tick whose input update is an airborne one
rows = {}
for t in range(0, 200):
    beside_wall = z <= 6.0           # the tick starts beside the face: it removes the x part
    if t <= air_last:
        vx += U[0] * 12 * DT
        vz += U[1] * 12 * DT
        if beside_wall:
            vx = 0.0
        run = math.hypot(vx, vz)     # airborne: the run speed is the horizontal speed
    else:
        run = min(6.2, run + 0.9)
        vx, vz = U[0] * run, U[1] * run
        if beside_wall:
            vx = 0.0
        if t in JUMPS and t > air_last:
            air_last = t + 51        # rows t..t+50 airborne; the landing tick's update is an air one
    z += vz * DT
    if not beside_wall:
        dx += vx * DT
    rows[t] = (z, vx, vz, dx)
for t in (16, 71, 72, 73, 95, 99, 100, 137, 138, 141, 142, 143, 151, 152, 199):
    z, vx, vz, dx = rows[t]
    x = f"[{X_WALL[0] + dx:.4f}, {X_WALL[1] + dx:.4f}]"
    print(f"tick {t}: x in {x}, z = {z:.4f}, vx = {vx:.4f}, vz = {vz:.4f}")
