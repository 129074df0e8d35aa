#!/usr/bin/env python3
"""The bad-input catalogue (docs/bad-inputs.md): every case of tests/bad-inputs/CASES run against
the fxkcc binary, each in a fresh temporary folder.

    python3 tests/bad-inputs/run.py --binary build/cli/fxkcc [--only NAME ...] [--list] [-v]

For every case it checks: the exit code; the exact message (stderr, or a line of stdout); no
crash (a signal is a failure); no hang (a timeout, 20 s unless the case sets a tighter bound);
and that the run left the folder exactly as it found it (no output, partial output, temporary
file or folder added, changed or removed; TMPDIR points into the folder, so the command's own
temporary files are seen too). Exit 0 when every case passes (skipped ones aside), 1 otherwise.
"""
import argparse
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")
CASES = os.path.join(HERE, "CASES")
TIMEOUT = 20.0

# Keys of a case, in the order they are documented (docs/bad-inputs.md).
KEYS = ("case", "note", "file", "make", "setup", "run", "exit", "stderr", "stderr-first", "stdout-line",
        "stdout-has", "max-seconds", "skip-if-root", "posix-only")
REPEATABLE = ("file", "make", "setup", "stdout-line", "stdout-has")


def parse_cases(path):
    """The CASES file as a list of dicts: 'key: value' lines, a case per 'case:' line; '#' lines
    and blank lines are comments. Values run to the end of the line (no quoting or escaping)."""
    cases = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, sep, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if not sep or key not in KEYS:
                sys.exit(f"{path}:{number}: expected 'key: value' with a key among {', '.join(KEYS)}, found {line!r}")
            if key == "case":
                if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", value):
                    sys.exit(f"{path}:{number}: case names are [a-z0-9-]+, found {value!r}")
                if any(c["case"] == value for c in cases):
                    sys.exit(f"{path}:{number}: duplicate case {value!r}")
                cases.append({"case": value, "line": number})
                continue
            if not cases:
                sys.exit(f"{path}:{number}: {key!r} before the first 'case:'")
            case = cases[-1]
            if key in REPEATABLE:
                case.setdefault(key, []).append(value)
            elif key in case:
                sys.exit(f"{path}:{number}: {key!r} given twice in case {case['case']!r}")
            else:
                case[key] = value
    for c in cases:
        for required in ("run", "exit"):
            if required not in c:
                sys.exit(f"{path}:{c['line']}: case {c['case']!r} has no {required!r}")
        if not any(k in c for k in ("stderr", "stderr-first", "stdout-line", "stdout-has")):
            sys.exit(f"{path}:{c['line']}: case {c['case']!r} checks no message (stderr, stderr-first or stdout-line)")
    return cases


# ---- recipes (make:) that build inputs at test time ----

