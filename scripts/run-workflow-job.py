#!/usr/bin/env python3
"""Runs one job of a GitHub Actions workflow here, its `run:` steps exactly as written, with the
shell the hosted runner would use (docs/testing.md, "The CI workflow, executed"):

  scripts/run-workflow-job.py WORKFLOW JOB [--matrix KEY=VALUE ...] [--step NAME ...] [--cwd DIR]

Shells, as GitHub documents them for Linux and macOS runners: a step's `shell:`, else the job's
`defaults.run.shell`, else the workflow's; `bash` runs `bash --noprofile --norc -eo pipefail
{0}`, `sh` runs `sh -e {0}`, and no shell at all runs `bash -e {0}` (no pipefail: a failing
command before a pipe is not seen). A custom shell with `{0}` runs as given.

Steps run in order; after a failing step only steps with `if: always()` or `if: failure()` run
(and `failure()` steps only then), as on the runner; the job's result is the first failure's.

Not a full runner, and it says so instead of guessing: `${{ matrix.KEY }}` is the only expression
it substitutes (any other is an error); `uses:` steps are `actions/checkout` (this folder is the
checkout) and `actions/upload-artifact` and `actions/download-artifact` (skipped, named); any
other action, an `if:` other than `always()`, `failure()` or `success()`, `continue-on-error` or
`services` is an error. The job's `container:` is not
started: the job runs on this machine, whose distribution is printed beside the one it names.
A matrix key not given takes its first value.

--step NAME runs only the named steps (in workflow order); --cwd DIR runs them there.
Exit code: the first failing step's; 2 for bad usage or a workflow it cannot run faithfully.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import yaml

SHELLS = {
    None: ["bash", "-e", "{0}"],
    "bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail", "{0}"],
    "sh": ["sh", "-e", "{0}"],
}


class Unsupported(Exception):
    pass


def shell_command(shell, script_path):
    if shell in SHELLS:
        template = SHELLS[shell]
    elif shell is not None and "{0}" in shell:
        template = shell.split()
    else:
        raise Unsupported(f"shell '{shell}' is not one this runner models (bash, sh, or a command with {{0}})")
    return [script_path if part == "{0}" else part for part in template]


def substitute(text, matrix, where):
    def repl(m):
        expr = m.group(1).strip()
        mm = re.fullmatch(r"matrix\.([A-Za-z0-9_-]+)", expr)
        if not mm or mm.group(1) not in matrix:
            raise Unsupported(f"{where}: expression '${{{{ {expr} }}}}' is not one this runner evaluates")
        return str(matrix[mm.group(1)])
    return re.sub(r"\$\{\{(.*?)\}\}", repl, text)


def default_shell(workflow, job):
    for scope in (job, workflow):
        shell = ((scope.get("defaults") or {}).get("run") or {}).get("shell")
        if shell is not None:
            return shell
    return None


def distribution():
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return "unknown"


def run_job(workflow, job_name, matrix_args, only_steps, cwd):
    jobs = workflow.get("jobs") or {}
    if job_name not in jobs:
        raise Unsupported(f"no job '{job_name}' (jobs: {', '.join(jobs)})")
    job = jobs[job_name]
    for key in ("services",):
        if key in job:
            raise Unsupported(f"job '{job_name}': '{key}' is not supported")
    matrix = {}
    spec = ((job.get("strategy") or {}).get("matrix")) or {}
    for key, values in spec.items():
        if key in ("include", "exclude"):
            raise Unsupported(f"job '{job_name}': matrix '{key}' is not supported")
        matrix[key] = values[0] if isinstance(values, list) else values
    for arg in matrix_args:
        key, _, value = arg.partition("=")
        if key not in spec:
            raise Unsupported(f"job '{job_name}' has no matrix key '{key}'")
        if value not in [str(v) for v in spec[key]]:
            raise Unsupported(f"matrix {key}={value}: not among {spec[key]}")
        matrix[key] = value
    if "container" in job:
        image = job["container"] if isinstance(job["container"], str) else job["container"].get("image")
        print(f"run-workflow-job: the job names container {image}; running on this machine ({distribution()})")
    job_shell = default_shell(workflow, job)
    steps = job.get("steps") or []
    names = [s.get("name") or s.get("uses") or "(unnamed)" for s in steps]
    for wanted in only_steps:
        if wanted not in names:
            raise Unsupported(f"job '{job_name}' has no step named '{wanted}'")
    failed_rc = 0
    for step, name in zip(steps, names):
        where = f"{job_name} / {name}"
        if "continue-on-error" in step:
            raise Unsupported(f"{where}: continue-on-error is not supported")
        cond = str(step.get("if", "success()")).strip()
        cond = re.sub(r"^\$\{\{\s*(.*?)\s*\}\}$", r"\1", cond)
        if cond not in ("always()", "failure()", "success()"):
            raise Unsupported(f"{where}: if: {cond} is not supported")
        if only_steps and name not in only_steps:
            continue
        if (cond == "success()" and failed_rc) or (cond == "failure()" and not failed_rc):
            print(f"== {where}: not run (if: {cond})")
            continue
        if "uses" in step:
            action = step["uses"].split("@")[0]
            if action == "actions/checkout":
                print(f"== {where}: this folder is the checkout")
            elif action in ("actions/upload-artifact", "actions/download-artifact"):
                print(f"== {where}: skipped ({action}, {step.get('with', {}).get('name', step.get('with', {}).get('pattern', '?'))})")
            else:
                raise Unsupported(f"{where}: action {step['uses']} is not supported")
            continue
        script = substitute(step["run"], matrix, where)
        shell = step.get("shell", job_shell)
        env = dict(os.environ)
        for scope in (workflow.get("env") or {}, job.get("env") or {}, step.get("env") or {}):
            env.update({k: substitute(str(v), matrix, where) for k, v in scope.items()})
        env["CI"] = "true"
        env["GITHUB_ACTIONS"] = "true"
        step_cwd = os.path.join(cwd, step["working-directory"]) if "working-directory" in step else cwd
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write(script)
            path = f.name
        try:
            cmd = shell_command(shell, path)
            print(f"== {where}  [{' '.join(cmd[:-1])}]", flush=True)
            rc = subprocess.run(cmd, cwd=step_cwd, env=env).returncode
        finally:
            os.unlink(path)
        if rc != 0 and not failed_rc:
            print(f"run-workflow-job: step '{name}' failed (exit {rc})", file=sys.stderr)
            failed_rc = rc
    return failed_rc


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("workflow")
    p.add_argument("job")
    p.add_argument("--matrix", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--step", action="append", default=[], metavar="NAME")
    p.add_argument("--cwd", default=".")
    a = p.parse_args()
    try:
        with open(a.workflow) as f:
            workflow = yaml.safe_load(f)
        return run_job(workflow, a.job, a.matrix, a.step, os.path.abspath(a.cwd))
    except (OSError, yaml.YAMLError, Unsupported) as e:
        print(f"run-workflow-job: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
