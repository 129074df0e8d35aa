#!/usr/bin/env python3
"""docs/behaviour.md against the tree: every conformance scenario is named on the page, and every
row of its "Readings by name" table points at a section docs/controller.md has (a bold name, or
"step N") and at scenarios that exist. Exit 0 when it holds, 1 with the problems listed.

    python3 scripts/check-behaviour-doc.py              # the check (in the test command)
    python3 scripts/check-behaviour-doc.py --self-test  # it must fail on planted problems
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def problems(page, controller, scenarios):
    out = []
    for name in scenarios:
        if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", page):
            out.append(f"docs/behaviour.md: scenario {name} is not named")
    table = page.split("## Readings by name", 1)
    if len(table) < 2:
        return out + ["docs/behaviour.md: no \"Readings by name\" table"]
    rows = [line for line in table[1].splitlines() if line.startswith("| ") and "---" not in line]
    if len(rows) < 2:
        out.append("docs/behaviour.md: the \"Readings by name\" table is empty")
    for row in rows[1:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) != 3:
            out.append(f"docs/behaviour.md: a reading row without 3 cells: {row}")
            continue
        reading, where, tested = cells
        for section in re.findall(r'"([^"]+)"', where):
            if f"**{section}**" not in controller and f"**{section}.**" not in controller:
                out.append(f"docs/behaviour.md: reading '{reading}' cites \"{section}\", "
                           "which docs/controller.md has no bold heading for")
        for step in re.findall(r"step (\d)", where):
            if not re.search(rf"(?m)^{step}\. \*\*", controller):
                out.append(f"docs/behaviour.md: reading '{reading}' cites step {step}, "
                           "which docs/controller.md does not number")
        for name in [t.strip() for t in tested.split(",") if t.strip()]:
            if name not in scenarios:
                out.append(f"docs/behaviour.md: reading '{reading}' names {name}, "
                           "not a conformance scenario")
    return out


def main():
    page = (ROOT / "docs/behaviour.md").read_text()
    controller = (ROOT / "docs/controller.md").read_text()
    scenarios = sorted(p.stem for p in (ROOT / "scenarios/conformance").glob("*.yaml"))
    if "--self-test" in sys.argv:
        # Planted problems, none of them a copy of another: a scenario's name removed (also
        # where it is a prefix of another's, ledge-heights of no other), a cited section that
        # does not exist, a step that does not exist, a scenario in the table that does not.
        first = scenarios[0]
        plants = [
            ("scenario dropped", page.replace(first, "x" * len(first)), controller, scenarios),
            ("new scenario", page, controller, scenarios + ["not-written-yet"]),
            ("section", page.replace('| "Pinched" |', '| "Pinched hard" |'), controller, scenarios),
            ("step", page.replace("| step 1 |", "| step 9 |"), controller, scenarios),
            ("table scenario", page.replace('| "Crushed" | platform-crush,', '| "Crushed" | platform-crushes,'),
             controller, scenarios),
        ]
        failed = 0
        for label, p, c, s in plants:
            if (p, c, s) == (page, controller, scenarios):
                print(f"self-test: the planted problem '{label}' changed nothing (its pattern is gone)")
                failed = 1
            elif not problems(p, c, s):
                print(f"self-test: the planted problem '{label}' passed the check")
                failed = 1
        if problems(page, controller, scenarios):
            print("self-test: the tree itself does not pass")
            failed = 1
        print("self-test: every planted problem fails the check" if not failed else "")
        return failed
    found = problems(page, controller, scenarios)
    for p in found:
        print(p)
    if not found:
        print(f"docs/behaviour.md: {len(scenarios)} scenarios named, every reading's section and "
              "scenarios exist")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
