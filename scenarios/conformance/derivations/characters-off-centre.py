#!/usr/bin/env python3
"""characters-off-centre: pairs of colliding characters running at each other on lines closer than
their radii need, and the distance each pass costs, from a model of the rules alone.

    python3 scenarios/conformance/derivations/characters-off-centre.py          # the model's rows
    python3 scenarios/conformance/derivations/characters-off-centre.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/characters-off-centre.py --check  # exit 1 if it differs

Five pairs at 6.2 m/s (stick 1 along x, from rest: 45 m/s^2, 0.9 m/s a tick), lines 0.1, 0.2,
0.4, 0.6 and 0.79 m apart, 10 m between them at the start; 150 ticks. The flat run ends at
x = -5 + 0.02 * (0.9 + 1.8 + ... + 5.4 + 144 * 6.2) = 13.234.

The rules (KCC-SPEC "Other characters", collide-and-slide; docs/behaviour.md, the readings "the
run speed", "the skin along the normal", "symmetric resolution"): each body moves as if the other
stood where it was at the tick's start, a capsule it meets one skin from (centres
r1 + r2 + skin = 0.815 m apart), sliding the rest of its motion along it (the part into it
removed, at most 4 sweeps); its legs keep the run speed (6.2 m/s) while the other takes part of
the motion; then two bodies closer than 0.815 m are each pushed half of what is missing along the
line between them. `pass_model` below runs exactly that in floating point, in the plane (the
bodies are on a flat floor and never leave it): an independent computation of where each body
ends, not the program's. Bounds: each pair passes (x beyond the model's by at most 1 cm less:
fixed-point rounding of 150 ticks of slides, and the closed-form cast's); the lines end at least
0.815 m apart and at most 1 cm more, symmetric (z); nobody faster than 6.2 m/s, nobody overlapped,
nobody airborne, nothing penetrated. (Before this derivation the bound was a hand-picked x >= 12.2,
a metre of loss for every pair.) The continuous limit of the same rules loses
(R/2)(-ln tan(phi0/2) - cos phi0), phi0 = asin(d/R): 0.731 m at d = 0.1; the ticks lose more.
"""
import math
import sys

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import main, num, scenario_text  # noqa: E402

DT=0.02; V=6.2; ACC=0.9; R=0.815; TICKS=150
def pass_model(d):
    """(a, b): where the two bodies of the pair d apart end, [x, z] relative to the pair's line."""
    a=[-5.0,-d/2]; b=[5.0,d/2]
    sp=0.0
    for t in range(TICKS):
        sp=min(V,sp+ACC)
        starts=[tuple(a),tuple(b)]
        new=[]
        for me,other,sign in ((a,starts[1],1),(b,starts[0],-1)):
            p=list(me); m=[sign*sp*DT,0.0]
            for it in range(4):
                L=math.hypot(*m)
                if L<1e-12: break
                # sweep disc p along m against circle radius R around other
                ox,oz=p[0]-other[0],p[1]-other[1]
                ux,uz=m[0]/L,m[1]/L
                bq=ox*ux+oz*uz; c=ox*ox+oz*oz-R*R
                disc=bq*bq-c
                hit=None
                if c<=1e-12 and bq<-1e-9*L: hit=0.0   # touching and moving in
                elif disc>=0:
                    s=-bq-math.sqrt(disc)
                    if 0<=s<=L: hit=s
                if hit is None or (c<=1e-12 and hit==0.0 and bq>=-1e-9*L):
                    p=[p[0]+m[0],p[1]+m[1]]; m=[0,0]; break
                p=[p[0]+ux*hit,p[1]+uz*hit]
                left=[m[0]-ux*hit,m[1]-uz*hit]
                nx,nz=p[0]-other[0],p[1]-other[1]; nl=math.hypot(nx,nz); nx/=nl; nz/=nl
                dn=left[0]*nx+left[1]*nz
                if dn<0: left=[left[0]-dn*nx,left[1]-dn*nz]
                m=left
            new.append(p)
        a[:],b[:]=new
        dx,dz=b[0]-a[0],b[1]-a[1]; dist=math.hypot(dx,dz)
        if dist<R:
            miss=(R-dist)/2; ux,uz=dx/dist,dz/dist
            a[0]-=ux*miss; a[1]-=uz*miss; b[0]+=ux*miss; b[1]+=uz*miss
    return a,b

