#!/usr/bin/env python3
"""Regenerates the scenario list of docs/conformance.md from the scenarios' own descriptions.

    scripts/gen-conformance-doc.py [--binary build/cli/fxkcc] [--check]

The part of docs/conformance.md between the BEGIN/END GENERATED markers is the output of
`fxkcc list --markdown scenarios/conformance`. With --check nothing is written; the exit code is
1 when the file differs from what would be generated (the test command runs this), 2 on error.
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "conformance.md")
BEGIN = "<!-- BEGIN GENERATED: fxkcc list --markdown scenarios/conformance (scripts/gen-conformance-doc.py) -->"
END = "<!-- END GENERATED -->"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "cli", "fxkcc"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    proc = subprocess.run([args.binary, "list", "--markdown", "scenarios/conformance"], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        return 2
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        sys.stderr.write(f"{DOC}: the generated-section markers are missing\n")
        return 2
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    count = proc.stdout.count("\n### ") + (1 if proc.stdout.startswith("### ") else 0)
    new = head + BEGIN + "\n\n" + f"{count} scenarios.\n\n" + proc.stdout + END + tail
    if args.check:
        if new != text:
            sys.stderr.write("docs/conformance.md is out of date with scenarios/conformance/: "
                             "run scripts/gen-conformance-doc.py\n")
            return 1
        print(f"docs/conformance.md lists the {count} scenarios of scenarios/conformance/ as generated")
        return 0
    if new != text:
        tmp = DOC + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(tmp, DOC)
    print(f"docs/conformance.md: {count} scenarios")
    return 0


if __name__ == "__main__":
    sys.exit(main())
