#!/usr/bin/env python3
"""scripts/bless-all.py, run for real (the test command's `bless-all` leg, after every target is
built): on a scratch copy of the end-to-end scenarios, with each of the six targets' builds
under its emulator,

1. a first bless-all captures every target, finds them in agreement, prints the scenario x
   target table ("new" everywhere) and writes golden/<target>/ for all six, which
   compare-goldens then finds identical and the native verify passes;
2. after an intended change (walk-wall's jump moves from tick 60 to 70), the table says
   "tick 60 c1" for walk-wall and "same" for platform-ride on every target, and only walk-wall's
   goldens change;
3. when one target disagrees (a wrapper stands for a target whose build computes other bits:
   one hash of its capture is altered), bless-all refuses with exit 1, names the target and
   writes nothing;
4. --pending leaves the goldens alone and the changes in golden.pending/<target>/;
5. under CI, bless-all refuses unless --pending.

Exit 0 when every check holds, 1 otherwise.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGETS = ["x86_64-linux", "aarch64-linux", "wasm32-emscripten", "i686-linux", "s390x-linux", "x86_64-windows"]
NATIVE = os.path.join(ROOT, "build", "cli", "fxkcc")
failures = []

# Stands for a target whose build computes other bits: runs the command it is given, then
# changes one hash of what that command captured.
TAMPER = r'''
import os, re, subprocess, sys
args = sys.argv[1:]
rc = subprocess.run(args).returncode
folder = os.path.join(args[args.index("--capture") + 1], args[args.index("--target") + 1])
path = os.path.join(folder, "walk-wall.hashes")
text = open(path).read()
line = re.search(r"(?m)^90 [0-9a-f]{16}", text).group(0)
open(path, "w").write(text.replace(line, line[:-1] + ("0" if line[-1] != "0" else "1"), 1))
sys.exit(rc)
'''


def check(ok, what, detail=""):
    print(("ok      " if ok else "FAILED  ") + what, flush=True)
    if not ok:
        failures.append(what)
        if detail:
            print(detail)


def snapshot(folder):
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            if f == ".fxkcc-lock":
                continue
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, folder)] = fh.read()
    return out


def main():
    work = tempfile.mkdtemp(prefix="fxkcc-bless-all-test-")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    try:
        shutil.copytree(os.path.join(ROOT, "tests", "e2e", "scenarios"), os.path.join(work, "scenarios"))
        golden = os.path.join(work, "golden")

        def bless_all(*extra, ci=False):
            e = dict(env, CI="true") if ci else env
            p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bless-all.py"), "--golden-dir", golden,
                                "--scenarios-dir", os.path.join(work, "scenarios")] + list(extra),
                               cwd=work, env=e, capture_output=True, text=True)
            return p.returncode, p.stdout, p.stderr

        def row(out, name):
            m = re.search(rf"(?m)^{re.escape(name)} +(.*)$", out)
            return re.split(r" {2,}", m.group(1).strip()) if m else None

        # 1. Every target, from nothing.
        rc, out, err = bless_all()
        check(rc == 0, "bless-all of six targets from nothing exits 0", out + err)
        header = row(out, "scenario")
        check(header == TARGETS, "the table has a column per target", out)
        check(row(out, "walk-wall") == ["new"] * 6 and row(out, "platform-ride") == ["new"] * 6,
              "every scenario is new on every target", out)
        check(sorted(os.listdir(golden)) == sorted(TARGETS), "golden/<target>/ written for all six", str(os.listdir(golden)))
        p = subprocess.run([NATIVE, "compare-goldens", "--golden-dir", golden], capture_output=True, text=True)
        check(p.returncode == 0 and "2 identical, 0 different" in p.stdout, "the six targets' goldens are identical",
              p.stdout + p.stderr)

        # 2. An intended change.
        path = os.path.join(work, "scenarios", "walk-wall.yaml")
        text = open(path).read()
        open(path, "w").write(text.replace("jumps: [60]", "jumps: [70]"))
        before = snapshot(golden)
        rc, out, err = bless_all()
        check(rc == 0, "bless-all after a change exits 0", out + err)
        check(row(out, "walk-wall") == ["tick 60 c1"] * 6, "walk-wall: first changed tick 60, c1, on every target", out)
        check(row(out, "platform-ride") == ["same"] * 6, "platform-ride: same on every target", out)
        after = snapshot(golden)
        changed = sorted(k for k in after if after[k] != before.get(k))
        check(changed == sorted(os.path.join(t, "walk-wall" + e) for t in TARGETS for e in (".csv", ".hashes")),
              "only walk-wall's goldens changed, on all six", str(changed))
        p = subprocess.run([NATIVE, "verify", "--no-progress", "--golden-dir", golden, "--scenarios-dir",
                            os.path.join(work, "scenarios")], capture_output=True, text=True, cwd=work)
        check(p.returncode == 0, "the native verify passes on what was blessed", p.stdout + p.stderr)

        # 3. A target that disagrees: nothing is written.
        open(path, "w").write(text.replace("jumps: [60]", "jumps: [80]"))
        tamper = os.path.join(work, "tamper.py")
        open(tamper, "w").write(TAMPER)
        before = snapshot(golden)
        rc, out, err = bless_all("--command", f"s390x-linux={sys.executable} {tamper} {NATIVE}")
        check(rc == 1, "a disagreeing target makes bless-all exit 1", out + err)
        check("refusing: the targets disagree" in err and "s390x-linux: first divergent tick 90" in out,
              "the refusal names the target and the tick", out + err)
        check(snapshot(golden) == before, "nothing was written")

        # 4. Pending.
        rc, out, err = bless_all("--pending", "--targets", "x86_64-linux,i686-linux")
        check(rc == 0 and row(out, "walk-wall") == ["tick 70 c1"] * 2, "--pending: the table", out + err)
        check(snapshot(golden) == before, "--pending leaves the goldens alone")
        pending = os.path.join(work, "golden.pending")
        check(os.path.isdir(pending) and sorted(os.listdir(pending)) == ["i686-linux", "x86_64-linux"]
              and sorted(os.listdir(os.path.join(pending, "i686-linux"))) == ["walk-wall.csv", "walk-wall.hashes"],
              "--pending writes the changed goldens into golden.pending/<target>/",
              str(os.listdir(pending)) if os.path.isdir(pending) else "no golden.pending")

        # 5. CI.
        rc, out, err = bless_all("--targets", "x86_64-linux", ci=True)
        check(rc == 2 and "refusing to regenerate goldens because CI is set" in err, "refused under CI", out + err)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{'FAILED: ' + ', '.join(failures) if failures else 'bless-all: every check holds'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
