#!/usr/bin/env python3
"""mesh-seams-colliding: mesh-seams' floor of coplanar triangles, bodies and inputs with every
body colliding, and the expectations KCC-SPEC gives colliding bodies on it.

    python3 scenarios/conformance/derivations/mesh-seams-colliding.py          # (nothing to print)
    python3 scenarios/conformance/derivations/mesh-seams-colliding.py --write  # (re)writes the yaml
    python3 scenarios/conformance/derivations/mesh-seams-colliding.py --check  # exit 1 if it differs

The world and the characters are read from ../mesh-seams.yaml (there the seven bodies are ghosts,
`collide_characters: false`, so that their crossing lanes test the mesh alone), with that setting
removed: bodies 3 and 7 cross bodies 1, 2 and 6 on the grid, and bodies 4 and 5 meet at the fan's
hub. What KCC-SPEC gives them, whoever meets whom:
- The floor is flat and the pushes between bodies horizontal (another character's head is 1.8 m
  up, no step): every body grounded one skin above y = 0 at every tick, the ground normal
  straight up (no seam shows, met alone or pressed by another body), never airborne, never a
  flicker.
- Solid to one another: no two bodies overlap; nothing penetrated; nobody faster than 6.2 m/s.
- Released at tick 100, a body brakes at 60 m/s^2 from at most 6.2 m/s: at rest after 6 ticks,
  and the pushes between bodies keep velocities, so nobody moves from tick 105 on.
Not bounded here: the speeds and lines of mesh-seams (a body another one blocks is slowed and
turned; the seams' own rule is mesh-seams').
"""
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # nothing written beside the scenarios when run from the suite
from derivation import colliding_variant, main, scenario_text  # noqa: E402

SOURCE = Path(__file__).resolve().parent.parent / "mesh-seams.yaml"


def write():
    head, chars = colliding_variant(
        SOURCE, "mesh-seams-colliding",
        "mesh-seams with every body colliding (ghosts there): seven bodies walk at 6.2 m/s over a flat "
        "floor made only of coplanar mesh triangles, along and across shared edges, through shared "
        "vertices and the fan's hub, and meet one another where their lanes cross. Whoever meets whom, "
        "no seam may show: every body grounded one skin above the floor with the ground normal straight "
        "up at every tick, never overlapping another body or faster than it runs, at rest from tick 105 "
        "(released at 100). Rows: derivations/mesh-seams-colliding.py.")
    expects = [
        "  - grounded: true",
        "    y: [0.0149, 0.0151]",
        "    ground_angle: [0, 0.01]",
        "    horizontal_speed: {max: 6.2001}",
        "  - ticks: [105, 119]",
        "    horizontal_speed: 0",
        "  - metrics:",
        "      flicker_count: 0",
        "      airborne_ticks: 0",
        "      max_penetration: {max: 0.000001}",
        "      max_character_overlap: {max: 0.000001}",
        "      max_depenetration: {max: 0.000001}",
    ]
    return scenario_text(head, chars, expects), []


if __name__ == "__main__":
    main(__file__, "mesh-seams-colliding", write)
