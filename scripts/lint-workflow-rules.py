#!/usr/bin/env python3
"""What the GitHub Actions schema does not say about ci/github/workflows/*.yml (issue 53), read
from the parsed YAML, never from one spelling of the text:

  scripts/lint-workflow-rules.py [--root DIR]      check DIR's workflows (default: this tree)
  scripts/lint-workflow-rules.py --self-test       prove each rule fails on planted copies

1. runner labels: no retired hosted image (macos-14 and older, ubuntu-20.04 and older,
   windows-2019 and older). Every label a job can get is read: `runs-on` as a string, a list or
   a `{group, labels}` mapping, and `${{ matrix.KEY }}` expanded to every value of KEY in the
   matrix and its `include` entries; any other expression in `runs-on` is refused (unknowable);
2. container jobs: a job with `container:` (an image name or a mapping) must install git
   (apt-get/apt/apk/dnf/yum/microdnf/zypper install ... git, the word git itself) in a `run:`
   step before its first actions/checkout step. Without git actions/checkout downloads a tarball:
   no .git, and fxkcc --version names no commit;
3. current majors: `actions/*` steps at v5 or later (actions/checkout, upload-artifact and
   download-artifact run on a retired Node at v4 and earlier); a ref that names no major (a
   branch, a commit) is refused, since its major cannot be checked;
4. bash 3.2: the `run:` steps of jobs on macOS or Windows runners, the scripts/*.sh they name,
   those the scripts name in turn, and the scripts the end-to-end tests run there through ctest
   (tests/e2e/test_cli.py) use nothing Apple's /bin/bash 3.2 lacks: associative arrays
   (`declare -A`), mapfile/readarray, case modification (`${v,,}`, `${v^^}`), namerefs
   (`declare -n`), `declare -g`, `[[ -v`, `wait -n`, `|&`, `&>>`, `coproc`, `${v@Q}`,
   globstar, `$EPOCHSECONDS`/`$BASHPID`, negative array subscripts; under `set -u` no array
   expanded as `${A[@]}` unguarded (an empty one is an unbound variable before bash 4.4: write
   `${A[@]+"${A[@]}"}`); and no `sed -i` without a suffix (BSD sed takes the script for one).

Exit 0 when every workflow holds, 1 when one does not (each violation printed as
`file: job: what`), 2 on bad usage. --self-test exits 0 when the tree passes and every planted
copy is refused for the planted reason.
"""
import argparse
import copy
import os
import re
import shlex
import shutil
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOWS = os.path.join("ci", "github", "workflows")
CURRENT_MAJOR = 5
PACKAGE_MANAGERS = {"apt-get", "apt", "apk", "dnf", "yum", "microdnf", "zypper"}


# ---------------------------------------------------------------------------------------------
# 1. runner labels


def retired_label(label):
    """The reason a hosted runner label is retired, or None."""
    name = label.strip().lower()
    m = re.fullmatch(r"macos-(\d+)(?:\.\d+)?(?:-[a-z0-9]+)*", name)
    if m and int(m.group(1)) <= 14:
        return f"{label}: macOS {m.group(1)} images are retired (use macos-15)"
    m = re.fullmatch(r"ubuntu-(\d+)\.(\d+)(?:-[a-z0-9]+)*", name)
    if m and (int(m.group(1)), int(m.group(2))) <= (20, 4):
        return f"{label}: Ubuntu {m.group(1)}.{m.group(2)} images are retired (use ubuntu-24.04)"
    m = re.fullmatch(r"windows-(\d{4})(?:-[a-z0-9]+)*", name)
    if m and int(m.group(1)) <= 2019:
        return f"{label}: Windows Server {m.group(1)} images are retired (use windows-2022 or later)"
    return None


def matrix_values(job, key):
    """Every value a job's matrix can give KEY: its list (or scalar) and its include entries."""
    matrix = ((job.get("strategy") or {}).get("matrix")) or {}
    if not isinstance(matrix, dict):
        return None
    values = []
    base = matrix.get(key)
    if isinstance(base, list):
        values += base
    elif base is not None:
        values.append(base)
    for entry in matrix.get("include") or []:
        if isinstance(entry, dict) and key in entry:
            values.append(entry[key])
    return [str(v) for v in values]


