"""What the generated conformance scenarios' derivations share: decimals as the scenarios write
them, and the --write / --check entry point (each derivation's docstring says how to run it)."""
import sys
from pathlib import Path

# KCC-SPEC's defaults the derivations share: the 50 Hz tick, the ground maximum and its
# acceleration a tick, the stick's dead zone, the skin.
DT = 0.02
RUN_MAX = 6.2
ACC = 45 * DT
DEAD = 0.15
SKIN = 0.015


def stick_for(v):
    """The stick magnitude whose dead-zone remap asks for v m/s (KCC-SPEC: linear past 0.15)."""
    return DEAD + v / RUN_MAX * (1 - DEAD)


def num(v):
    """v with at most six decimals, no trailing zeros, and no negative zero."""
    s = f"{v:.6f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def flight_lines(flight, ox, foot_z, steps, rise, run, floor, stairs_width, landing):
    """A flight of stairs on its own floor with a landing at its top, as world lines: the floor box
    (`floor`: centre z, half extents x and z; its top at y = 0), `steps` steps from
    (ox, 0, foot_z) along +z, and the landing box (`landing`: half extents x and z) from the
    last riser on, its top level with the last step. Ids 100 + flight, 1000 + 20 * flight and
    200 + flight."""
    floor_z, floor_hx, floor_hz = floor
    land_hx, land_hz = landing
    top = steps * rise
    land_from = foot_z + steps * run
    return [f"  - box: {{id: {100 + flight}, center: [{num(ox)}, -0.5, {num(floor_z)}], "
            f"half_extents: [{num(floor_hx)}, 0.5, {num(floor_hz)}]}}",
            f"  - stairs: {{first_id: {1000 + 20 * flight}, foot: [{num(ox)}, 0, {num(foot_z)}], "
            f"yaw: 0, steps: {steps}, rise: {num(rise)}, run: {num(run)}, width: {num(stairs_width)}}}",
            f"  - box: {{id: {200 + flight}, center: [{num(ox)}, {num(top / 2)}, "
            f"{num(land_from + land_hz)}], half_extents: [{num(land_hx)}, {num(top / 2)}, {num(land_hz)}]}}   "
            f"# landing, top y = {num(top)}"]


def colliding_variant(source, name, description):
    """The head and character lines of the ghosts' scenario `source` (a Path), every
    `collide_characters: false` removed, renamed `name`, with `description`: the colliding
    variant's world and bodies (its expectations are its derivation's)."""
    head, chars, section = [], [], "head"
    for line in source.read_text().splitlines():
        if line == "characters:":
            section = "characters"
        elif line == "expect:":
            break
        elif section == "head":
            if line.startswith("name:"):
                line = f"name: {name}"
            elif line.startswith("description:"):
                line = f'description: "{description}"'
            head.append(line)
        elif line.strip() != "settings: {collide_characters: false}":  # (a block-style line: dropped)
            chars.append(line.replace(", settings: {collide_characters: false}", ""))
    assert not any("collide_characters" in c for c in chars), f"{source}: a ghost setting left"
    return head, chars


def scenario_text(head, characters, expects):
    """The scenario's text: `head` (the lines up to the world and platforms), then the characters'
    and the expectations' lines under their keys."""
    return "\n".join(head + ["characters:"] + characters + ["expect:"] + expects) + "\n"


def main(script, name, write):
    """write() returns (the scenario's text, the derivation's rows). --write (re)writes
    ../NAME.yaml, --check exits 1 when it differs from the text; the rows are printed."""
    text, rows = write()
    target = Path(script).resolve().parent.parent / f"{name}.yaml"
    if "--write" in sys.argv:
        target.write_text(text)
    elif "--check" in sys.argv:
        if target.read_text() != text:
            print(f"{target}: differs from what {Path(script).name} writes (--write)")
            sys.exit(1)
    print("\n".join(rows))
