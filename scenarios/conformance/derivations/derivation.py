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