def job_labels(job):
    """(labels, problems): every label the job's runs-on can name."""
    runs_on = job.get("runs-on")
    if isinstance(runs_on, dict):
        raw = runs_on.get("labels", [])
        raw = raw if isinstance(raw, list) else [raw]
        if "group" in runs_on and not raw:
            return [], []
    elif isinstance(runs_on, list):
        raw = runs_on
    elif runs_on is None:
        return [], ["no runs-on"]
    else:
        raw = [runs_on]
    labels, problems = [], []
    for item in raw:
        text = str(item)
        exprs = re.findall(r"\$\{\{(.*?)\}\}", text)
        if not exprs:
            labels.append(text)
            continue
        candidates = [text]
        for expr in exprs:
            m = re.fullmatch(r"\s*matrix\.([A-Za-z0-9_-]+)\s*", expr)
            values = matrix_values(job, m.group(1)) if m else None
            if not values:
                problems.append(f"runs-on: '{text}': an expression this lint cannot expand (only matrix.KEY)")
                candidates = []
                break
            pattern = "${{" + expr + "}}"
            candidates = [c.replace(pattern, v) for c in candidates for v in values]
        labels += candidates
    return labels, problems


# ---------------------------------------------------------------------------------------------
# 2. git before checkout in container jobs


def step_action(step):
    uses = step.get("uses") if isinstance(step, dict) else None
    if not isinstance(uses, str):
        return None, None
    name, _, ref = uses.strip().partition("@")
    return name.strip().lower(), ref.strip()


def installs_git(script):
    """Whether a run: script installs the package git with a package manager."""
    for command in re.split(r"\n|;|&&|\|\||\||[{}()]", script):
        try:
            words = shlex.split(command, comments=True)
        except ValueError:
            words = command.split()
        while words and (words[0] in ("sudo", "env", "command", "exec") or re.fullmatch(r"\w+=.*", words[0])):
            words = words[1:]
        if not words or os.path.basename(words[0]) not in PACKAGE_MANAGERS:
            continue
        verbs = [w for w in words[1:] if not w.startswith("-")]
        if not verbs or verbs[0] not in ("install", "add"):
            continue
        if "git" in verbs[1:]:
            return True
    return False


def container_checkout_problems(job):
    if "container" not in job or job.get("container") in (None, ""):
        return []
    for step in job.get("steps") or []:
        action, _ = step_action(step)
        if action == "actions/checkout":
            return ["a container job runs actions/checkout with no step installing git before it "
                    "(the checkout is then a tarball without .git)"]
        if isinstance(step, dict) and isinstance(step.get("run"), str) and installs_git(step["run"]):
            return []
    return []


# ---------------------------------------------------------------------------------------------
# 3. current majors


def major_problems(job):
    problems = []
    for step in job.get("steps") or []:
        action, ref = step_action(step)
        if not action or not action.startswith("actions/"):
            continue
        m = re.fullmatch(r"v(\d+)(?:\.\d+)*", ref)
        if not m:
            problems.append(f"{step['uses']}: pin actions/* by a major version tag (v{CURRENT_MAJOR} or later), "
                            "not a branch or commit, so that its major can be checked")
        elif int(m.group(1)) < CURRENT_MAJOR:
            problems.append(f"{step['uses']}: v{m.group(1)} runs on a retired Node; use v{CURRENT_MAJOR} or later")
    return problems


# ---------------------------------------------------------------------------------------------
# 4. bash 3.2


BASH4 = [
    (r"\b(?:declare|typeset|local|readonly)\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*A", "an associative array (bash 4)"),
    (r"(?:^|[\s;&|(`])(?:mapfile|readarray)\b", "mapfile/readarray (bash 4)"),
    (r"\$\{[#!]?\w+(?:\[[^]]*\])?(?:,,?|\^\^?)[^}]*\}", "case modification ${v,,} / ${v^^} (bash 4)"),
    (r"\b(?:declare|typeset|local)\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*n", "a nameref, declare -n (bash 4.3)"),
    (r"\b(?:declare|typeset)\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*g", "declare -g (bash 4.2)"),
    (r"(?:\[\[|\btest|\[)\s+-v\s", "-v VAR tests (bash 4.2)"),
    (r"\bwait\s+-n\b", "wait -n (bash 4.3)"),
    (r"\|&", "|& (bash 4)"),
    (r"&>>", "&>> (bash 4)"),
    (r"(?:^|[\s;&|])coproc\b", "coproc (bash 4)"),
    (r"\$\{[^}]*@[QEPAaKkULu]\}", "${v@Q}-style transformations (bash 4.4)"),
    (r"\bshopt\s+-s\s+[^#\n]*\bglobstar\b", "globstar (bash 4)"),
    (r"\$\{?(?:EPOCHSECONDS|EPOCHREALTIME|BASHPID)\b", "$EPOCHSECONDS/$EPOCHREALTIME/$BASHPID (bash 4+)"),
    (r"\$\{\w+\[-\d+\]\}", "a negative array subscript (bash 4.3)"),
    (r"\bsed\s+(?:-[a-zA-Z]*\s+)*-i(?:\s+['\"-]|\s*$)", "sed -i without a suffix (BSD sed on macOS reads the next word as one)"),
]
NOUNSET = re.compile(r"(?m)^\s*set\s+(?:[^#\n]*\s)?(?:-[a-zA-Z]*u[a-zA-Z]*\b|-o\s+nounset\b)")
GUARDED = re.compile(r"\$\{(\w+)\[[@*]\][+]\"?\$\{\1\[[@*]\]\}\"?\}")
UNGUARDED = re.compile(r"\$\{!?(\w+)\[[@*]\]\}")


