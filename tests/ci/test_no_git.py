#!/usr/bin/env python3
"""A Linux container job whose checkout had no git, stood in for (issue 53; the test command's
`no-git` leg runs this):

In `container: debian:bookworm` there is no git, and actions/checkout then downloads a tarball:
no .git, and no git on PATH for the steps after it. The workflows now install git first
(scripts/lint-workflow.sh refuses a container job that does not), but the build and the tests
must still take such a tree for what it is, not a checkout, instead of crashing on git.

1. a tarball-like copy of this tree: its files as they are (tracked or not), without .git/, the
   other build folders and golden/ (neither the build nor the tests run here read it), with a
   copy of build/ (the native leg's, when it is there: its objects are reused, mtimes kept);
2. in a mount namespace (`unshare -m`, private to this test) where the copy is bind-mounted at
   this tree's own path (so build/'s absolute paths hold) and every git on PATH and git-core's
   is bind-mounted over by an empty file that is not executable: git cannot run there, by name
   or by path (proved: `git --version` and `/usr/bin/git --version` fail, and the exact call
   the VersionAndUsage test made before this fix raises);
   there, configure (build/ again, or, without it, the workflow Build step's configure with
   tests and benchmarks off) and build fxkcc: cmake/FxSourceInfo.cmake, the build's git probe,
   runs at every build, so main.cpp is compiled again with what it finds;
   `fxkcc --version` must say `source: unknown`, and the end-to-end class VersionAndUsage
   (tests/e2e/test_cli.py) must pass against that binary;
   the same test as it was before this fix (commit 3757ec0's test_cli.py, when this checkout's
   history has it) must fail there: the stand-in catches the crash;
3. git present but the copy no checkout (another such namespace, GIT_CEILING_DIRECTORIES at the
   tree's parent): VersionAndUsage passes again.

Where `unshare -m` is not allowed (not root), git is hidden by a PATH of links to every other
program instead (weaker: an absolute /usr/bin/git still runs), the copy is built afresh where it
is, and the run says so.
Exit code 0 when every check holds, 1 otherwise.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BEFORE_FIX = "3757ec0"  # the last commit whose VersionAndUsage ran git unguarded
SOURCE_TEST = "VersionAndUsage.test_version_names_the_source_commit_and_whether_it_was_dirty"
failures = []


def check(ok, what, detail=""):
    print(("ok      " if ok else "FAILED  ") + what, flush=True)
    if not ok:
        failures.append(what)
        if detail:
            print(detail[-4000:], flush=True)


def tarball_copy(dest, with_build):
    os.makedirs(dest)
    for name in sorted(os.listdir(ROOT)):
        if name == ".git" or name in ("golden", "golden.pending"):
            continue
        if name.startswith("build") and not (with_build and name == "build"):
            continue
        src = os.path.join(ROOT, name)
        if os.path.isdir(src) and not os.path.islink(src):
            shutil.copytree(src, os.path.join(dest, name), symlinks=True)
        else:
            shutil.copy2(src, os.path.join(dest, name), follow_symlinks=False)


def git_paths():
    """Every git a process here could run: on PATH (and /usr/bin, /bin), and git-core's."""
    dirs = os.environ.get("PATH", "").split(os.pathsep) + ["/usr/bin", "/bin", "/usr/local/bin"]
    found = [os.path.join(d, "git") for d in dirs if d]
    found += glob.glob("/usr/lib/git-core/git") + glob.glob("/usr/libexec/git-core/git")
    real = []
    for path in found:
        if os.path.isfile(path):
            r = os.path.realpath(path)
            if r not in real:
                real.append(r)
    return real


def hide_git_by_mount(tmp):
    blank = os.path.join(tmp, "not-git")
    with open(blank, "w") as f:
        f.write("git is not installed in this stand-in\n")
    os.chmod(blank, 0o644)
    hidden = git_paths()
    for path in hidden:
        subprocess.run(["mount", "--bind", blank, path], check=True)
    return hidden


def hide_git_by_path(tmp):
    farm = os.path.join(tmp, "bin-without-git")
    os.makedirs(farm)
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            target = os.path.join(d, name)
            if name == "git" or os.path.exists(os.path.join(farm, name)):
                continue
            if os.path.isfile(target) and os.access(target, os.X_OK):
                os.symlink(target, os.path.join(farm, name))
    os.environ["PATH"] = farm


def run_e2e(test_file, binary, selector, env=None):
    p = subprocess.run([sys.executable, test_file, "--binary", binary, selector], capture_output=True, text=True,
                       env=env, timeout=600)
    return p.returncode, p.stdout + p.stderr