def target(tmp, path):
    """The absolute place of `path` in the case's folder, its parent folders created."""
    p = os.path.join(tmp, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


SCENARIO_HEAD = 'format: 1\nname: good\ndescription: "A character walks on a plane."\nticks: 10\n'
ONE_CHARACTER = "characters:\n  - {id: 1, spawn: [0, 0.015, 0]}\n"


def make_big(tmp, path, megabytes):
    """A real scenario of `megabytes` MB: the head, then world items up to the size."""
    size = int(megabytes) * 1000 * 1000
    with open(target(tmp, path), "w", newline="\n") as f:
        f.write(SCENARIO_HEAD + ONE_CHARACTER + "world:\n")
        written, i = 0, 1
        block = []
        while written < size:
            item = f"  - sphere: {{id: {i}, center: [{i % 1000}, 0, {i // 1000}], radius: 0.25}}\n"
            block.append(item)
            written += len(item)
            i += 1
            if len(block) == 10000:
                f.write("".join(block))
                block = []
        f.write("".join(block))


def make_deep(tmp, path, depth):
    """`world:` nested `depth` flow sequences deep."""
    depth = int(depth)
    with open(target(tmp, path), "w", newline="\n") as f:
        f.write(SCENARIO_HEAD + "world: " + "[" * depth + "]" * depth + "\n" + ONE_CHARACTER)


def make_deep_block(tmp, path, depth):
    """`world:` nested `depth` block sequences deep ("- " indented one more each level)."""
    depth = int(depth)
    with open(target(tmp, path), "w", newline="\n") as f:
        f.write(SCENARIO_HEAD + ONE_CHARACTER + "world:\n")
        f.write("".join(" " * (2 * k + 2) + "-\n" for k in range(depth)))


def make_laughs(tmp, path, levels):
    """The billion laughs: `levels` levels of 10 aliases of the level below (10^levels "lol"s
    once expanded), as the items of `world`."""
    levels = int(levels)
    text = SCENARIO_HEAD + "world:\n"
    text += '  - &lol0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
    for k in range(1, levels + 1):
        text += f"  - &lol{k} [" + ", ".join([f"*lol{k - 1}"] * 10) + "]\n"
    with open(target(tmp, path), "w", newline="\n") as f:
        f.write(text + ONE_CHARACTER)


def make_alias_fanout(tmp, path, segments, characters):
    """An alias bomb that is valid YAML and valid schema: one anchored list of `segments` input
    segments, used by each of `characters` characters (segments x characters nodes to walk)."""
    segments, characters = int(segments), int(characters)
    text = SCENARIO_HEAD.replace("ticks: 10", f"ticks: {segments}")
    text += "world:\n  - plane: {id: 1, normal: [0, 1, 0], offset: 0}\ncharacters:\n"
    text += "  - id: 1\n    spawn: [0, 0.015, 0]\n    input:\n      segments: &s [" + ", ".join(["{ticks: 1}"] * segments) + "]\n"
    for c in range(2, characters + 1):
        text += f"  - {{id: {c}, spawn: [{c}, 0.015, 0], input: {{segments: *s}}}}\n"
    with open(target(tmp, path), "w", newline="\n") as f:
        f.write(text)


def make_many_keys(tmp, path, count):
    """One mapping with `count` distinct keys (a quadratic duplicate-key check would hang)."""
    count = int(count)
    with open(target(tmp, path), "w", newline="\n") as f:
        f.write(SCENARIO_HEAD + "".join(f"k{i}: {i}\n" for i in range(count)))


def make_characters(tmp, path, count):
    """A scenario with `count` characters."""
    count = int(count)
    text = SCENARIO_HEAD + "world:\n  - plane: {id: 1, normal: [0, 1, 0], offset: 0}\ncharacters:\n"
    text += "".join(f"  - {{id: {c}, spawn: [{c}, 0.015, 0]}}\n" for c in range(1, count + 1))
    with open(target(tmp, path), "w", newline="\n") as f:
        f.write(text)


def make_crlf(tmp, src, dst):
    """dst = src with CRLF line ends."""
    with open(os.path.join(tmp, src), "rb") as f:
        data = f.read()
    with open(target(tmp, dst), "wb") as f:
        f.write(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))


def make_bom(tmp, src, dst):
    """dst = src with a UTF-8 byte order mark in front."""
    with open(os.path.join(tmp, src), "rb") as f:
        data = f.read()
    with open(target(tmp, dst), "wb") as f:
        f.write(b"\xef\xbb\xbf" + data)


def make_sub(tmp, path, pattern, replacement):
    """Replaces the first match of a regular expression (Python re, multiline) in a text file."""
    p = os.path.join(tmp, path)
    with open(p, newline="") as f:
        text = f.read()
    new, n = re.subn(pattern, replacement, text, count=1, flags=re.M)
    if n != 1:
        raise RuntimeError(f"make sub: no match of {pattern!r} in {path}")
    with open(p, "w", newline="") as f:
        f.write(new)


def make_dir(tmp, path):
    os.makedirs(os.path.join(tmp, path), exist_ok=True)


def make_symlink(tmp, path, to):
    os.symlink(to, target(tmp, path))


def make_chmod(tmp, path, mode):
    os.chmod(os.path.join(tmp, path), int(mode, 8))


def make_fifo(tmp, path):
    """A named pipe that nobody writes to: reading it would block for ever."""
    os.mkfifo(target(tmp, path))


def make_file(tmp, path, *words):
    """A small text file holding the words given, joined by spaces, and a line break."""
    with open(target(tmp, path), "w", newline="\n") as f:
        f.write(" ".join(words) + "\n")


def make_put(tmp, src, dst):
    """Copies tests/bad-inputs/files/SRC to DST after the setup steps (file: copies before)."""
    shutil.copyfile(os.path.join(FILES, src), target(tmp, dst))


def make_rm(tmp, path):
    """Removes a file (one a setup step wrote)."""
    os.remove(os.path.join(tmp, path))