def strip_comments(text):
    """Shell text with # comments blanked (a # that starts a word), quotes kept as they are."""
    out = []
    for line in text.split("\n"):
        m = re.search(r"(?:^|\s)#", line)
        if m:
            line = line[: m.start()]
        out.append(line)
    return "\n".join(out)


def bash32_problems(text, nounset=None):
    code = strip_comments(text)
    problems = []
    for lineno, line in enumerate(code.split("\n"), 1):
        for pattern, what in BASH4:
            if re.search(pattern, line):
                problems.append(f"line {lineno}: {what}: {line.strip()}")
    if nounset if nounset is not None else NOUNSET.search(code):
        for lineno, line in enumerate(code.split("\n"), 1):
            m = UNGUARDED.search(GUARDED.sub("", line))
            if m:
                problems.append(f"line {lineno}: ${{{m.group(1)}[@]}} under set -u: an empty array is unbound in "
                                f"bash 3.2 (write ${{{m.group(1)}[@]+\"${{{m.group(1)}[@]}}\"}}): {line.strip()}")
    return problems


SCRIPT_REF = re.compile(r"\b((?:scripts|tests)/[A-Za-z0-9_./-]+\.sh)\b")


def scripts_named(text, root):
    """The scripts a shell text names outside its comments."""
    return [p for p in SCRIPT_REF.findall(strip_comments(text)) if os.path.isfile(os.path.join(root, p))]


def e2e_scripts(root):
    """The shell scripts tests/e2e/test_cli.py runs (ctest runs it on every runner)."""
    path = os.path.join(root, "tests", "e2e", "test_cli.py")
    if not os.path.isfile(path):
        return []
    text = open(path).read()
    found = set()
    for name in re.findall(r"\"scripts\",\s*\"([A-Za-z0-9_.-]+\.sh)\"", text):
        if os.path.isfile(os.path.join(root, "scripts", name)):
            found.add("scripts/" + name)
    return sorted(found)


def mac_or_windows(labels):
    return any(re.match(r"(?:macos|windows)", label.strip().lower()) for label in labels)


# ---------------------------------------------------------------------------------------------


def lint(root):
    problems = []
    folder = os.path.join(root, WORKFLOWS)
    bash_scripts = {}
    files = sorted(f for f in os.listdir(folder) if f.endswith((".yml", ".yaml")))
    if not files:
        return [f"{WORKFLOWS}: no workflow"], []
    for name in files:
        rel = os.path.join(WORKFLOWS, name)
        with open(os.path.join(folder, name)) as f:
            workflow = yaml.safe_load(f)
        jobs = (workflow or {}).get("jobs") or {}
        for job_name, job in jobs.items():
            where = f"{rel}: {job_name}"
            labels, label_problems = job_labels(job)
            problems += [f"{where}: {p}" for p in label_problems]
            problems += [f"{where}: {r}" for r in map(retired_label, labels) if r]
            problems += [f"{where}: {p}" for p in container_checkout_problems(job)]
            problems += [f"{where}: {p}" for p in major_problems(job)]
            if mac_or_windows(labels):
                runs_ctest = False
                for i, step in enumerate(job.get("steps") or []):
                    script = step.get("run") if isinstance(step, dict) else None
                    if not isinstance(script, str):
                        continue
                    shell = step.get("shell") or ((job.get("defaults") or {}).get("run") or {}).get("shell") or \
                        ((workflow.get("defaults") or {}).get("run") or {}).get("shell")
                    if shell in (None, "bash") or str(shell).startswith("bash"):
                        # A step with shell: bash runs with pipefail and -e, not -u.
                        problems += [f"{where}: step {i + 1}: {p}" for p in bash32_problems(script, nounset=False)]
                    for ref in scripts_named(script, root):
                        bash_scripts.setdefault(ref, f"{where}, step {i + 1}")
                    runs_ctest = runs_ctest or re.search(r"(?:^|\s)ctest\b", script) is not None
                if runs_ctest:
                    for ref in e2e_scripts(root):
                        bash_scripts.setdefault(ref, f"{where} (ctest: tests/e2e/test_cli.py)")
    # Scripts those scripts name, in turn.
    pending = list(bash_scripts)
    while pending:
        ref = pending.pop()
        for sub in scripts_named(open(os.path.join(root, ref)).read(), root):
            if sub not in bash_scripts:
                bash_scripts[sub] = f"{ref}"
                pending.append(sub)
    for ref in sorted(bash_scripts):
        text = open(os.path.join(root, ref)).read()
        problems += [f"{ref} (run by {bash_scripts[ref]} on macOS/Windows): bash 3.2: {p}"
                     for p in bash32_problems(text)]
    return problems, sorted(bash_scripts)


