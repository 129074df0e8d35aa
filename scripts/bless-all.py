#!/usr/bin/env python3
"""Re-blesses every target's goldens from this machine, in one command (docs/goldens.md).

    scripts/bless-all.py [--pending] [--targets A,B,...] [--command TARGET=PREFIX]... [--build]
                         [--golden-dir DIR] [--scenarios-dir DIR] [-k NAME] [SCENARIO...]

1. Each target's own build captures its goldens under its emulator (scripts/cross.sh TARGET
   bless --capture), into a temporary folder: x86_64-linux (build/), aarch64-linux,
   wasm32-emscripten, i686-linux, s390x-linux and x86_64-windows (build-TARGET/).
2. The captures are compared with each other (fxkcc compare-goldens). When any two targets
   disagree, nothing is written: a desync is never blessed. Exit 1.
3. A table shows, scenario by scenario and target by target, what changed against the accepted
   goldens: "same", "new", "tick 60 c1" (the first changed tick and characters; more than four:
   the first three and "+N"), "digest" (the
   same results for an edited scenario) or "behaviour 4>5".
4. The changed goldens are accepted into golden/<target>/ (fxkcc review --accept: each golden
   replaced atomically, after the scenario's checks were shown), or with --pending left in the
   pending folder (<golden-dir>.pending/<target>/) for `fxkcc review`.

--command TARGET=PREFIX runs TARGET's fxkcc as PREFIX (a build or a runner this machine reaches
differently); --build builds a target whose fxkcc is missing (scripts/cross.sh TARGET build).
Exit codes: 0 blessed (or nothing changed), 1 the targets disagree, 2 bad usage or refused
(under CI without --pending; a target's bless refused its input), 125 a target could not be run
(not built, emulator missing).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = ["x86_64-linux", "aarch64-linux", "wasm32-emscripten", "i686-linux", "s390x-linux", "x86_64-windows"]


def build_dir(target):
    return os.path.join(ROOT, "build" if target == "x86_64-linux" else "build-" + target)


def built(target):
    exe = os.path.join(build_dir(target), "cli", "fxkcc")
    return any(os.path.isfile(exe + ext) for ext in ("", ".js", ".exe"))


def read_hash_file(path):
    """(header dict, entity labels, {tick: line}) of a hash file (docs/formats.md)."""
    header, ticks, entities = {}, {}, []
    with open(path, newline="") as f:
        for line in f.read().splitlines():
            if line[:1].isdigit():
                ticks[int(line.split(" ", 1)[0])] = line
            elif " " in line:
                key, value = line.split(" ", 1)
                header[key] = value
                if key == "entities":
                    entities = value.split()
    return header, entities, ticks


def same_bytes(a, b):
    if not (os.path.isfile(a) and os.path.isfile(b)):
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def change_cell(golden_dir, capture_dir, target, name):
    """What blessing this capture changes in golden/<target>/<name>."""
    old = os.path.join(golden_dir, target, name + ".hashes")
    new = os.path.join(capture_dir, target, name + ".hashes")
    if not os.path.isfile(new):
        return "-"
    if not os.path.isfile(old):
        return "new"
    if same_bytes(old, new) and same_bytes(old[:-len(".hashes")] + ".csv", new[:-len(".hashes")] + ".csv"):
        return "same"
    try:
        oh, oe, ot = read_hash_file(old)
    except (OSError, UnicodeDecodeError):
        return "replaces unreadable"
    nh, ne, nt = read_hash_file(new)
    notes = []
    if oh.get("behaviour") != nh.get("behaviour"):
        notes.append(f"behaviour {oh.get('behaviour')}>{nh.get('behaviour')}")
    for tick in sorted(set(ot) | set(nt)):
        if ot.get(tick) == nt.get(tick):
            continue
        which = ""
        if tick in ot and tick in nt and oe == ne:
            a, b = ot[tick].split()[2:], nt[tick].split()[2:]
            differ = [e for e, x, y in zip(ne, a, b) if x != y]
            # A crowd's tick lists every character: the first three and how many more.
            which = " ".join(differ if len(differ) <= 4 else differ[:3] + [f"+{len(differ) - 3}"])
        return f"tick {tick}" + (f" {which}" if which else "") + ("; " + "; ".join(notes) if notes else "")
    if oh.get("digest") != nh.get("digest"):
        notes.append("digest")
    return "; ".join(notes) if notes else "csv"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pending", action="store_true", help="leave the changed goldens pending for fxkcc review")
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated targets (default: all six)")
    ap.add_argument("--command", action="append", default=[], metavar="TARGET=PREFIX",
                    help="run TARGET's fxkcc as PREFIX instead of its build under its emulator")
    ap.add_argument("--build", action="store_true", help="build a target whose fxkcc is missing")
    ap.add_argument("--golden-dir", default="golden")
    ap.add_argument("--scenarios-dir", default="scenarios")
    ap.add_argument("-k", "--filter", default="")
    ap.add_argument("scenarios", nargs="*")
    args = ap.parse_args()

    ci = os.environ.get("CI", "")
    if ci.lower() not in ("", "0", "false", "no", "off") and not args.pending:
        print(f"bless-all: refusing to regenerate goldens because CI is set (CI={ci}); goldens change only by a "
              "deliberate, reviewed commit (--pending leaves them for fxkcc review)", file=sys.stderr)
        return 2
    targets = [t for t in args.targets.split(",") if t]
    commands = {}
    for c in args.command:
        t, sep, prefix = c.partition("=")
        if not sep or not prefix:
            ap.error(f"--command {c!r}: expected TARGET=PREFIX")
        commands[t] = shlex.split(prefix)
    for t in targets:
        if t not in commands and not os.path.isfile(os.path.join(ROOT, "scripts", "targets", t + ".sh")):
            ap.error(f"unknown target {t!r} (scripts/targets/ has no {t}.sh; --command {t}=PREFIX names its fxkcc)")
    golden_dir = os.path.abspath(args.golden_dir)
    suite = ["--golden-dir", golden_dir, "--scenarios-dir", os.path.abspath(args.scenarios_dir)]
    if args.filter:
        suite += ["-k", args.filter]
    suite += [os.path.abspath(s) for s in args.scenarios]
    native = os.environ.get("FX_BLESS_ALL_FXKCC", os.path.join(ROOT, "build", "cli", "fxkcc"))
    if not os.path.isfile(native):
        print(f"bless-all: no native fxkcc at {native} (build it: cmake --build build)", file=sys.stderr)
        return 125

    work = tempfile.mkdtemp(prefix="fxkcc-bless-all-")
    try:
        capture = os.path.join(work, "capture")
        # 1. Each target captures its goldens.
        for t in targets:
            if t in commands:
                cmd = commands[t] + ["bless", "--target", t, "--capture", capture] + suite
                env = None
            else:
                if not built(t):
                    if not args.build:
                        print(f"bless-all: {t} is not built (scripts/cross.sh {t} build, or --build)", file=sys.stderr)
                        return 125
                    if subprocess.run(["bash", "scripts/cross.sh", t, "build"], cwd=ROOT).returncode != 0:
                        return 125
                cmd = ["bash", "scripts/cross.sh", t, "bless", "--capture", capture] + suite
                env = dict(os.environ, FX_BUILD_DIR="build") if t == "x86_64-linux" else None
            env = dict(env or os.environ)
            env.pop("CI", None)  # a capture is allowed under CI anyway; nothing here writes the goldens directly
            p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
            if p.returncode != 0 or not os.path.isdir(os.path.join(capture, t)):
                print(f"bless-all: {t}: its bless failed (exit {p.returncode}); nothing was written", file=sys.stderr)
                sys.stderr.write(p.stdout + p.stderr)
                return p.returncode if p.returncode in (1, 2) else 125
            print(f"captured {t}")
        # 2. The targets agree with each other, or nothing is written.
        if len(targets) > 1:
            p = subprocess.run([native, "compare-goldens", "--golden-dir", capture], cwd=ROOT,
                               capture_output=True, text=True)
            if p.returncode != 0:
                sys.stdout.write(p.stdout)
                sys.stderr.write(p.stderr)
                print("bless-all: refusing: the targets disagree with each other (above); nothing was written",
                      file=sys.stderr)
                return 1
            print(f"the {len(targets)} targets agree on every scenario")
        # 3. The table.
        names = sorted({f[:-len(".hashes")] for t in targets for f in os.listdir(os.path.join(capture, t))
                        if f.endswith(".hashes")})
        cells = {(n, t): change_cell(golden_dir, capture, t, n) for n in names for t in targets}
        w0 = max([len("scenario")] + [len(n) for n in names])
        widths = [max([len(t)] + [len(cells[(n, t)]) for n in names]) for t in targets]
        print()
        print("  ".join([f"{'scenario':<{w0}}"] + [f"{t:<{w}}" for t, w in zip(targets, widths)]).rstrip())
        for n in names:
            print("  ".join([f"{n:<{w0}}"] + [f"{cells[(n, t)]:<{w}}" for t, w in zip(targets, widths)]).rstrip())
        print()
        # Nothing to accept where nothing changes.
        for (n, t), c in cells.items():
            if c == "same":
                for ext in (".hashes", ".csv"):
                    os.remove(os.path.join(capture, t, n + ext))
        changed = sum(1 for c in cells.values() if c not in ("same", "-"))
        if changed == 0:
            print("nothing changed: every target's goldens already hold these results")
            return 0
        # 4. Accept, or leave pending.
        if args.pending:
            pending = os.path.abspath(golden_dir.rstrip("/") + ".pending")
            for t in targets:
                for f in sorted(os.listdir(os.path.join(capture, t))):
                    os.makedirs(os.path.join(pending, t), exist_ok=True)
                    shutil.copyfile(os.path.join(capture, t, f), os.path.join(pending, t, f))
            print(f"{changed} changed goldens pending in {os.path.relpath(pending)}/ "
                  f"(fxkcc review shows them; fxkcc review --accept accepts)")
            return 0
        p = subprocess.run([native, "review", "--pending-dir", capture, "--accept"] + suite, cwd=ROOT,
                           capture_output=True, text=True)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        if p.returncode != 0:
            print("bless-all: fxkcc review refused to accept (above)", file=sys.stderr)
            return p.returncode
        print(f"blessed {changed} changed goldens on {len(targets)} targets")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
