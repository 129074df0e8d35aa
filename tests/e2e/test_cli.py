#!/usr/bin/env python3
"""End-to-end tests of the fxkcc binary on real files: every command, every exit code, bad
input with its exact message, bless refused under CI, an altered golden found at its tick, and
`plot`'s SVG as a real headless browser (chromium) draws it.

    python3 tests/e2e/test_cli.py --binary build/cli/fxkcc [unittest args]

Each test works in a fresh temporary folder holding a copy of tests/e2e/scenarios/ as
scenarios/ and an empty golden/, with the binary run from that folder.
"""
import json
import math
import os
import pathlib
import re
import shlex
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time
import unittest
from fractions import Fraction
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BINARY = None
EMULATOR = []  # prefix that runs the binary (qemu-aarch64, node, wine) in cross builds


def spawns_sides():
    """Whether the binary can start itself as a side of desync and shrink: natively, and under
    wine (a Windows process starts Windows processes: CreateProcessW), not under qemu-user or
    node."""
    return not EMULATOR or any("wine" in os.path.basename(e) for e in EMULATOR)


def fxkcc(args, cwd, env_extra=None, ci=False):
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "1"
    if env_extra:
        env.update(env_extra)
    p = subprocess.run(EMULATOR + [BINARY] + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def git_output(root, *args):
    """`git -C root ARGS`'s output, or None when it cannot say: git missing from PATH or not
    executable (OSError), or git failing (not a checkout, a folder it refuses)."""
    try:
        p = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout if p.returncode == 0 else None


M64 = (1 << 64) - 1
P32_1, P32_2, P32_3 = 0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D
P64_1, P64_2, P64_3, P64_4, P64_5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                                     0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671fcb79e64eccc0e578825ad07dccff7221"
    "b8084674f743248ee03590e6813a264c3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364eac5ac8334d3ebc3c581a0fffa1363eb"
    "170ddd51b7f0da49d316552629d4689e2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e")


def xxh3_64(data):
    """XXH3-64 (seed 0, default secret) of more than 240 bytes: the golden CSV digest of
    docs/formats.md, so that a test can forge a consistent golden pair."""
    import struct
    n = len(data)
    if n <= 240:
        raise ValueError("xxh3_64 here covers inputs of more than 240 bytes only")
    le = lambda b, o: struct.unpack_from("<Q", b, o)[0]
    acc = [P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1]

    def accumulate_512(off, soff):
        for i in range(8):
            v = le(data, off + 8 * i)
            k = v ^ le(SECRET, soff + 8 * i)
            acc[i ^ 1] = (acc[i ^ 1] + v) & M64
            acc[i] = (acc[i] + (k & 0xFFFFFFFF) * (k >> 32)) & M64

    def scramble():
        for i in range(8):
            a = acc[i]
            a ^= a >> 47
            a ^= le(SECRET, len(SECRET) - 64 + 8 * i)
            acc[i] = (a * P32_1) & M64

    stripes_per_block = (len(SECRET) - 64) // 8
    block = 64 * stripes_per_block
    blocks = (n - 1) // block
    for b in range(blocks):
        for s in range(stripes_per_block):
            accumulate_512(b * block + 64 * s, 8 * s)
        scramble()
    for s in range(((n - 1) - block * blocks) // 64):
        accumulate_512(blocks * block + 64 * s, 8 * s)
    accumulate_512(n - 64, len(SECRET) - 64 - 7)

    def fold(a, b):
        p = a * b
        return (p & M64) ^ (p >> 64)

    h = (n * P64_1) & M64
    for i in range(4):
        h = (h + fold(acc[2 * i] ^ le(SECRET, 11 + 16 * i), acc[2 * i + 1] ^ le(SECRET, 11 + 16 * i + 8))) & M64
    h ^= h >> 37
    h = (h * 0x165667919E3779F9) & M64
    h ^= h >> 32
    return h


def reseal(hashes_path, csv_path):
    """Makes a golden pair consistent again after a test changed its CSV: the hash file's `csv`
    line takes the CSV's new digest (what a build that computed these rows would have blessed)."""
    with open(csv_path, "rb") as f:
        digest = "%016x" % xxh3_64(f.read())
    text = read(hashes_path)
    assert re.search(r"(?m)^csv [0-9a-f]{16}$", text), "a blessed hash file records its CSV's digest"
    write(hashes_path, re.sub(r"(?m)^csv [0-9a-f]{16}$", "csv " + digest, text))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as f:
        f.write(text)


def read(path):
    with open(path, newline="") as f:
        return f.read()


def remove_tree(path):
    """Removes a test's folder; says so on stderr if something stays (nothing may be left behind)."""
    for _ in range(3):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path):
            return
        time.sleep(0.2)
    print(f"warning: could not remove {path}", file=sys.stderr)