# ---------------------------------------------------------------------------------------------
# --self-test: planted copies, each written another way than the rule's obvious spelling


def load(root, name):
    with open(os.path.join(root, WORKFLOWS, name)) as f:
        return yaml.safe_load(f)


def save(root, name, workflow):
    with open(os.path.join(root, WORKFLOWS, name), "w") as f:
        yaml.safe_dump(workflow, f, sort_keys=False)


def first_checkout(job):
    return next(i for i, s in enumerate(job["steps"]) if step_action(s)[0] == "actions/checkout")


def git_step(job):
    return next(i for i, s in enumerate(job["steps"]) if isinstance(s.get("run"), str) and installs_git(s["run"]))


def plant_list_label(wf):
    wf["jobs"]["macos-arm64"]["runs-on"] = ["macos-14"]


def plant_matrix_include(wf):
    job = wf["jobs"]["linux-x86_64"]
    job["runs-on"] = "${{ matrix.os }}"
    job["strategy"]["matrix"]["os"] = ["ubuntu-24.04"]
    job["strategy"]["matrix"]["include"] = [{"os": "macos-13", "compiler": "clang++"}]


def plant_group_labels(wf):
    wf["jobs"]["windows-msvc"]["runs-on"] = {"group": "big-runners", "labels": "windows-2019"}


def plant_older_and_suffixed(wf):
    wf["jobs"]["macos-arm64"]["runs-on"] = "macOS-14-xlarge"


def plant_ubuntu_2004(wf):
    wf["jobs"]["cross-runner"]["runs-on"] = "${{ matrix.host }}"
    wf["jobs"]["cross-runner"]["strategy"] = {"matrix": {"host": ["ubuntu-18.04"]}}


def plant_no_git_step(wf):
    job = wf["jobs"]["linux-arm64"]
    del job["steps"][git_step(job)]


def plant_git_after_checkout(wf):
    job = wf["jobs"]["linux-x86_64"]
    step = job["steps"].pop(git_step(job))
    job["steps"].insert(first_checkout(job) + 1, step)


def plant_container_mapping_lookalike(wf):
    job = wf["jobs"]["wasm32"]
    job["container"] = {"image": "debian:bookworm", "options": "--user 0"}
    job["steps"][git_step(job)]["run"] = "apt-get update && apt-get install -y legit git-man  # not git\n"


def plant_checkout_capitalised(wf):
    job = wf["jobs"]["cross-runner"]
    del job["steps"][git_step(job)]
    job["steps"][first_checkout(job)]["uses"] = "Actions/Checkout@v5.0.0"


def plant_v4(wf):
    job = wf["jobs"]["linux-x86_64"]
    job["steps"][first_checkout(job)]["uses"] = "actions/checkout@v4"


def plant_v4_minor(wf):
    steps = wf["jobs"]["macos-arm64"]["steps"]
    i = next(i for i, s in enumerate(steps) if step_action(s)[0] == "actions/upload-artifact")
    steps[i]["uses"] = "actions/upload-artifact@v4.6.2"


def plant_v3_upper(wf):
    steps = wf["jobs"]["cross-runner"]["steps"]
    i = next(i for i, s in enumerate(steps) if step_action(s)[0] == "actions/download-artifact")
    steps[i]["uses"] = "ACTIONS/download-artifact@v3"