def inside(tmp, tree, how, phase):
    """In the namespace (or with the PATH farm): the copy as this tree; git unavailable, then
    build and test (phase nogit), or git present and the copy no checkout (phase git)."""
    work = tree
    if how == "mount":
        subprocess.run(["mount", "--bind", tree, ROOT], check=True)
        work = ROOT
    os.chdir(work)
    if phase == "git":
        env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(work))
        head = subprocess.run(["git", "-C", work, "rev-parse", "HEAD"], capture_output=True, env=env)
        check(head.returncode != 0, f"git present: {work} is no checkout")
        rc, out = run_e2e(os.path.join(work, "tests", "e2e", "test_cli.py"), os.path.join(work, "build", "cli", "fxkcc"),
                          "VersionAndUsage", env)
        check(rc == 0, f"e2e VersionAndUsage passes with git present and no checkout (exit {rc})", out)
        return
    if how == "mount":
        hidden = hide_git_by_mount(tmp)
        print(f"git hidden by bind mounts over {', '.join(hidden)}", flush=True)
    else:
        hide_git_by_path(tmp)
        print("unshare -m is not allowed here: git hidden by a PATH without it (an absolute path would still run)",
              flush=True)
    check(shutil.which("git") is None, "no runnable git on PATH")
    for argv in (["git", "--version"], ["/usr/bin/git", "--version"]) if how == "mount" else (["git", "--version"],):
        try:
            rc = subprocess.run(argv, capture_output=True).returncode
            check(False, f"`{' '.join(argv)}` cannot run (it ran, exit {rc})")
        except OSError as e:
            check(True, f"`{' '.join(argv)}` cannot run ({type(e).__name__})")
    try:
        subprocess.run(["git", "-C", work, "rev-parse", "HEAD"], capture_output=True, text=True)
        check(False, "the call VersionAndUsage made before this fix crashes here")
    except OSError as e:
        check(True, f"the call VersionAndUsage made before this fix crashes here ({type(e).__name__})")

    jobs = os.environ.get("JOBS") or str(os.cpu_count() or 2)
    start = time.monotonic()
    build = os.path.join(work, "build")
    reuse = os.path.exists(os.path.join(build, "build.ninja"))
    binary = os.path.join(build, "cli", "fxkcc")
    if reuse and os.path.exists(binary):
        out = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
        source = re.search(r"(?m)^source:\s+(.*)$", out)
        print(f"the copied build's fxkcc, built in the checkout, says source: {source.group(1) if source else '?'}")
    configure = ["cmake", "-S", work, "-B", build]
    if not reuse:
        configure += ["-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DFX_WERROR=ON", "-DFX_BUILD_TESTS=OFF",
                      "-DFX_BUILD_BENCH=OFF", "-DFX_HARNESS_OPTIMIZE=-O1"]
    p = subprocess.run(configure, capture_output=True, text=True)
    check(p.returncode == 0, f"configure without git ({'build/ copied' if reuse else 'afresh'}; exit {p.returncode})",
          p.stdout + p.stderr)
    if p.returncode != 0:
        return
    p = subprocess.run(["cmake", "--build", build, "--target", "fxkcc", "-j", jobs], capture_output=True, text=True)
    check(p.returncode == 0, f"build fxkcc without git (exit {p.returncode}, {time.monotonic() - start:.0f} s)",
          p.stdout + p.stderr)
    if p.returncode != 0:
        return
    out = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    source = re.search(r"(?m)^source:\s+(.*)$", out)
    check(source is not None and source.group(1) == "unknown",
          f"fxkcc --version says `source: unknown` (says {source.group(1) if source else 'nothing'!r})", out)

    test_file = os.path.join(work, "tests", "e2e", "test_cli.py")
    rc, out = run_e2e(test_file, binary, "VersionAndUsage")
    check(rc == 0, f"e2e VersionAndUsage passes without git (exit {rc})", out)

    old = os.path.join(work, "tests", "e2e", "test_cli_before_fix.py")
    if os.path.exists(old):
        rc, out = run_e2e(old, binary, SOURCE_TEST)
        crashed = re.search(r"(FileNotFoundError|PermissionError)", out)
        check(rc != 0 and crashed is not None,
              f"the same test before this fix ({BEFORE_FIX}) fails here "
              f"(exit {rc}, {crashed.group(1) if crashed else 'no crash'})", "" if rc != 0 else out)


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--inside":
        inside(*sys.argv[2:])
        return 1 if failures else 0
    start = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="fxkcc-no-git-")
    try:
        how = "mount" if os.geteuid() == 0 and subprocess.run(
            ["unshare", "-m", "true"], capture_output=True).returncode == 0 else "path"
        tree = os.path.join(tmp, "tree")
        tarball_copy(tree, with_build=how == "mount" and os.path.exists(os.path.join(ROOT, "build", "build.ninja")))
        check(not os.path.exists(os.path.join(tree, ".git")), "the copy has no .git")
        try:
            old = subprocess.run(["git", "-C", ROOT, "show", f"{BEFORE_FIX}:tests/e2e/test_cli.py"],
                                 capture_output=True, text=True)
            old_text = old.stdout if old.returncode == 0 else None
        except OSError:
            old_text = None
        if old_text:
            with open(os.path.join(tree, "tests", "e2e", "test_cli_before_fix.py"), "w") as f:
                f.write(old_text)
        else:
            print(f"note: {BEFORE_FIX} is not in this checkout's history (or no git here): "
                  "the test before the fix is not run", flush=True)
        ns = ["unshare", "-m", "--propagation", "private"] if how == "mount" else []
        here = [sys.executable, os.path.abspath(__file__), "--inside", tmp, tree, how]
        print(f"== in the stand-in: git unavailable, the tree a tarball ({time.monotonic() - start:.0f} s)", flush=True)
        rc = subprocess.run(ns + here + ["nogit"]).returncode
        check(rc == 0, f"the stand-in's checks (exit {rc})")
        if rc == 0 and shutil.which("git"):
            print(f"== git present, the copy no checkout ({time.monotonic() - start:.0f} s)", flush=True)
            rc = subprocess.run(ns + here + ["git"]).returncode
            check(rc == 0, f"the checks with git present (exit {rc})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"test_no_git: {len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print(f"test_no_git: all checks hold ({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
