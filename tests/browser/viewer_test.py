#!/usr/bin/env python3
"""browser.viewer: the run viewer's pages (docs/viewer.md) in headless chromium, from file://.

 1. `fxkcc desync walk-wall --b-args "--inject-fault 40:7:z:2" --html d.html`: the page opens at
    the divergent tick and character (40, c7); its field table shows z differing by the flipped
    bits and nothing else; 'next mismatch' moves on and the URL fragment follows; the traces of
    tick 41 show the first differing line with the differing value marked; the keys step; a link
    with #tick=60&c=1 opens that moment.
 2. `fxkcc run platform --inject-fault 30:3:y:40 --html r.html`: the page opens at the violated
    invariant's tick, marked, with that tick's trace.
 3. The size bound: a 10,000-tick run of the 64-character arena (tests/browser/long_arena.py),
    desync --html with a fault at tick 5000: the page is under 5 MB, leaves rows out and says so,
    and opens in chromium; its size and load time are printed (docs/viewer.md quotes them).

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on its
fd 3, replies on its fd 4), from Python alone. The browser is $FXKCC_BROWSER or chromium
(scripts/setup.sh installs it) under one of its names; without one the test is skipped (exit 77).

    python3 tests/browser/viewer_test.py FXKCC [--no-large]
"""
import json
import os
import pathlib
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MAX_BYTES = 5 * 1024 * 1024
sys.path.insert(0, os.path.join(REPO, "tests", "e2e"))
from test_cli import find_browser  # noqa: E402  (the e2e tests' search: FXKCC_BROWSER, names, places)