class Workspace(unittest.TestCase):
    """Each test in a fresh folder, removed afterwards whatever the outcome. FXKCC_KEEP_TMP=1
    keeps a failing test's folder and prints where it is."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="fxkcc-e2e-")
        self.addCleanup(self.remove_workspace)
        self.procs = []  # processes a test started in the background, stopped at the end
        shutil.copytree(os.path.join(HERE, "scenarios"), os.path.join(self.tmp, "scenarios"))
        os.makedirs(os.path.join(self.tmp, "golden"))

    def remove_workspace(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()
        if os.environ.get("FXKCC_KEEP_TMP") == "1" and not self._outcome.success:
            print(f"\nkept the folder of {self.id()}: {self.tmp}", file=sys.stderr)
            return
        remove_tree(self.tmp)

    def run_ok(self, args, **kw):
        rc, out, err = fxkcc(args, self.tmp, **kw)
        self.assertEqual(rc, 0, f"fxkcc {' '.join(args)} exited {rc}\nstdout:\n{out}\nstderr:\n{err}")
        return out, err

    def p(self, *parts):
        return os.path.join(self.tmp, *parts)

    def golden_files(self):
        out = []
        for root, _, files in os.walk(self.p("golden")):
            out += [os.path.relpath(os.path.join(root, f), self.tmp) for f in files]
        return sorted(out)

    def target(self):
        out, _ = self.run_ok(["--version"])
        return re.search(r"^target:\s+(\S+)", out, re.M).group(1)


class VersionAndUsage(Workspace):
    def test_version_names_target_compiler_numeric_and_hash(self):
        out, _ = self.run_ok(["--version"])
        self.assertRegex(out, r"^fxkcc \d+\.\d+\.\d+ \(behaviour \d+\)")
        self.assertRegex(out, r"(?m)^target:\s+\w+-\w+")
        self.assertRegex(out, r"(?m)^compiler:\s+(gcc|clang|msvc)-")
        self.assertIn("Q31.32", out)
        self.assertIn("xxh3-64", out)

    def test_version_names_the_source_commit_and_whether_it_was_dirty(self):
        # What git says about the checkout this binary was built from (the test command builds
        # and tests one checkout), computed here independently of the build's own script. Not a
        # checkout (a tarball, as actions/checkout leaves where the container has no git; git
        # missing from PATH or not runnable; git refusing the folder): the build recorded no
        # commit, and the line says exactly "unknown" (tests/ci/test_no_git.py runs this there).
        root = os.path.dirname(os.path.dirname(HERE))
        out, _ = self.run_ok(["--version"])
        line = re.search(r"(?m)^source:\s+(.*)$", out)
        self.assertIsNotNone(line, out)
        head = git_output(root, "rev-parse", "HEAD")
        if head is None or not re.fullmatch(r"[0-9a-f]{40,64}", head.strip()):
            self.assertEqual(line.group(1), "unknown")
            return
        status = git_output(root, "status", "--porcelain", "--untracked-files=no")
        dirty = status is None or status != ""
        expected = head.strip() + (" (dirty: tracked files differ from this commit)" if dirty else "")
        self.assertEqual(line.group(1), expected)

    def test_help_documents_exit_codes(self):
        out, _ = self.run_ok(["--help"])
        for code in ("0 ", "1 ", "2 ", "125"):
            self.assertIn(code, out)
        for cmd in ("run", "verify", "bless", "diff", "list", "validate"):
            self.assertIn(cmd, out)

    def test_each_command_help_says_what_its_own_exit_codes_mean(self):
        meanings = {
            "run": "  1    an expectation or an invariant failed",
            "verify": "  1    a golden mismatched, is stale or missing, or a check failed",
            "desync": "  1    a desync, reported",
            "diff": "  1    they differ",
            "review": "  2    a pending golden is unreadable, altered or stale",
            "shrink": "  2    bad input, or the scenario does not fail",
        }
        for command, line in meanings.items():
            with self.subTest(command):
                out, _ = self.run_ok([command, "--help"])
                self.assertIn(line, out)
        for command in ("list", "bless", "plot", "bench"):
            with self.subTest(command):
                out, _ = self.run_ok([command, "--help"])
                self.assertNotRegex(out, r"(?m)^  1 ", f"{command} never exits 1")
                self.assertIn("  0 ", out)

    def test_bad_usage_exits_2(self):
        rc, _, err = fxkcc(["frobnicate"], self.tmp)
        self.assertEqual(rc, 2)
        rc, _, err = fxkcc(["verify", "--shard", "3/2"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("expected K/N with 1 <= K <= N, found '3/2'", err)
        rc, _, err = fxkcc(["run"], self.tmp)
        self.assertEqual(rc, 2)


class Run(Workspace):
    def test_run_prints_a_summary_and_writes_hashes_and_csv(self):
        out, _ = self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "out/w.hashes", "--csv", "out/w.csv"])
        first = out.splitlines()[0]
        self.assertRegex(first, r"^walk-wall: 120 ticks, 2 characters, final hash [0-9a-f]{16}$")
        self.assertIn("checks: 0 expectations, 0 failed; invariants hold\nmetrics:\ncharacter  stop_time_ms", out)
        hashes = read(self.p("out", "w.hashes")).splitlines()
        self.assertEqual(hashes[0], "fxkcc-hashes 1")
        self.assertEqual(hashes[-1], "end 120")
        tick_lines = [l for l in hashes if re.match(r"^\d+ ", l)]
        self.assertEqual(len(tick_lines), 120)
        self.assertTrue(all(len(l.split()) == 4 for l in tick_lines))  # tick, world, c1, c7
        final = first.split()[-1]
        self.assertEqual(tick_lines[-1].split()[1], final)
        csv = read(self.p("out", "w.csv")).splitlines()
        self.assertTrue(csv[0].startswith("# fxkcc-trajectory 1"))
        self.assertTrue(csv[1].startswith("tick,character,x,y,z,vx,vy,vz,facing,grounded"))
        self.assertEqual(len(csv), 2 + 240)

    def test_runs_are_repeatable_bit_for_bit(self):
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "a.hashes"])
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "b.hashes"])
        self.assertEqual(read(self.p("a.hashes")), read(self.p("b.hashes")))

    def test_hashes_to_stdout(self):
        out, err = self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "-"])
        self.assertTrue(out.startswith("fxkcc-hashes 1\n"))
        self.assertTrue(out.endswith("end 120\n"))
        self.assertIn("walk-wall: 120 ticks", err)

    def test_trace_covers_exactly_the_tick_range(self):
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--trace", "t.txt", "--trace-ticks", "10:12"])
        lines = read(self.p("t.txt")).splitlines()
        self.assertEqual(lines[0], "# fxkcc-trace 2")
        ticks = {int(re.match(r"^t=(\d+) ", l).group(1)) for l in lines[1:]}
        self.assertEqual(ticks, {10, 11, 12})
        # Both characters are traced, and values carry raw hex beside the decimal.
        self.assertTrue(any(" c=1 " in l for l in lines) and any(" c=7 " in l for l in lines))
        self.assertRegex(lines[1], r"\[0x[0-9a-f]{16}\]")

    def test_frame_clock_run_has_render_columns_and_a_4_tick_hitch(self):
        self.run_ok(["run", "scenarios/platform.yaml", "--csv", "p.csv"])
        csv = read(self.p("p.csv")).splitlines()
        self.assertTrue(csv[1].endswith(",render_x,render_y,render_z"))
        rows = [r.split(",") for r in csv[2:]]
        self.assertEqual(len(rows), 90)
        # Render poses appear only on ticks where a display frame ended.
        with_render = [int(r[0]) for r in rows if r[-1] != ""]
        self.assertTrue(0 < len(with_render) < 90)

    def test_bad_trace_range_is_bad_usage(self):
        rc, _, err = fxkcc(["run", "scenarios/walk-wall.yaml", "--trace-ticks", "9:3"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("--trace-ticks: expected A:B with 0 <= A <= B, found '9:3'", err)


class ListAndValidate(Workspace):
    def test_list(self):
        out, _ = self.run_ok(["list"])
        names = [l.split("\t")[0] for l in out.splitlines()]
        self.assertEqual(names, ["platform-ride", "walk-wall"])
        self.assertIn("scenarios/walk-wall.yaml", out)

    def test_validate_all_good(self):
        out, _ = self.run_ok(["validate"])
        self.assertIn("2 valid, 0 invalid", out)


class Bless(Workspace):
    def test_bless_refused_under_ci_and_writes_nothing(self):
        rc, out, err = fxkcc(["bless"], self.tmp, ci=True)
        self.assertEqual(rc, 2)
        self.assertIn("refusing to regenerate goldens because CI is set", err)
        self.assertEqual(self.golden_files(), [])

    def test_capture_under_ci_writes_another_folder_never_the_goldens(self):
        # A real runner's goldens, captured into an artifact folder under CI; the repository's
        # golden folder stays refused, however it is spelled.
        out, err = self.run_ok(["bless", "--capture", "captured"], ci=True)
        self.assertIn("blessed  walk-wall: new: 120 ticks", out)
        t = self.target()
        self.assertEqual(self.golden_files(), [])
        self.assertEqual(sorted(os.listdir(self.p("captured", t))),
                         ["platform-ride.csv", "platform-ride.hashes", "walk-wall.csv", "walk-wall.hashes"])
        # What was captured verifies as this target's goldens.
        out, _ = self.run_ok(["verify", "--golden-dir", "captured", "--own-goldens"])
        self.assertIn(f"2 scenarios on {t}: 2 passed", out)
        for spelling in ("golden", "./golden", "golden/", os.path.join(self.tmp, "golden"), "golden/inside"):
            rc, out, err = fxkcc(["bless", "--capture", spelling], self.tmp, ci=True)
            self.assertEqual(rc, 2, out + err)
            self.assertIn(f"--capture '{spelling}' and the golden folder 'golden' overlap", err)
        rc, out, err = fxkcc(["bless", "--capture", "other", "--golden-dir", "other"], self.tmp, ci=True)
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(self.golden_files(), [])
        self.assertFalse(os.path.exists(self.p("other")))

    def test_pending_and_capture_folders_that_alias_the_goldens_are_refused(self):
        """Issue 51, item 7: under CI, a pending or capture folder whose target folder is a link
        to, or a bind mount of, the golden target folder let verify --pending-dir and
        bless --capture rewrite the goldens: the overlap was decided by path text. Now by
        identity too; nothing in the golden folder changes."""
        if not native_posix():
            self.skipTest("POSIX links and mounts")
        self.run_ok(["bless"])
        t = self.target()
        g = self.p("golden", t)
        # A stale golden (an older behaviour's), so that verify --pending-dir writes a pending one
        # and bless --capture a fresh one: where they go, the goldens would be replaced.
        hashes = os.path.join(g, "walk-wall.hashes")
        write(hashes, re.sub(r"(?m)^behaviour (\d+)$", lambda m: f"behaviour {int(m.group(1)) - 1}", read(hashes)))
        before = {f: read(os.path.join(g, f)) for f in sorted(os.listdir(g))}

        def aliases():
            yield "a link", lambda d: os.symlink(os.path.abspath(g), os.path.join(d, t)), None

            def bind(d):
                os.makedirs(os.path.join(d, t))
                if subprocess.run(["mount", "--bind", os.path.abspath(g), os.path.join(d, t)],
                                  capture_output=True).returncode != 0:
                    raise unittest.SkipTest("cannot bind-mount here (needs root)")
            yield "a bind mount", bind, lambda d: subprocess.run(["umount", os.path.join(d, t)], check=True)

        for label, make, undo in aliases():
            for args in (["verify", "--no-progress", "--pending-dir", "alias"], ["bless", "--capture", "alias"]):
                with self.subTest(f"{label}: {' '.join(args[:1])}"):
                    d = self.p("alias")
                    shutil.rmtree(d, ignore_errors=True)
                    os.makedirs(d)
                    try:
                        make(d)
                    except unittest.SkipTest as e:
                        self.skipTest(str(e))
                    try:
                        rc, out, err = fxkcc(args, self.tmp, ci=True)
                    finally:
                        if undo:
                            undo(d)
                    self.assertEqual(rc, 2, out + err)
                    self.assertIn("overlap", err)
                    self.assertEqual({f: read(os.path.join(g, f)) for f in sorted(os.listdir(g))}, before)

    def test_bless_creates_then_reports_unchanged_then_changed(self):
        out, _ = self.run_ok(["bless"])
        self.assertRegex(out, r"blessed  walk-wall: new: 120 ticks")
        t = self.target()
        self.assertEqual(self.golden_files(), sorted(f"golden/{t}/{n}" for n in
                         ("walk-wall.hashes", "walk-wall.csv", "platform-ride.hashes", "platform-ride.csv")))
        out, _ = self.run_ok(["bless"])
        self.assertIn("blessed  walk-wall: unchanged", out)
        # An intended behaviour change of the scenario: the jump moves from tick 60 to 70.
        path = self.p("scenarios", "walk-wall.yaml")
        write(path, read(path).replace("jumps: [60]", "jumps: [70]"))
        out, _ = self.run_ok(["bless", "-k", "walk"])
        self.assertIn("blessed  walk-wall: changed: first changed tick 60 (c1)", out)
        self.assertNotIn("platform-ride", out)

    def test_bless_names_goldens_without_a_scenario_and_removes_them_only_with_prune(self):
        self.run_ok(["bless"])
        os.remove(self.p("scenarios", "walk-wall.yaml"))
        out, _ = self.run_ok(["bless"])
        t = self.target()
        self.assertIn(f"orphan   golden/{t}/walk-wall.hashes (no scenario named 'walk-wall'; bless --prune removes it)", out)
        self.assertTrue(os.path.exists(self.p("golden", t, "walk-wall.csv")))
        out, _ = self.run_ok(["bless", "--prune"])
        self.assertIn(f"removed  golden/{t}/walk-wall.hashes (no scenario named 'walk-wall')", out)
        self.assertFalse(os.path.exists(self.p("golden", t, "walk-wall.csv")))

    def test_a_filter_that_matches_nothing_is_an_error_unless_allowed(self):
        self.run_ok(["bless"])
        for command in (["verify", "--no-progress"], ["bless"]):
            with self.subTest(command[0]):
                rc, out, err = fxkcc(command + ["-k", "no-such-name"], self.tmp)
                self.assertEqual(rc, 2, out + err)
                self.assertIn(f"fxkcc {command[0]}: no scenario name contains 'no-such-name' (of 2 scenarios; "
                              "--allow-empty accepts a filter that selects nothing)", err)
        out, _ = self.run_ok(["verify", "--no-progress", "-k", "no-such-name", "--allow-empty"])
        self.assertIn("no scenario name contains 'no-such-name': nothing to verify", out)


def largest_changes(csv_a, csv_b):
    """The largest position (m) and velocity (m/s) change between two trajectory CSVs, row by
    row (same tick and character), computed here from the decimals the CSVs hold."""
    def rows(path):
        out = {}
        for line in read(path).splitlines()[2:]:
            c = line.split(",")
            out[(int(c[0]), int(c[1]))] = [float(v) for v in c[2:8]]
        return out
    a, b = rows(csv_a), rows(csv_b)
    pos = vel = 0.0
    for k in a.keys() & b.keys():
        pos = max(pos, sum((x - y) ** 2 for x, y in zip(a[k][:3], b[k][:3])) ** 0.5)
        vel = max(vel, sum((x - y) ** 2 for x, y in zip(a[k][3:], b[k][3:])) ** 0.5)
    return pos, vel


class Review(Workspace):
    """Pending goldens: bless --pending or verify --pending-dir write them, review shows them
    against the accepted ones, then accepts or rejects them (docs/goldens.md)."""

    def change_jump(self, tick):
        path = self.p("scenarios", "walk-wall.yaml")
        write(path, re.sub(r"jumps: \[\d+\]", f"jumps: [{tick}]", read(path)))

    def test_pending_is_reviewed_in_metres_then_accepted(self):
        self.run_ok(["bless"])
        t = self.target()
        before = snapshot(self.p("golden", t))
        self.change_jump(70)
        out, _ = self.run_ok(["bless", "--pending"])
        self.assertIn("pending  walk-wall: changed: first changed tick 60 (c1)", out)
        self.assertIn("same     platform-ride: unchanged: nothing pending", out)
        self.assertEqual(snapshot(self.p("golden", t)), before, "bless --pending leaves the goldens alone")
        self.assertEqual(sorted(os.listdir(self.p("golden.pending", t))), ["walk-wall.csv", "walk-wall.hashes"])
        rc, out, err = fxkcc(["verify", "--no-progress"], self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("STALE", out)
        out, _ = self.run_ok(["review"])
        pos, vel = largest_changes(self.p("golden", t, "walk-wall.csv"), self.p("golden.pending", t, "walk-wall.csv"))
        self.assertGreater(pos, 0.01)
        self.assertIn(f"pending  {t}/walk-wall", out)
        self.assertIn(f"first changed tick 60 (c1); largest change: position {pos:.4f} m", out)
        self.assertIn(f"velocity {vel:.4f} m/s", out)
        self.assertRegex(out, r"\d+ expectations and the invariants hold|invariants hold")
        self.assertIn("c1: vy expected", out)  # the first changed row's fields: the jump's speed
        self.assertEqual(snapshot(self.p("golden", t)), before, "review alone changes nothing")
        out, _ = self.run_ok(["review", "--accept"])
        self.assertIn(f"accepted {t}/walk-wall", out)
        self.assertFalse(os.path.exists(self.p("golden.pending")), "the pending folder goes once empty")
        out, _ = self.run_ok(["verify", "--no-progress"])
        self.assertIn("2 passed", out)

    def test_html_shows_each_pending_golden_against_the_accepted_one(self):
        """Issues 53 and 54: review --html DIR writes the before/after picture, the viewer's page of
        the accepted golden against the pending one, focused where they part (tick 60, c1, the
        jump moved), and an index; nothing is accepted or changed; DIR may not overlap the goldens."""
        self.run_ok(["bless"])
        t = self.target()
        before = snapshot(self.p("golden", t))
        self.change_jump(70)
        self.run_ok(["bless", "--pending"])
        out, _ = self.run_ok(["review", "--html", "pages"])
        self.assertIn("html: wrote pages/index.html and 1 page", out)
        self.assertEqual(snapshot(self.p("golden", t)), before)
        index = read(self.p("pages", "index.html"))
        self.assertIn(f'<a href="{t}/walk-wall.html">walk-wall</a>', index)
        self.assertIn("first changed tick 60 (c1)", index)
        page = read(self.p("pages", t, "walk-wall.html"))
        self.assertIn(f"accepted golden/{t}/walk-wall.csv", page)
        self.assertIn(f"pending {t}/walk-wall.csv", page)
        self.assertNotRegex(page, r"(?i)https?:")
        self.assertIn('"focus":[60,1]', page)  # the page opens where the two part: tick 60, c1
        self.assertIn(f'"title":"fxkcc review: {t}/walk-wall"', page)  # not "fxkcc desync"
        rc, _, err = fxkcc(["review", "--html", "golden"], self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("the pages go to a folder of their own", err)

    def test_reject_and_accept_by_filter(self):
        self.run_ok(["bless"])
        t = self.target()
        before = snapshot(self.p("golden", t))
        self.change_jump(70)
        path = self.p("scenarios", "platform.yaml")
        write(path, read(path).replace("ticks: 90", "ticks: 91"))
        self.run_ok(["bless", "--pending"])
        out, _ = self.run_ok(["review", "-k", "platform", "--accept"])
        self.assertIn(f"accepted {t}/platform-ride", out)
        self.assertNotIn("walk-wall", out)
        self.assertNotEqual(snapshot(self.p("golden", t))["platform-ride.hashes"], before["platform-ride.hashes"])
        self.assertEqual(snapshot(self.p("golden", t))["walk-wall.hashes"], before["walk-wall.hashes"])
        out, _ = self.run_ok(["review", "--reject"])
        self.assertIn(f"rejected {t}/walk-wall", out)
        self.assertFalse(os.path.exists(self.p("golden.pending")))
        self.assertEqual(snapshot(self.p("golden", t))["walk-wall.hashes"], before["walk-wall.hashes"])
        out, _ = self.run_ok(["review"])
        self.assertIn("nothing pending", out)
        rc, out, err = fxkcc(["review", "-k", "nothing-like-this"], self.tmp)
        self.assertEqual(rc, 0, "no pending folder: nothing to review")
        for folder in ("golden", "./golden/", os.path.join("golden", t), "."):
            with self.subTest(folder):
                rc, out, err = fxkcc(["review", "--pending-dir", folder, "--accept"], self.tmp)
                self.assertEqual(rc, 2, out + err)
                self.assertIn("overlap", err)
        self.assertEqual(snapshot(self.p("golden", t))["walk-wall.hashes"], before["walk-wall.hashes"])

    def test_a_stale_or_altered_pending_golden_is_never_accepted(self):
        self.run_ok(["bless"])
        t = self.target()
        before = snapshot(self.p("golden", t))
        self.change_jump(70)
        self.run_ok(["bless", "--pending"])
        self.change_jump(80)  # the scenario changed again after the pending golden was written
        rc, out, err = fxkcc(["review", "--accept"], self.tmp)
        self.assertEqual(rc, 2, out + err)
        self.assertIn("stale: the scenario changed (characters) since the pending golden was written", out)
        self.assertIn("nothing was accepted", err)
        self.assertEqual(snapshot(self.p("golden", t)), before)
        self.run_ok(["bless", "--pending"])
        csv = self.p("golden.pending", t, "walk-wall.csv")
        write(csv, read(csv).replace(",0,", ",1,", 1))
        rc, out, err = fxkcc(["review", "--accept"], self.tmp)
        self.assertEqual(rc, 2, out + err)
        self.assertIn("ERROR", out)
        self.assertEqual(snapshot(self.p("golden", t)), before)

    def test_verify_under_ci_writes_pending_goldens_of_what_failed_only(self):
        self.run_ok(["bless"])
        t = self.target()
        self.change_jump(70)
        rc, out, err = fxkcc(["verify", "--no-progress", "--pending-dir", "artifact"], self.tmp, ci=True)
        self.assertEqual(rc, 1, out + err)
        self.assertIn(f"1 pending golden written to artifact/{t}/", out)
        self.assertEqual(sorted(os.listdir(self.p("artifact", t))), ["walk-wall.csv", "walk-wall.hashes"])
        rc, out, err = fxkcc(["review", "--pending-dir", "artifact", "--accept"], self.tmp, ci=True)
        self.assertEqual(rc, 2, out + err)
        self.assertIn("refusing to accept goldens because CI is set", err)
        out, _ = self.run_ok(["review", "--pending-dir", "artifact", "--accept"])
        self.assertIn(f"accepted {t}/walk-wall", out)
        out, _ = self.run_ok(["verify", "--no-progress"])
        self.assertIn("2 passed", out)
        # Pending goldens never go into (or around) the golden folder, whatever the spelling.
        before = snapshot(self.p("golden", t))
        for folder in ("golden", "./golden/", os.path.join("golden", t), "."):
            for command in (["verify", "--no-progress"], ["bless"]):
                with self.subTest(folder=folder, command=command[0]):
                    rc, out, err = fxkcc(command + ["--pending-dir", folder], self.tmp, ci=True)
                    self.assertEqual(rc, 2, out + err)
                    self.assertIn("overlap", err)
        self.assertEqual(snapshot(self.p("golden", t)), before)
        # bless --pending is allowed under CI as well (it writes no golden); a plain bless is not.
        out, _ = self.run_ok(["bless", "--pending"], ci=True)
        self.assertIn("0 pending goldens", out)

    def two_pending(self):
        """Both scenarios changed and pending; returns the target and the accepted goldens."""
        self.run_ok(["bless"])
        t = self.target()
        before = snapshot(self.p("golden", t))
        self.change_jump(70)
        path = self.p("scenarios", "platform.yaml")
        write(path, read(path).replace("ticks: 90", "ticks: 91"))
        self.run_ok(["bless", "--pending"])
        return t, before

    def test_accept_and_reject_by_name(self):
        """Issue 53: --accept NAME... / --reject NAME... act on the goldens named; --accept and
        --reject alone still act on every golden shown."""
        t, before = self.two_pending()
        pending = snapshot(self.p("golden.pending", t))
        rc, out, err = fxkcc(["review", "--accept", "walk-wall", "no-such"], self.tmp)
        self.assertEqual(rc, 2, out + err)
        self.assertIn(f"no pending golden is named 'no-such' (pending: {t}/platform-ride, {t}/walk-wall); "
                      "nothing accepted", err)
        self.assertEqual(snapshot(self.p("golden", t)), before)
        self.assertEqual(snapshot(self.p("golden.pending", t)), pending)
        out, _ = self.run_ok(["review", "--accept", "walk-wall", "--pending-dir", "golden.pending"])
        self.assertIn(f"accepted {t}/walk-wall", out)
        self.assertNotIn("platform-ride", out)
        self.assertEqual(snapshot(self.p("golden", t))["walk-wall.hashes"], pending["walk-wall.hashes"])
        self.assertEqual(snapshot(self.p("golden", t))["platform-ride.hashes"], before["platform-ride.hashes"])
        out, _ = self.run_ok(["review", "--reject", f"{t}/platform-ride"])
        self.assertEqual(out, f"rejected {t}/platform-ride\n")
        self.assertFalse(os.path.exists(self.p("golden.pending")))
        # The options alone, and with a scenario path after them, as scripts wrote them before.
        self.run_ok(["bless", "--pending"])  # platform-ride again
        out, _ = self.run_ok(["review", "--accept", "scenarios"])
        self.assertIn(f"accepted {t}/platform-ride", out)
        out, _ = self.run_ok(["verify", "--no-progress"])
        self.assertIn("2 passed", out)
        # A review that is not on a terminal shows and asks nothing (stdin a pipe).
        self.change_jump(80)
        self.run_ok(["bless", "--pending"])
        p = subprocess.run(EMULATOR + [BINARY, "review"], cwd=self.tmp, input="a\n", capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("accept (a)", p.stdout)
        self.assertIn(f"pending  {t}/walk-wall", p.stdout)
        self.assertTrue(os.path.exists(self.p("golden.pending", t, "walk-wall.hashes")))

    def test_a_terminal_review_asks_for_each_pending_golden(self):
        """Issue 53: on a terminal (a pseudo-terminal here), review takes the pending goldens one
        at a time: accept (a), reject (r), skip (s), quit (q)."""
        if os.name != "posix" or EMULATOR:
            self.skipTest("a pseudo-terminal needs POSIX and the binary run natively")
        import pty
        import select
        t, before = self.two_pending()
        pending = snapshot(self.p("golden.pending", t))

        def session(answers):
            """Runs review on a pseudo-terminal, answering each prompt in turn; its output, exit code."""
            env = {k: v for k, v in os.environ.items() if k != "CI"}
            env["NO_COLOR"] = "1"
            pid, fd = pty.fork()
            if pid == 0:
                os.chdir(self.tmp)
                os.execve(BINARY, [BINARY, "review"], env)
            buf, prompts = b"", 0
            deadline = time.time() + 60
            while time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    try:
                        data = os.read(fd, 4096)
                    except OSError:  # the terminal closed: review ended
                        break
                    if not data:
                        break
                    buf += data
                if buf.count(b"? ") > prompts and answers:
                    prompts = buf.count(b"? ")
                    os.write(fd, answers.pop(0).encode() + b"\n")
            _, status = os.waitpid(pid, 0)
            os.close(fd)
            return buf.decode().replace("\r\n", "\n"), os.waitstatus_to_exitcode(status)

        out, code = session(["x", "s", "a"])  # an unknown answer asks again
        self.assertEqual(code, 0, out)
        self.assertIn("2 pending goldens in golden.pending: for each, accept (a), reject (r), skip (s) or quit (q)",
                      out)
        self.assertIn(f"pending  {t}/platform-ride  first changed tick 90", out)
        self.assertIn("[1/2] accept (a), reject (r), skip (s), quit (q)? x\nanswer a, r, s or q\n"
                      "[1/2] accept (a), reject (r), skip (s), quit (q)? s\n"
                      f"skipped {t}/platform-ride\n", out)
        self.assertIn(f"[2/2] accept (a), reject (r), skip (s), quit (q)? a\naccepted {t}/walk-wall\n", out)
        self.assertIn("1 accepted, 0 rejected, 1 left pending", out)
        self.assertEqual(snapshot(self.p("golden", t))["walk-wall.hashes"], pending["walk-wall.hashes"])
        self.assertEqual(snapshot(self.p("golden", t))["platform-ride.hashes"], before["platform-ride.hashes"])
        self.assertEqual(sorted(os.listdir(self.p("golden.pending", t))), ["platform-ride.csv", "platform-ride.hashes"])
        out, code = session(["q"])  # quit: nothing done
        self.assertEqual(code, 0, out)
        self.assertIn("0 accepted, 0 rejected, 1 left pending", out)
        self.assertTrue(os.path.exists(self.p("golden.pending", t, "platform-ride.hashes")))
        # A pending golden that cannot be accepted (its scenario changed again) may be rejected.
        path = self.p("scenarios", "platform.yaml")
        write(path, read(path).replace("ticks: 91", "ticks: 92"))
        out, code = session(["a", "r"])
        self.assertEqual(code, 0, out)
        self.assertIn("[1/1] cannot be accepted; reject (r), skip (s), quit (q)? a\nanswer r, s or q\n", out)
        self.assertIn(f"rejected {t}/platform-ride", out)
        self.assertFalse(os.path.exists(self.p("golden.pending")))
        self.assertEqual(snapshot(self.p("golden", t))["platform-ride.hashes"], before["platform-ride.hashes"])


def snapshot(folder):
    """{file name: bytes} of the files directly in folder. On Windows a bless's lock file
    (.fxkcc-lock) lives in the folder while the bless runs and goes when it ends (a killed
    bless's a moment later, when wine closes its handles): it is not part of the goldens."""
    out = {}
    for name in sorted(os.listdir(folder)):
        if name == ".fxkcc-lock":
            continue
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


class BlessFiles(Workspace):
    """Goldens are never torn: a bless killed at any moment leaves each scenario's pair (hash file
    and trajectory CSV) old or new, and two blesses at once produce what one does."""

    N = 16

    def ticks(self):
        """2,000 ticks a scenario natively. Under an emulator or the sanitizers (FX_TEST_SCALE
        below 1) a tick costs 5 to 50 times as much, so 500 still keep each bless long enough for
        the kills to land in its middle (the kill waits for the hash files, not for a time)."""
        slow = bool(EMULATOR) or float(os.environ.get("FX_TEST_SCALE", "1")) < 1
        return 500 if slow else 2000

    def make_scenarios(self, spawn_x):
        base = read(os.path.join(HERE, "scenarios", "walk-wall.yaml"))
        for f in os.listdir(self.p("scenarios")):
            if f.endswith(".yaml"):
                os.remove(self.p("scenarios", f))
        ticks = self.ticks()
        for k in range(self.N):
            text = (base.replace("name: walk-wall", "name: w%02d" % k).replace("ticks: 120", "ticks: %d" % ticks)
                    .replace("spawn: [0, 0.015, 0]", "spawn: [%s, 0.015, %d]" % (spawn_x, k % 5)))
            write(self.p("scenarios", "w%02d.yaml" % k), text)

    def reference_goldens(self):
        """The goldens a complete bless of the current scenarios writes (in a copy)."""
        ref = tempfile.mkdtemp(prefix="fxkcc-e2e-ref-")
        try:
            shutil.copytree(self.p("scenarios"), os.path.join(ref, "scenarios"))
            start = time.monotonic()
            rc, out, err = fxkcc(["bless"], ref)
            took = time.monotonic() - start
            self.assertEqual(rc, 0, err)
            return snapshot(os.path.join(ref, "golden", self.target())), took
        finally:
            remove_tree(ref)

    def start_bless(self):
        env = {k: v for k, v in os.environ.items() if k != "CI"}
        p = subprocess.Popen(EMULATOR + [BINARY, "bless"], cwd=self.tmp, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(p)
        return p

    def test_killed_bless_leaves_every_golden_old_or_new(self):
        t = self.target()
        gdir = self.p("golden", t)
        self.make_scenarios("0")
        old, _ = self.reference_goldens()
        self.make_scenarios("0.25")
        new, _ = self.reference_goldens()
        mixed = 0
        for trial in range(8):
            shutil.rmtree(self.p("golden"), ignore_errors=True)
            os.makedirs(gdir)
            for name, data in old.items():
                with open(os.path.join(gdir, name), "wb") as f:
                    f.write(data)
            # Kill once the bless has committed `want` hash files (1, 2, 3, ...), polling the
            # folder: the kill lands while it writes the next ones (whatever the emulator's start-up).
            want = 1 + trial * (self.N - 2) // 8
            p = self.start_bless()
            deadline = time.monotonic() + 120
            while p.poll() is None and time.monotonic() < deadline:
                done = 0
                for k in range(self.N):
                    h = os.path.join(gdir, "w%02d.hashes" % k)
                    try:
                        with open(h, "rb") as f:
                            done += f.read() != old["w%02d.hashes" % k]
                    except OSError:
                        pass
                if done >= want:
                    break
                time.sleep(0.001)
            p.kill()
            p.wait()
            now = snapshot(gdir)
            n_old = n_new = 0
            for k in range(self.N):
                h, c = "w%02d.hashes" % k, "w%02d.csv" % k
                if now[h] == old[h]:
                    self.assertEqual(now[c], old[c], "trial %d: %s: old hash file, other CSV" % (trial, c))
                    n_old += 1
                else:
                    self.assertEqual(now[h], new[h], "trial %d: %s is torn" % (trial, h))
                    # The new CSV is in place, or (killed between the two renames) beside it.
                    beside = [n for n in now if n.startswith(c + ".next") and now[n] == new[c]]
                    self.assertTrue(now[c] == new[c] or beside, "trial %d: %s: new hash file, old CSV" % (trial, c))
                    n_new += 1
            mixed += n_old > 0 and n_new > 0
            # What the tool sees: the new goldens pass, the old ones are stale, nothing else.
            rc, out, err = fxkcc(["verify", "--no-progress"], self.tmp)
            self.assertIn("%d scenarios on %s: %d passed, 0 mismatched, %d stale, 0 missing, 0 errors"
                          % (self.N, t, n_new, n_old), out, err)
        self.assertGreater(mixed, 0, "no kill landed in the middle of a bless")
        # A killed bless holds no lock: the next one runs at once and completes the goldens.
        rc, out, err = fxkcc(["bless"], self.tmp)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("waiting for another bless", err)
        now = snapshot(gdir)
        for name, data in new.items():
            self.assertEqual(now[name], data, name)

    def test_two_blesses_at_once_write_what_one_does(self):
        self.make_scenarios("0")
        ref, _ = self.reference_goldens()
        procs = [self.start_bless() for _ in range(2)]
        for p in procs:
            self.assertEqual(p.wait(), 0)
        self.assertEqual(snapshot(self.p("golden", self.target())), ref)

    def test_blesses_and_verifies_at_once_all_succeed(self):
        """Readers hold goldens open while blesses replace them (which Windows refuses until the
        reader lets go): two blesses and a verify loop at once all succeed, and every verify sees
        whole goldens that pass."""
        self.make_scenarios("0")
        ref, _ = self.reference_goldens()
        self.run_ok(["bless"])
        blesses = [self.start_bless() for _ in range(2)]
        verifies = 0
        while any(p.poll() is None for p in blesses) or verifies == 0:
            rc, out, err = fxkcc(["verify", "--no-progress"], self.tmp)
            self.assertEqual(rc, 0, out + err)
            verifies += 1
        for p in blesses:
            self.assertEqual(p.wait(), 0)
        self.assertEqual(snapshot(self.p("golden", self.target())), ref)


class Verify(Workspace):
    def setUp(self):
        super().setUp()
        self.run_ok(["bless"])
        self.t = self.target()
        self.hashes = self.p("golden", self.t, "walk-wall.hashes")
        self.csv = self.p("golden", self.t, "walk-wall.csv")

    def test_verify_passes_and_reports_a_summary(self):
        out, _ = self.run_ok(["verify", "-j", "2"])
        self.assertIn("2 scenarios on " + self.t + ": 2 passed, 0 mismatched, 0 stale, 0 missing, 0 errors", out)

    def test_html_writes_an_index_and_a_page_per_scenario_that_did_not_pass(self):
        """Issue 54: verify --html DIR writes DIR/index.html (every scenario, its status, a link
        to the page of each that did not pass) and the viewer's page of its golden against this
        build's run, self-contained; the folder may not overlap the goldens or the scenarios."""
        text = read(self.hashes)
        line = re.search(r"(?m)^7 [0-9a-f]{16} [0-9a-f]{16}", text).group(0)
        write(self.hashes, text.replace(line, line[:-1] + ("0" if line[-1] != "0" else "1"), 1))
        rc, out, err = fxkcc(["verify", "--no-progress", "--html", "pages"], self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("html: wrote pages/index.html and 1 scenario page", out)
        self.assertEqual(sorted(os.listdir(self.p("pages"))), ["index.html", "walk-wall.html"])
        index = read(self.p("pages", "index.html"))
        self.assertIn('<a href="walk-wall.html">walk-wall</a></td><td>MISMATCH</td><td>desync at tick 7 (c1)', index)
        self.assertRegex(index, r"<td>platform-ride</td><td>pass</td>")  # passed: no page, no link
        page = read(self.p("pages", "walk-wall.html"))
        self.assertIn("fxkcc verify: walk-wall (MISMATCH)", page)
        self.assertIn(f"golden golden/{self.t}/walk-wall.csv", page)
        for html in (index, page):
            self.assertNotRegex(html, r"(?i)(https?:|src=\"//|href=\"//)")
        for folder in ("golden", "scenarios", os.path.join("golden", self.t, "x")):
            with self.subTest(folder):
                rc, _, err = fxkcc(["verify", "--no-progress", "--html", folder], self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertIn("overlap; the pages go to a folder of their own", err)
        # A page fxkcc names in the folder is never written through a link found there (a
        # copied tree, a reused folder): the golden it leads to stays as it was.
        golden_csv = self.p("golden", self.t, "walk-wall.csv")
        before = read(golden_csv)
        os.makedirs(self.p("linked"))
        os.symlink(golden_csv, self.p("linked", "index.html"))
        rc, _, err = fxkcc(["verify", "--no-progress", "--html", "linked"], self.tmp)
        self.assertEqual(read(golden_csv), before)
        if native_posix():  # (under wine a POSIX link is the file it names, replaced by the rename)
            self.assertEqual(rc, 125, err)
            self.assertIn("fxkcc verify: --html: 'linked/index.html' is a symbolic link", err)
        # A report named as a page of the folder (index.html, a scenario's page, any .html there):
        # refused before anything runs; written after the reports, a page replaced one of them.
        for flag, report in (("--json", "pages/index.html"), ("--junit", "./pages/walk-wall.HTML")):
            with self.subTest(report):
                rc, _, err = fxkcc(["verify", "--no-progress", "--html", "pages", flag, report], self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertIn(f"{flag} '{report}' is named as a page of the --html folder 'pages'", err)
        rc, _, err = fxkcc(["verify", "--no-progress", "--html", "pages", "--json", "pages/r.json"], self.tmp)
        self.assertEqual(rc, 1, err)
        self.assertEqual(json.loads(read(self.p("pages", "r.json")))["counts"]["mismatched"], 1)
        # A scenario named index has its own page: index.html replaced it, its link led to the index.
        write(self.p("scenarios", "index.yaml"), read(self.p("scenarios", "walk-wall.yaml")).replace(
            "name: walk-wall", "name: index"))
        rc, out, err = fxkcc(["verify", "--no-progress", "--html", "pages2", "-k", "index"], self.tmp)
        self.assertEqual(rc, 1, out + err)  # its golden is missing
        self.assertEqual(sorted(os.listdir(self.p("pages2"))), ["_index.html", "index.html"])
        self.assertIn('<a href="_index.html">index</a></td><td>MISSING</td>', read(self.p("pages2", "index.html")))
        self.assertIn("fxkcc verify: index (MISSING)", read(self.p("pages2", "_index.html")))

    def test_json_report_holds_what_the_terminal_shows_and_failures_only_lists_failures(self):
        text = read(self.hashes)
        line = re.search(r"(?m)^7 [0-9a-f]{16} [0-9a-f]{16}", text).group(0)
        write(self.hashes, text.replace(line, line[:-1] + ("0" if line[-1] != "0" else "1"), 1))
        rc, table, _ = fxkcc(["verify", "--no-progress"], self.tmp)
        self.assertEqual(rc, 1)
        rc, out, err = fxkcc(["verify", "--no-progress", "--json", "-"], self.tmp)
        self.assertEqual(rc, 1, err)
        report = json.loads(out)  # nothing but the JSON on stdout
        self.assertEqual(report["format"], "fxkcc-verify 1")
        self.assertEqual(report["exit_code"], 1)
        self.assertEqual(report["counts"]["scenarios"], 2)
        self.assertEqual(report["counts"]["mismatched"], 1)
        self.assertEqual(report["build"]["target"], self.t)
        rows = {r["name"]: r for r in report["scenarios"]}
        self.assertEqual(rows["walk-wall"]["status"], "mismatch")
        self.assertEqual(rows["platform-ride"]["status"], "pass")
        for r in report["scenarios"]:  # every summary and detail line the table printed
            self.assertIn(r["summary"], table)
            for detail in r["detail"].splitlines():
                self.assertIn(detail, table)
        self.assertIn("c1:", rows["walk-wall"]["detail"])
        # To a file, with the table on stdout as usual.
        rc, out, _ = fxkcc(["verify", "--no-progress", "--json", "report.json", "--failures-only"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertEqual(json.loads(read(self.p("report.json")))["counts"], report["counts"])
        self.assertRegex(out, r"(?m)^MISMATCH +walk-wall")
        self.assertNotRegex(out, r"(?m)^pass ", "--failures-only lists no passing scenario")
        self.assertIn("2 scenarios on " + self.t + ": 1 passed, 1 mismatched", out)

    def test_no_other_command_writes_into_the_golden_folder(self):
        """Goldens are written by bless alone (refused under CI); `run --hashes golden/T/NAME.hashes`
        replaced one with a file of another form, unreviewed and under CI too. Every output of
        every other command, file or folder, is refused inside the golden and pending folders, by
        any spelling or through a link; beside them it is written."""
        golden, csv = read(self.hashes), read(self.csv)
        os.makedirs(self.p("golden.pending"), exist_ok=True)
        g = f"golden/{self.t}"
        listing = sorted(os.listdir(self.p(g)))
        cases = [
            (["run", "scenarios/walk-wall.yaml", "--hashes", f"{g}/walk-wall.hashes"], "--hashes", "golden"),
            (["run", "scenarios/walk-wall.yaml", "--csv", f"./{g}/../{self.t}/walk-wall.csv"], "--csv", "golden"),
            (["run", "scenarios/walk-wall.yaml", "--html", f"{g}/page.html"], "--html", "golden"),
            (["run", "scenarios/walk-wall.yaml", "--metrics", "golden.pending/m.csv"], "--metrics", "pending"),
            (["plot", "scenarios/walk-wall.yaml", "-o", f"{g}/p.svg"], "-o", "golden"),
            (["bench", "scenarios/walk-wall.yaml", "--repeat", "1", "--warmup", "0", "--json", "golden/b.json"],
             "--json", "golden"),
            (["desync", "scenarios/walk-wall.yaml", "--html", f"{g}/d.html"], "--html", "golden"),
            (["desync", "scenarios/walk-wall.yaml", "--bundle", f"{g}/bundle"], "--bundle", "golden"),
            (["swarm", "--runs", "1", "--emit", g], "--emit", "golden"),
            (["swarm", "--runs", "1", "--out", "golden.pending/found"], "--out", "pending"),
        ]
        if native_posix():
            os.symlink(os.path.abspath(self.p(g)), self.p("alias"))
            cases.append((["run", "scenarios/walk-wall.yaml", "--hashes", "alias/walk-wall.hashes"], "--hashes", "golden"))
        for args, option, folder in cases:
            with self.subTest(" ".join(args)):
                rc, out, err = fxkcc(args, self.tmp)
                self.assertEqual(rc, 2, out + err)
                self.assertIn(f"{option} '", err)
                self.assertIn(f"' is inside the {folder} folder 'golden{'.pending' if folder == 'pending' else ''}': "
                              "goldens are written by fxkcc bless", err)
        self.assertEqual(read(self.hashes), golden)
        self.assertEqual(read(self.csv), csv)
        self.assertEqual(sorted(os.listdir(self.p(g))), listing, "nothing new in the target folder")
        self.assertEqual(os.listdir(self.p("golden.pending")), [])
        self.assertFalse(os.path.exists(self.p("golden", "b.json")))
        # Beside the golden folder, and in a folder whose name only starts like it: written.
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "golden2/walk-wall.hashes"])
        self.assertTrue(os.path.exists(self.p("golden2", "walk-wall.hashes")))

    def test_reports_never_replace_inputs_goldens_or_each_other(self):
        """Issue 51, item 4: --json and --junit naming a scenario, a golden or one another were
        written (a golden replaced by the report); now refused, exit 2, nothing written."""
        os.makedirs(self.p("golden.pending"), exist_ok=True)
        write(self.p("golden.pending", "keep.hashes"), "pending\n")
        scenario, golden = read(self.p("scenarios", "walk-wall.yaml")), read(self.hashes)
        cases = [
            (["--json", "scenarios/walk-wall.yaml"], "is an input of the command"),
            (["--junit", "./scenarios/../scenarios/walk-wall.yaml"], "is an input of the command"),
            (["--json", f"golden/{self.t}/walk-wall.hashes"], "is inside the golden folder 'golden'"),
            (["--junit", f"golden/{self.t}/new-report.xml"], "is inside the golden folder 'golden'"),
            (["--json", "golden.pending/keep.hashes", "--pending-dir", "golden.pending"],
             "is inside the pending folder 'golden.pending'"),
            (["--json", "r.out", "--junit", "./r.out"], "name the same file"),
        ]
        for args, message in cases:
            with self.subTest(" ".join(args)):
                rc, out, err = fxkcc(["verify", "--no-progress"] + args, self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertIn(message, err)
                self.assertEqual(out, "", "nothing verified, nothing printed")
        self.assertEqual(read(self.p("scenarios", "walk-wall.yaml")), scenario)
        self.assertEqual(read(self.hashes), golden)
        self.assertEqual(read(self.p("golden.pending", "keep.hashes")), "pending\n")
        self.assertFalse(os.path.exists(self.p("golden", self.t, "new-report.xml")))
        self.assertFalse(os.path.exists(self.p("r.out")))
        # Beside the goldens, not in them: written as before.
        self.run_ok(["verify", "--no-progress", "--json", "report.json", "--junit", "junit.xml"])
        self.assertEqual(json.loads(read(self.p("report.json")))["counts"]["scenarios"], 2)

    def test_a_world_hash_alone_that_differs_is_named(self):
        text = read(self.hashes)
        line = re.search(r"(?m)^5 [0-9a-f]{16} ", text).group(0)
        write(self.hashes, text.replace(line, "5 0123456789abcdef ", 1))
        rc, out, _ = fxkcc(["verify", "--no-progress"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"(?m)^MISMATCH +walk-wall +desync at tick 5 \(the world hash only\);")

    def test_bisect_run_skips_stale_and_missing_goldens_and_marks_a_desync_bad(self):
        """scripts/bisect-run.sh's verdicts (git bisect run: 0 good, 1 bad, 125 skip), with this
        binary instead of a build of the commit (FX_BISECT_FXKCC)."""
        if EMULATOR:
            self.skipTest("the script runs the binary natively")
        os.makedirs(self.p("scripts"))
        shutil.copy(os.path.join(REPO, "scripts", "bisect-run.sh"), self.p("scripts", "bisect-run.sh"))
        env = dict(os.environ, FX_BISECT_FXKCC=BINARY, FX_BISECT_BUILD=self.p("bisect"))
        env.pop("CI", None)

        def bisect():
            return subprocess.run(["bash", self.p("scripts", "bisect-run.sh")], cwd=self.tmp, env=env,
                                  capture_output=True, text=True, timeout=120)

        self.assertEqual(bisect().returncode, 0)
        scenario = self.p("scenarios", "walk-wall.yaml")
        original = read(scenario)
        write(scenario, original.replace("jumps: [60]", "jumps: [61]"))  # stale: not this commit's scenario
        p = bisect()
        self.assertEqual(p.returncode, 125, p.stdout + p.stderr)
        self.assertIn("bisect-run: 1 stale and 0 missing golden(s), no mismatch (skip)", p.stderr)
        write(scenario, original)
        os.remove(self.hashes)  # missing
        self.assertEqual(bisect().returncode, 125)
        self.run_ok(["bless"])
        text = read(self.hashes)  # a desync: a tick's hashes differ
        line = re.search(r"(?m)^10 [0-9a-f]{16}", text).group(0)
        write(self.hashes, text.replace(line, "10 0123456789abcdef", 1))
        p = bisect()
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)

    def test_a_target_without_goldens_verifies_against_the_reference_and_says_so(self):
        # A build whose target has no folder (macOS arm64, MSVC) verifies against the reference
        # target's goldens; --own-goldens asks for its own and finds them missing.
        self.run_ok(["bless", "--target", "ref-a", "--other-target"])
        remove_tree(self.p("golden", self.t))
        out, _ = self.run_ok(["verify", "--reference-target", "ref-a"])
        self.assertTrue(out.startswith(f"note: golden/{self.t} does not exist; verifying against the goldens of ref-a "), out)
        self.assertIn(f"2 scenarios on {self.t} against the goldens of ref-a: 2 passed, 0 mismatched", out)
        rc, out, err = fxkcc(["verify", "--reference-target", "ref-a", "--own-goldens"], self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertNotIn("note:", out)
        self.assertIn(f"2 scenarios on {self.t}: 0 passed, 0 mismatched, 0 stale, 2 missing", out)
        # No reference folder either: missing, as before, and no note.
        rc, out, err = fxkcc(["verify", "--reference-target", "ref-b"], self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertNotIn("note:", out)
        # A folder of its own always wins, whatever the reference says.
        self.run_ok(["bless"])
        out, _ = self.run_ok(["verify", "--reference-target", "ref-a"])
        self.assertNotIn("note:", out)
        self.assertIn(f"2 scenarios on {self.t}: 2 passed", out)

    def test_report_is_in_path_order_whatever_the_jobs(self):
        # Runs start costliest first (walk-wall: 240 character-ticks, platform-ride: 90, a file that
        # does not load: 0), the reverse of path order; the report stays in path order, the same
        # with one job or two.
        write(self.p("scenarios", "m-broken.yaml"), "format: 1\nname: [\n")
        self.alter_golden(37, -5)
        reports = []
        for j in ("1", "2"):
            rc, out, err = fxkcc(["verify", "-j", j, "--junit", f"report-{j}.xml"], self.tmp)
            self.assertEqual(rc, 2, out + err)
            xml = re.sub(r'time="[0-9.]+"', 'time=""', read(self.p(f"report-{j}.xml")))
            reports.append((out, xml))
        self.assertEqual(reports[0], reports[1])
        rows = [l.split()[:2] for l in reports[0][0].splitlines() if re.match(r"^(pass|MISMATCH|ERROR) ", l)]
        self.assertEqual(rows, [["ERROR", "scenarios/m-broken.yaml"], ["pass", "platform-ride"], ["MISMATCH", "walk-wall"]])

    def alter_golden(self, tick, x_delta_raw):
        """Changes character 1 at `tick` in the golden: its hashes and its x in the trajectory."""
        lines = read(self.hashes).split("\n")
        for i, l in enumerate(lines):
            f = l.split(" ")
            if f[0] == str(tick):
                f[1] = "%016x" % (int(f[1], 16) ^ 1)
                f[2] = "%016x" % (int(f[2], 16) ^ 1)
                lines[i] = " ".join(f)
        write(self.hashes, "\n".join(lines))
        rows = read(self.csv).split("\n")
        header = rows[1].split(",")
        xi = header.index("x")
        for i, r in enumerate(rows):
            f = r.split(",")
            if f[0] == str(tick) and len(f) > 1 and f[1] == "1":
                # Shift x by whole raw units, exactly, through its decimal text.
                from fractions import Fraction
                raw = round(Fraction(f[xi]) * 2**32) + x_delta_raw
                f[xi] = exact_decimal(raw)
                rows[i] = ",".join(f)
        write(self.csv, "\n".join(rows))
        reseal(self.hashes, self.csv)

    def test_the_digest_of_this_test_is_the_one_bless_writes(self):
        # reseal() recomputes what bless records: checked here on a real golden first.
        with open(self.csv, "rb") as f:
            digest = "%016x" % xxh3_64(f.read())
        self.assertIn("\ncsv " + digest + "\n", read(self.hashes))

    def test_altered_golden_is_found_at_its_tick_with_the_field(self):
        self.alter_golden(37, -5)
        rc, out, _ = fxkcc(["verify"], self.tmp)
        self.assertEqual(rc, 1, out)
        self.assertIn("MISMATCH", out)
        self.assertIn("desync at tick 37 (c1)", out)
        self.assertIn("first divergent tick 37 (last matching tick 36)", out)
        # The field that differs, with both raw values and the delta in units of the last place.
        self.assertRegex(out, r"c1: x expected .*actual .*\+5 ulp")
        self.assertIn("1 passed, 1 mismatched", out)

    def test_junit_report(self):
        self.alter_golden(5, 1)
        rc, _, _ = fxkcc(["verify", "--junit", "report.xml"], self.tmp)
        self.assertEqual(rc, 1)
        xml = read(self.p("report.xml"))
        self.assertIn('tests="2" failures="1" errors="0"', xml)
        self.assertIn('<failure type="MISMATCH" message="desync at tick 5 (c1); invariants hold (no expectations)">', xml)

    def test_xml_reports_hold_any_path(self):
        """A folder named with a Latin-1 byte made the JUnit report and the plot's SVG unreadable
        to an XML parser (not UTF-8). (A control byte in a name is refused now: the next test.)"""
        if not native_posix():
            self.skipTest("file names of any bytes")
        from xml.dom import minidom
        folder = "caf\udce9"  # the bytes 'caf' and 0xE9 (Python's surrogate escape)
        os.makedirs(self.p(folder))
        write(self.p(folder, "w.yaml"), "format: 1\nname: w\ndescription: \"x\"\nticks: 5\n"
                                        "characters:\n  - id: 1\n    spawn: [0, 0, 0]\n")
        # (The terminal gets the path's bytes as they are: its output is read as bytes here.)
        p = subprocess.run([BINARY, "verify", "--scenarios-dir", folder, "--golden-dir", "none", "--junit",
                            "j.xml"], cwd=self.tmp, capture_output=True, timeout=300)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)  # its golden is missing
        minidom.parse(self.p("j.xml"))  # raises on a byte or character XML cannot hold
        self.assertIn("caf\u00e9/w.yaml", read(self.p("j.xml")))
        p = subprocess.run([BINARY, "plot", os.path.join(folder, "w.yaml"), "-o", "p.svg"], cwd=self.tmp,
                           capture_output=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        minidom.parse(self.p("p.svg"))

    def test_names_with_control_characters_are_refused_wherever_they_are_met(self):
        """A scenario file named 'a', a line break, '::error::pwned' and a terminal escape was
        printed raw by verify's table: the line break started a GitHub Actions command in the CI
        log, the escape cleared the terminal. Such a name is refused (exit 2) where it is met, on
        the command line or in a folder listed, and shown escaped; nothing is written."""
        if not native_posix():
            self.skipTest("file names of any bytes")
        evil = "a\n::error::pwned\x1b[2J"
        shown = "a\\n::error::pwned\\x1b[2J"

        env = {k: v for k, v in os.environ.items() if k != "CI"}  # bless is refused under CI

        def refused(args, where):
            p = subprocess.run([BINARY] + args, cwd=self.tmp, capture_output=True, timeout=300, env=env)
            out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
            self.assertEqual(p.returncode, 2, f"{args}: {out}{err}")
            self.assertIn(where, err)
            self.assertIn("control or bidirectional character", err)
            for raw in ("\x1b", "\n::", "\u202e"):
                self.assertNotIn(raw, out + err)
            return err

        # On the command line, whatever the command: a path, an option's value, a filter.
        for args in (["run", "scenarios/" + evil + ".yaml"], ["verify", "-k", "x\u202ey"],
                     ["run", "scenarios/walk-wall.yaml", "--csv", "o\x07.csv"], ["list", "\t"]):
            with self.subTest(args=args):
                refused(args, "fxkcc: argument ")
        self.assertFalse(os.path.exists(self.p("o\x07.csv")))
        # In the scenarios folder: verify, bless and validate find it; no report is written.
        write(self.p("scenarios", "deep", evil + ".yaml"),
              read(self.p("scenarios", "walk-wall.yaml")).replace("name: walk-wall", "name: another-wall"))
        for args in (["verify", "--no-progress", "--junit", "j.xml"], ["bless"], ["validate"], ["list"]):
            with self.subTest(args=args):
                err = refused(args, "'scenarios/deep/" + shown + ".yaml': a file name with a control")
        self.assertFalse(os.path.exists(self.p("j.xml")))
        shutil.rmtree(self.p("scenarios", "deep"))
        # In the golden folder: verify's look for goldens without a scenario, compare-goldens,
        # bless's list of them (which names it escaped: --prune must still be able to remove it).
        g = self.p("golden", self.t)
        write(os.path.join(g, evil + ".hashes"), "x\n")
        refused(["verify", "--no-progress", "--orphans", "fail"], f"'golden/{self.t}/{shown}.hashes'")
        shutil.copytree(g, self.p("golden", "other-target"))
        refused(["compare-goldens"], f"{shown}.hashes")
        p = subprocess.run([BINARY, "bless"], cwd=self.tmp, capture_output=True, timeout=300, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"orphan   golden/{self.t}/{shown}.hashes".encode(), p.stdout)
        self.assertNotIn(b"\x1b", p.stdout + p.stderr)
        # In a folder of pending goldens (a CI artifact): review refuses it.
        os.makedirs(self.p("pending", self.t))
        write(self.p("pending", self.t, evil + ".hashes"), "x\n")
        refused(["review", "--pending-dir", "pending"], f"{shown}.hashes")

    def test_what_files_and_sides_say_reaches_no_terminal_raw(self):
        """The next attack on the same hole (2026-12-07): bytes nobody typed reached the terminal
        and the CI log raw through the contents of files (a scenario's description and file
        references, a golden's header), the names bless tidies, a golden's link and what a side
        prints. Each is now refused or shown escaped; no line of the output begins with '::'."""
        if not native_posix():
            self.skipTest("file names of any bytes, a side that is a shell script")

        def run(args, env=None):
            env_run = {k: v for k, v in os.environ.items() if k != "CI"}  # bless is refused under CI
            env_run.update(env or {})
            p = subprocess.run([BINARY] + args, cwd=self.tmp, capture_output=True, timeout=300, env=env_run)
            both = p.stdout + p.stderr
            self.assertNotIn(b"\x1b", both, args)
            self.assertNotIn("\u202e".encode(), both, args)
            self.assertNotIn(b"\xc2\x9b", both, args)
            self.assertFalse(re.search(rb"(?m)^\s*::", both), f"{args}: a line begins with '::':\n{both!r}")
            return p.returncode, both.decode("utf-8", "replace")

        walk = read(self.p("scenarios", "walk-wall.yaml"))
        # A description may span lines: list keeps it on one line, --markdown keeps its lines but
        # not one that begins with '::'.
        prose = walk.replace("name: walk-wall", "name: prose")
        write(self.p("d", "prose.yaml"), re.sub(r"(?m)^description: .*$",
                                                lambda m: r'description: "one\n::error::pwned\u202e\rtwo"', prose))
        rc, out = run(["list", "d"])
        self.assertEqual(rc, 2, out)  # the loader refuses U+202E in text; the line break is allowed
        write(self.p("d", "prose.yaml"), read(self.p("d", "prose.yaml")).replace("\\u202e", ""))
        rc, out = run(["list", "d"])
        self.assertEqual(rc, 0, out)
        self.assertIn("one\\n::error::pwned\\rtwo", out)
        rc, out = run(["list", "--markdown", "d"])
        self.assertEqual(rc, 0, out)
        self.assertIn("one\n\\::error::pwned\\rtwo", out)
        # A file reference is a path: no line break in it.
        write(self.p("d", "prose.yaml"), read(self.p("scenarios", "platform.yaml")).replace(
            "inputs/idle.csv", '"in\\n::error::x.csv"'))
        rc, out = run(["validate", "d"])
        self.assertEqual(rc, 2, out)
        self.assertIn("expected a file path without control or bidirectional characters, found "
                      "'in\\n::error::x.csv'", out)
        shutil.rmtree(self.p("d"))
        # A golden's header: its scenario named with a bidirectional control.
        g = os.path.join(self.p("golden"), self.t)
        saved = read(self.hashes)
        write(self.hashes, saved.replace("scenario walk-wall", "scenario walk-wall\u202e", 1))
        rc, out = run(["verify", "--no-progress"])
        self.assertEqual(rc, 2, out)  # a golden that cannot be read: ERROR
        self.assertIn("expected text after 'scenario', found the control or bidirectional character "
                      "\\u202e in 'walk-wall\\xe2\\x80\\xae'", out)
        write(self.hashes, saved)
        # What bless tidies: an interrupted bless's temporary named with a line break.
        write(os.path.join(g, "x\n::error::pwned\x1b[2J.tmp.1.0123456789abcdef"), "x\n")
        rc, out = run(["bless"])
        self.assertEqual(rc, 0, out)
        self.assertIn("x\\n::error::pwned\\x1b[2J.tmp.1.0123456789abcdef", out)
        # A golden that is a link out of the folder, to a folder named with a line break.
        evil = self.p("l\n::error::pwned\x1b[2J")
        os.makedirs(evil)
        shutil.copy(self.hashes, evil)
        os.remove(self.hashes)
        os.symlink(os.path.join(evil, "walk-wall.hashes"), self.hashes)
        rc, out = run(["verify", "--no-progress"])
        self.assertEqual(rc, 2, out)
        self.assertIn("resolves outside the golden folder", out)
        self.assertIn("l\\n::error::pwned\\x1b[2J", out)
        os.remove(self.hashes)
        shutil.copy(os.path.join(evil, "walk-wall.hashes"), self.hashes)
        # compare-goldens: a target folder named with a line break.
        os.makedirs(self.p("golden", "t\n::error::pwned"))
        rc, out = run(["compare-goldens"])
        self.assertEqual(rc, 2, out)
        self.assertIn("'golden/t\\n::error::pwned': a file name with a control", out)
        os.rmdir(self.p("golden", "t\n::error::pwned"))
        # What a side prints: every line shown, the lines after the first begun with '  | '.
        side = self.p("side.sh")
        write(side, "#!/bin/sh\nprintf 'boom\\n::error::pwned\\302\\233 \\342\\200\\256x\\r\\n::warning::y\\n' >&2\n"
                    "exit 3\n")
        os.chmod(side, 0o755)
        rc, out = run(["desync", "scenarios/walk-wall.yaml", "--b", side])
        self.assertEqual(rc, 125, out)
        self.assertIn("boom\n  | ::error::pwned\\u009b \\u202ex\n  | ::warning::y", out)

    def test_stale_golden_is_not_a_desync(self):
        path = self.p("scenarios", "walk-wall.yaml")
        write(path, read(path).replace("jumps: [60]", "jumps: [61]"))
        rc, out, _ = fxkcc(["verify"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("STALE", out)
        self.assertIn("golden is stale", out)
        self.assertNotIn("desync", out)

    def test_edits_that_simulate_the_same_leave_the_golden_passing(self):
        """The digest is of what is simulated (issue 19): a description, comments, number spelling,
        key order, expectations added or edited and CRLF line ends do not make a golden stale."""
        path = self.p("scenarios", "walk-wall.yaml")
        text = read(path).replace("then jump.", "then jump once.").replace("ticks: 120\n", "ticks: 120  # two seconds\n")
        text += "expect:\n  - {character: 7, tick: 0, grounded: true}\n"
        self.assertNotIn("expect:", read(path))
        text = text.replace("{id: 2, center: [3, 1, 0], half_extents: [0.5, 1, 20]}",
                            "{half_extents: [0.50, 1.0, 20], center: [3, 1, 0], id: 2}")
        with open(path, "wb") as f:
            f.write(text.replace("\n", "\r\n").encode())
        out, _ = self.run_ok(["verify"])
        self.assertIn("0 mismatched, 0 stale, 0 missing, 0 errors", out)
        self.assertIn("1 expectations and the invariants hold", out)
        # The expectation edited (a bound that fails): still no stale golden, the check fails.
        with open(path, "wb") as f:
            f.write(text.replace("grounded: true", "grounded: false").replace("\n", "\r\n").encode())
        rc, out, _ = fxkcc(["verify"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("0 mismatched, 0 stale, 0 missing, 0 errors; 1 failed expectations", out)

    def test_missing_golden_fails(self):
        os.remove(self.hashes)
        rc, out, _ = fxkcc(["verify"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("MISSING", out)
        self.assertIn(f"no golden at golden/{self.t}/walk-wall.hashes", out)

    def test_shards_split_the_suite(self):
        a, _ = self.run_ok(["verify", "--shard", "1/2"])
        b, _ = self.run_ok(["verify", "--shard", "2/2"])
        self.assertIn("1 scenarios on", a)
        self.assertIn("1 scenarios on", b)
        self.assertNotEqual("platform-ride" in a, "platform-ride" in b)

    def test_filter_and_single_path(self):
        out, _ = self.run_ok(["verify", "-k", "platform"])
        self.assertIn("1 scenarios on", out)
        out, _ = self.run_ok(["verify", "scenarios/walk-wall.yaml"])
        self.assertIn("walk-wall", out)
        self.assertNotIn("platform-ride", out)

    def test_golden_from_the_future_is_refused(self):
        text = read(self.hashes).replace("fxkcc-hashes 1", "fxkcc-hashes 2", 1)
        write(self.hashes, text)
        rc, out, _ = fxkcc(["verify", "-k", "walk"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("newer than this build reads", out)

    def test_truncated_golden_is_refused(self):
        lines = read(self.hashes).splitlines()
        write(self.hashes, "\n".join(lines[:50]) + "\n")
        rc, out, _ = fxkcc(["verify", "-k", "walk"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("ERROR", out)

    def test_orphan_goldens_warn_or_fail_and_only_for_the_whole_suite(self):
        """Issue 53: a golden whose scenario was renamed or deleted was ignored by verify."""
        g = self.p("golden", self.t)
        path = self.p("scenarios", "walk-wall.yaml")
        write(path, read(path).replace("name: walk-wall", "name: walk-wall-2"))
        self.run_ok(["bless", "-k", "walk-wall-2"])
        out, _ = self.run_ok(["verify", "--no-progress"])  # warn, the default: exit 0
        line = (f"ORPHAN      no scenario is named 'walk-wall' (renamed or deleted): golden/{self.t}/walk-wall.hashes, "
                f"golden/{self.t}/walk-wall.csv; bless --prune removes it")
        self.assertIn(line + "\n", out)
        self.assertIn("2 passed, 0 mismatched, 0 stale, 0 missing, 0 errors; 0 failed expectations or invariants; "
                      "1 orphan golden (a warning)\n", out)
        rc, out, err = fxkcc(["verify", "--no-progress", "--orphans", "fail", "--json", "r.json", "--junit", "j.xml"],
                             self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("1 orphan golden (--orphans fail)", out)
        report = json.loads(read(self.p("r.json")))
        self.assertEqual(report["exit_code"], 1)
        self.assertEqual(report["counts"]["orphans"], 1)
        self.assertEqual(report["orphans"]["checked"], True)
        self.assertEqual(report["orphans"]["mode"], "fail")
        self.assertEqual([(o["name"], o["files"]) for o in report["orphans"]["goldens"]],
                         [("walk-wall", [f"golden/{self.t}/walk-wall.hashes", f"golden/{self.t}/walk-wall.csv"])])
        xml = read(self.p("j.xml"))
        self.assertIn('tests="3" failures="1" errors="0"', xml)
        self.assertIn(f'<testcase classname="fxkcc.{self.t}.orphans" name="walk-wall" '
                      f'file="golden/{self.t}/walk-wall.hashes" time="0.000">\n    <failure type="ORPHAN"', xml)
        self.run_ok(["verify", "--no-progress", "--junit", "j.xml"])
        self.assertIn('tests="3" failures="0" errors="0" skipped="1"', read(self.p("j.xml")))
        # Only the whole suite tells an orphan from a golden not selected; --shard 1/1 is whole.
        for args in (["-k", "walk"], ["--shard", "1/2"], ["--shard", "2/2"], ["scenarios/walk-wall.yaml"]):
            with self.subTest(" ".join(args)):
                out, _ = self.run_ok(["verify", "--no-progress", "--orphans", "fail"] + args)
                self.assertNotIn("ORPHAN", out)
                self.assertNotIn("orphan", out)
        rc, out, _ = fxkcc(["verify", "--no-progress", "--orphans", "fail", "--shard", "1/1"], self.tmp)
        self.assertEqual(rc, 1, out)
        self.assertIn("ORPHAN", out)
        # Hidden files and an interrupted bless's temporaries are not goldens; a lone CSV is one.
        os.remove(os.path.join(g, "walk-wall.hashes"))
        write(os.path.join(g, ".notes.hashes"), "x\n")
        write(os.path.join(g, "platform-ride.csv.next.tmp.123.0123456789abcdef"), "x\n")
        rc, out, _ = fxkcc(["verify", "--no-progress", "--orphans", "fail"], self.tmp)
        self.assertEqual(rc, 1, out)
        self.assertEqual(re.findall(r"(?m)^ORPHAN .*$", out),
                         [f"ORPHAN      no scenario is named 'walk-wall' (renamed or deleted): "
                          f"golden/{self.t}/walk-wall.csv; bless --prune removes it"])
        rc, out, err = fxkcc(["verify", "--orphans", "maybe"], self.tmp)
        self.assertEqual(rc, 2, out + err)

    def test_format_github_annotates_failed_expectations_at_their_line(self):
        out, _ = self.run_ok(["verify", "--no-progress", "--format", "github"])
        self.assertNotIn("::", out, "nothing failed: no annotation")
        path = self.p("scenarios", "walk-wall.yaml")
        text = read(path)
        lines = text.count("\n")
        write(path, text + "expect:\n  - {character: 1, tick: 5, grounded: false}\n"
                           "  - character: 1\n    tick: 3\n    x: {min: 100, max: 101}\n"
                           "  - {character: 7, tick: 4, grounded: true}\n")
        rc, out, err = fxkcc(["verify", "--no-progress", "--format", "github"], self.tmp)
        self.assertEqual(rc, 1, out + err)
        annotations = [l for l in out.splitlines() if l.startswith("::")]
        self.assertEqual(annotations, [
            f"::error file=scenarios/walk-wall.yaml,line={lines + 3},col=5::walk-wall: expectation failed: "
            f"expect[1] (line {lines + 3}): tick 3, character 1: x = 0.0953998093, expected [100, 101]",
            f"::error file=scenarios/walk-wall.yaml,line={lines + 2},col=5::walk-wall: expectation failed: "
            f"expect[0] (line {lines + 2}): tick 5, character 1: grounded is true, expected false",
        ])
        self.assertRegex(out, r"(?m)^FAILED +walk-wall")  # the table is still there
        # A mismatch, a stale and a missing golden: at line 1 of the scenario file.
        write(path, text)
        self.alter_golden(37, -5)
        platform = self.p("scenarios", "platform.yaml")
        write(platform, read(platform).replace("ticks: 90", "ticks: 91"))
        rc, out, _ = fxkcc(["verify", "--no-progress", "--format", "github"], self.tmp)
        self.assertEqual(rc, 1)
        annotations = [l for l in out.splitlines() if l.startswith("::")]
        self.assertEqual(len(annotations), 2, out)
        self.assertTrue(annotations[0].startswith(
            "::error file=scenarios/platform.yaml,line=1,col=1::platform-ride: STALE: golden is stale: "), annotations)
        self.assertEqual(annotations[1], "::error file=scenarios/walk-wall.yaml,line=1,col=1::walk-wall: MISMATCH: "
                                         "desync at tick 37 (c1); invariants hold (no expectations)")
        os.remove(self.hashes)
        rc, out, _ = fxkcc(["verify", "--no-progress", "--format", "github", "-k", "walk"], self.tmp)
        self.assertIn(f"::error file=scenarios/walk-wall.yaml,line=1,col=1::walk-wall: MISSING: no golden at "
                      f"golden/{self.t}/walk-wall.hashes (run: fxkcc bless scenarios/walk-wall.yaml); invariants hold "
                      f"(no expectations)\n", out)
        # An orphan golden is a warning at its hash file (an error with --orphans fail).
        os.rename(platform, self.p("scenarios", "renamed.yaml"))
        write(self.p("scenarios", "renamed.yaml"),
              read(self.p("scenarios", "renamed.yaml")).replace("name: platform-ride", "name: renamed"))
        rc, out, _ = fxkcc(["verify", "--no-progress", "--format", "github"], self.tmp)
        self.assertIn(f"::warning file=golden/{self.t}/platform-ride.hashes,line=1,col=1::orphan golden: no scenario "
                      f"is named 'platform-ride' (renamed or deleted)", out)
        # A property escapes ',' and ':' (and '%', CR, LF, as a message does), as GitHub's toolkit.
        write(self.p("scenarios", "odd,one.yaml"),
              text.replace("name: walk-wall", "name: odd") + "expect:\n  - {character: 1, tick: 5, grounded: false}\n")
        rc, out, _ = fxkcc(["verify", "--no-progress", "--format", "github", "-k", "odd"], self.tmp)
        self.assertEqual(rc, 1, out)
        self.assertIn("::error file=scenarios/odd%2Cone.yaml,line=1,col=1::odd: MISSING: ", out)
        self.assertIn(f"::error file=scenarios/odd%2Cone.yaml,line={lines + 2},col=5::odd: expectation failed: ", out)
        # Both on stdout: refused; so is a format that does not exist.
        rc, out, err = fxkcc(["verify", "--format", "github", "--json", "-"], self.tmp)
        self.assertEqual(rc, 2, out + err)
        rc, out, err = fxkcc(["verify", "--format", "yaml"], self.tmp)
        self.assertEqual(rc, 2, out + err)

    def test_a_stale_golden_names_the_keys_that_changed(self):
        """Issue 53: a stale golden said only that the scenario's digest changed. A golden written
        now records a digest per top-level key (its optional `keys` line); one written before
        reads and reports as before, and is never rewritten for that line alone."""
        keys = re.search(r"(?m)^keys (.*)$", read(self.hashes)).group(1)
        self.assertEqual([k.split("=")[0] for k in keys.split()], ["tick_rate", "ticks", "world", "characters"])
        path = self.p("scenarios", "walk-wall.yaml")
        original = read(path)
        write(path, original.replace("half_extents: [0.5, 1, 20]", "half_extents: [0.5, 1, 21]")
              .replace("ticks: 120\n", "ticks: 121\n").replace("then jump.", "then jump once."))
        rc, out, _ = fxkcc(["verify", "--no-progress"], self.tmp)
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r"(?m)^STALE +walk-wall +golden is stale: the scenario changed \(ticks, world\) since "
                              r"the golden was written \(scenario digest [0-9a-f]{16}, now [0-9a-f]{16}; re-bless if "
                              r"the change is intended\); invariants hold")
        # Review: the pending golden against the accepted one, and a pending golden gone stale.
        self.run_ok(["bless", "--pending"])
        out, _ = self.run_ok(["review"])
        self.assertRegex(out, r"scenario digest [0-9a-f]{16} -> [0-9a-f]{16}: the scenario changed \(ticks, world\) "
                              r"since the golden was written")
        write(path, read(path).replace("jumps: [60]", "jumps: [61]"))
        rc, out, _ = fxkcc(["review"], self.tmp)
        self.assertEqual(rc, 2, out)
        self.assertRegex(out, r"ERROR +[^ ]+/walk-wall +stale: the scenario changed \(characters\) since the pending "
                              r"golden was written \(scenario digest [0-9a-f]{16}, now [0-9a-f]{16}; bless --pending "
                              r"it again\)")
        self.run_ok(["review", "--reject"])
        # A golden written before the line: read as before, and the message names no key.
        write(self.hashes, re.sub(r"(?m)^keys .*\n", "", read(self.hashes)))
        rc, out, _ = fxkcc(["verify", "--no-progress"], self.tmp)
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r"golden is stale: blessed for scenario 'walk-wall' digest [0-9a-f]{16}, the scenario "
                              r"now has digest [0-9a-f]{16} \(it changed since")
        # Its bytes stay as they are when nothing else would change: no golden is re-blessed for
        # the line alone (bless, bless --pending, bless --capture).
        write(path, original)
        before = snapshot(self.p("golden", self.t))
        out, _ = self.run_ok(["bless"])
        self.assertIn("blessed  walk-wall: unchanged", out)
        self.assertEqual(snapshot(self.p("golden", self.t)), before)
        out, _ = self.run_ok(["bless", "--pending"])
        self.assertIn("same     walk-wall: unchanged: nothing pending", out)
        self.run_ok(["bless", "--capture", "cap"])
        self.assertEqual(snapshot(self.p("cap", self.t)), before)
        # A change that is blessed writes the line.
        write(path, original.replace("ticks: 120\n", "ticks: 121\n"))
        self.run_ok(["bless", "-k", "walk"])
        self.assertRegex(read(self.hashes), r"(?m)^keys tick_rate=[0-9a-f]{16} ticks=[0-9a-f]{16} ")


class Diff(Workspace):
    def test_diff_hash_files(self):
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "a.hashes", "--csv", "a.csv"])
        out, _ = self.run_ok(["diff", "a.hashes", "a.hashes"])
        self.assertIn("identical: 120 ticks", out)
        lines = read(self.p("a.hashes")).split("\n")
        i = next(k for k, l in enumerate(lines) if l.startswith("44 "))
        f = lines[i].split(" ")
        f[1] = "%016x" % (int(f[1], 16) ^ 2)
        f[3] = "%016x" % (int(f[3], 16) ^ 2)
        lines[i] = " ".join(f)
        write(self.p("b.hashes"), "\n".join(lines))
        rc, out, _ = fxkcc(["diff", "a.hashes", "b.hashes"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("first divergent tick 44 (last matching tick 43)", out)
        self.assertIn("entities whose hash differs: c7", out)

    def test_diff_trajectories_names_the_field_and_ulps(self):
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--csv", "a.csv"])
        rows = read(self.p("a.csv")).split("\n")
        header = rows[1].split(",")
        vz = header.index("vz")
        for i, r in enumerate(rows):
            f = r.split(",")
            if f[0] == "20" and f[1] == "7":
                from fractions import Fraction
                f[vz] = exact_decimal(round(Fraction(f[vz]) * 2**32) + 3)
                rows[i] = ",".join(f)
        write(self.p("b.csv"), "\n".join(rows))
        rc, out, _ = fxkcc(["diff", "a.csv", "b.csv"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("first divergent tick 20, character 7", out)
        self.assertRegex(out, r"vz expected .*actual .*\+3 ulp")

    def test_diff_scenario_against_its_golden(self):
        self.run_ok(["bless"])
        t = self.target()
        out, _ = self.run_ok(["diff", "scenarios/walk-wall.yaml", f"golden/{t}/walk-wall.hashes"])
        self.assertIn("identical: 120 ticks", out)

    def test_diff_of_an_unknown_file_is_bad_input(self):
        write(self.p("x.txt"), "hello\n")
        rc, _, err = fxkcc(["diff", "x.txt", "x.txt"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("'x.txt' is neither a scenario (.yaml), an fxkcc hash file nor an fxkcc trajectory CSV", err)


def copy_capture(workspace, target, other):
    """A second target's capture of the goldens of `target`: the same results, its own target line."""
    folder = os.path.join(workspace, "golden", other)
    shutil.copytree(os.path.join(workspace, "golden", target), folder)
    for f in os.listdir(folder):
        if f.endswith(".hashes"):
            path = os.path.join(folder, f)
            write(path, re.sub(r"(?m)^target .*$", "target " + other, read(path)))


class CompareGoldens(Workspace):
    """Every target's goldens against the reference's; any difference names scenario, target, tick."""

    def setUp(self):
        super().setUp()
        self.run_ok(["bless"])
        self.t = self.target()
        copy_capture(self.tmp, self.t, "other-target")

    def test_identical_targets_pass(self):
        out, _ = self.run_ok(["compare-goldens", "--reference", self.t])
        self.assertIn("identical walk-wall (120 ticks on 2 targets)", out)
        self.assertIn("2 scenarios, 2 targets", out)
        self.assertIn("2 identical, 0 different", out)

    def test_an_altered_golden_on_one_target_is_named_with_its_tick(self):
        path = self.p("golden", "other-target", "walk-wall.hashes")
        lines = read(path).split("\n")
        i = next(k for k, l in enumerate(lines) if l.startswith("73 "))
        f = lines[i].split(" ")
        f[1] = "%016x" % (int(f[1], 16) ^ 8)
        f[3] = "%016x" % (int(f[3], 16) ^ 8)
        lines[i] = " ".join(f)
        write(path, "\n".join(lines))
        rc, out, _ = fxkcc(["compare-goldens", "--reference", self.t], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("DIFFERENT walk-wall (reference " + self.t + ")", out)
        self.assertIn("other-target: first divergent tick 73 (c7)", out)
        self.assertIn("1 identical, 1 different", out)

    def test_a_missing_capture_and_an_edited_csv_fail(self):
        os.remove(self.p("golden", "other-target", "platform-ride.hashes"))
        path = self.p("golden", "other-target", "walk-wall.csv")
        rows = read(path).split("\n")
        rows[5] = rows[5] + "0"
        write(path, "\n".join(rows))
        rc, out, _ = fxkcc(["compare-goldens", "--reference", self.t], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("other-target: missing", out)
        # The edited CSV no longer has the digest its hash file records: that target's golden is
        # broken (a consistent pair that differs is "trajectory CSV differs from ...'s").
        self.assertIn("other-target: golden CSV 'golden/other-target/walk-wall.csv' is not the one its hash file "
                      "records", out)

    def test_needs_two_targets(self):
        shutil.rmtree(self.p("golden", "other-target"))
        rc, _, err = fxkcc(["compare-goldens", "--reference", self.t], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("need goldens of at least two targets", err)


GOOD_HEAD = "format: 1\nname: bad\ndescription: d\nticks: 10\n"
CHAR = "characters:\n  - {id: 1, spawn: [0, 0.015, 0]}\n"


class Conformance(Workspace):
    """Expectations, invariants and metrics through the real binary: a failed expectation is
    reported apart from the golden (FAILED, exit 1) with its tick, value and bound."""

    SCENARIO = """format: 1
name: stop
description: Runs at full speed and lets go.
ticks: 80
world:
  - box: {id: 1, center: [0, -0.5, 0], half_extents: [50, 0.5, 50]}
characters:
  - id: 1
    spawn: [0, 0.015, 0]
    input: {segments: [{ticks: 40, stick: [0, 1]}, {ticks: 40}]}
expect:
  - {tick: 39, horizontal_speed: 6.2, grounded: true}
  - character: 1
    metrics: {stop_time_ms: %s, flicker_count: 0}
"""

    def write_scenario(self, stop_bound):
        write(self.p("scenarios", "stop.yaml"), self.SCENARIO % stop_bound)

    def test_run_prints_checks_and_metrics_and_exits_1_on_a_failed_expectation(self):
        # 6.2 m/s braked at 60 m/s^2: 1.2 m/s per 50 Hz tick, at rest on the 6th tick: 120 ms.
        self.write_scenario("120")
        out, _ = self.run_ok(["run", "scenarios/stop.yaml"])
        self.assertIn("checks: 2 expectations, 0 failed; invariants hold", out)
        rows = out.split("metrics:\n")[1].splitlines()
        head, row = rows[0].split(), rows[1].split()
        self.assertEqual(row[head.index("stop_time_ms")], "120")
        self.assertEqual(row[head.index("max_horizontal_speed")], "6.2")
        self.write_scenario("[80, 100]")
        rc, out, _ = fxkcc(["run", "scenarios/stop.yaml"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("checks: 2 expectations, 1 failed; invariants hold\n"
                      "  expectation failed: expect[1] (line 13): character 1: stop_time_ms = 120, expected [80, 100]\n",
                      out)

    def test_metrics_as_json_and_csv(self):
        self.write_scenario("120")
        self.run_ok(["run", "scenarios/stop.yaml", "--metrics", "m.json"])
        import json
        doc = json.loads(read(self.p("m.json")))
        self.assertEqual(doc["scenario"], "stop")
        self.assertEqual(doc["ticks"], 80)
        self.assertEqual(doc["characters"][0]["id"], 1)
        self.assertEqual(doc["characters"][0]["stop_time_ms"], 120)
        self.assertIsNone(doc["characters"][0]["slope_speed_ratio_min"])  # flat ground only
        self.assertEqual(doc["failures"], [])
        out, err = self.run_ok(["run", "scenarios/stop.yaml", "--metrics", "-", "--metrics-format", "csv"])
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith("character,stop_time_ms,slope_speed_ratio_min,"))
        self.assertTrue(lines[1].startswith("1,120,,"))
        self.assertIn("checks: 2 expectations", err)  # the summary moves to stderr
        rc, _, err = fxkcc(["run", "scenarios/stop.yaml", "--metrics", "m.txt", "--metrics-format", "xml"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("--metrics-format: expected csv or json, found 'xml'", err)

    def test_verify_reports_failed_expectations_apart_from_the_golden(self):
        self.write_scenario("[80, 100]")
        self.run_ok(["bless", "scenarios/stop.yaml"])
        rc, out, _ = fxkcc(["verify", "scenarios/stop.yaml"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"(?m)^FAILED +stop +80 ticks identical; 1 expectation failed$")
        self.assertIn("expectation failed: expect[1] (line 13): character 1: stop_time_ms = 120, expected [80, 100]", out)
        self.assertIn("1 scenarios on " + self.target() + ": 0 passed, 0 mismatched, 0 stale, 0 missing, 0 errors; "
                      "1 failed expectations or invariants", out)
        # Fixed expectation: the golden still holds (an expectation is not simulated) and the checks pass.
        self.write_scenario("120")
        out, _ = self.run_ok(["verify", "scenarios/stop.yaml"])
        self.assertRegex(out, r"(?m)^pass +stop +80 ticks identical; 2 expectations and the invariants hold$")

    def test_same_as_catches_a_level_that_is_not_a_shifted_copy(self):
        self.write_scenario("120")
        shifted = self.SCENARIO.replace("center: [0, -0.5, 0]", "center: [100000, -0.5, 0]").replace(
            "spawn: [0, 0.015, 0]", "spawn: [100000, 0.015, 0]").replace("name: stop", "name: stop-far")
        shifted = shifted.replace("stop_time_ms: %s", "stop_time_ms: 120")
        write(self.p("scenarios", "far.yaml"), shifted + "  - {same_as: stop.yaml, offset: [100000, 0, 0]}\n")
        out, _ = self.run_ok(["run", "scenarios/far.yaml"])
        self.assertIn("checks: 3 expectations, 0 failed", out)
        write(self.p("scenarios", "far.yaml"), shifted + "  - {same_as: stop.yaml, offset: [100000, 0, 1]}\n")
        rc, out, _ = fxkcc(["run", "scenarios/far.yaml"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("expect[2] (line 15): same_as 'stop.yaml': tick 0: character 1: position (100000, 0.015, 0", out)

    def test_golden_every_records_a_stride_and_still_finds_a_desync(self):
        write(self.p("scenarios", "soak.yaml"), (self.SCENARIO % "120").replace("ticks: 80", "ticks: 95\ngolden_every: 10").replace("name: stop", "name: soak"))
        self.run_ok(["bless", "scenarios/soak.yaml"])
        t = self.target()
        lines = read(self.p("golden", t, "soak.hashes")).splitlines()
        self.assertIn("ticks 95", lines)
        self.assertIn("every 10", lines)
        ticks = [l.split()[0] for l in lines if re.match(r"^\d+ ", l)]
        self.assertEqual(ticks, ["9", "19", "29", "39", "49", "59", "69", "79", "89", "94"])
        self.assertEqual(len(read(self.p("golden", t, "soak.csv")).splitlines()), 2 + 10)
        self.run_ok(["verify", "scenarios/soak.yaml"])
        for i, l in enumerate(lines):
            if l.startswith("49 "):
                f = l.split(" ")
                f[2] = "%016x" % (int(f[2], 16) ^ 1)
                lines[i] = " ".join(f)
        write(self.p("golden", t, "soak.hashes"), "\n".join(lines) + "\n")
        rc, out, _ = fxkcc(["verify", "scenarios/soak.yaml"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("first divergent recorded tick 49 (ticks recorded every 10: it diverged after tick 39)", out)

    def test_expect_errors_exit_2_with_position(self):
        write(self.p("scenarios", "bad.yaml"), (self.SCENARIO % "120").replace("horizontal_speed", "horizontal_sped"))
        rc, _, err = fxkcc(["validate", "scenarios/bad.yaml"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("scenarios/bad.yaml:12:16: expect[0]: unknown key 'horizontal_sped', did you mean 'horizontal_speed'?", err)

    def test_list_markdown_documents_each_scenario(self):
        self.write_scenario("120")
        out, _ = self.run_ok(["list", "--markdown", "scenarios/stop.yaml"])
        self.assertEqual(out, "### stop\n\n`scenarios/stop.yaml`: 80 ticks, 1 character, 2 expectations\n\n"
                              "Runs at full speed and lets go.\n\n")


class Desync(Workspace):
    """The one-command desync report through the real binary, both sides being this binary and
    one of them faulted (the cross-target variant, native against AArch64 and wasm32, is
    scripts/cross.sh TARGET desync in the test command)."""

    def setUp(self):
        super().setUp()
        if not spawns_sides():
            self.skipTest("sides are spawned as this target's programs: natively or under wine")
        self.bin = os.path.abspath(BINARY)

    def _sleeping_side(self, pid_file):
        """A side that writes its process id, then sleeps for a minute (never answers)."""
        code = f'import os,time; open("{pid_file}","w").write(str(os.getpid())); time.sleep(60)'
        return f"{sys.executable} -c '{code}'"

    def test_a_side_past_its_time_limit_is_killed(self):
        """Issue 51, item 11: a side had no time limit. --side-timeout (default from the
        scenario's size) kills it and what it started; nothing is left in the temporary folder."""
        if EMULATOR:
            self.skipTest("the side is this machine's Python, which a Windows build under wine cannot start")
        tmpdir = self.p("tmp")
        os.makedirs(tmpdir)
        pid_file = self.p("side.pid")
        start = time.monotonic()
        rc, out, err = fxkcc(["desync", "scenarios/walk-wall.yaml", "--b", self._sleeping_side(pid_file),
                              "--side-timeout", "1"], self.tmp, env_extra={"TMPDIR": tmpdir})
        self.assertEqual(rc, 125, out + err)
        self.assertIn("could not run: it was killed after 1.0 s, its time limit (--side-timeout)", err)
        self.assertLess(time.monotonic() - start, 30)
        self.assertEqual(os.listdir(tmpdir), [])
        with self.assertRaises(ProcessLookupError):
            os.kill(int(read(pid_file)), 0)
        rc, _, err = fxkcc(["desync", "scenarios/walk-wall.yaml", "--side-timeout", "-1"], self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("--side-timeout", err)

    def test_sigterm_stops_the_sides_and_removes_the_temporaries(self):
        """Issue 51, item 11: desync killed by SIGTERM left its temporary folders and its side
        running. Now the side's process group is killed, the files and folders are removed, and
        fxkcc ends as the signal says."""
        if not native_posix():
            self.skipTest("POSIX signals")
        tmpdir = self.p("tmp")
        os.makedirs(tmpdir)
        pid_file = self.p("side.pid")
        env = {k: v for k, v in os.environ.items() if k != "CI"}
        env["TMPDIR"] = tmpdir
        p = subprocess.Popen([BINARY, "desync", "scenarios/walk-wall.yaml", "--b", self._sleeping_side(pid_file)],
                             cwd=self.tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while not (os.path.exists(pid_file) and read(pid_file)) and time.monotonic() < deadline:
            time.sleep(0.05)
        side = int(read(pid_file))
        self.assertNotEqual(os.listdir(tmpdir), [])  # the run's temporary folders exist
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=60)
        self.assertEqual(p.returncode, -signal.SIGTERM)
        self.assertEqual(os.listdir(tmpdir), [])
        with self.assertRaises(ProcessLookupError):
            os.kill(side, 0)

    def test_no_fault_no_desync(self):
        out, _ = self.run_ok(["desync", "scenarios/walk-wall.yaml"])
        self.assertTrue(out.startswith("no desync: 120 recorded ticks identical on both sides\n"), out)

    def test_an_injected_fault_is_named_with_tick_character_field_and_step(self):
        rc, out, err = fxkcc(["desync", "scenarios/walk-wall.yaml", "--b-args", "--inject-fault 40:7:z:2",
                              "--bundle", "bug"], self.tmp)
        self.assertEqual(rc, 1, err)
        self.assertIn("last matching tick 39, first divergent tick 40\nentities: c7\n", out)
        m = re.search(r"(?m)^  c7: z expected \S+ \(raw 0x([0-9a-f]{16})\) actual \S+ \(raw 0x([0-9a-f]{16})\) "
                      r"delta [+-]\d+ ulp = [+-][\d.]+ m$", out)
        self.assertIsNotNone(m, out)
        self.assertEqual(int(m.group(1), 16) ^ int(m.group(2), 16), 3)  # the two low bits flipped
        self.assertRegex(out, r"(?m)^  a t=41 c=7 tick-begin ")
        self.assertRegex(out, r"(?m)^  b t=41 c=7 tick-begin ")
        files = sorted(os.listdir(self.p("bug")))
        self.assertEqual(files, [".fxkcc-desync-bundle", "a.hashes", "a.state.csv", "a.trace", "a.version.txt", "b.hashes", "b.state.csv",
                                 "b.trace", "b.version.txt", "input.csv", "report.html", "report.txt", "scenario.yaml"])
        self.assertEqual(read(self.p("bug", "report.txt")), out.split("bundle: ")[0])
        self.assertIn("target:", read(self.p("bug", "b.version.txt")))
        self.assertIn("--inject-fault 40:7:z:2", read(self.p("bug", "b.version.txt")))
        inp = read(self.p("bug", "input.csv")).splitlines()
        self.assertEqual(inp[0], "tick,character,stick_x,stick_y,jump,impulse_x,impulse_y,impulse_z")
        self.assertEqual(inp[-1].split(",")[0], "40")  # the input up to the divergent tick
        self.assertFalse(os.path.exists(self.p("bug.tmp")))

    def test_the_bundle_scenario_runs_on_its_own_and_reproduces_side_a(self):
        # platform.yaml reads its input from inputs/idle.csv; the bundle holds no such file.
        rc, out, err = fxkcc(["desync", "scenarios/platform.yaml", "--b-args", "--inject-fault 30:3:x:1",
                              "--bundle", "bug"], self.tmp)
        self.assertEqual(rc, 1, out + err)
        moved = self.p("elsewhere")
        shutil.move(self.p("bug"), moved)  # away from the scenarios tree and its inputs
        self.assertNotIn("inputs/", read(os.path.join(moved, "scenario.yaml")))
        rc, out, err = fxkcc(["run", "scenario.yaml", "--hashes", "again.hashes"], moved)
        self.assertEqual(rc, 0, out + err)
        ticks = lambda path: [l for l in read(path).splitlines() if l[:1].isdigit()]
        self.assertEqual(ticks(os.path.join(moved, "again.hashes")), ticks(os.path.join(moved, "a.hashes")))
        self.assertNotEqual(ticks(os.path.join(moved, "again.hashes")), ticks(os.path.join(moved, "b.hashes")))

    def test_two_hash_files(self):
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "a.hashes"])
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "b.hashes", "--inject-fault", "99:1:facing:1"])
        rc, out, _ = fxkcc(["desync", "a.hashes", "b.hashes"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("last matching tick 98, first divergent tick 99\nentities: c1\n", out)
        out, _ = self.run_ok(["desync", "a.hashes", "a.hashes"])
        self.assertEqual(out, "no desync: every tick's hashes agree\n")

    def test_a_run_against_a_golden(self):
        self.run_ok(["bless", "scenarios/walk-wall.yaml"])
        g = f"golden/{self.target()}/walk-wall.hashes"
        out, _ = self.run_ok(["desync", "scenarios/walk-wall.yaml", g])
        self.assertEqual(out, f"no desync: the run matches {g} (golden) on every recorded tick\n")
        rc, out, _ = fxkcc(["desync", "scenarios/walk-wall.yaml", g, "--a-args", "--inject-fault 77:1:vy:5"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("last matching tick 76, first divergent tick 77\nentities: c1\n", out)
        self.assertRegex(out, r"(?m)^  c1: vy expected .* delta [+-]\d+ ulp = [+-][\d.]+ m/s$")
        self.assertIn("solver trace of the run, tick 77 (the golden has no trace):\n    t=77 c=1 tick-begin ", out)

    def test_bad_fault_and_a_side_that_cannot_run(self):
        rc, _, err = fxkcc(["run", "scenarios/walk-wall.yaml", "--inject-fault", "40:7:speed:2"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("fxkcc run: --inject-fault: unknown fault field 'speed', expected one of: x, y, z,", err)
        rc, _, err = fxkcc(["run", "scenarios/walk-wall.yaml", "--inject-fault", "40:5:x:2"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("the fault names character 5, which the scenario does not have", err)
        rc, _, err = fxkcc(["desync", "scenarios/walk-wall.yaml", "--b", "/nonexistent/fxkcc"], self.tmp)
        self.assertEqual(rc, 125)
        self.assertIn("fxkcc desync: side b (/nonexistent/fxkcc) could not run: it could not be started: ", err)


class Shrink(Workspace):
    """`fxkcc shrink` through the real binary: a desync of two sides (this binary, one of them with
    a fault injected) shrinks to the faulted character just past the fault and still diverges
    there when `desync` runs it; a failed expectation shrinks to a file that loads and fails the
    same expectation; a scenario that does not fail is refused."""

    def setUp(self):
        super().setUp()
        if not spawns_sides():
            self.skipTest("sides are spawned as this target's programs: natively or under wine")

    def test_desync_shrinks_to_the_faulted_character(self):
        out, _ = self.run_ok(["shrink", "scenarios/walk-wall.yaml", "-o", "small.yaml",
                              "--b-args", "--inject-fault 40:7:z:2"])
        self.assertIn("shrinking scenarios/walk-wall.yaml: desync: first divergent tick 40, entity c7\n", out)
        self.assertIn("  ticks: 120 -> 41 (runs ", out)
        self.assertIn("before: ticks 120, characters 2, world items 2, input events 4, expectations 0\n", out)
        self.assertIn("after:  ticks 41, characters 1, world items 0, input events 0, expectations 0\n", out)
        self.assertRegex(out, r"(?m)^runs:   \d+$")
        text = read(self.p("small.yaml"))
        self.assertIn("name: walk-wall-shrunk\n", text)
        self.assertIn("--inject-fault 40:7:z:2", text)  # the description says how it was made
        self.run_ok(["run", "small.yaml"])  # a valid scenario
        rc, out, err = fxkcc(["desync", "small.yaml", "--b-args", "--inject-fault 40:7:z:2"], self.tmp)
        self.assertEqual(rc, 1, err)
        self.assertIn("last matching tick 39, first divergent tick 40\nentities: c7\n", out)
        self.assertFalse([f for f in os.listdir(self.tmp) if ".tmp." in f])

    def test_failed_expectation_shrinks_and_still_fails_it(self):
        write(self.p("scenarios", "fails.yaml"),
              "format: 1\nname: fails\ndescription: d\nticks: 300\nworld:\n"
              "  - box: {id: 1, center: [0, -0.5, 0], half_extents: [20, 0.5, 20]}\n"
              "  - box: {id: 2, center: [12, 0.15, 0], half_extents: [10, 0.15, 3]}\n"
              "  - sphere: {id: 3, center: [-5, 0, -5], radius: 0.5}\n"
              "  - box: {id: 4, center: [-8, 0.5, 8], half_extents: [1, 0.5, 1]}\n"
              "characters:\n"
              "  - id: 1\n    spawn: [0, 0.015, 0]\n    input:\n"
              "      segments: [{ticks: 60, stick: [1, 0]}, {ticks: 60, stick: [0, 1]}, {ticks: 60}]\n"
              "      jumps: [150, 200]\n"
              "  - id: 2\n    spawn: [-3, 0.015, 5]\n    input: {segments: [{ticks: 300, stick: [0, 0.2]}]}\n"
              "expect:\n"
              "  - {character: 2, y: [-1, 5]}\n"
              "  - {tick: 70, character: 1, y: {max: 0.1}}\n")
        rc, _, _ = fxkcc(["run", "scenarios/fails.yaml"], self.tmp)
        self.assertEqual(rc, 1)
        out, _ = self.run_ok(["shrink", "scenarios/fails.yaml", "-o", "small.yaml"])
        self.assertIn("shrinking scenarios/fails.yaml: expectation failed: expect[1] (line 21): tick 70, character 1: y = 0.3", out)
        self.assertIn("after:  ticks 71, characters 1, world items 2, input events 1, expectations 1\n", out)
        rc, out, _ = fxkcc(["run", "small.yaml"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"expectation failed: expect\[0\] \(line \d+\): tick 70, character 1: y = 0.3")

    def test_nothing_to_shrink(self):
        rc, _, err = fxkcc(["shrink", "scenarios/walk-wall.yaml", "-o", "small.yaml"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertEqual(err, "fxkcc shrink: the scenario does not fail: nothing to shrink\n")
        rc, _, err = fxkcc(["shrink", "scenarios/walk-wall.yaml", "-o", "small.yaml", "--b-args", ""], self.tmp)
        self.assertEqual(rc, 2)
        rc, _, err = fxkcc(["shrink", "scenarios/walk-wall.yaml", "-o", "small.yaml", "--a", BINARY], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("the two sides do not diverge", err)
        self.assertFalse(os.path.exists(self.p("small.yaml")))


class Swarm(Workspace):
    """`fxkcc swarm` through the real binary: what --emit writes validates and does not depend on
    -j; a planted desync (side b with a fault) is found in every run, merged into one finding,
    shrunk to a scenario that still diverges, and printed with its reproduction; a known finding
    passes; bad usage is refused."""

    FAULT = "--inject-fault 5:1001:vx:3"  # the first wall-joint body, in every wall-joint run

    def setUp(self):
        super().setUp()
        if EMULATOR:
            # A host tool: its generation is held to the same bytes on every target by
            # harness.swarm_test, and its runs against every target by the AArch64 and wasm32
            # legs' sides (scripts/cross.sh desync); dozens of runs under an emulator cost minutes.
            self.skipTest("swarm runs natively (docs/swarm.md)")

    def test_emitted_scenarios_validate_and_do_not_depend_on_jobs(self):
        for jobs, folder in (("1", "e1"), ("2", "e2")):
            rc, out, err = fxkcc(["swarm", "--seed", "5", "--runs", "6", "-j", jobs, "--no-synctest",
                                  "--emit", folder], self.tmp)
            self.assertIn(rc, (0, 1), err)
            self.assertRegex(out, r"(?m)^swarm seed 5: 6 runs, \d+ character-ticks, \d+ finding\(s\)")
        names = sorted(os.listdir(self.p("e1")))
        self.assertEqual(names, sorted(f"swarm-5-{i}.yaml" for i in range(6)))
        self.assertEqual(names, sorted(os.listdir(self.p("e2"))))
        for n in names:
            self.assertEqual(read(self.p("e1", n)), read(self.p("e2", n)), n)
        out, _ = self.run_ok(["validate", "--scenarios-dir", "e1"])
        self.assertIn("6 ", out)
        # One run alone is the same scenario as in the batch.
        rc, _, err = fxkcc(["swarm", "--seed", "5", "--run", "4", "--no-synctest", "--emit", "one"], self.tmp)
        self.assertIn(rc, (0, 1), err)
        self.assertEqual(read(self.p("one", "swarm-5-4.yaml")), read(self.p("e1", "swarm-5-4.yaml")))

    def test_a_planted_desync_is_found_shrunk_and_reproduced(self):
        if not spawns_sides():
            self.skipTest("sides are spawned as this target's programs: natively or under wine")
        args = ["swarm", "--seed", "11", "--runs", "3", "--features", "wall-joint", "--no-metamorphic",
                "--no-synctest", "--b-args", self.FAULT, "--junit", "report.xml", "--out", "found",
                "--json", "report.json", "--shrink-runs", "60"]
        rc, out, err = fxkcc(args, self.tmp)
        self.assertEqual(rc, 1, err)
        report = json.loads(read(self.p("report.json")))
        self.assertEqual(report["seed"], 11)
        self.assertEqual(report["runs"], 3)
        self.assertEqual(report["oracles"]["sides"], 3)
        sides = [f for f in report["findings"] if f["oracle"] == "sides"]
        self.assertEqual(len(sides), 1, report["findings"])  # one finding, the other runs its duplicates
        f = sides[0]
        self.assertEqual(f["key"], "sides|wall-joint")
        self.assertEqual(f["run"], 0)
        self.assertEqual(f["duplicates"], 2)
        self.assertIn("--seed 11 --run 0 --features wall-joint --b-args '" + self.FAULT + "'", f["repro"])
        self.assertIn("FINDING  sides|wall-joint", out)
        xml = read(self.p("report.xml"))
        self.assertRegex(xml, r'<testcase classname="swarm" name="sides"><failure message="sides: 3 runs checked, findings">sides\|wall-joint\|')
        self.assertIn('<testcase classname="swarm" name="invariants">', xml)
        # The shrunk scenario: one character, a few ticks, still diverging at tick 5 for c1001.
        small = os.path.relpath(f["scenario"], self.tmp) if os.path.isabs(f["scenario"]) else f["scenario"]
        text = read(self.p(small))
        self.assertIn("  - id: 1001\n", text)
        self.assertNotIn("  - id: 1002\n", text)
        rc, out, err = fxkcc(["desync", small, "--b-args", self.FAULT], self.tmp)
        self.assertEqual(rc, 1, err)
        self.assertIn("first divergent tick 5\n", out)
        # Every key of the report known: each reported as known, exit 0.
        keys = sorted({g["key"] for g in report["findings"]})
        write(self.p("known.txt"), "# planted\n" + "".join(k + "\n" for k in keys))
        rc, out, err = fxkcc(args[:-2] + ["--known", "known.txt"], self.tmp)
        self.assertEqual(rc, 0, err)
        self.assertIn("known    sides|wall-joint", out)
        self.assertNotIn("FINDING", out)
        # Known findings do not fail the JUnit report either: their case is skipped, and says why.
        xml = read(self.p("report.xml"))
        self.assertIn('failures="0" skipped="1"', xml)
        self.assertIn('<testcase classname="swarm" name="sides"><skipped message="sides: 3 runs checked, '
                      'known findings only"/><system-out>sides|wall-joint|', xml)
        self.assertNotIn("<failure", xml)

    def test_a_signal_stops_starting_runs_and_the_report_covers_those_done(self):
        # Hours of runs stopped by Ctrl-C or a CI job's SIGTERM: no run starts after the signal,
        # the report (text, JSON) covers the runs that finished and says it was stopped early; the
        # exit code is the usual one. Without the gentle stop the process died with no report.
        if not native_posix():
            self.skipTest("POSIX signals")
        sig = signal.SIGINT if signal.getsignal(signal.SIGINT) != signal.SIG_IGN else signal.SIGTERM
        env = {k: v for k, v in os.environ.items() if k != "CI"}
        with open(self.p("err.txt"), "w") as err_file, open(self.p("out.txt"), "w") as out_file:
            p = subprocess.Popen([BINARY, "swarm", "--seed", "3", "--time", "3600", "-j", "1",
                                  "--no-synctest", "--json", "r.json"], cwd=self.tmp, env=env,
                                 stdout=out_file, stderr=err_file)
            self.procs.append(p)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and "swarm: 50 runs" not in read(self.p("err.txt")):
                time.sleep(0.05)
            self.assertIn("swarm: 50 runs", read(self.p("err.txt")))
            p.send_signal(sig)
            p.wait(300)
        self.assertIn(p.returncode, (0, 1), read(self.p("err.txt")))
        self.assertIn("stopping after the work in progress", read(self.p("err.txt")))
        report = json.loads(read(self.p("r.json")))
        self.assertTrue(report["interrupted"])
        self.assertGreaterEqual(report["runs"], 50)
        self.assertLess(report["runs"], 5000)  # far from what an hour holds: it stopped
        out = read(self.p("out.txt"))
        self.assertRegex(out, rf"(?m)^swarm seed 3: {report['runs']} runs, ")
        self.assertIn(f"stopped early by signal {int(sig)}: no run started after it", out)
        # Its time, counted by the process: 50 runs or more take a measurable share of a second of
        # CPU, and one job cannot use more processor time than wall time (a little slack for the
        # clocks' granularity); the text says the same figures.
        self.assertGreater(report["wall_ms"], 0)
        self.assertGreater(report["cpu_ms"], 50)
        self.assertLessEqual(report["cpu_ms"], report["wall_ms"] + 50)
        m = re.search(r"(?m)^time: (\d+\.\d) s of wall time, (\d+\.\d) s of CPU \((\d+\.\d\d) core-hours\)$", out)
        self.assertIsNotNone(m, out)
        self.assertAlmostEqual(float(m.group(1)), report["wall_ms"] / 1000, delta=0.051)
        self.assertAlmostEqual(float(m.group(2)), report["cpu_ms"] / 1000, delta=0.051)
        self.assertAlmostEqual(float(m.group(3)), report["cpu_ms"] / 3600000, delta=0.0051)
        # A run that was not stopped says so too.
        rc, out, err = fxkcc(["swarm", "--seed", "3", "--runs", "2", "--no-synctest", "--json", "-"], self.tmp)
        self.assertIn(rc, (0, 1), err)
        self.assertFalse(json.loads(out)["interrupted"])

    def test_every_comparing_oracle_finds_its_planted_fault(self):
        # The test of the test: each oracle that compares two runs reports a difference planted in
        # one of them (a spawn moved 1 mm, a restored position flipped in its lowest bits).
        for oracle in ("translate", "permute", "frames", "turn", "roundtrip", "synctest"):
            rc, out, err = fxkcc(["swarm", "--seed", "3", "--runs", "2", "--inject-oracle-fault", oracle,
                                  "--shrink-runs", "10", "--json", "-"], self.tmp)
            self.assertEqual(rc, 1, err)
            report = json.loads(out)
            self.assertTrue(any(f["oracle"] == oracle for f in report["findings"]), (oracle, report["findings"]))
            mine = next(f for f in report["findings"] if f["oracle"] == oracle)
            self.assertIn("--inject-oracle-fault " + oracle, mine["repro"])
        rc, _, err = fxkcc(["swarm", "--inject-oracle-fault", "rules"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("--inject-oracle-fault: expected one of translate, permute, frames, turn, roundtrip, synctest, found 'rules'", err)

    def test_time_budget_and_unwritable_report(self):
        rc, out, err = fxkcc(["swarm", "--seed", "2", "--time", "1", "--no-synctest", "--json", "-"], self.tmp)
        self.assertIn(rc, (0, 1), err)
        runs = json.loads(out)["runs"]
        self.assertGreater(runs, 0)
        self.assertLess(runs, 100000)  # stopped by the time, not by a count
        rc, _, err = fxkcc(["swarm", "--runs", "1", "--no-synctest", "--json", "no/such/folder/r.json"], self.tmp)
        self.assertEqual(rc, 125)
        self.assertIn("no/such/folder/r.json", err)

    def side_script(self, name, body):
        """A side of its own: `--version` answered by this binary, any run by the shell `body`."""
        path = self.p(name)
        write(path, f'#!/bin/sh\nif [ "$1" = --version ]; then exec {BINARY} --version; fi\n{body}\n')
        os.chmod(path, 0o755)
        return "./" + name

    def test_a_side_that_cannot_run_is_refused_before_any_run(self):
        not_fxkcc = self.p("not-fxkcc.sh")
        write(not_fxkcc, "#!/bin/sh\necho 'other 1.0'\n")
        os.chmod(not_fxkcc, 0o755)
        for side, why in (("/nonexistent/fxkcc", "it could not be started: No such file or directory"),
                          ("false", "it exited 1"),
                          ("./not-fxkcc.sh", "its --version does not start with 'fxkcc '")):
            rc, out, err = fxkcc(["swarm", "--runs", "3", "--b", side, "--out", "found"], self.tmp)
            self.assertEqual(rc, 125, err)
            self.assertEqual(err, f"fxkcc swarm: side b ({side}) cannot run fxkcc: {why}\n")
            self.assertEqual(out, "")
            self.assertFalse(os.path.exists(self.p("found")))

    def test_a_side_failing_on_a_world_is_a_finding_shrunk_and_reproduced(self):
        for body, what in (("echo 'trap: unreachable' >&2; exit 3", "exited 3: trap: unreachable"),
                           ('kill -SEGV $$', "was killed by signal 11 (SIGSEGV)"),
                           ("echo 'no hashes' >&2; exit 1", "exited 1 without writing its hashes: no hashes")):
            side = self.side_script("side.sh", body)
            shutil.rmtree(self.p("found"), ignore_errors=True)
            rc, out, err = fxkcc(["swarm", "--seed", "3", "--runs", "2", "--no-metamorphic", "--no-synctest",
                                  "--b", side, "--out", "found", "--json", "r.json", "--junit", "r.xml"],
                                 self.tmp)
            self.assertEqual(rc, 1, err)
            report = json.loads(read(self.p("r.json")))
            self.assertEqual(report["oracles"]["sides"], 2)
            self.assertEqual([f["oracle"] for f in report["findings"]], ["sides-run"], out)
            # The JUnit report fails as the exit code does: the finding's group is a case of its
            # own (before, only the oracles that ran were cases, and it said failures="0").
            xml = read(self.p("r.xml"))
            self.assertIn('failures="1" skipped="0"', xml)
            self.assertRegex(xml, r'<testcase classname="swarm" name="sides-run"><failure '
                                  r'message="sides-run, findings">sides-run\|')
            self.assertIn(f"side b ({side}) {what}", out)
            self.assertIn("also in 1 other run(s): 1", out)
            # Shrunk by asking the side again: the smallest world on which it still fails.
            self.assertRegex(out, r"shrunk: ticks \d+, .* -> ticks 1, characters 1, ")
            scenario = report["findings"][0]["scenario"]
            self.assertTrue(os.path.exists(self.p(scenario)), scenario)
            self.run_ok(["validate", scenario])
            self.assertIn(f"fxkcc swarm --seed 3 --run 0 --b '{side}'", report["findings"][0]["repro"])

    def test_bad_usage(self):
        rc, _, err = fxkcc(["swarm", "--features", "ledge,wall"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("fxkcc swarm: --features: unknown feature 'wall'", err)
        rc, _, err = fxkcc(["swarm", "--runs", "3", "--run", "1"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("--runs and --run do not go together", err)
        write(self.p("known.txt"), "rule:wall-slide|wall-joint\nnot a key\n")
        rc, _, err = fxkcc(["swarm", "--runs", "1", "--known", "known.txt"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("known.txt:2:1: expected an oracle|family key", err)
        self.assertFalse(os.path.exists(self.p("found")))
        # The known list is an input: no report may overwrite it, through a link neither.
        write(self.p("known.txt"), "turn|-\n")
        os.symlink("known.txt", self.p("known-link.txt"))
        for flag in ("--json", "--junit"):
            rc, _, err = fxkcc(["swarm", "--runs", "1", "--known", "known.txt", flag, "known-link.txt"], self.tmp)
            self.assertEqual(rc, 2, err)
            self.assertIn(f"{flag} 'known-link.txt' is an input of the command ('known.txt')", err)
        self.assertEqual(read(self.p("known.txt")), "turn|-\n")
        # Nor be named as a scenario the swarm writes into its folders.
        rc, _, err = fxkcc(["swarm", "--runs", "1", "--emit", "em", "--json", "./em/swarm-1-0.yaml"], self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("--json './em/swarm-1-0.yaml' is named as the scenarios --emit writes into 'em'", err)
        self.assertFalse(os.path.exists(self.p("em")))


    def test_what_it_writes_stays_where_it_was_told(self):
        """Found by attacking the tool (docs/reliability.md): the files swarm names in --emit and
        --out are never written through a link found there, nor over its own inputs; a report
        that cannot be written is found before the first run; an empty option is refused, not
        read as absent."""
        write(self.p("precious.txt"), "keep me\n")
        os.makedirs(self.p("em"))
        os.symlink("../precious.txt", self.p("em", "swarm-3-0.yaml"))
        rc, _, err = fxkcc(["swarm", "--seed", "3", "--runs", "2", "-j", "1", "--no-metamorphic",
                            "--no-synctest", "--emit", "em"], self.tmp)
        self.assertEqual(rc, 125, err)
        self.assertIn("'em/swarm-3-0.yaml' is a symbolic link", err)
        self.assertEqual(read(self.p("precious.txt")), "keep me\n")
        # The known list kept in the folder under a name the swarm writes: refused before a run.
        os.makedirs(self.p("kem"))
        write(self.p("kem", "swarm-3-0.yaml"), "turn|-\n")
        for flag in ("--emit", "--out"):
            rc, _, err = fxkcc(["swarm", "--seed", "3", "--runs", "2", "--known", "kem/swarm-3-0.yaml",
                                flag, "kem"], self.tmp)
            self.assertEqual(rc, 2, err)
            self.assertIn(f"the input 'kem/swarm-3-0.yaml' is named as the scenarios {flag} writes", err)
        self.assertEqual(read(self.p("kem", "swarm-3-0.yaml")), "turn|-\n")
        # A report that cannot be written: refused at once, not after the runs (no progress line).
        write(self.p("file.txt"), "")
        for report in ("file.txt/r.json", "."):
            rc, _, err = fxkcc(["swarm", "--runs", "100000", "-j", "1", "--json", report], self.tmp)
            self.assertEqual(rc, 125, err)
            self.assertNotIn("runs\n", err)
            self.assertTrue(err.startswith("fxkcc swarm: --json: cannot "), err)
        # A report in the --emit folder, which the swarm makes first.
        rc, _, err = fxkcc(["swarm", "--seed", "3", "--runs", "1", "--emit", "new", "--json", "new/r.json"], self.tmp)
        self.assertIn(rc, (0, 1), err)
        self.assertEqual(json.loads(read(self.p("new", "r.json")))["runs"], 1)
        # An output may not replace the program it runs, nor a side's.
        side = self.side_script("side.sh", f"exec {BINARY} \"$@\"")
        rc, _, err = fxkcc(["swarm", "--runs", "1", "--b", side, "--junit", "side.sh"], self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("--junit 'side.sh' is an input of the command", err)
        for args, expected in (
                (["--b", ""], "--b: expected a command that runs fxkcc, found an empty string"),
                (["--features", ""], "--features: expected a comma-separated list of features"),
                (["--json", ""], "--json: expected a file"),
                (["--junit", "-"], "--junit: expected a file, found '-'"),
                (["--inject-oracle-fault", "translate", "--no-metamorphic"], "that oracle is off (--no-metamorphic)"),
                (["--inject-oracle-fault", "synctest", "--no-synctest"], "that oracle is off (--no-synctest)")):
            with self.subTest(args):
                rc, out, err = fxkcc(["swarm", "--runs", "1"] + args, self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertIn(expected, err)
                self.assertEqual(out, "")

    def test_numbers_are_decimal_and_never_clamped(self):
        rc, out, err = fxkcc(["swarm", "--seed", "010", "--runs", "1", "--no-synctest", "--json", "-"], self.tmp)
        self.assertIn(rc, (0, 1), err)
        self.assertEqual(json.loads(out)["seed"], 10)  # not octal 8
        for seed, expected in (("0x10", "expected a whole number in decimal digits, found '0x10'"),
                               ("1e3", "expected a whole number in decimal digits, found '1e3'"),
                               ("18446744073709551615", "expected a whole number from"),
                               ("99999999999999999999", "expected a whole number from"),
                               ("12abc", "expected a whole number in decimal digits, found '12abc'")):
            with self.subTest(seed):
                rc, out, err = fxkcc(["swarm", "--seed", seed, "--runs", "1"], self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertIn("--seed: " + expected, err)
        rc, _, err = fxkcc(["run", "scenarios/walk-wall.yaml", "--stop-after", "0x5"], self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("--stop-after: expected a whole number in decimal digits", err)

    def test_a_known_list_is_checked_line_by_line(self):
        write(self.p("bom.txt"), "\ufeffturn|-  # a byte order mark first, as some editors write\n")
        rc, _, err = fxkcc(["swarm", "--seed", "11", "--runs", "1", "--known", "bom.txt"], self.tmp)
        self.assertIn(rc, (0, 1), err)
        for line, why in (("bogus|-", "the oracle is invariant:NAME, rule:NAME, rest-NAME or one of"),
                          ("TURN|-", "lower case letters"),
                          ("translate|-|notch,frames|-", "more than one '|'"),
                          ("turn|nosuch", "the family is '-' or a feature's name"),
                          ("turn|crowd/heap", "a crowd's arrangement"),
                          ("turn|-\x1b]0;pwned\x07", "found 'turn|-\\x1b]0;pwned\\x07'")):
            with self.subTest(line):
                write(self.p("k.txt"), "# known\n  " + line + "\n")
                rc, _, err = fxkcc(["swarm", "--runs", "1", "--known", "k.txt"], self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertIn("k.txt:2:3: expected an oracle|family key", err)
                self.assertIn(why, err)
                self.assertNotIn("\x1b", err)

    def test_a_finding_repro_runs_as_printed(self):
        """The repro line reproduces: the side's time limit kept, a quote in a side's path quoted
        for the shell; what a side prints reaches the report with its control characters escaped."""
        os.makedirs(self.p("it's"))
        path = self.p("it's", "side.sh")
        write(path, f'#!/bin/sh\nif [ "$1" = --version ]; then exec {BINARY} --version; fi\n'
                    "printf 'trap\\033]0;pwned\\007\\n' >&2; exit 3\n")
        os.chmod(path, 0o755)
        side = '"' + "./it's/side.sh" + '"'
        rc, out, err = fxkcc(["swarm", "--seed", "3", "--runs", "1", "--no-metamorphic", "--no-synctest",
                              "--b", side, "--side-timeout", "50", "--shrink-runs", "3", "--json", "r.json"], self.tmp)
        self.assertEqual(rc, 1, err)
        self.assertNotIn("\x1b", out + err)
        self.assertIn("exited 3: trap\\x1b]0;pwned\\x07", out)
        repro = json.loads(read(self.p("r.json")))["findings"][0]["repro"]
        self.assertIn("--side-timeout 50", repro)
        words = shlex.split(repro)
        self.assertEqual(words[words.index("--b") + 1], side)
        subprocess.run(["bash", "-n", "-c", repro], check=True)


class Colour(Workspace):
    """Status words in colour on a terminal; plain text in pipes, with NO_COLOR or TERM=dumb;
    --color always / never decide, before or after the subcommand's name."""

    GREEN_PASS = "\x1b[32mpass\x1b[0m"

    def blessed(self):
        self.run_ok(["bless", "scenarios/walk-wall.yaml"])

    def test_pipes_get_plain_text_unless_asked(self):
        self.blessed()
        out, _ = self.run_ok(["verify", "--no-progress", "scenarios/walk-wall.yaml"])
        self.assertNotIn("\x1b", out)
        self.assertRegex(out, r"(?m)^pass {8}walk-wall")
        out, _ = self.run_ok(["--color", "always", "verify", "scenarios/walk-wall.yaml"])
        self.assertIn(self.GREEN_PASS, out)
        self.assertRegex(out, r"(?m)^\x1b\[32mpass\x1b\[0m {8}walk-wall")  # columns as without colour
        out, _ = self.run_ok(["verify", "scenarios/walk-wall.yaml", "--color=always"], env_extra={"NO_COLOR": "1"})
        self.assertIn(self.GREEN_PASS, out)
        out, _ = self.run_ok(["verify", "scenarios/walk-wall.yaml", "--color", "never"])
        self.assertNotIn("\x1b", out)
        rc, _, err = fxkcc(["--color", "yes", "list"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("expected auto, always or never, found 'yes'", err)

    def test_mismatch_in_red(self):
        self.blessed()
        g = self.p("golden", self.target(), "walk-wall.hashes")
        lines = read(g).split("\n")
        i = next(k for k, l in enumerate(lines) if l.startswith("5 "))
        lines[i] = "5 " + "0" * 16 + lines[i][18:]
        write(g, "\n".join(lines))
        rc, out, _ = fxkcc(["--color", "always", "verify", "scenarios/walk-wall.yaml"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("\x1b[1m\x1b[31mMISMATCH\x1b[0m", out)

    def run_on_terminal(self, args, env_extra):
        """Runs fxkcc with stdout on a pseudo-terminal; returns what it printed there."""
        import pty
        master, slave = pty.openpty()
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "NO_COLOR")}
        env["TERM"] = "xterm"
        env.update(env_extra)
        p = subprocess.Popen([BINARY] + args, cwd=self.tmp, env=env, stdout=slave, stderr=subprocess.PIPE)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        os.close(master)
        p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0)
        return b"".join(chunks).decode()

    def test_terminal_gets_colour_unless_no_color_or_dumb(self):
        if EMULATOR or os.name != "posix":
            self.skipTest("a pseudo-terminal for the native binary only")
        self.blessed()
        args = ["verify", "--no-progress", "scenarios/walk-wall.yaml"]
        self.assertIn(self.GREEN_PASS, self.run_on_terminal(args, {}))
        self.assertNotIn("\x1b", self.run_on_terminal(args, {"NO_COLOR": "1"}))
        self.assertNotIn("\x1b", self.run_on_terminal(args, {"TERM": "dumb"}))
        self.assertIn(self.GREEN_PASS, self.run_on_terminal(args, {"NO_COLOR": ""}))


class Bench(Workspace):
    def test_bench_reports_time_queries_and_memory(self):
        out, _ = self.run_ok(["bench", "scenarios/walk-wall.yaml", "--repeat", "3", "--warmup", "0", "--json", "b.json"])
        self.assertIn("walk-wall: 120 ticks x 2 characters = 240 character-ticks, 3 timed runs", out)
        m = re.search(r"world memory per character: (\d+) bytes \(state (\d+), settings (\d+), kept between ticks "
                      r"(\d+), the world's scratch (\d+)\)", out)
        self.assertIsNotNone(m, out)
        self.assertEqual(int(m.group(1)), sum(int(m.group(k)) for k in range(2, 6)))
        self.assertGreater(int(m.group(5)), 0)
        for phase in ("depenetration + probe", "velocity", "slide (both passes)", "step-up", "snap / landing"):
            self.assertIn(phase, out)
        j = json.loads(read(self.p("b.json")))
        self.assertEqual(j["scenario"], "walk-wall")
        self.assertEqual(j["character_ticks"], 240)
        t = j["ns_per_character_tick"]
        self.assertTrue(0 < t["min"] <= t["median"] <= t["max"], t)
        q = j["queries_per_character_tick"]
        # Every character-tick depenetrates once and probes at least once (twice when a snap
        # finds nothing), by a query or from the last tick's cast (a body standing still against
        # the wall reuses it); the wall is met, so some sweeps happen.
        self.assertAlmostEqual(q["overlap"] + q["overlap_reused"], 1.0, places=3)
        self.assertGreaterEqual(q["probe_cast"] + q["probe_reused"], 1.0)
        self.assertGreater(q["probe_reused"], 0.1)
        self.assertGreater(q["slide_sweep"], 0.5)
        self.assertEqual(j["world_bytes_per_character"], int(m.group(1)))

    def test_bench_bad_input(self):
        rc, out, err = fxkcc(["bench", "scenarios/missing.yaml"], self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("missing.yaml", err)
        rc, out, err = fxkcc(["bench", "scenarios/walk-wall.yaml", "--repeat", "0"], self.tmp)
        self.assertEqual(rc, 2, err)
        # --once measures nothing: a --json beside it was silently not written.
        rc, out, err = fxkcc(["bench", "scenarios/walk-wall.yaml", "--once", "--json", "b.json"], self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("--once makes one untimed run and measures nothing: --json does not go with it", err)
        self.assertFalse(os.path.exists(self.p("b.json")))


class SyncTest(Workspace):
    """fxkcc synctest: a rollback of N ticks at every tick must give the first run's bits; a
    restore that brings back a wrong value must be reported like a desync."""

    def test_every_scenario_identical_after_rollbacks(self):
        for n in ("1", "8"):
            out, _ = self.run_ok(["synctest", "scenarios", "--rollback", n])
            self.assertIn(f"2 scenarios, rollback {n}: 2 identical, 0 desynced, 0 errors", out)
            self.assertRegex(out, rf"pass +walk-wall +120 ticks, rolled back {n} at every tick")

    def test_injected_restore_fault_is_a_desync(self):
        rc, out, err = fxkcc(["synctest", "scenarios/walk-wall.yaml", "--rollback", "4",
                              "--inject-restore-fault", "30:7:z:2"], self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("DESYNC      walk-wall  desync at tick 30 simulated again after restoring tick 30", out)
        self.assertRegex(out, r"c7: z expected \S+ \(raw 0x[0-9a-f]{16}\) actual")
        self.assertNotIn("c1:", out)  # only the character whose restore was wrong
        self.assertRegex(out, r"characters' hash: first run [0-9a-f]{16}, after the rollback [0-9a-f]{16}")
        self.assertIn("0 identical, 1 desynced", out)

    def test_bad_input(self):
        for args, text in ((["--rollback", "0"], "rollback"),
                           (["--inject-restore-fault", "x:1:z:2"], "--inject-restore-fault"),
                           (["--inject-restore-fault", "30:99:z:2"], "character 99")):
            rc, out, err = fxkcc(["synctest", "scenarios/walk-wall.yaml", *args], self.tmp)
            self.assertEqual(rc, 2, f"{args}: {out}{err}")
            self.assertIn(text, err)
        rc, out, err = fxkcc(["synctest", "scenarios/missing.yaml"], self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("missing.yaml", err)


class BadInput(Workspace):
    """Each class of bad input: one clear error naming file:line:column, exit 2, no output."""

    CASES = [
        ("syntax", GOOD_HEAD.replace("ticks: 10", "ticks: [1") + CHAR,
         "scenarios/bad.yaml:5:11: YAML syntax error: end of sequence flow not found"),
        ("unknown key", GOOD_HEAD + "tick_rat: 50\n" + CHAR,
         "scenarios/bad.yaml:5:1: unknown key 'tick_rat', did you mean 'tick_rate'?"),
        ("negative size", GOOD_HEAD + "world:\n  - box: {id: 1, center: [0, 0, 0], half_extents: [1, -1, 1]}\n" + CHAR,
         "scenarios/bad.yaml:6:55: world[0].box.half_extents[1]: expected a positive number of metres, found '-1'"),
        ("settings out of range", GOOD_HEAD + "characters:\n  - {id: 1, spawn: [0, 0, 0], settings: {radius: 0}}\n",
         "scenarios/bad.yaml:6:31: characters[0].settings: radius: must be > 0"),
        ("missing file", GOOD_HEAD + "characters:\n  - {id: 1, spawn: [0, 0, 0], input: {csv: nope.csv}}\n",
         "scenarios/bad.yaml:6:44: characters[0].input.csv: cannot read 'nope.csv'"),
        ("escaping path", GOOD_HEAD + "world:\n  - mesh: {id: 1, obj: ../outside.obj}\n" + CHAR,
         "scenarios/bad.yaml:6:24: world[0].mesh.obj: '../outside.obj' resolves outside the scenarios tree"),
        ("NaN", GOOD_HEAD + "characters:\n  - {id: 1, spawn: [0, nan, 0]}\n",
         "scenarios/bad.yaml:6:24: characters[0].spawn[1]: expected a number, found 'nan': NaN is not a number the "
         "simulation accepts\n"),
    ]

    def test_every_class_exits_2_with_its_message_and_writes_nothing(self):
        write(self.p("outside.obj"), "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n")
        for label, text, message in self.CASES:
            with self.subTest(label):
                write(self.p("scenarios", "bad.yaml"), text)
                rc, out, err = fxkcc(["run", "scenarios/bad.yaml", "--hashes", "o/h.hashes", "--csv", "o/t.csv"], self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertTrue(err.startswith(message), f"\nexpected: {message}\nactual:   {err}")
                self.assertEqual(err.count("\n"), 1, "exactly one error line")
                self.assertFalse(os.path.exists(self.p("o")), "nothing half-written")
                rc, _, err2 = fxkcc(["validate", "scenarios/bad.yaml"], self.tmp)
                self.assertEqual(rc, 2)
                self.assertTrue(err2.startswith(message))
                rc, out, _ = fxkcc(["verify"], self.tmp)
                self.assertEqual(rc, 2)
                self.assertIn("ERROR", out)

    def test_allow_outside_permits_an_escaping_path(self):
        write(self.p("outside.obj"), "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n")
        write(self.p("scenarios", "bad.yaml"), GOOD_HEAD + "world:\n  - mesh: {id: 1, obj: ../outside.obj}\n" + CHAR)
        self.run_ok(["run", "scenarios/bad.yaml", "--allow-outside"])

    def test_bless_writes_nothing_when_one_scenario_is_bad(self):
        write(self.p("scenarios", "bad.yaml"), GOOD_HEAD + "tick_rat: 50\n" + CHAR)
        rc, _, err = fxkcc(["bless"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("unknown key 'tick_rat'", err)
        self.assertEqual(self.golden_files(), [])


NATIVE_POSIX = os.name == "posix"


def native_posix():
    """POSIX files (FIFOs, symbolic links, devices, signals) are only exercised natively: under
    an emulator (wine, node) the binary sees another file system or signals."""
    return NATIVE_POSIX and not EMULATOR


class FrameCost(Workspace):
    """Issue 51, item 8: a valid 12-line scenario with display frames of 1 ns at 1 Hz took 15 s
    for two ticks (a billion frames a tick, one loop iteration each). Frames that leave a tick
    not yet due are now added at once; the ticks and their poses are those of one 1 s frame a
    tick (each tick falls due exactly at a frame's end)."""

    SCENARIO = """format: 1
name: {name}
description: "Display frames of {ms} ms at 1 Hz."
tick_rate: 1
ticks: 3
world:
  - plane: {{id: 1, normal: [0, 1, 0], offset: 0}}
characters:
  - id: 1
    spawn: [0, 0.015, 0]
    input: {{segments: [{{ticks: 3, stick: [0.3, 1]}}]}}
frames:
  - {{ms: {ms}, count: {count}}}
"""

    def same_run(self, a, b):
        """The two runs' hash files and CSVs, but the scenario digest (the frames differ)."""
        for ext in ("hashes", "csv"):
            strip = lambda text: re.sub(r"(?m)^digest [0-9a-f]{16}\n", "", text)
            self.assertEqual(strip(read(self.p(f"{a}.{ext}"))), strip(read(self.p(f"{b}.{ext}"))), ext)

    def test_frames_shorter_than_a_tick_cost_no_iteration_each(self):
        write(self.p("tiny.yaml"), self.SCENARIO.format(name="frames", ms="0.000001", count=10000000))
        write(self.p("whole.yaml"), self.SCENARIO.format(name="frames", ms="1000", count=3))
        # A hang, not a timing: the build before took about 9 s a tick here (3 * 10^9 frames).
        p = subprocess.run(EMULATOR + [BINARY, "run", "tiny.yaml", "--hashes", "tiny.hashes", "--csv", "tiny.csv"],
                           cwd=self.tmp, capture_output=True, text=True, timeout=20)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.run_ok(["run", "whole.yaml", "--hashes", "whole.hashes", "--csv", "whole.csv"])
        self.same_run("tiny", "whole")
        # Two segments: frames are skipped no further than their segment's count. 0.3 s twice,
        # then 0.5 s: ticks fall due at 1.1 s (0.1 s left over), 2.1 s and 3.1 s, as with one frame
        # of 1.1 s and then frames of 1 s (frames that run no tick leave nothing in a run's output).
        two = self.SCENARIO.format(name="frames", ms="300", count=2).replace(
            "  - {ms: 300, count: 2}", "  - {ms: 300, count: 2}\n  - {ms: 500, count: 5}")
        ref = self.SCENARIO.format(name="frames", ms="1100", count=1).replace(
            "  - {ms: 1100, count: 1}", "  - {ms: 1100, count: 1}\n  - {ms: 1000, count: 5}")
        write(self.p("two.yaml"), two)
        write(self.p("ref.yaml"), ref)
        for name in ("two", "ref"):
            self.run_ok(["run", f"{name}.yaml", "--hashes", f"{name}.hashes", "--csv", f"{name}.csv"])
        self.same_run("two", "ref")


class Outputs(Workspace):
    """Issue 17: outputs mean what they mean to a shell. Devices and FIFOs are written in place,
    symbolic links through to their file, write errors exit 125 naming the path and the reason,
    conflicting outputs are refused, and Ctrl-C leaves no temporary file."""

    def temporaries(self):
        found = []
        for root, _, files in os.walk(self.tmp):
            found += [os.path.join(root, f) for f in files if re.search(r"\.tmp\.\d+\.[0-9a-f]{16}$", f)]
        return found

    def test_full_disk_exits_125_naming_the_path_and_the_reason(self):
        if not native_posix() or not os.path.exists("/dev/full"):
            self.skipTest("needs /dev/full")
        for out_option in ("--csv", "--hashes", "--trace", "--metrics"):
            with self.subTest(out_option):
                rc, _, err = fxkcc(["run", "scenarios/walk-wall.yaml", out_option, "/dev/full"], self.tmp)
                self.assertEqual(rc, 125, err)
                self.assertIn("cannot write '/dev/full': No space left on device", err)

    def test_stdout_write_errors_exit_125(self):
        if not native_posix() or not os.path.exists("/dev/full"):
            self.skipTest("needs /dev/full")
        env = {k: v for k, v in os.environ.items() if k != "CI"}
        # --metrics and --trace: the summary on stderr came after the data, and std::cerr's flush
        # of its tied std::cout wrote stdout's buffer and lost the failure (exit 0, issue 51).
        for args in (["list"], ["run", "scenarios/walk-wall.yaml", "--hashes", "-"], ["--version"],
                     ["run", "scenarios/walk-wall.yaml", "--metrics", "-"],
                     ["run", "scenarios/walk-wall.yaml", "--metrics", "-", "--metrics-format", "json"],
                     ["run", "scenarios/walk-wall.yaml", "--trace", "-", "--trace-ticks", "0:0"],
                     ["run", "scenarios/walk-wall.yaml", "--csv", "-"]):
            with self.subTest(" ".join(args)), open("/dev/full", "w") as full:
                p = subprocess.run([BINARY] + args, cwd=self.tmp, env=env, stdout=full, stderr=subprocess.PIPE,
                                   text=True, timeout=60)
                self.assertEqual(p.returncode, 125, p.stderr)
                self.assertIn("fxkcc: cannot write to standard output: No space left on device", p.stderr)

    def test_devices_are_written_in_place(self):
        if not native_posix():
            self.skipTest("POSIX devices")
        device = "/dev/null"
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            # As root a broken build would replace the machine's /dev/null: use a private copy.
            device = self.p("null")
            os.mknod(device, 0o666 | __import__("stat").S_IFCHR, os.makedev(1, 3))
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--csv", device, "--hashes", device, "--trace", device])
        self.assertTrue(__import__("stat").S_ISCHR(os.stat(device).st_mode), "still a character device")
        self.assertEqual(self.temporaries(), [])

    def test_a_fifo_output_is_written_in_place(self):
        if not native_posix():
            self.skipTest("POSIX FIFOs")
        fifo = self.p("out.fifo")
        os.mkfifo(fifo)
        import threading
        got = []
        reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
        reader.start()
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--csv", "out.fifo"])
        reader.join(30)
        self.assertTrue(got and got[0].startswith(b"# fxkcc-trajectory 1\n"), got)
        self.assertTrue(__import__("stat").S_ISFIFO(os.stat(fifo).st_mode))

    def test_symbolic_links_are_written_through(self):
        if not native_posix():
            self.skipTest("POSIX symbolic links")
        os.makedirs(self.p("real"))
        write(self.p("real", "t.csv"), "old\n")
        os.chmod(self.p("real", "t.csv"), 0o640)
        os.symlink("real/t.csv", self.p("link.csv"))
        os.symlink("real/new.hashes", self.p("dangling.hashes"))  # its file does not exist yet
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--csv", "link.csv", "--hashes", "dangling.hashes"])
        self.assertTrue(os.path.islink(self.p("link.csv")), "the link stays a link")
        self.assertTrue(read(self.p("real", "t.csv")).startswith("# fxkcc-trajectory 1\n"))
        self.assertEqual(os.stat(self.p("real", "t.csv")).st_mode & 0o777, 0o640, "permissions carried over")
        self.assertTrue(os.path.islink(self.p("dangling.hashes")))
        self.assertTrue(read(self.p("real", "new.hashes")).startswith("fxkcc-hashes 1\n"))
        self.assertEqual(self.temporaries(), [])

    def test_conflicting_outputs_and_outputs_over_inputs_are_refused_before_running(self):
        cases = [
            (["--csv", "o.txt", "--hashes", "./o.txt"], "fxkcc run: --hashes './o.txt' and --csv 'o.txt' name the same file"),
            (["--hashes", "-", "--csv", "-"], "fxkcc run: --hashes and --csv both write to standard output"),
            (["--csv", "scenarios/walk-wall.yaml"],
             "fxkcc run: --csv 'scenarios/walk-wall.yaml' is an input of the command ('scenarios/walk-wall.yaml'): "
             "it would be overwritten"),
        ]
        if native_posix():
            os.symlink("o.txt", self.p("alias.txt"))
            cases.append((["--csv", "o.txt", "--trace", "alias.txt"],
                          "fxkcc run: --csv 'o.txt' and --trace 'alias.txt' name the same file"))
        before = read(self.p("scenarios", "walk-wall.yaml"))
        for extra, message in cases:
            with self.subTest(" ".join(extra)):
                rc, out, err = fxkcc(["run", "scenarios/walk-wall.yaml"] + extra, self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertEqual(err, message + "\n")
                self.assertEqual(out, "")
        self.assertFalse(os.path.exists(self.p("o.txt")))
        self.assertEqual(read(self.p("scenarios", "walk-wall.yaml")), before)
        rc, _, err = fxkcc(["shrink", "scenarios/walk-wall.yaml", "-o", "scenarios/walk-wall.yaml"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("-o 'scenarios/walk-wall.yaml' is an input of the command", err)

    def test_interrupted_run_leaves_no_temporary_file(self):
        if not native_posix():
            self.skipTest("POSIX signals")
        text = read(self.p("scenarios", "walk-wall.yaml")).replace("ticks: 120", "ticks: 2000000")
        text = text.replace("{ticks: 40}", "{ticks: 1999920}").replace("{ticks: 120, stick: [0, -1]}",
                                                                       "{ticks: 2000000, stick: [0, -1]}")
        write(self.p("scenarios", "long.yaml"), text.replace("name: walk-wall", "name: long"))
        import signal
        signals = [signal.SIGTERM]
        # A process started with SIGINT ignored (a background job) hands that on: fxkcc leaves an
        # ignored signal alone, so SIGINT is only tried where it is not ignored.
        if signal.getsignal(signal.SIGINT) != signal.SIG_IGN:
            signals.insert(0, signal.SIGINT)
        for sig in signals:
            with self.subTest(sig):
                env = {k: v for k, v in os.environ.items() if k != "CI"}
                p = subprocess.Popen([BINARY, "run", "scenarios/long.yaml", "--csv", "out/t.csv", "--hashes",
                                      "out/t.hashes"], cwd=self.tmp, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
                self.procs.append(p)
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and len(self.temporaries()) < 2:
                    time.sleep(0.05)
                self.assertEqual(len(self.temporaries()), 2, "both outputs were being written")
                p.send_signal(sig)
                p.wait(30)
                self.assertEqual(p.returncode, -sig, "ended by the signal, as without a handler")
                self.assertEqual(self.temporaries(), [])
                self.assertFalse(os.path.exists(self.p("out", "t.csv")))


class GoldenTrust(Workspace):
    """Issue 17: goldens are checked whole. The CSV against the digest its hash file records, the
    target header against its folder, links kept inside the golden folder; an interrupted bless's
    leftovers cleaned by the next; compare-goldens names the corrupt side."""

    def setUp(self):
        super().setUp()
        self.run_ok(["bless"])
        self.t = self.target()

    def verify(self):
        return fxkcc(["verify", "--no-progress"], self.tmp)

    def test_an_edited_truncated_or_deleted_golden_csv_fails_verify(self):
        csv = self.p("golden", self.t, "walk-wall.csv")
        original = read(csv)
        edits = [
            ("edited", original.replace("\n1,1,", "\n1,1,9", 1), 2, "is not the one its hash file records"),
            ("truncated", original[: len(original) // 2], 2, "is not the one its hash file records"),
            ("empty", "", 2, "is not the one its hash file records"),
            ("deleted", None, 1, f"no golden CSV at golden/{self.t}/walk-wall.csv (run: fxkcc bless)"),
        ]
        for label, text, code, message in edits:
            with self.subTest(label):
                if text is None:
                    os.remove(csv)
                else:
                    write(csv, text)
                rc, out, _ = self.verify()
                self.assertEqual(rc, code, out)
                line = next(l for l in out.splitlines() if "walk-wall" in l)
                self.assertIn(message, line)
                self.assertIn("platform-ride", out)  # the other scenario still verified
                write(csv, original)
        rc, out, _ = self.verify()
        self.assertEqual(rc, 0, out)

    def test_writes_and_removals_never_go_through_links_or_into_special_files(self):
        """Issue 51, items 1 to 3 and 10: a golden file linked outside, the target folder linked
        outside, a pending folder linked to the golden one, a FIFO or a device at a golden path.
        Each is refused with a message naming it, and nothing outside is written or removed."""
        if not native_posix():
            self.skipTest("POSIX links, FIFOs and devices")
        g = self.p("golden", self.t)
        outside = self.p("outside")
        os.makedirs(outside)
        write(os.path.join(outside, "victim.hashes"), "victim\n")
        write(os.path.join(outside, "victim.csv"), "victim\n")
        # 1. A golden file that is a link to a file outside: bless and review --accept refused.
        os.makedirs(self.p("golden.pending", self.t))
        for ext in ("hashes", "csv"):  # a pending golden of walk-wall, to accept over the link
            shutil.copy(os.path.join(g, f"walk-wall.{ext}"), self.p("golden.pending", self.t, f"walk-wall.{ext}"))
        os.remove(os.path.join(g, "walk-wall.hashes"))
        os.symlink(os.path.join(outside, "victim.hashes"), os.path.join(g, "walk-wall.hashes"))
        rc, out, err = fxkcc(["bless"], self.tmp)
        self.assertNotEqual(rc, 0, err)
        self.assertIn(f"'golden/{self.t}/walk-wall.hashes' is a symbolic link", out + err)
        self.assertEqual(read(os.path.join(outside, "victim.hashes")), "victim\n")
        rc, out, err = fxkcc(["review", "--accept"], self.tmp)
        self.assertNotEqual(rc, 0, err)
        self.assertIn("is a symbolic link", out + err)
        self.assertEqual(read(os.path.join(outside, "victim.hashes")), "victim\n")
        shutil.rmtree(self.p("golden.pending"))
        os.remove(os.path.join(g, "walk-wall.hashes"))
        # 2. The target folder a link to a folder outside: bless and bless --prune refused.
        shutil.rmtree(g)
        os.symlink(outside, g)
        for args in (["bless"], ["bless", "--prune"]):
            with self.subTest(" ".join(args)):
                rc, out, err = fxkcc(args, self.tmp)
                self.assertNotEqual(rc, 0, err)
                self.assertIn(f"'golden/{self.t}' is a symbolic link", out + err)
        self.assertEqual(sorted(os.listdir(outside)), ["victim.csv", "victim.hashes"])
        os.remove(g)
        self.run_ok(["bless"])
        # 3. review --reject with the pending target folder linked to the golden one: refused.
        os.makedirs(self.p("golden.pending"))
        os.symlink(os.path.abspath(g), self.p("golden.pending", self.t))
        accepted = sorted(os.listdir(g))
        rc, _, err = fxkcc(["review", "--reject"], self.tmp)
        self.assertEqual(rc, 2, err)
        # Refused as an overlap (by identity, item 7) before any link check is reached.
        self.assertIn("the pending folder 'golden.pending' and the golden folder 'golden' overlap", err)
        self.assertEqual(sorted(os.listdir(g)), accepted)
        os.remove(self.p("golden.pending", self.t))
        # 10. A FIFO, or a device, at a golden path: refused at once (a FIFO blocked bless).
        fifo = os.path.join(g, "walk-wall.csv")
        os.remove(fifo)
        os.mkfifo(fifo)
        env = {k: v for k, v in os.environ.items() if k != "CI"}  # (CI refuses any bless)
        p = subprocess.run(EMULATOR + [BINARY, "bless"], cwd=self.tmp, env=env, capture_output=True, text=True,
                           timeout=60)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"'golden/{self.t}/walk-wall.csv' is not a regular file", p.stdout + p.stderr)
        self.assertNotIn("blessed  walk-wall", p.stdout)
        # A character device (the null device's numbers) there: bless said "blessed" and wrote
        # nothing. Making one needs the right to (root, as the CI runs); elsewhere it is skipped.
        os.remove(fifo)
        try:
            os.mknod(fifo, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except (PermissionError, OSError) as e:
            self.skipTest(f"cannot make a device node here ({e})")
        p = subprocess.run(EMULATOR + [BINARY, "bless"], cwd=self.tmp, env=env, capture_output=True, text=True,
                           timeout=60)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"'golden/{self.t}/walk-wall.csv' is not a regular file", p.stdout + p.stderr)
        self.assertNotIn("blessed  walk-wall", p.stdout)
        self.assertTrue(stat.S_ISCHR(os.lstat(fifo).st_mode))

    def test_reject_removes_only_pending_goldens(self):
        """Issue 51, item 3: review --reject --pending-dir DIR removed every *.hashes and *.csv
        under DIR's subfolders. Now only a hash file written for the scenario and folder it is in,
        and the CSV it records: anything else refuses the whole rejection, and nothing goes."""
        d = self.p("elsewhere")
        cases = [
            ("a file that is no hash file", "notes", "my notes\n", "my csv\n"),
            ("another scenario's hash file", "walk-wall", None, None),
            ("a CSV that is not the one recorded", "platform-ride", "", "# fxkcc-trajectory 1\nedited\n"),
        ]
        for label, name, hashes, csv in cases:
            with self.subTest(label):
                shutil.rmtree(d, ignore_errors=True)
                os.makedirs(os.path.join(d, self.t))
                if label.startswith("another"):
                    shutil.copy(self.p("golden", self.t, "platform-ride.hashes"), os.path.join(d, self.t, "walk-wall.hashes"))
                    shutil.copy(self.p("golden", self.t, "platform-ride.csv"), os.path.join(d, self.t, "walk-wall.csv"))
                elif hashes == "":
                    shutil.copy(self.p("golden", self.t, f"{name}.hashes"), os.path.join(d, self.t, f"{name}.hashes"))
                    write(os.path.join(d, self.t, f"{name}.csv"), csv)
                else:
                    write(os.path.join(d, self.t, f"{name}.hashes"), hashes)
                    write(os.path.join(d, self.t, f"{name}.csv"), csv)
                before = {f: read(os.path.join(d, self.t, f)) for f in os.listdir(os.path.join(d, self.t))}
                rc, out, err = fxkcc(["review", "--reject", "--pending-dir", "elsewhere"], self.tmp)
                self.assertEqual(rc, 2, out + err)
                self.assertIn("nothing rejected", err)
                self.assertNotIn("rejected " + self.t, out)
                after = {f: read(os.path.join(d, self.t, f)) for f in os.listdir(os.path.join(d, self.t))}
                self.assertEqual(after, before)
        # A pending golden written by the tool, next to nothing else, is rejected.
        shutil.rmtree(d)
        for ext in ("hashes", "csv"):  # a new golden, so that bless --pending writes one
            os.remove(self.p("golden", self.t, f"walk-wall.{ext}"))
        self.run_ok(["bless", "--pending", "--pending-dir", "elsewhere", "-k", "walk-wall"])
        out, _ = self.run_ok(["review", "--reject", "--pending-dir", "elsewhere"])
        self.assertIn(f"rejected {self.t}/walk-wall", out)
        self.assertFalse(os.path.exists(os.path.join(d, self.t, "walk-wall.hashes")))

    def test_target_header_must_name_its_folder(self):
        os.rename(self.p("golden", self.t), self.p("golden", "other"))
        rc, out, _ = fxkcc(["verify", "--no-progress", "--target", "other"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn(f"'golden/other/walk-wall.hashes' was blessed for target '{self.t}', not for the folder "
                      "it is in ('other')", out)

    def test_goldens_linking_outside_the_golden_folder_are_refused_unread(self):
        if not native_posix():
            self.skipTest("POSIX symbolic links")
        write(self.p("secret.txt"), "SECRET=do-not-print\n")
        path = self.p("golden", self.t, "walk-wall.hashes")
        os.remove(path)
        os.symlink(self.p("secret.txt"), path)
        rc, out, err = self.verify()
        self.assertEqual(rc, 2)
        self.assertIn(f"golden 'golden/{self.t}/walk-wall.hashes' resolves outside the golden folder 'golden'", out)
        self.assertNotIn("SECRET", out + err)
        # A link inside the folder is fine (git stores links).
        os.remove(path)
        os.rename(self.p("golden", self.t, "platform-ride.hashes"), self.p("golden", self.t, "keep.hashes"))
        os.symlink("keep.hashes", self.p("golden", self.t, "platform-ride.hashes"))
        rc, out, _ = self.verify()
        self.assertIn("pass", next(l for l in out.splitlines() if "platform-ride" in l))

    def test_a_golden_that_is_not_a_hash_file_is_not_quoted(self):
        write(self.p("golden", self.t, "walk-wall.hashes"), "root:$6$secrethash:19000:0:99999:7:::\n")
        rc, out, err = self.verify()
        self.assertEqual(rc, 2)
        self.assertIn("not an fxkcc hash file (its first line is not 'fxkcc-hashes <version>')", out)
        self.assertNotIn("secrethash", out + err)

    def test_the_next_bless_cleans_up_after_an_interrupted_one(self):
        if any("node" in os.path.basename(e) for e in EMULATOR):
            self.skipTest("under node no lock keeps other blesses out, so a bless leaves others' files alone")
        folder = self.p("golden", self.t)
        stale = os.path.join(folder, "walk-wall.hashes.tmp.123.0123456789abcdef")
        write(stale, "partial")
        # Killed between committing the hash file and renaming its CSV into place:
        os.rename(os.path.join(folder, "walk-wall.csv"), os.path.join(folder, "walk-wall.csv.next.tmp.99.00000000000000ff"))
        rc, out, _ = self.verify()
        self.assertEqual(rc, 0, out)  # readers find the CSV by its digest
        out, err = self.run_ok(["bless"])
        self.assertIn(f"completed the interrupted bless of 'golden/{self.t}/walk-wall.csv'", err)
        self.assertIn("left by an interrupted bless", err)
        self.assertEqual(sorted(os.listdir(folder)),
                         ["platform-ride.csv", "platform-ride.hashes", "walk-wall.csv", "walk-wall.hashes"])

    def test_ci_false_is_not_ci(self):
        for value in ("false", "0", "no", "OFF", ""):
            with self.subTest(value):
                self.run_ok(["bless"], env_extra={"CI": value})
        for value in ("true", "1", "yes"):
            with self.subTest(value):
                rc, _, err = fxkcc(["bless"], self.tmp, env_extra={"CI": value})
                self.assertEqual(rc, 2)
                self.assertIn("refusing to regenerate goldens because CI is set", err)

    def test_compare_goldens_names_a_corrupt_reference_and_ignores_hidden_folders(self):
        copy_capture(self.tmp, self.t, "other-target")
        os.makedirs(self.p("golden", ".git", "objects"))
        out, _ = self.run_ok(["compare-goldens", "--reference", self.t])
        self.assertIn("2 scenarios, 2 targets", out)
        csv = self.p("golden", self.t, "walk-wall.csv")
        write(csv, read(csv)[:-10])
        rc, out, _ = fxkcc(["compare-goldens", "--reference", self.t], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn(f"{self.t} (the reference): golden CSV 'golden/{self.t}/walk-wall.csv' is not the one its "
                      "hash file records", out)
        self.assertNotIn("other-target: trajectory CSV differs", out)


class SuiteOptionsStrict(Workspace):
    """Issue 17, smaller items: shards, jobs, duplicate names, stale messages."""

    def test_shard_syntax_is_strict_and_an_empty_shard_passes(self):
        self.run_ok(["bless"])
        for bad in ("1/2/3", "1/2x", "1/2.9", "0/2", "3/2", "1/", "/2"):
            with self.subTest(bad):
                rc, _, err = fxkcc(["verify", "--no-progress", "--shard", bad], self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertIn(f"expected K/N with 1 <= K <= N, found '{bad}'", err)
        out, _ = self.run_ok(["verify", "--no-progress", "--shard", "5/8", "--junit", "j.xml"])
        self.assertIn("shard 5/8 has no scenarios (the selection has 2): nothing to verify", out)
        self.assertIn('tests="0"', read(self.p("j.xml")))

    def test_jobs_must_be_positive(self):
        for bad in ("0", "-1"):
            with self.subTest(bad):
                rc, _, err = fxkcc(["verify", "--no-progress", "-j", bad], self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertIn("--jobs", err)

    def test_validate_refuses_two_scenarios_with_one_name(self):
        shutil.copy(self.p("scenarios", "walk-wall.yaml"), self.p("scenarios", "copy.yaml"))
        rc, out, err = fxkcc(["validate"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("the name 'walk-wall' is already used by scenarios/copy.yaml", err)

    def test_a_renamed_scenario_is_stale_with_both_names(self):
        self.run_ok(["bless"])
        path = self.p("scenarios", "walk-wall.yaml")
        write(path, read(path).replace("name: walk-wall", "name: walk-wall-2"))
        os.rename(self.p("golden", self.target(), "walk-wall.hashes"),
                  self.p("golden", self.target(), "walk-wall-2.hashes"))
        os.rename(self.p("golden", self.target(), "walk-wall.csv"), self.p("golden", self.target(), "walk-wall-2.csv"))
        rc, out, _ = fxkcc(["verify", "--no-progress"], self.tmp)
        self.assertEqual(rc, 1)
        self.assertIn("golden is stale: blessed for the scenario named 'walk-wall', this one is named 'walk-wall-2'",
                      out)


class DesyncBundle(Workspace):
    """Issue 17: --bundle replaces only an earlier bundle, in a temporary folder of its own."""

    def desync(self, bundle):
        return fxkcc(["desync", "scenarios/walk-wall.yaml", "--b-args", "--inject-fault 40:7:x:1", "--bundle", bundle],
                     self.tmp)

    def test_bundle_never_touches_what_it_did_not_make(self):
        write(self.p("report.txt"), "mine\n")
        rc, _, err = self.desync(".")
        self.assertEqual(rc, 2)
        self.assertIn("'.' is the current folder or contains it", err)
        self.assertEqual(read(self.p("report.txt")), "mine\n")
        os.makedirs(self.p("notes"))
        write(self.p("notes", "report.txt"), "mine\n")
        write(self.p("notes", "todo.txt"), "mine\n")
        rc, _, err = self.desync("notes")
        self.assertEqual(rc, 2)
        self.assertIn("holds 'todo.txt', which is not part of a desync bundle", err)
        self.assertEqual(sorted(os.listdir(self.p("notes"))), ["report.txt", "todo.txt"])

    def test_bundle_is_built_aside_and_replaces_only_an_earlier_bundle(self):
        if not spawns_sides():
            self.skipTest("the sides are this binary, which runs only under its emulator")
        os.makedirs(self.p("results.tmp"))
        write(self.p("results.tmp", "keep.txt"), "mine\n")
        rc, out, err = self.desync("results/")  # a trailing slash
        self.assertEqual(rc, 1, err)
        self.assertTrue(os.path.exists(self.p("results", "report.txt")))
        self.assertEqual(read(self.p("results.tmp", "keep.txt")), "mine\n")
        rc, _, err = self.desync("results")  # an earlier bundle is replaced
        self.assertEqual(rc, 1, err)
        self.assertTrue(os.path.exists(self.p("results", "report.txt")))
        self.assertEqual(sorted(f for f in os.listdir(self.tmp) if f.startswith("results")), ["results", "results.tmp"])

    def test_a_bundle_against_a_golden_holds_both_sides(self):
        # desync SCENARIO GOLDEN --bundle: side a is the golden (its hashes, rows, provenance),
        # side b the run. It used to accept --bundle and write nothing.
        if not spawns_sides():
            self.skipTest("the run side is this binary, which runs only under its emulator")
        self.run_ok(["bless"])
        t = self.target()
        golden = self.p("golden", t, "walk-wall.hashes")
        lines = read(golden).split("\n")
        for i, line in enumerate(lines):
            cells = line.split(" ")
            if cells[0] == "40":
                cells[2] = ("0" if cells[2][0] != "0" else "1") + cells[2][1:]
                lines[i] = " ".join(cells)
        write(golden, "\n".join(lines))
        rc, out, err = fxkcc(["desync", "scenarios/walk-wall.yaml", f"golden/{t}/walk-wall.hashes", "--bundle", "b"],
                             self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("first divergent tick 40", out)
        self.assertIn("bundle: b/ (report, the golden's and the run's states", out)
        self.assertEqual(sorted(os.listdir(self.p("b"))),
                         sorted([".fxkcc-desync-bundle", "report.txt", "scenario.yaml", "input.csv", "a.state.csv",
                                 "b.state.csv", "a.trace", "b.trace", "a.version.txt", "b.version.txt", "a.hashes",
                                 "b.hashes", "report.html"]))
        self.assertEqual(read(self.p("b", "a.hashes")), read(golden))
        self.assertTrue(read(self.p("b", "a.version.txt")).startswith(f"command: golden/{t}/walk-wall.hashes (golden)\n"))
        self.assertIn(f"target:   {t}", read(self.p("b", "a.version.txt")))
        self.assertRegex(read(self.p("b", "a.state.csv")), r"(?m)^40,1,")
        self.assertRegex(read(self.p("b", "b.trace")), r"(?m)^t=40 c=1 tick-begin")
        self.assertEqual(read(self.p("b", "report.txt")), out[: out.index("bundle: b/")])


class Halt(Workspace):
    """Bodies that leave the working volume (each coordinate less than 2^20 m) or pass the speed
    bound (4096 m/s) are halted and reported in every build (docs/numeric.md). The expected
    ticks are worked out here with exact fractions from the rule, not taken from a run."""

    def scenario(self, name, hz, ticks, character):
        write(self.p(name + ".yaml"),
              f"format: 1\nname: {name}\ndescription: d\ntick_rate: {hz}\nticks: {ticks}\nworld:\n"
              f"  - box: {{id: 1, center: [5000, 5000, 5000], half_extents: [1, 1, 1]}}\n"
              f"characters:\n  - id: 1\n{character}")
        return name + ".yaml"

    def run_halted(self, yaml):
        rc, out, err = fxkcc(["run", yaml, "--csv", "t.csv"], self.tmp)
        self.assertEqual(rc, 1, out + err)
        rows = [r.split(",") for r in read(self.p("t.csv")).splitlines()[2:]]
        return out, rows

    def assert_frozen_after(self, rows, tick):
        # Position and velocity never change after the halt, whatever the input.
        after = [r[2:8] for r in rows if int(r[0]) >= tick]
        self.assertGreater(len(after), 1)
        self.assertTrue(all(a == after[0] for a in after), after[:3])

    def test_a_body_falling_for_ever_is_halted_at_the_speed_bound(self):
        for hz, ticks in ((50, 21000), (1, 500), (7, 3000)):
            with self.subTest(hz=hz):
                yaml = self.scenario(f"fall{hz}", hz, ticks, "    spawn: [0, 0, 0]\n")
                # Each airborne tick adds 9.81 / hz m/s downward; the halt is on the first tick
                # whose velocity is faster than 4096 m/s (ticks count from 0).
                dv = Fraction("9.81") / hz
                n = math.floor(Fraction(4096) / dv) + 1
                out, rows = self.run_halted(yaml)
                self.assertIn(f"invariant violated: tick {n - 1}, character 1: halted: its speed reached ", out)
                self.assertIn("over the bound of 4096 m/s", out)
                self.assertEqual(out.count("halted:"), 1)  # reported once
                self.assert_frozen_after(rows, n - 1)

    def test_impulses_of_one_tick_add_up_to_a_halt(self):
        impulses = ", ".join("{tick: 3, velocity: [1000, 0, 0]}" for _ in range(64))
        yaml = self.scenario("kick", 50, 40, "    spawn: [0, 0, 0]\n    settings: {gravity: 0}\n"
                                            f"    input:\n      impulses: [{impulses}]\n")
        out, rows = self.run_halted(yaml)
        self.assertRegex(out, r"tick 3, character 1: halted: its speed reached 64000(\.0+)? m/s")
        self.assert_frozen_after(rows, 3)

    def test_a_body_leaving_the_working_volume_is_halted_there(self):
        for axis, sign in ((0, 1), (1, -1), (2, -1)):
            with self.subTest(axis=axis, sign=sign):
                spawn = [0, 0, 0]
                spawn[axis] = sign * 999000
                velocity = [0, 0, 0]
                velocity[axis] = sign * 1000
                yaml = self.scenario(f"out{axis}", 1, 80, f"    spawn: {spawn}\n    settings: {{gravity: 0}}\n"
                                                         f"    input:\n      impulses: [{{tick: 0, velocity: {velocity}}}]\n")
                # After tick k the coordinate is 999,000 + 1000 (k + 1) m; the first beyond
                # 2^20 = 1,048,576 m is 1,049,000 m, after tick 49.
                k = next(k for k in range(80) if 999000 + 1000 * (k + 1) >= 2 ** 20)
                out, rows = self.run_halted(yaml)
                where = ["0", "0", "0"]
                where[axis] = f"{sign * 1049000}"
                self.assertRegex(out, rf"tick {k}, character 1: halted: left the working volume at "
                                      rf"\({where[0]}(\.0+)?, {where[1]}(\.0+)?, {where[2]}(\.0+)?\) m")
                self.assert_frozen_after(rows, k)
                self.assertEqual(k, 49)


def read_png(path):
    """(width, height, channels, rows of bytes) of an 8-bit RGB or RGBA PNG, decoded with zlib
    and struct only (no PIL): chunks, IDAT inflated, each row unfiltered."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = ihdr
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError(f"{path}: expected 8-bit RGB or RGBA, not interlaced; found depth {depth} colour {colour}")
    ch = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * ch
    rows, prev, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, ch, rows


def find_browser():
    """Debian's chromium (scripts/setup.sh installs it), or Chrome/Chromium under another name or
    place (FXKCC_BROWSER first: a path or a name on PATH; FXKCC_BROWSER=none: no browser)."""
    if os.environ.get("FXKCC_BROWSER") == "none":
        return None
    names = [os.environ.get("FXKCC_BROWSER", ""), "chromium", "chromium-browser", "google-chrome",
             "google-chrome-stable"]
    for name in names:
        found = shutil.which(name) if name else None
        if found:
            return found
    for path in ("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
                 r"C:\Program Files\Google\Chrome\Application\chrome.exe",
                 r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe"):
        if os.path.exists(path):
            return path
    return None


def hex_rgb(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


class Plot(Workspace):
    """fxkcc plot: the SVG's content, bad input, and the picture as a real browser draws it."""

    BLUE, ORANGE, RED = "#1f77b4", "#ff7f0e", "#d62728"  # trajectory A, trajectory B, divergence

    def setUp(self):
        super().setUp()
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--csv", "a.csv"])
        # b.csv: character 1 drifts to +x from tick 40 on (1/40 m more each tick), exactly.
        rows = read(self.p("a.csv")).split("\n")
        xi = rows[1].split(",").index("x")
        from fractions import Fraction
        for i, r in enumerate(rows):
            f = r.split(",")
            if i >= 2 and len(f) > 1 and int(f[0]) >= 40 and f[1] == "1":
                raw = round(Fraction(f[xi]) * 2**32) + (int(f[0]) - 39) * 2**32 // 40
                f[xi] = exact_decimal(raw)
                rows[i] = ",".join(f)
        write(self.p("b.csv"), "\n".join(rows))

    def plot(self, args):
        out, _ = self.run_ok(["plot", "scenarios/walk-wall.yaml"] + args)
        return out

    def polylines(self, svg):
        return re.findall(r'<polyline class="trajectory" data-view="(\w+)" data-source="(\w)" '
                          r'data-character="(\d+)"[^>]* points="([^"]*)"', svg)

    def test_two_trajectories_and_their_first_divergence(self):
        out = self.plot(["--csv", "a.csv", "--csv", "b.csv", "--ticks", "0,50,100", "-o", "out/two.svg"])
        self.assertIn("plot: wrote out/two.svg: walk-wall, 2 trajectories", out)
        self.assertIn("first divergence: tick 40, character 1, fields x", out)
        svg = read(self.p("out", "two.svg"))
        self.assertTrue(svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg '))
        self.assertIn('id="top-view"', svg)
        self.assertIn('id="side-view"', svg)
        lines = self.polylines(svg)
        self.assertEqual(sorted((v, s, c) for v, s, c, _ in lines),
                         sorted((v, s, c) for v in ("top", "side") for s in "AB" for c in ("1", "7")))
        for _, _, _, points in lines:
            self.assertEqual(len(points.split(" ")), 120)  # one point per tick
        self.assertEqual(len(re.findall(r'<g class="divergence-marker" data-view="\w+" data-tick="40" '
                                        r'data-character="1"', svg)), 2)
        self.assertIn(">first divergence: tick 40, character 1, fields x</text>", svg)
        self.assertIn("A: a.csv", svg)
        self.assertIn("B: b.csv", svg)
        caps = re.findall(r'<g class="capsule" data-view="\w+" data-source="\w" data-character="\d+" '
                          r'data-tick="(\d+)"', svg)
        self.assertEqual(sorted(set(caps)), ["0", "100", "50"])
        self.assertEqual(len(caps), 3 * 2 * 2 * 2)  # ticks x characters x trajectories x views

    def test_same_bytes_every_time_and_the_run_draws_as_its_csv(self):
        self.plot(["--csv", "a.csv", "--csv", "b.csv", "--ticks", "10", "-o", "one.svg"])
        self.plot(["--csv", "a.csv", "--csv", "b.csv", "--ticks", "10", "-o", "two.svg"])
        self.assertEqual(read(self.p("one.svg")), read(self.p("two.svg")))
        # Without --csv the scenario runs in process: the same paths as its CSV.
        self.plot(["-o", "run.svg"])
        self.plot(["--csv", "a.csv", "-o", "csv.svg"])
        self.assertEqual(self.polylines(read(self.p("run.svg"))), self.polylines(read(self.p("csv.svg"))))
        self.assertIn("run of scenarios/walk-wall.yaml", read(self.p("run.svg")))
        out = self.plot(["--character", "7", "-o", "-"])
        self.assertEqual({c for _, _, c, _ in self.polylines(out)}, {"7"})

    def test_bad_input_exits_2_and_writes_nothing(self):
        self.run_ok(["run", "scenarios/platform.yaml", "--csv", "p.csv"])
        cases = [
            (["plot", "scenarios/nope.yaml", "-o", "x.svg"], "scenarios/nope.yaml: cannot read"),
            (["plot", "scenarios/walk-wall.yaml", "--csv", "nope.csv", "-o", "x.svg"],
             "fxkcc plot: cannot read 'nope.csv'"),
            (["plot", "scenarios/walk-wall.yaml", "--csv", "p.csv", "-o", "x.svg"],
             "fxkcc plot: p.csv: its characters (3) are not those of scenario 'walk-wall' (1 7): "
             "a trajectory of another scenario?"),
            (["plot", "scenarios/walk-wall.yaml", "--character", "5", "-o", "x.svg"],
             "fxkcc plot: --character 5: not a character of scenario 'walk-wall' (characters: 1 7)"),
            (["plot", "scenarios/walk-wall.yaml", "--ticks", "120", "-o", "x.svg"],
             "fxkcc plot: --ticks: tick 120 is outside the run (ticks 0 to 119)"),
            (["plot", "scenarios/walk-wall.yaml", "--csv", "a.csv", "--csv", "b.csv", "--csv", "a.csv", "-o", "x.svg"],
             "fxkcc plot: --csv: expected at most two trajectories, found 3"),
        ]
        for args, message in cases:
            with self.subTest(" ".join(args)):
                rc, _, err = fxkcc(args, self.tmp)
                self.assertEqual(rc, 2, err)
                self.assertTrue(err.startswith(message), f"\nexpected: {message}\nactual:   {err}")
                self.assertFalse(os.path.exists(self.p("x.svg")))

    def test_a_real_browser_draws_the_paths_and_the_divergence(self):
        if EMULATOR:
            self.skipTest("the browser check runs on the native build only")
        # A browser (Debian's chromium), or where none is packaged (Ubuntu's chromium is a snap)
        # librsvg's rsvg-convert, which draws the SVG at its own size: scripts/setup.sh installs one.
        chromium = find_browser()
        rsvg = None if chromium else shutil.which("rsvg-convert")
        self.assertTrue(chromium or rsvg, "no browser and no rsvg-convert: scripts/setup.sh installs chromium "
                                          "(Debian) or librsvg2-bin (Ubuntu); the native build needs one for this test")
        self.plot(["--csv", "a.csv", "--csv", "b.csv", "--ticks", "0,50,100", "-o", "two.svg"])
        png = self.p("two.png")
        svg = read(self.p("two.svg"))
        if chromium:
            p = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                "--user-data-dir=" + self.p("chromium-profile"), "--screenshot=" + png,
                                "--window-size=1200,900", pathlib.Path(self.p("two.svg")).as_uri()],
                               capture_output=True, text=True, timeout=180)
            size = (1200, 900)  # the window; the SVG is drawn at 1:1 from its top left corner
        else:
            p = subprocess.run([rsvg, "--format=png", "--output=" + png, self.p("two.svg")],
                               capture_output=True, text=True, timeout=180)
            m = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
            self.assertIsNotNone(m, "the SVG's size")
            size = (int(m.group(1)), int(m.group(2)))
        renderer = chromium or rsvg
        self.assertTrue(os.path.exists(png), f"{renderer} drew no picture (exit {p.returncode})\n{p.stderr[-3000:]}")
        width, height, ch, rows = read_png(png)
        self.assertEqual((width, height), size)
        frames = {m[0]: tuple(float(v) for v in m[1:]) for m in re.findall(
            r'<rect class="frame" data-view="(\w+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)}
        self.assertEqual(set(frames), {"top", "side"})

        def count(colour, box, tolerance=40):
            want = hex_rgb(colour)
            x0, y0, w, h = (int(v) for v in box)
            n = 0
            for y in range(max(y0, 0), min(y0 + h, height)):
                row = rows[y]
                for x in range(max(x0, 0), min(x0 + w, width)):
                    px = row[x * ch:x * ch + 3]
                    if abs(px[0] - want[0]) + abs(px[1] - want[1]) + abs(px[2] - want[2]) <= tolerance:
                        n += 1
            return n

        for view, box in frames.items():
            with self.subTest(view):
                self.assertGreater(count(self.BLUE, box), 50, "trajectory A (blue) drawn in the " + view + " view")
                self.assertGreater(count(self.ORANGE, box), 50, "trajectory B (orange) drawn in the " + view + " view")
        # The divergence marker: red pixels around its ring, where the SVG put it.
        m = re.search(r'<g class="divergence-marker" data-view="top"[^>]*>\n(?:<line [^>]*>\n<circle [^>]*>\n)?'
                      r'<circle cx="([\d.]+)" cy="([\d.]+)" r="10"/>', svg)
        self.assertIsNotNone(m, "the divergence marker in the top view")
        cx, cy = float(m.group(1)), float(m.group(2))
        self.assertGreater(count(self.RED, (cx - 14, cy - 14, 28, 28)), 40, "the divergence ring, red, at tick 40")


def exact_decimal(raw):
    """The exact decimal text of raw / 2^32 (what the CSV's reader parses back exactly)."""
    neg = raw < 0
    a = abs(raw)
    ip, frac = divmod(a, 2**32)
    s = str(ip)
    if frac:
        s += "." + str(frac * 10**32 // 2**32).rjust(32, "0").rstrip("0")
    return ("-" if neg else "") + s


def viewer_data(html):
    """The run viewer's data (docs/viewer.md): the JSON in the page's fxkcc-data script element."""
    m = re.search(r'<script id="fxkcc-data" type="application/json">(.*?)</script>', html, re.S)
    assert m, "the page holds its data in <script id=\"fxkcc-data\">"
    return json.loads(m.group(1))


def viewer_column(text):
    """A column of the viewer's data: 'B' + base64url of zigzag varints of the deltas, or 'D' + the
    raw values as decimals."""
    import base64
    if text[0] == "D":
        return [int(x) for x in text[1:].split(",")] if len(text) > 1 else []
    data = base64.urlsafe_b64decode(text[1:])
    out, acc, z, shift = [], 0, 0, 0
    for byte in data:
        z |= (byte & 127) << shift
        shift += 7
        if not byte & 128:
            acc += -(z + 1) // 2 if z & 1 else z // 2
            out.append(acc)
            z, shift = 0, 0
    return out


class Viewer(Workspace):
    """The run viewer's pages (docs/viewer.md): `desync --html` (and report.html in the bundle) and
    `run --html` write one self-contained HTML file each, with the runs' exact values in it; the
    browser drives them in browser.viewer (tests/browser/viewer_test.py)."""

    def assert_self_contained(self, html):
        self.assertTrue(html.startswith("<!DOCTYPE html>"), html[:100])
        for needle in ("http:", "https:", "//", "<link", "<iframe", "<img", "@import", "url("):
            self.assertNotIn(needle, html)
        self.assertIsNone(re.search(r"<script[^>]*\bsrc\s*=", html), "no external script")
        self.assertIsNone(re.search(r"<[a-zA-Z][^>]*\s(src|href)\s*=", html), "no reference to another file")

    def test_desync_page_and_the_bundle_hold_both_runs(self):
        if not spawns_sides():
            self.skipTest("sides are spawned as this target's programs: natively or under wine")
        rc, out, err = fxkcc(["desync", "scenarios/walk-wall.yaml", "--b-args", "--inject-fault 40:7:z:2",
                              "--html", "pages/d.html", "--bundle", "bug"], self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"(?m)^html: wrote pages/d\.html \(\d+ KB; every row\)$")
        html = read(self.p("pages", "d.html"))
        self.assert_self_contained(html)
        self.assertEqual(read(self.p("bug", "report.html")), html)
        d = viewer_data(html)
        self.assertEqual(d["scenario"]["name"], "walk-wall")
        self.assertEqual(d["fields"][:3], ["x", "y", "z"])
        self.assertEqual(d["focus"], [40, 7])
        self.assertEqual(d["mismatch"]["1"], [])
        self.assertEqual(d["mismatch"]["7"][0][0], 40)
        self.assertEqual(d["kept"]["stride"], 1)
        a, b = d["runs"]
        self.assertIn("--inject-fault 40:7:z:2", b["label"])
        # Run b holds c7's rows from tick 40 on (before it they are a's); z at 40 differs by the
        # two flipped bits, every other field is equal.
        self.assertEqual(b["c"]["7"]["same"], 40)
        self.assertEqual(b["c"]["7"]["seg"][0][:2], [40, 80])
        cols_a = [viewer_column(c) for c in a["c"]["7"]["d"]]
        cols_b = [viewer_column(c) for c in b["c"]["7"]["d"]]
        self.assertEqual(len(cols_a[0]), 120)
        differ = [d["fields"][f] for f in range(13) if cols_a[f][40] != cols_b[f][0]]
        self.assertEqual(differ, ["z"])
        self.assertEqual(cols_a[2][40] ^ cols_b[2][0], 3)
        # The same values as the run's own CSV.
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--csv", "a.csv"])
        row = [l for l in read(self.p("a.csv")).splitlines() if l.startswith("40,7,")][0].split(",")
        self.assertEqual(round(Fraction(row[4]) * 2**32), cols_a[2][40])  # the shortest decimal of the raw value
        # Both traces of ticks 40..41, and the report.
        self.assertEqual([(t["from"], t["to"]) for t in d["traces"]], [(40, 41), (40, 41)])
        self.assertRegex(d["traces"][1]["text"], r"(?m)^t=41 c=7 tick-begin ")
        self.assertEqual(d["report"], read(self.p("bug", "report.txt")))

    def test_run_page_marks_the_failed_checks(self):
        rc, out, err = fxkcc(["run", "scenarios/platform.yaml", "--inject-fault", "30:3:y:40", "--html", "r.html"],
                             self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"(?m)^html: wrote r\.html \(\d+ KB; every row\)$")
        html = read(self.p("r.html"))
        self.assert_self_contained(html)
        d = viewer_data(html)
        self.assertEqual(len(d["runs"]), 1)
        self.assertEqual(d["mismatch"], {})
        self.assertEqual(d["focus"], [30, 3])
        self.assertEqual([m[:3] for m in d["marks"]], [[30, "invariant", 3]])
        self.assertRegex(d["traces"][0]["text"], r"(?m)^t=30 c=3 tick-begin ")
        self.assertEqual(d["level"]["platforms"][0][0], 50)

    def test_run_page_marks_a_recorded_checksum_that_differs(self):
        """run --checksums F --html P: the page said nothing of the checksums (the run exited 1
        naming tick 12, the page opened at tick 0 with no mark)."""
        self.run_ok(["run", "scenarios/platform.yaml", "--hashes", "h.hashes"])
        rows = [l.split() for l in read(self.p("h.hashes")).splitlines() if l[:1].isdigit()]
        lines = ["fxkcc-checksums 1", "hash xxh3-64", f"ticks {len(rows)}"]
        lines += [f"{r[0]} {'0' * 16 if r[0] == '12' else r[1]}" for r in rows] + [f"end {len(rows)}"]
        write(self.p("game.checksums"), "\n".join(lines) + "\n")
        rc, out, err = fxkcc(["run", "scenarios/platform.yaml", "--checksums", "game.checksums", "--html", "c.html"],
                             self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"(?m)^checksums: differ: tick 12: this run [0-9a-f]{16}, recorded 0{16} "
                              r"\(ticks 0 to 11 equal\)$")
        d = viewer_data(read(self.p("c.html")))
        self.assertEqual([m[:3] for m in d["marks"]], [[12, "checksum", -1]])
        self.assertEqual(d["focus"][0], 12)
        self.assertTrue(d["report"].startswith("checksums: differ: tick 12: "), d["report"])
        # Every checksum equal: the page says so, and marks nothing.
        write(self.p("game.checksums"), "\n".join(lines).replace("12 " + "0" * 16, "12 " + rows[12][1]) + "\n")
        out, _ = self.run_ok(["run", "scenarios/platform.yaml", "--checksums", "game.checksums", "--html", "c.html"])
        self.assertIn("checksums: %d ticks, every one equal to 'game.checksums'" % len(rows), out)
        d = viewer_data(read(self.p("c.html")))
        self.assertEqual(d["marks"], [])
        self.assertEqual(d["report"], "checksums: %d ticks, every one equal to 'game.checksums'" % len(rows))

    def test_run_page_of_a_bundled_scenario(self):
        # Copied into the workspace (it reads no other file): a relative path under every emulator.
        shutil.copy(os.path.join(REPO, "scenarios", "conformance", "stairs-up-down.yaml"), self.p("scenarios"))
        out, _ = self.run_ok(["run", "scenarios/stairs-up-down.yaml", "--html", "s.html", "--trace", "s.trace",
                              "--trace-ticks", "10:11"])
        self.assertIn("html: wrote s.html (", out)
        html = read(self.p("s.html"))
        self.assert_self_contained(html)
        d = viewer_data(html)
        self.assertEqual(d["scenario"]["name"], "stairs-up-down")
        self.assertEqual(d["marks"], [])
        self.assertGreater(len(d["level"]["boxes"]), 5)  # the stairs
        self.assertEqual((d["traces"][0]["from"], d["traces"][0]["to"]), (10, 11))
        self.assertEqual(d["traces"][0]["text"], read(self.p("s.trace")))
        ticks = d["scenario"]["ticks"]
        for c in d["runs"][0]["c"].values():
            self.assertEqual(c["seg"], [[0, ticks, 1]])
            self.assertEqual(len(viewer_column(c["d"][0])), ticks)

    def test_bad_html_options(self):
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "a.hashes"])
        rc, _, err = fxkcc(["desync", "a.hashes", "a.hashes", "--html", "x.html"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("fxkcc desync: --html: the page needs a scenario to run", err)
        rc, _, err = fxkcc(["run", "scenarios/walk-wall.yaml", "--html", "-"], self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("fxkcc run: --html: the page is written to a file, not to stdout", err)
        rc, _, err = fxkcc(["run", "scenarios/walk-wall.yaml", "--html", "scenarios/walk-wall.yaml"], self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("--html 'scenarios/walk-wall.yaml' is an input of the command", err)
        self.assertFalse(os.path.exists(self.p("x.html")))
        # A page inside the bundle, which desync replaces whole: refused before any run.
        rc, _, err = fxkcc(["desync", "scenarios/walk-wall.yaml", "--bundle", "bb", "--html", "bb/r.html"],
                           self.tmp)
        self.assertEqual(rc, 2, err)
        self.assertIn("--html 'bb/r.html' is inside the --bundle folder 'bb'", err)
        self.assertFalse(os.path.exists(self.p("bb")))
        # A run longer than a page holds (both sides' rows in memory: 8 M rows took 9.9 GB and
        # ended in std::bad_alloc, exit 134): refused before either side runs, as run's is.
        write(self.p("long.yaml"), "format: 1\nname: long\ndescription: x\nticks: 4000001\ncharacters:\n"
                                   "  - id: 1\n    spawn: [0, 0, 0]\n  - id: 2\n    spawn: [3, 0, 3]\n")
        for cmd in (["desync", "long.yaml", "--html", "l.html"], ["run", "long.yaml", "--html", "l.html"]):
            rc, _, err = fxkcc(cmd, self.tmp)
            self.assertEqual(rc, 2, err)
            self.assertIn("--html: 4000001 ticks x 2 characters is more than the 8000000 rows a page is made "
                          "from", err)
        self.assertFalse(os.path.exists(self.p("l.html")))
        rc, _, err = fxkcc(["run", "long.yaml", "--html", "l.html", "--stop-after", "99", "--hashes", "l.hashes"],
                           self.tmp)
        self.assertEqual(rc, 0, err)  # the ticks run are what the page holds, and spans
        self.assertEqual(viewer_data(read(self.p("l.html")))["scenario"]["ticks"], 100)

    def test_a_golden_that_matches_gets_a_page_saying_so(self):
        """desync SCENARIO GOLDEN --html F with no desync wrote no page and said nothing, leaving
        an earlier page at F that showed one."""
        if not spawns_sides():
            self.skipTest("sides are spawned as this target's programs: natively or under wine")
        self.run_ok(["run", "scenarios/walk-wall.yaml", "--hashes", "w.hashes", "--csv", "w.csv"])
        write(self.p("d.html"), "an earlier page of a desync")
        out, _ = self.run_ok(["desync", "scenarios/walk-wall.yaml", "w.hashes", "--html", "d.html"])
        self.assertIn("no desync: the run matches w.hashes (golden) on every recorded tick", out)
        self.assertRegex(out, r"(?m)^html: wrote d\.html \(\d+ KB; every row\)$")
        d = viewer_data(read(self.p("d.html")))
        self.assertEqual(len(d["runs"]), 2)
        self.assertTrue(all(m == [] for m in d["mismatch"].values()), d["mismatch"])
        self.assertTrue(d["report"].startswith("no desync: "), d["report"])


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--binary" in args:
        i = args.index("--binary")
        BINARY = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    for a in list(args):
        if a.startswith("--emulator="):
            EMULATOR = [x for x in a[len("--emulator="):].split(";") if x]
            args.remove(a)
    if not BINARY or not os.path.exists(BINARY):
        sys.exit("usage: test_cli.py --binary PATH [unittest args]")
    unittest.main(argv=[sys.argv[0]] + args, verbosity=2)