RECIPES = {
    "big": make_big, "deep": make_deep, "deep-block": make_deep_block, "laughs": make_laughs,
    "alias-fanout": make_alias_fanout, "many-keys": make_many_keys, "characters": make_characters,
    "crlf": make_crlf, "bom": make_bom, "sub": make_sub, "dir": make_dir, "symlink": make_symlink,
    "chmod": make_chmod, "fifo": make_fifo, "file": make_file, "rm": make_rm, "put": make_put,
}


# ---- running a case ----

def snapshot(root):
    """Every file, folder and link under root: relative path -> (kind, size, mtime, mode)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            kind = "link" if stat.S_ISLNK(st.st_mode) else "dir" if stat.S_ISDIR(st.st_mode) else "file"
            out[os.path.relpath(p, root)] = (kind, st.st_size if kind == "file" else 0,
                                             st.st_mtime_ns if kind == "file" else 0, stat.S_IMODE(st.st_mode))
    return out


# The operating system's words, matched by class: an expected message says {os:ENOENT} where the
# C library or the system words the error, and the texts the class has on the platform that runs
# the binary are accepted (POSIX: strerror of glibc and macOS; Windows: the C runtime's strerror,
# or FormatMessage's text when the error came through std::filesystem or a Win32 call).
# Everything else in a message is fxkcc's own and is matched exactly.
OS_TEXTS = {
    "posix": {
        "ENOENT": ("No such file or directory",),
        "EACCES": ("Permission denied",),
        "EISDIR": ("Is a directory",),
    },
    "windows": {
        "ENOENT": ("No such file or directory", "The system cannot find the file specified.",
                   "The system cannot find the path specified."),
        "EACCES": ("Permission denied", "Access is denied."),
        # Windows cannot open a folder as a file: the C runtime says EACCES.
        "EISDIR": ("Is a directory", "Permission denied", "Access is denied."),
    },
}
# Set by main() when the binary runs under wine: its prefix and the prefix's temporary folder.
WINE = {"prefix": "", "temp": ""}
# Set by main(): the target the binary was built for (the `target:` line of fxkcc --version).
BUILD = {"target": ""}


def tmp_spellings(tmp):
    """Every way a system may print the case's folder: as made, symlinks resolved (macOS prints
    /private/var for /var and the other way round), and for a Windows program under wine the
    same folder on drive Z: with either separator."""
    forms = {tmp, os.path.realpath(tmp)}
    for f in list(forms):
        if f.startswith("/private/"):
            forms.add(f[len("/private"):])
        elif f.startswith("/var/") or f.startswith("/tmp/"):
            forms.add("/private" + f)
    if WINE["prefix"]:
        for f in list(forms):
            forms.update({"Z:" + f, "Z:" + f.replace("/", "\\"), "z:" + f})
    return sorted(forms, key=len, reverse=True)


def expected_pattern(text, tmp, case):
    """The compiled pattern of an expected message: {file} and {tmp} substituted (the folder in any
    spelling, and the separators after it either way under wine), {os:CLASS} any text of the class,
    the rest literal."""
    text = expand_file(text, case)
    out, pos = [], 0
    for m in re.finditer(r"\{tmp\}([^'\s]*)|\{os:([A-Z]+)\}", text):
        out.append(re.escape(text[pos:m.start()]))
        if m.group(2) is not None:
            texts = OS_TEXTS["windows" if WINE["prefix"] or os.name == "nt" else "posix"]
            if m.group(2) not in texts:
                raise RuntimeError(f"unknown error class {m.group(2)!r} (known: {', '.join(texts)})")
            out.append("(?:" + "|".join(re.escape(t) for t in texts[m.group(2)]) + ")")
        else:
            out.append("(?:" + "|".join(re.escape(f) for f in tmp_spellings(tmp)) + ")")
            rest = m.group(1)
            if WINE["prefix"]:
                out.append("".join("[/\\\\]" if ch == "/" else re.escape(ch) for ch in rest))
            else:
                out.append(re.escape(rest))
        pos = m.end()
    out.append(re.escape(text[pos:]))
    return re.compile("".join(out), re.S)


def expand_file(text, case):
    """{file}: where the case's first file went; {target}: the binary's target (fxkcc --version)."""
    files = case.get("file", [])
    first = files[0].split()[-1] if files else ""
    return text.replace("{file}", first).replace("{target}", BUILD["target"])


def expand(text, tmp, case):
    """A command or recipe: {tmp} the case's folder (absolute, symlinks resolved); {file} where its
    first file went."""
    return expand_file(text, case).replace("{tmp}", tmp)


def run_case(case, binary, emulator, verbose, scale=1.0):
    """(status, problems, seconds): status 'ok', 'FAIL' or 'SKIP'."""
    if "skip-if-root" in case and hasattr(os, "geteuid") and os.geteuid() == 0:
        return "SKIP", [f"running as root: {case['skip-if-root']}"], 0.0
    if "posix-only" in case and (WINE["prefix"] or os.name == "nt"):
        return "SKIP", [f"a POSIX file kind: {case['posix-only']}"], 0.0
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="fxkcc-bad-"))
    try:
        return _run_case(case, binary, emulator, verbose, tmp, scale)
    finally:
        for dirpath, dirnames, _ in os.walk(tmp):  # undo chmod 000 so that the folder can go
            for d in dirnames:
                try:
                    os.chmod(os.path.join(dirpath, d), 0o755)
                except OSError:
                    pass
        for dirpath, _, filenames in os.walk(tmp):
            for fn in filenames:
                try:
                    os.chmod(os.path.join(dirpath, fn), 0o644)
                except OSError:
                    pass
        shutil.rmtree(tmp, ignore_errors=True)


def _run_case(case, binary, emulator, verbose, tmp, scale):
    problems = []
    for spec in case.get("file", []):
        parts = spec.split()
        src, dst = parts[0], parts[1] if len(parts) > 1 else parts[0]
        os.makedirs(os.path.dirname(os.path.join(tmp, dst)) or tmp, exist_ok=True)
        shutil.copyfile(os.path.join(FILES, src), os.path.join(tmp, dst))
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    tmpdir = os.path.join(tmp, "tmp")
    os.makedirs(tmpdir)
    if not WINE["prefix"]:
        env.update({"TMPDIR": tmpdir, "TMP": tmpdir, "TEMP": tmpdir})
    # Under wine, TMPDIR stays the host's: wine finds its running server through it (a case
    # folder's TMPDIR would start a server per command, 3 s each), and wine gives a Windows
    # program the prefix's own temporary folder whatever TMP says; that folder is watched instead.

    def fxkcc(args, timeout):
        return subprocess.run(emulator + [binary] + args, cwd=tmp, env=env, capture_output=True, timeout=timeout)

    for spec in case.get("setup", []):
        p = fxkcc(shlex.split(expand(spec, tmp, case)), TIMEOUT * scale)
        if p.returncode != 0:
            return "FAIL", [f"setup '{spec}' exited {p.returncode}: {p.stderr.decode(errors='replace')}"], 0.0
    for spec in case.get("make", []):
        words = shlex.split(expand(spec, tmp, case))
        if words[0] not in RECIPES:
            return "FAIL", [f"unknown recipe {words[0]!r} (known: {', '.join(RECIPES)})"], 0.0
        RECIPES[words[0]](tmp, *words[1:])
    before = snapshot(tmp)
    wine_temp_before = snapshot(WINE["temp"]) if WINE["temp"] else {}
    args = shlex.split(expand(case["run"], tmp, case))
    limit = float(case.get("max-seconds", TIMEOUT)) * scale
    start = time.monotonic()
    try:
        p = fxkcc(args, limit)
    except subprocess.TimeoutExpired:
        return "FAIL", [f"hang: no exit within {limit:g} s"], time.monotonic() - start
    seconds = time.monotonic() - start
    out = p.stdout.decode("utf-8", errors="backslashreplace")
    err = p.stderr.decode("utf-8", errors="backslashreplace")
    try:  # messages are text: no raw bytes of a bad file, no terminal escapes, no stray line breaks
        if re.search(r"[\x00-\x09\x0b-\x1f\x7f]", p.stderr.decode("utf-8")):
            problems.append(f"stderr has a control character: {err!r}")
    except UnicodeDecodeError:
        problems.append(f"stderr is not UTF-8: {err!r}")
    if p.returncode < 0:
        problems.append(f"crash: killed by signal {-p.returncode}")
    elif p.returncode != int(case["exit"]):
        problems.append(f"exit code {p.returncode}, expected {case['exit']}")
    if seconds > limit:
        problems.append(f"took {seconds:.2f} s, more than {limit:g} s")
    if "stderr" in case:
        expected = case["stderr"] + "\n" if case["stderr"] else ""  # empty: nothing at all
        if not expected_pattern(expected, tmp, case).fullmatch(err):
            problems.append(f"stderr differs\n      expected: {expected!r}\n      actual:   {err!r}")
    if "stderr-first" in case:
        first = err.split("\n", 1)[0]
        if not expected_pattern(case["stderr-first"], tmp, case).fullmatch(first):
            problems.append(f"first line of stderr differs\n      expected: {case['stderr-first']!r}\n"
                            f"      actual:   {first!r}")
    lines = [l.strip() for l in out.splitlines()]
    for want in case.get("stdout-line", []):
        pattern = expected_pattern(want, tmp, case)
        if not any(pattern.fullmatch(l) for l in lines):
            problems.append(f"no stdout line {want!r}\n      stdout: {out!r}")
    for want in case.get("stdout-has", []):  # for messages that carry computed values (digests)
        pattern = expected_pattern(want, tmp, case)
        if not any(pattern.search(l) for l in lines):
            problems.append(f"no stdout line holding {want!r}\n      stdout: {out!r}")
    after = snapshot(tmp)
    if WINE["temp"]:  # the Windows program's temporary folder, as if it were the case's tmp/
        before.update({os.path.join("tmp", "windows", k): v for k, v in wine_temp_before.items()})
        after.update({os.path.join("tmp", "windows", k): v for k, v in snapshot(WINE["temp"]).items()})
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(k for k in set(before) & set(after) if before[k] != after[k])
    for what, names in (("left behind", added), ("removed", removed), ("changed", changed)):
        if names:
            problems.append(f"{what}: {', '.join(names)}")
    if verbose and not problems:
        print(f"      stderr: {err!r}")
    return ("FAIL" if problems else "ok"), problems, seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True, help="the fxkcc binary")
    ap.add_argument("--emulator", default="", help="';'-separated prefix that runs the binary (cross builds)")
    ap.add_argument("--only", nargs="*", default=[], help="run only these cases")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case's stderr")
    ap.add_argument("--time-scale", type=float, default=float(os.environ.get("FX_BADINPUT_TIME_SCALE", "1")),
                    help="multiply every time bound (slow builds: sanitizers, emulators; default 1, or "
                         "$FX_BADINPUT_TIME_SCALE)")
    a = ap.parse_args()
    cases = parse_cases(CASES)
    if a.list:
        for c in cases:
            print(f"{c['case']}: {c.get('note', '')}")
        print(f"{len(cases)} cases")
        return 0
    unknown = [n for n in a.only if not any(c["case"] == n for c in cases)]
    if unknown:
        sys.exit(f"unknown case(s): {', '.join(unknown)}")
    if a.only:
        cases = [c for c in cases if c["case"] in a.only]
    binary = os.path.abspath(a.binary)
    if not os.path.exists(binary):
        sys.exit(f"no binary at {binary}")
    emulator = [x for x in a.emulator.split(";") if x]
    if any(os.path.basename(x) == "wine" for x in emulator):
        WINE["prefix"] = os.environ.get("WINEPREFIX") or os.path.expanduser("~/.wine")
        users = os.path.join(WINE["prefix"], "drive_c", "users")
        temps = [os.path.join(users, u, "Temp") for u in sorted(os.listdir(users))] if os.path.isdir(users) else []
        WINE["temp"] = next((t for t in temps if os.path.isdir(t)), "")
        if not WINE["temp"]:
            sys.exit(f"no temporary folder under {users}: initialise the wine prefix first (wineboot)")
    version = subprocess.run(emulator + [binary, "--version"], capture_output=True, text=True, timeout=60 * a.time_scale)
    m = re.search(r"(?m)^target: *(\S+)", version.stdout)
    if not m:
        sys.exit(f"{binary} --version names no target: {version.stdout!r} {version.stderr!r}")
    BUILD["target"] = m.group(1)
    counts = {"ok": 0, "FAIL": 0, "SKIP": 0}
    start = time.monotonic()
    for c in cases:
        status, problems, seconds = run_case(c, binary, emulator, a.verbose, a.time_scale)
        counts[status] += 1
        print(f"{status:4}  {c['case']}  ({seconds:.2f} s)")
        for pr in problems:
            print(f"      {pr}")
        sys.stdout.flush()
    total = time.monotonic() - start
    print(f"\n{len(cases)} cases: {counts['ok']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped "
          f"({total:.1f} s)")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
