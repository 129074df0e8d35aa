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


LEDGE_SPEEDS = ((6.2, "1"), (3.1, "0.575"), (1.55, "0.3625"))  # m/s and its stick (dead zone 0.15)


def ledge_lanes(groups, ticks, phases=2, runup=0.6, lane=1.5):
    """Bodies walking off ledges along +x, the edge at x = 0, the floor (top y = 0) beyond it, as
    (world lines, character lines, expectation lines, rows). `groups`: (radius, snap, h, extra)
    for each ledge of height h, walked off at the three LEDGE_SPEEDS and `phases` tick phases
    (spawned a fraction of a tick's travel apart) by bodies of that radius and snap distance
    (plus `extra`, more settings as YAML text, e.g. ", step_height: 0.1"), `lane` m apart along
    z, each starting `runup` plus its radius back from the edge, one skin above the ledge.
    Expected (KCC-SPEC, "Snap to ground"): a ledge within the snap distance walked down without
    an airborne tick, a higher one a fall (at least one); every body ends grounded one skin above
    the floor (0.1 mm) past the edge at its ground speed (1 mm/s), never in the static geometry."""
    per_group = len(LEDGE_SPEEDS) * phases
    length = len(groups) * per_group * lane
    world = [f"  - box: {{id: 1, center: [10, -0.5, {num(length / 2)}], "
             f"half_extents: [10, 0.5, {num(length / 2 + 2)}]}}   # floor, top y = 0, x in [0, 20]"]
    chars, expects, rows = [], [], []
    cid = 0
    for group, (r, snap, h, extra) in enumerate(groups):
        z0 = group * per_group * lane
        world.append(f"  - box: {{id: {group + 2}, center: [-3, {num(h / 2)}, "
                     f"{num(z0 + (per_group - 1) * lane / 2)}], half_extents: [3, {num(h / 2)}, "
                     f"{num(per_group * lane / 2)}]}}   # ledge {num(h)} m, edge at x = 0")
        for si, (v, stick) in enumerate(LEDGE_SPEEDS):
            for ph in range(phases):
                cid += 1
                z = z0 + lane * (si * phases + ph)
                x = -(runup + r + v * DT * ph / phases)
                chars.append(f"  - {{id: {cid}, spawn: [{num(x)}, {num(h + SKIN)}, {num(z)}], "
                             f"settings: {{radius: {num(r)}, snap_distance: {num(snap)}{extra}}}, "
                             f"input: {{segments: [{{ticks: {ticks}, stick: [{stick}, 0]}}]}}}}   "
                             f"# radius {r}, snap {snap}, ledge {num(h)} m, {v} m/s, phase {ph}/{phases}")
                air = "{min: 1}" if h > snap else "0"
                expects.append(f"  - {{character: {cid}, metrics: {{airborne_ticks: {air}, "
                               f"max_penetration: {{max: 0.000001}}}}}}")
                expects.append(f"  - {{tick: {ticks - 1}, character: {cid}, grounded: true, "
                               f"y: [{num(SKIN - 0.0001)}, {num(SKIN + 0.0001)}], x: {{min: {num(r)}}}, "
                               f"horizontal_speed: [{num(v - 0.001)}, {num(v + 0.001)}]}}")
        rows.append(f"lanes {cid - per_group + 1}-{cid}: radius {r}, snap {snap}{extra.replace(':', '')}, "
                    f"ledge {num(h)} m ({'a fall' if h > snap else 'within the snap'})")
    return world, chars, expects, rows


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