OFFSETS = (0.1, 0.2, 0.4, 0.6, 0.79)
ZS = (0, 6, 12, 18, 24)
FLAT_END = 13.234


def write():
    head = ["format: 1", "name: characters-off-centre",
            'description: "Five pairs of colliding characters run at each other at 6.2 m/s on lines 0.1, 0.2, '
            '0.4, 0.6 and 0.79 m apart (closer than the 0.8 m their radii need). Characters keep one skin '
            'between them and slide along each other like along any capsule (docs/behaviour.md, Other '
            'characters): each pair must pass (no body stops the other dead or pushes it back), never overlap '
            '(max_character_overlap 0), never move or speed up faster than 6.2 m/s (the resolution launches '
            'nobody), and end with lines at least r1 + r2 + skin = 0.815 m apart, each deflected from its own '
            'line by at most what that needs plus 1 cm, symmetric about the pair\'s centre line. The flat run '
            'ends at x = 13.234; each pass costs what a floating-point model of the rules computes, within 1 cm '
            '(0.857, 0.534, 0.221, 0.078 and 0.002 m). Scenario and bounds: derivations/characters-off-centre.py '
            '(--write)."',
            "tick_rate: 50", "ticks: 150", "world:",
            "  - box: {id: 1, center: [0, -0.5, 12], half_extents: [20, 0.5, 20]}"]
    chars, expects, rows = [], [], []
    expects += ["  - grounded: true", "    y: [0.0149, 0.0151]", "    horizontal_speed: {max: 6.2001}",
                "    surface_speed: {max: 6.2001}", "  - metrics:", "      max_character_overlap: {max: 0.000001}",
                "      airborne_ticks: 0", "      max_penetration: {max: 0.000001}"]
    for k, (d, zc) in enumerate(zip(OFFSETS, ZS)):
        a_id, b_id = 2 * k + 1, 2 * k + 2
        pad = " " * (18 - len(str(a_id)))
        chars.append(f"  - id: {a_id}{pad} # {num(d)} m off the other's line")
        chars.append(f"    spawn: [-5, 0.015, {zc - d / 2:.3f}]")
        chars.append("    input: {segments: [{ticks: 150, stick: [1, 0]}]}")
        chars.append(f"  - id: {b_id}")
        chars.append(f"    spawn: [5, 0.015, {zc + d / 2:.3f}]")
        chars.append("    input: {segments: [{ticks: 150, stick: [-1, 0]}]}")
        a, b = pass_model(d)
        assert abs(a[0] + b[0]) < 1e-9 and abs(a[1] + b[1]) < 1e-9  # the pair is symmetric
        assert 0.815 <= b[1] - a[1] <= 0.815 + 0.02, (d, a, b)
        x_min = math.floor((a[0] - 0.01) * 10000) / 10000
        rows.append(f"lines {num(d)} m apart: the model ends body {a_id} at x = {a[0]:.4f} (a pass costs "
                    f"{FLAT_END - a[0]:.4f} m), z = {zc + a[1]:.4f}; bound x >= {x_min:.4f}")
        expects.append(f"  - tick: 149                    # line {num(d)} m: passed, lines at least 0.815 apart; "
                       f"the model: x = {a[0]:.4f}")
        expects.append(f"    character: {a_id}")
        expects.append(f"    x: {{min: {x_min:.4f}}}")
        expects.append(f"    z: [{zc - 0.4175:.4f}, {zc - 0.4074:.4f}]")
        expects.append("  - tick: 149")
        expects.append(f"    character: {b_id}")
        expects.append(f"    x: {{max: {-x_min:.4f}}}")
        expects.append(f"    z: [{zc + 0.4074:.4f}, {zc + 0.4175:.4f}]")
    return scenario_text(head, chars, expects), rows


if __name__ == "__main__":
    main(__file__, "characters-off-centre", write)
