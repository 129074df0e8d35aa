#!/usr/bin/env python3
"""Writes a long version of the 64-character benchmark arena (scenarios/bench/arena-64.yaml) for
the run viewer's size and load-time measurement (docs/viewer.md): TICKS ticks (default 10,000),
every character's input segments and jumps repeated every 1,000 ticks, so that the characters
keep running the course the whole time instead of standing still after tick 1,000.

    python3 tests/browser/long_arena.py OUT.yaml [TICKS]
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "scenarios", "bench", "arena-64.yaml")


def main():
    out = sys.argv[1]
    ticks = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    lines = open(SOURCE, encoding="utf-8").read().split("\n")
    period = int(re.search(r"(?m)^ticks: (\d+)$", "\n".join(lines)).group(1))
    repeat = -(-ticks // period)
    result, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("ticks: "):
            result.append(f"ticks: {ticks}")
        elif line.startswith("name: "):
            result.append(f"name: arena-64-{ticks}")
        elif line.strip() == "segments:":
            result.append(line)
            block = []
            i += 1
            while i < len(lines) and lines[i].lstrip().startswith("- {ticks:"):
                block.append(lines[i])
                i += 1
            total = sum(int(re.search(r"ticks: (\d+)", b).group(1)) for b in block)
            pad = period - total  # each repetition starts at a multiple of the period
            indent = block[0][: len(block[0]) - len(block[0].lstrip())] if block else "        "
            for _ in range(repeat):
                result += block
                if pad > 0:
                    result.append(f"{indent}- {{ticks: {pad}, stick: [0, 0]}}")
            continue
        elif line.lstrip().startswith("jumps: ["):
            head = line[: line.index("[")]
            jumps = [int(j) for j in re.findall(r"\d+", line[line.index("["):])]
            result.append(head + "[" + ", ".join(str(j + k * period) for k in range(repeat) for j in jumps
                                                 if j + k * period < ticks) + "]")
        else:
            result.append(line)
        i += 1
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(result))


if __name__ == "__main__":
    main()
