#!/usr/bin/env python3
"""The CI workflow, executed (issue 18; the test command's `native` leg runs this):

1. the runner's semantics, on small workflows: with no shell a step runs `bash -e`, so
   `false | true` passes; with `shell: bash` (step, job or workflow defaults) it fails; after a
   failing step only `if: failure()` and `if: always()` steps run; an expression the runner
   cannot evaluate is refused (exit 2), never skipped;
2. the Linux x86-64 job of ci/github/workflows/fxkcc.yml (matrix compiler g++), every step as
   written, in this tree: installs, builds build/, runs every ctest test, verifies the goldens,
   captures its results for the comparison across runners; it must pass;
3. its "Verify goldens" step on a copy of scenarios/ and golden/ where one character hash of one
   golden is changed: the step must fail, its report must name the mismatch, and the failure
   step after it must gather the scenario's hashes, CSV and desync bundle. The same step
   with the workflow's `defaults` removed (the runner's bare `bash -e`) must pass: the check that
   the workflow as it was would have stayed green on a desync;
4. ci/github/workflows/capture.yml: the Linux x86-64 job's "Capture" step (bless --capture
   under CI) and the compare job's comparison step, on a scratch copy with this tree's build (a
   second capture into another target folder stands for the other runners): the captures pass
   the comparison, and fail it once one captured hash is changed.

Exit code 0 when every check holds, 1 otherwise.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "scripts", "run-workflow-job.py")
WORKFLOW = os.path.join(ROOT, "ci", "github", "workflows", "fxkcc.yml")
failures = []


def check(ok, what):
    print(("ok      " if ok else "FAILED  ") + what, flush=True)
    if not ok:
        failures.append(what)


def runner(workflow_path, job, *args, cwd=None):
    p = subprocess.run([sys.executable, RUNNER, workflow_path, job, *args], cwd=cwd or ROOT,
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def shell_semantics(tmp):
    def wf(path, text):
        with open(path, "w") as f:
            f.write(text)
        return path
    step = "    steps:\n      - name: s\n        run: false | true\n"
    bare = wf(os.path.join(tmp, "bare.yml"), "on: push\njobs:\n  j:\n    runs-on: ubuntu-24.04\n" + step)
    rc, out = runner(bare, "j")
    check(rc == 0, f"no shell: `false | true` passes under bash -e (exit {rc})")
    per_step = wf(os.path.join(tmp, "step.yml"), "on: push\njobs:\n  j:\n    runs-on: ubuntu-24.04\n" + step +
                  "        shell: bash\n")
    rc, out = runner(per_step, "j")
    check(rc != 0, f"step shell: bash: `false | true` fails under pipefail (exit {rc})")
    job_default = wf(os.path.join(tmp, "job.yml"), "on: push\njobs:\n  j:\n    runs-on: ubuntu-24.04\n"
                     "    defaults:\n      run:\n        shell: bash\n" + step)
    rc, out = runner(job_default, "j")
    check(rc != 0, f"job defaults shell: bash: fails (exit {rc})")
    wf_default = wf(os.path.join(tmp, "wf.yml"), "on: push\ndefaults:\n  run:\n    shell: bash\njobs:\n  j:\n"
                    "    runs-on: ubuntu-24.04\n" + step)
    rc, out = runner(wf_default, "j")
    check(rc != 0, f"workflow defaults shell: bash: fails (exit {rc})")
    conds = wf(os.path.join(tmp, "conds.yml"), "on: push\njobs:\n  j:\n    runs-on: ubuntu-24.04\n    steps:\n"
               "      - run: 'false'\n"
               "      - if: failure()\n        run: touch on-failure\n"
               "      - run: touch after-failure\n"
               "      - if: always()\n        run: touch always\n")
    rc, out = runner(conds, "j", "--cwd", tmp)
    ran = sorted(f for f in ("on-failure", "after-failure", "always") if os.path.exists(os.path.join(tmp, f)))
    check(rc == 1 and ran == ["always", "on-failure"],
          f"after a failing step only failure() and always() steps run, and the job fails (exit {rc}, ran {ran})")
    expr = wf(os.path.join(tmp, "expr.yml"), "on: push\njobs:\n  j:\n    runs-on: ubuntu-24.04\n    steps:\n"
              "      - run: echo ${{ github.sha }}\n")
    rc, out = runner(expr, "j")
    check(rc == 2 and "is not one this runner evaluates" in out, f"an unknown expression is refused (exit {rc})")


def altered_golden_copy(tmp):
    """scenarios/ and golden/ copied, build/ and scripts/ linked to this tree's; one character
    hash changed."""
    work = os.path.join(tmp, "tree")
    os.makedirs(work)
    shutil.copytree(os.path.join(ROOT, "scenarios"), os.path.join(work, "scenarios"))
    shutil.copytree(os.path.join(ROOT, "golden"), os.path.join(work, "golden"))
    os.symlink(os.path.join(ROOT, "build"), os.path.join(work, "build"))
    os.symlink(os.path.join(ROOT, "scripts"), os.path.join(work, "scripts"))
    folder = os.path.join(work, "golden", "x86_64-linux")
    path = os.path.join(folder, sorted(n for n in os.listdir(folder) if n.endswith(".hashes"))[0])
    with open(path) as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        cells = line.split(" ")
        if re.fullmatch(r"\d+", cells[0]) and int(cells[0]) == 10 and len(cells) >= 3:
            h = cells[2]
            cells[2] = h[:-1] + ("0" if h[-1] != "0" else "1")
            lines[i] = " ".join(cells)
            break
    else:
        raise SystemExit(f"test_workflow: no tick 10 in {path}")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return work, os.path.basename(path)[: -len(".hashes")]


def capture_workflow(tmp):
    capture = os.path.join(ROOT, "ci", "github", "workflows", "capture.yml")
    work = os.path.join(tmp, "capture")
    os.makedirs(work)
    shutil.copytree(os.path.join(ROOT, "scenarios"), os.path.join(work, "scenarios"))
    os.symlink(os.path.join(ROOT, "build"), os.path.join(work, "build"))
    rc, out = runner(capture, "linux-x86_64", "--step", "Capture", cwd=work)
    check(rc == 0, f"capture.yml: the capture step passes under CI (exit {rc})")
    check(not os.path.exists(os.path.join(work, "golden")), "capture.yml: nothing written to golden/")
    # A second runner's capture, standing in for the other jobs (the same build, another folder).
    p = subprocess.run([os.path.join(work, "build", "cli", "fxkcc"), "bless", "--capture", "captured", "--target",
                        "second-runner"], cwd=work, capture_output=True, text=True, env=dict(os.environ, CI="true"))
    check(p.returncode == 0, f"capture.yml: a second capture (exit {p.returncode})")
    if p.returncode != 0:
        print(p.stdout[-2000:] + p.stderr[-2000:])
    step = "Each capture against a run here, then the captures with each other"
    rc, out = runner(capture, "compare", "--step", step, cwd=work)
    check(rc == 0, f"capture.yml: the comparison passes on the capture (exit {rc})")
    if rc != 0:
        print(out[-3000:])
    folder = os.path.join(work, "captured", "x86_64-linux")
    path = os.path.join(folder, sorted(n for n in os.listdir(folder) if n.endswith(".hashes"))[0])
    with open(path) as f:
        text = f.read()
    altered = re.sub(r"(?m)^(10 [0-9a-f]{16} )([0-9a-f])", lambda m: m.group(1) + ("1" if m.group(2) == "0" else "0"), text, count=1)
    check(altered != text, "capture.yml: a captured hash changed")
    with open(path, "w") as f:
        f.write(altered)
    rc, out = runner(capture, "compare", "--step", step, cwd=work)
    check(rc != 0 and "MISMATCH" in out, f"capture.yml: the comparison fails on it (exit {rc})")


def main():
    tmp = tempfile.mkdtemp(prefix="fxkcc-workflow-")
    try:
        print("== the runner's shell semantics")
        shell_semantics(tmp)

        print("== the Linux x86-64 job (g++), every step as written", flush=True)
        rc = subprocess.run([sys.executable, RUNNER, WORKFLOW, "linux-x86_64", "--matrix", "compiler=g++"],
                            cwd=ROOT).returncode
        check(rc == 0, f"the job passes on this tree (exit {rc})")
        # What the job uploads is not the tree's: the verify reports, this runner's capture.
        for report in ("verify-junit.xml", "verify-report.txt", "verify-report.json"):
            if os.path.exists(os.path.join(ROOT, report)):
                os.unlink(os.path.join(ROOT, report))
        captured = os.path.join(ROOT, "runner-goldens")
        check(os.path.isdir(os.path.join(captured, "x86_64-linux-gcc")),
              "the job captured its results into runner-goldens/x86_64-linux-gcc")
        shutil.rmtree(captured, ignore_errors=True)
        if rc != 0:
            return 1

        print("== its verify step on one altered golden", flush=True)
        work, name = altered_golden_copy(tmp)
        rc, out = runner(WORKFLOW, "linux-x86_64", "--matrix", "compiler=g++", "--step", "Verify goldens",
                         "--step", "Gather what a desync needs", cwd=work)
        report = open(os.path.join(work, "verify-report.txt")).read() if os.path.exists(
            os.path.join(work, "verify-report.txt")) else ""
        check(rc != 0, f"the verify step fails (exit {rc})")
        check(re.search(r"(?m)^MISMATCH\s+" + re.escape(name) + r"\b", report) is not None,
              f"its report names the mismatch of {name}")
        gathered = os.path.join(work, "failure", name)
        check(all(os.path.exists(os.path.join(gathered, f)) for f in (name + ".hashes", name + ".csv", "desync/report.txt")),
              f"the failure step gathered {name}'s hashes, CSV and desync bundle")
        check(all(os.path.exists(os.path.join(work, "failure", "pending-goldens", "x86_64-linux", name + e))
                  for e in (".hashes", ".csv")),
              f"the verify step wrote {name}'s pending golden into the failure artifact (fxkcc review --pending-dir)")
        pages = os.path.join(work, "failure", "pages")
        check(os.path.exists(os.path.join(pages, "index.html")) and os.path.exists(os.path.join(pages, name + ".html"))
              and os.path.exists(os.path.join(gathered, "desync", "report.html")),
              f"the failure artifact holds the viewer's pages: verify's index and {name}'s page, the desync bundle's report.html")
        verify_json = os.path.join(work, "verify-report.json")
        check(os.path.exists(verify_json) and any(
                  r["name"] == name and r["status"] == "mismatch" for r in json.load(open(verify_json))["scenarios"]),
              f"the JSON report names the mismatch of {name}")
        with open(WORKFLOW) as f:
            bare = yaml.safe_load(f)
        bare.pop("defaults", None)
        bare_path = os.path.join(tmp, "without-defaults.yml")
        with open(bare_path, "w") as f:
            yaml.safe_dump(bare, f)
        rc, out = runner(bare_path, "linux-x86_64", "--matrix", "compiler=g++", "--step", "Verify goldens", cwd=work)
        check(rc == 0, f"without `defaults: run: shell: bash` the same step passes, as the workflow did before (exit {rc})")

        print("== the capture workflow's capture and comparison steps", flush=True)
        capture_workflow(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"test_workflow: {len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("test_workflow: all checks hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