def plant_sha(wf):
    steps = wf["jobs"]["windows-msvc"]["steps"]
    steps[first_checkout(wf["jobs"]["windows-msvc"])]["uses"] = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683"


def plant_other_action_v1(wf):
    wf["jobs"]["macos-arm64"]["steps"].insert(1, {"uses": "actions/setup-python@v1", "with": {"python-version": "3.12"}})


WORKFLOW_PLANTS = [
    ("runs-on: [macos-14] (a list)", "fxkcc.yml", plant_list_label, "macOS 14"),
    ("macos-13 from a matrix include through ${{ matrix.os }}", "fxkcc.yml", plant_matrix_include, "macOS 13"),
    ("windows-2019 in a {group, labels} mapping", "fxkcc.yml", plant_group_labels, "Windows Server 2019"),
    ("macOS-14-xlarge (upper case, a size suffix)", "fxkcc.yml", plant_older_and_suffixed, "macOS 14"),
    ("ubuntu-18.04 through ${{ matrix.host }}", "fxkcc.yml", plant_ubuntu_2004, "Ubuntu 18.04"),
    ("a container job without the git step", "fxkcc.yml", plant_no_git_step, "with no step installing git"),
    ("the git step after actions/checkout", "fxkcc.yml", plant_git_after_checkout, "with no step installing git"),
    ("container: {image: ...}; a step installing legit and git-man, not git", "fxkcc.yml",
     plant_container_mapping_lookalike, "with no step installing git"),
    ("no git step, checkout spelled Actions/Checkout@v5.0.0", "fxkcc.yml", plant_checkout_capitalised,
     "with no step installing git"),
    ("actions/checkout@v4", "fxkcc.yml", plant_v4, "actions/checkout@v4: v4 runs on a retired Node"),
    ("actions/upload-artifact@v4.6.2", "fxkcc.yml", plant_v4_minor, "v4 runs on a retired Node"),
    ("ACTIONS/download-artifact@v3", "fxkcc.yml", plant_v3_upper, "v3 runs on a retired Node"),
    ("actions/checkout at a commit", "fxkcc.yml", plant_sha, "pin actions/* by a major version tag"),
    ("actions/setup-python@v1 added", "fxkcc.yml", plant_other_action_v1, "v1 runs on a retired Node"),
    ("capture.yml: the compare job without the git step", "capture.yml",
     lambda wf: wf["jobs"]["compare"]["steps"].pop(git_step(wf["jobs"]["compare"])), "with no step installing git"),
    ("capture.yml: runs-on: [macos-14, arm64]", "capture.yml",
     lambda wf: wf["jobs"]["macos-arm64"].__setitem__("runs-on", ["macos-14", "arm64"]), "macOS 14"),
]

# Lines planted into a script the macOS job runs, each a bash-4 construct spelled another way.
SCRIPT_PLANTS = [
    ("scripts/ci-failure-bundle.sh", "typeset -gA seen=()", "an associative array"),
    ("scripts/ci-failure-bundle.sh", "local -rA map", "an associative array"),
    ("scripts/package-test.sh", "readarray -t lines < \"$tmp/x\"", "mapfile/readarray"),
    ("scripts/package-test.sh", "x=$(echo hi); mapfile lines <<<\"$x\"", "mapfile/readarray"),
    ("scripts/ci-failure-bundle.sh", "lower=${status,,}", "case modification"),
    ("scripts/ci-failure-bundle.sh", "upper=\"${TARGET^^}\"", "case modification"),
    ("scripts/package-test.sh", "printf '%s\\n' \"${RUN[*]}\"", "under set -u"),
    ("scripts/package-test.sh", "for a in ${CONSUMER_ARGS[@]}; do :; done", "under set -u"),
    ("scripts/bisect-run.sh", "for k in \"${!args[@]}\"; do :; done", "under set -u"),
    ("scripts/bisect-run.sh", "[[ -v FX_BISECT_GOLDEN ]] && echo set", "-v VAR tests"),
    ("scripts/package-test.sh", "sed -i -e 's/a/b/' \"$tmp/x\"", "sed -i without a suffix"),
]


def copy_tree(root, dest):
    for rel in (WORKFLOWS, "scripts", os.path.join("tests", "e2e")):
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
    for name in os.listdir(os.path.join(root, WORKFLOWS)):
        shutil.copy(os.path.join(root, WORKFLOWS, name), os.path.join(dest, WORKFLOWS, name))
    for name in os.listdir(os.path.join(root, "scripts")):
        if name.endswith(".sh"):
            shutil.copy(os.path.join(root, "scripts", name), os.path.join(dest, "scripts", name))
    shutil.copy(os.path.join(root, "tests", "e2e", "test_cli.py"), os.path.join(dest, "tests", "e2e", "test_cli.py"))


