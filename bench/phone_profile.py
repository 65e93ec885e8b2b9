"""The judge app on a phone-like profile, in headless Chromium (Debian's), printing tables.

1. First visit on a slow network (Lighthouse's slow 4G: 1.6 Mbit/s down, 750 kbit/s up,
   150 ms round trip) through a throttling proxy in front of the organiser server
   (shaped_link.py: Chromium's own network emulation does not reach the service worker's
   fetches): seconds from navigation to the status line's "Ready offline", and to Python
   ready. Budget: ready offline in under 40 s.
2. Restart with the network cut, at 4x CPU slowdown: milliseconds from navigation to the
   round clock's digits painted (Element Timing; "drawn" is when they entered the page) and
   to Python ready (restored from its memory snapshot). Budgets:
   clock under 500 ms, Python under 1300 ms. Two ways of slowing the CPU:
   - "page 4x": CDP Emulation.setCPUThrottlingRate(4). It slows the page's main thread only:
     Chromium refuses it for workers ("only supported for pages"), so Python, in its worker,
     runs at full speed;
   - "renderer 4x": the renderer processes (page and worker alike) are stopped 75 % of every
     20 ms (SIGSTOP/SIGCONT), so everything in the page runs at a quarter speed.
   Medians of --runs runs, with the machine's load average: on a shared machine other work
   slows the figures.

Usage: python bench/phone_profile.py [--runs 5] [--visits 3]
(builds pwa/dist first when it is missing)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from pwa_load import ARGS, DIST, PHONE, ROOT, serve, start_local_round
from shaped_link import ShapedLink

SLOW_4G = {"down_bps": 1.6e6, "up_bps": 0.75e6, "rtt_ms": 150}
BUDGET = {"ready_offline_s": 40, "clock_ms": 500, "python_ms": 1300}
# Marks the moment the status line first says "Ready offline" (ms from navigation start).
MARK_READY = """
new MutationObserver((_, observer) => {
  const pill = document.getElementById('offline');
  if (pill && pill.dataset.phase === 'ready') { performance.mark('ready-offline'); observer.disconnect(); }
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""
MARKS = """() => Object.fromEntries(['clock-visible', 'python-ready', 'ready-offline'].map(
  (name) => [name, performance.getEntriesByName(name)[0]?.startTime ?? null]))"""
# When the round clock's digits were first painted (Element Timing: the first clock and the
# clock screen's timer carry elementtiming="round-clock"), ms from navigation.
PAINTED = """() => new Promise((done) => {
  new PerformanceObserver((list) => done(Math.min(...list.getEntries()
    .filter((e) => e.identifier === 'round-clock').map((e) => e.renderTime || e.loadTime))))
    .observe({type: 'element', buffered: true});
  setTimeout(() => done(null), 2000);
})"""


class RendererThrottle:
    """Runs the renderer processes of the Chromium using `profile` at 1/`rate` speed: each
    20 ms period they run 20/rate ms and are stopped for the rest."""

    PERIOD_S = 0.020

    def __init__(self, profile: str, rate: float):
        self.profile, self.run_s = profile, self.PERIOD_S / rate
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.stopped: set[int] = set()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self._signal(self.stopped, signal.SIGCONT)

    def _renderers(self) -> set[int]:
        procs = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                # Chromium's child processes rewrite their command line as one string.
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            procs[int(entry)] = (ppid, cmd)
        browsers = {pid for pid, (_, cmd) in procs.items()
                    if f"--user-data-dir={self.profile}\0".encode() in cmd and b"--type=" not in cmd}

        def under_browser(pid):
            while pid in procs and pid not in browsers:
                pid = procs[pid][0]
            return pid in browsers

        return {pid for pid, (_, cmd) in procs.items() if b"--type=renderer" in cmd and under_browser(pid)}

    def _signal(self, pids, sig):
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def _loop(self):
        renderers: set[int] = set()
        next_scan = 0.0
        while not self.stop.is_set():
            if time.monotonic() >= next_scan:
                renderers, next_scan = self._renderers(), time.monotonic() + 0.2
            self._signal(renderers, signal.SIGCONT)
            time.sleep(self.run_s)
            self._signal(renderers, signal.SIGSTOP)
            self.stopped = renderers
            time.sleep(self.PERIOD_S - self.run_s)


def first_visits(pw, exe, url, visits):
    rows = []
    for _ in range(visits):
        browser = pw.chromium.launch(executable_path=exe, args=ARGS, headless=True)
        ctx = browser.new_context(viewport=PHONE)
        ctx.add_init_script(MARK_READY)
        page = ctx.new_page()
        page.goto(url + "/#/join", timeout=120_000)
        page.wait_for_selector("#offline[data-phase=ready]", timeout=300_000)
        page.wait_for_function("() => window.judge")
        page.evaluate("() => window.judge.ready")
        rows.append(page.evaluate(MARKS))
        browser.close()
    return rows


def restarts(pw, exe, url, runs, mode):
    profile = tempfile.mkdtemp(prefix="judge-phone-")
    rows = []
    try:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=exe, args=ARGS, headless=True,
                                                    viewport=PHONE)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(url + "/#/join")
        page.wait_for_selector("#offline[data-phase=ready]", timeout=120_000)
        page.wait_for_function("() => window.judge.state.snapshot_bytes > 0", timeout=60_000)
        start_local_round(page, url)
        ctx.close()
        for _ in range(runs):
            ctx = pw.chromium.launch_persistent_context(profile, executable_path=exe, args=ARGS, headless=True,
                                                        viewport=PHONE, offline=True)
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            if mode == "page 4x":
                ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
                page.goto(url + "/#/clock")
                page.wait_for_function("() => window.judge")
                page.evaluate("() => window.judge.ready")
            else:
                with RendererThrottle(profile, 4):
                    page.goto(url + "/#/clock", timeout=60_000)
                    page.wait_for_function("() => window.judge")
                    page.evaluate("() => window.judge.ready")
            marks = page.evaluate(MARKS)
            marks["clock-painted"] = page.evaluate(PAINTED)
            marks["from"] = page.evaluate("() => window.judge.state.from")
            rows.append(marks)
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return rows


def median(rows, key):
    values = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(values) if values else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="offline restarts per CPU mode")
    parser.add_argument("--visits", type=int, default=3, help="first visits on the slow network")
    args = parser.parse_args()
    if not (DIST / "sw.js").exists():
        subprocess.run(["npm", "run", "--prefix", str(ROOT / "pwa"), "--silent", "build"], check=True)
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    httpd, url = serve(DIST)
    exe = shutil.which("chromium")
    try:
        with sync_playwright() as pw, ShapedLink(("127.0.0.1", httpd.httpd.server_port), **SLOW_4G) as link:
            visits = first_visits(pw, exe, link.url, args.visits)
            restart = {mode: restarts(pw, exe, url, args.runs, mode) for mode in ("page 4x", "renderer 4x")}
    finally:
        httpd.shutdown()
    load_after = os.getloadavg()

    print(f"Machine: {os.cpu_count()} cores, load average (1 min) {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after; other work on the machine slows these figures.")
    print()
    print(f"## First visit at 1.6 Mbit/s down, 750 kbit/s up, 150 ms RTT (median of {len(visits)})")
    print("| milestone | median s | min s | max s | budget |")
    print("|---|---|---|---|---|")
    for key, name, budget in [("ready-offline", "status says Ready offline", f"< {BUDGET['ready_offline_s']} s"),
                              ("python-ready", "Python ready", "")]:
        values = [r[key] / 1000 for r in visits if r[key] is not None]
        if not values:
            print(f"| {name} | not measured | | | {budget} |")
            continue
        print(f"| {name} | {statistics.median(values):.1f} | {min(values):.1f} | {max(values):.1f} | {budget} |")
    print()
    print(f"## Restart with the network cut, 4x CPU slowdown (ms from navigation, median of {args.runs})")
    print("| CPU slowdown | round clock painted | (drawn) | Python ready | Python started from |")
    print("|---|---|---|---|---|")
    for mode, rows in restart.items():
        print(f"| {mode} | {median(rows, 'clock-painted'):.0f} | {median(rows, 'clock-visible'):.0f} | "
              f"{median(rows, 'python-ready'):.0f} | {', '.join(sorted({r['from'] for r in rows}))} |")
    print(f"| budget | < {BUDGET['clock_ms']} | | < {BUDGET['python_ms']} | |")


if __name__ == "__main__":
    main()