class Chromium:
    """Headless chromium with the DevTools protocol on a pipe; send() waits for the reply."""

    def __init__(self, browser, profile):
        cmd_r, self.cmd_w = os.pipe()
        self.rep_r, rep_w = os.pipe()

        def fds():
            # Through fresh numbers first: the pipes may be fds 3 and 4 already, and dup2 onto
            # itself would leave a descriptor closed on exec.
            a, b = os.dup(cmd_r), os.dup(rep_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.setsid()  # a process group of its own: stopped whole at the end

        self.proc = subprocess.Popen(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--remote-debugging-pipe", "--window-size=1400,900",
             f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False,
            preexec_fn=fds)
        os.close(cmd_r)
        os.close(rep_w)
        self.buffer = b""
        self.next_id = 1

    def send(self, method, params=None, session=None, timeout=30):
        msg_id = self.next_id
        self.next_id += 1
        msg = {"id": msg_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == msg_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise RuntimeError(f"no reply to {method} in {timeout} s" if left <= 0 else "chromium exited")
            ready, _, _ = select.select([self.rep_r], [], [], left)
            if ready:
                chunk = os.read(self.rep_r, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self.buffer += chunk

    def stop(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:  # noqa: BLE001  (already gone, or hanging: killed below)
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # its renderer and zygote processes too
        except ProcessLookupError:
            pass
        self.proc.wait()
        os.close(self.cmd_w)
        os.close(self.rep_r)


class Tab:
    def __init__(self, chromium):
        self.c = chromium
        target = chromium.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.s = chromium.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        chromium.send("Runtime.enable", session=self.s)

    def eval(self, expression):
        r = self.c.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, self.s)
        if "exceptionDetails" in r:
            raise AssertionError(f"the page threw: {json.dumps(r['exceptionDetails'])[:2000]}")
        return r["result"].get("value")

    def open(self, url):
        """Navigates and waits for the viewer to be ready; the milliseconds that took."""
        self.c.send("Page.navigate", {"url": "about:blank"}, self.s)
        time.sleep(0.05)
        start = time.monotonic()
        self.c.send("Page.navigate", {"url": url}, self.s)
        while True:
            try:
                if self.eval('!!(document.body && document.body.dataset.ready === "1" && location.protocol === "file:")'):
                    return round((time.monotonic() - start) * 1000)
            except (AssertionError, RuntimeError):
                pass  # the document is being replaced
            if time.monotonic() - start > 60:
                raise AssertionError(f"{url}: the viewer was not ready after 60 s")
            time.sleep(0.01)

    def key(self, key, shift=False):
        code = {"ArrowLeft": 37, "ArrowRight": 39, " ": 32}[key]
        base = {"key": key, "code": "Space" if key == " " else key, "windowsVirtualKeyCode": code,
                "modifiers": 8 if shift else 0}
        self.c.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", **base}, self.s)
        self.c.send("Input.dispatchKeyEvent", {"type": "keyUp", **base}, self.s)

    def click(self, element_id):
        self.eval(f"document.getElementById('{element_id}').click()")


STATE = """(() => {
  const b = document.body, rows = [...document.querySelectorAll('#field-table tr[data-field]')];
  const first = document.querySelector('#trace tr.a.first-diff');
  return { tick: +b.dataset.tick, c: +b.dataset.character, hash: location.hash,
           label: document.getElementById('tick-label').textContent,
           differs: rows.filter((r) => r.classList.contains('differs')).map((r) => ({ field: r.dataset.field,
             a: r.dataset.aRaw, b: r.dataset.bRaw, ulps: r.dataset.ulps, text: r.textContent })),
           trace_first: first ? { line: first.dataset.line, text: first.textContent,
                                  marks: [...first.querySelectorAll('mark')].map((m) => m.textContent) } : null,
           trace_rows: document.querySelectorAll('#trace-table tr').length,
           marks: document.getElementById('marks').textContent,
           note: (document.getElementById('left-out') || {}).textContent || '',
           load_ms: +b.dataset.loadMs };
})()"""


def fxkcc(binary, cwd, args, want):
    p = subprocess.run([binary] + args, cwd=cwd, capture_output=True, text=True, timeout=600)
    if p.returncode != want:
        raise AssertionError(f"fxkcc {' '.join(args)} exited {p.returncode}, expected {want}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def main():
    if len(sys.argv) < 2:
        print("usage: python3 viewer_test.py FXKCC [--no-large]", file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    large = "--no-large" not in sys.argv[2:]
    browser = find_browser()
    if not browser:
        print("viewer_test: SKIPPED: no chromium (chromium, chromium-browser, google-chrome or $FXKCC_BROWSER; "
              "scripts/setup.sh installs Debian's chromium)")
        return 77
    tmp = tempfile.mkdtemp(prefix="fxkcc-viewer-")
    chromium = None
    try:
        shutil.copytree(os.path.join(REPO, "tests", "e2e", "scenarios"), os.path.join(tmp, "scenarios"))
        out = fxkcc(binary, tmp, ["desync", "scenarios/walk-wall.yaml", "--b-args", "--inject-fault 40:7:z:2",
                                  "--html", "d.html"], 1)
        check(re.search(r"(?m)^html: wrote d\.html \(\d+ KB; every row\)$", out), out)
        fxkcc(binary, tmp, ["run", "scenarios/platform.yaml", "--inject-fault", "30:3:y:40", "--html", "r.html"], 1)
        chromium = Chromium(browser, os.path.join(tmp, "profile"))
        product = chromium.send("Browser.getVersion")["product"]
        tab = Tab(chromium)
        d_url = pathlib.Path(tmp, "d.html").as_uri()

        # 1. The desync page opens at the divergent tick and character, z differing by the fault.
        tab.open(d_url)
        s = tab.eval(STATE)
        check((s["tick"], s["c"], s["label"], s["hash"]) == (40, 7, "tick 40", "#tick=40&c=7"), s)
        check([d["field"] for d in s["differs"]] == ["z"], s["differs"])
        z = s["differs"][0]
        check(int(z["a"]) ^ int(z["b"]) == 3, f"z: the fault flips the two low bits: {z}")
        check(int(z["ulps"]) == int(z["b"]) - int(z["a"]), z)
        check(re.search(r"[+-]\d+ ulp[+-][\d.e-]+ m$", z["text"]), z["text"])
        print(f"desync page: tick {s['tick']}, c{s['c']}, z differs by {z['ulps']} ulp (raw {z['a']} vs {z['b']})")

        # 'next mismatch': the next tick c7 differs at; the fragment follows; the traces of tick 41
        # part at c7's tick-begin, the position it starts from marked.
        tab.click("next-mismatch")
        s = tab.eval(STATE)
        check((s["tick"], s["c"], s["hash"]) == (41, 7, "#tick=41&c=7"), s)
        check("z" in [d["field"] for d in s["differs"]], s["differs"])
        first = s["trace_first"]
        check(first and "t=41 c=7 tick-begin " in first["text"], first)
        # The value marked is the position c7 starts tick 41 from: z of tick 40, a's raw bits.
        z40 = "[0x%016x]" % (int(z["a"]) & (2**64 - 1))
        check(any(m.endswith(z40) for m in first["marks"]) and len(first["marks"]) <= 2, (z40, first))
        print(f"next mismatch: tick {s['tick']}, fragment {s['hash']}, first trace difference at line "
              f"{first['line']}: {' '.join(first['marks'])}")

        # Keys: left a tick, shift+right ten; 'previous mismatch'; a link to a moment opens it.
        tab.key("ArrowLeft")
        check(tab.eval(STATE)["hash"] == "#tick=40&c=7", "left arrow")
        tab.key("ArrowRight", shift=True)
        check(tab.eval(STATE)["hash"] == "#tick=50&c=7", "shift+right arrow")
        tab.click("prev-mismatch")
        check(tab.eval(STATE)["tick"] == 49, "previous mismatch")
        # Space plays (50 ticks a second at 1x) and pauses.
        tab.key(" ")
        time.sleep(0.5)
        tab.key(" ")
        s = tab.eval(STATE)
        check(s["tick"] > 49 and tab.eval("document.getElementById('play').textContent") == "play", s)
        played = s["tick"]
        time.sleep(0.2)
        check(tab.eval(STATE)["tick"] == played, "paused")
        tab.open(d_url + "#tick=60&c=1")
        s = tab.eval(STATE)
        check((s["tick"], s["c"], s["hash"], s["differs"]) == (60, 1, "#tick=60&c=1", []), s)

        # 2. The run page: the invariant the fault violates, marked at its tick, with its trace.
        tab.open(pathlib.Path(tmp, "r.html").as_uri())
        s = tab.eval(STATE)
        check((s["tick"], s["c"]) == (30, 3), s)
        check(re.search(r"tick 30 c3 invariant: tick 30, character 3: ", s["marks"]), s["marks"])
        check(s["trace_rows"] > 0, "the run page shows the trace of the failed check's tick")
        print(f"run page: tick {s['tick']}, c{s['c']}, {s['trace_rows']} trace lines, marks: {s['marks'][:70]}")

        # 3. A 10,000-tick page of 64 characters, two runs: its size and load time.
        if large:
            subprocess.run([sys.executable, os.path.join(HERE, "long_arena.py"), os.path.join(tmp, "arena-10k.yaml")],
                           check=True)
            start = time.monotonic()
            out = fxkcc(binary, tmp, ["desync", "arena-10k.yaml", "--b-args", "--inject-fault 5000:17:x:3",
                                      "--html", "big.html"], 1)
            wrote = time.monotonic() - start
            size = os.path.getsize(os.path.join(tmp, "big.html"))
            check(size < MAX_BYTES, f"the 10,000-tick page is {size} bytes, over {MAX_BYTES}")
            check(re.search(r"rows every \d+ ticks outside ticks 4900\.\.5100", out), out[-400:])
            times = [tab.open(pathlib.Path(tmp, "big.html").as_uri()) for _ in range(3)]
            s = tab.eval(STATE)
            check((s["tick"], s["c"]) == (5000, 17), s)
            check([d["field"] for d in s["differs"]] == ["x"], s["differs"])
            check("leaves rows out" in s["note"], s["note"])
            print(f"large page: 10000 ticks x 64 characters, two runs: {size} bytes ({size / 1048576:.2f} MiB), written "
                  f"in {wrote:.1f} s; opens in {min(times)} ms (navigation to ready, best of {times} ms; the page's "
                  f"script {s['load_ms']} ms) in {product}")
            check(min(times) < 10000, f"the large page took {min(times)} ms to open")
        print(f"viewer_test: PASSED ({product})")
        return 0
    finally:
        if chromium:
            chromium.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print(f"viewer_test: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