def self_test():
    failures = []

    def check(ok, what):
        print(("ok      " if ok else "FAILED  ") + what, flush=True)
        if not ok:
            failures.append(what)

    problems, scripts = lint(ROOT)
    check(not problems, "the tree's workflows pass" + "".join("\n    " + p for p in problems))
    for needed in ("scripts/package-test.sh", "scripts/ci-failure-bundle.sh", "scripts/bisect-run.sh"):
        check(needed in scripts, f"{needed} is among the scripts checked for bash 3.2 (found {', '.join(scripts)})")
    tmp = tempfile.mkdtemp(prefix="fxkcc-lint-rules-")
    try:
        for what, name, plant, reason in WORKFLOW_PLANTS:
            work = os.path.join(tmp, "w")
            shutil.rmtree(work, ignore_errors=True)
            copy_tree(ROOT, work)
            workflow = load(work, name)
            before = copy.deepcopy(workflow)
            plant(workflow)
            check(workflow != before, f"planted: {what}")
            save(work, name, workflow)
            got, _ = lint(work)
            check(any(reason in p for p in got), f"refused: {what}" + "".join("\n    " + p for p in got[:3]))
        for script, line, reason in SCRIPT_PLANTS:
            work = os.path.join(tmp, "s")
            shutil.rmtree(work, ignore_errors=True)
            copy_tree(ROOT, work)
            path = os.path.join(work, script)
            text = open(path).read().rstrip("\n").split("\n")
            text.insert(len(text) - 1, line)
            with open(path, "w") as f:
                f.write("\n".join(text) + "\n")
            got, _ = lint(work)
            check(any(reason in p and script in p for p in got), f"refused: `{line}` in {script}"
                  + "".join("\n    " + p for p in got[:3]))
        # A bash-4 construct in a macOS run: step itself, and in a script a script names.
        work = os.path.join(tmp, "r")
        shutil.rmtree(work, ignore_errors=True)
        copy_tree(ROOT, work)
        workflow = load(work, "fxkcc.yml")
        workflow["jobs"]["macos-arm64"]["steps"].insert(1, {"name": "x", "run": "declare -A m; m[a]=1\n"})
        save(work, "fxkcc.yml", workflow)
        got, _ = lint(work)
        check(any("macos-arm64: step 2" in p and "associative" in p for p in got),
              "refused: `declare -A` in a run: step of the macOS job")
        work = os.path.join(tmp, "n")
        shutil.rmtree(work, ignore_errors=True)
        copy_tree(ROOT, work)
        with open(os.path.join(work, "scripts", "helper-planted.sh"), "w") as f:
            f.write("#!/usr/bin/env bash\nmapfile -t x < /dev/null\n")
        with open(os.path.join(work, "scripts", "ci-failure-bundle.sh"), "a") as f:
            f.write("[ -z \"${FX_NEVER:-}\" ] || bash scripts/helper-planted.sh\n")
        got, _ = lint(work)
        check(any("scripts/helper-planted.sh" in p and "mapfile" in p for p in got),
              "refused: mapfile in a script ci-failure-bundle.sh names")
        # Look-alikes that are bash 3.2: guarded arrays, ${#A[@]}, a comment, a sed -i with a suffix.
        check(not bash32_problems("set -u\nA=()\necho ${A[@]+\"${A[@]}\"} ${#A[@]}\n# declare -A x\n"
                                  "sed -i.bak 's/a/b/' f\necho \"${x:-a,b}\"\n"),
              "passed: guarded arrays, ${#A[@]}, a commented construct, sed -i.bak, ${x:-a,b}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"lint-workflow-rules: self-test: {len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print(f"lint-workflow-rules: self-test: the tree passes and {len(WORKFLOW_PLANTS) + len(SCRIPT_PLANTS) + 2} "
          "planted violations are each refused")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--root", default=ROOT)
    p.add_argument("--self-test", action="store_true")
    a = p.parse_args()
    if a.self_test:
        return self_test()
    problems, scripts = lint(os.path.abspath(a.root))
    for problem in problems:
        print(f"lint-workflow-rules: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"lint-workflow-rules: runner labels, git before checkout in container jobs, actions/* at "
          f"v{CURRENT_MAJOR}+, bash 3.2 in {len(scripts)} scripts ({', '.join(scripts)}): all hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
