"""Judge app load benchmark in headless Chromium (Debian's), printing tables.

Measures:
- bytes downloaded on a first visit, counted at the organiser server (which sends the Brotli
  or gzip copies the build writes, as the browser accepts), each file's share, the encodings
  the browser accepted and got, and any file sent twice; the precached files' full size.
  The server is at http://127.0.0.1, a secure context like any https:// address, where
  Chromium accepts Brotli; on a plain http:// address elsewhere it asks for gzip only (and
  cannot keep the app offline there at all);
- after a browser restart (same profile, everything from the service-worker cache, Python
  restored from its memory snapshot), median of several runs: first contentful paint, the
  round clock visible, Python ready, and the first engine answer (all milliseconds from
  navigation start);
- the window.judge.evaluate round trip (median and p99, milliseconds).

Usage: python bench/pwa_load.py [--runs 5] [--calls 500] [--locale de-DE]
(--locale: the browser's language, so the first visit reads the app in it)
(builds pwa/dist first when it is missing)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
from pathlib import Path

from werkzeug.serving import WSGIRequestHandler

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "pwa" / "dist"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]
PHONE = {"width": 390, "height": 844}
REQUEST = {"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
           "facts": {"infraction": "slow_play",
                     "history": [{"infraction": "slow_play", "penalty": "warning"}]}}
FIRST_ANSWER = """async (request) => {
  await window.judge.ready;
  await window.judge.evaluate(request);
  const t = performance.now();
  const clock = performance.getEntriesByName('clock-visible')[0];
  const py = performance.getEntriesByName('python-ready')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {fcp: fcp ? fcp.startTime : null, clock: clock ? clock.startTime : null,
          python: py ? py.startTime : null, answer: t, from: window.judge.state.from};
}"""


class CountingApp:
    """WSGI wrapper counting the response body bytes the server sends (compressed or not):
    in all, and per path (bytes, times sent with status 200, Content-Encoding); and the
    Accept-Encoding headers browsers sent."""

    def __init__(self, app):
        self.app = app
        self.bytes_sent = 0
        self.paths: dict[str, dict] = {}
        self.accepted: set[str] = set()

    def __call__(self, environ, start_response):
        path = environ["PATH_INFO"]
        self.accepted.add(environ.get("HTTP_ACCEPT_ENCODING", ""))
        sent = {}

        def note(status, headers, *rest):
            sent["status"], sent["encoding"] = status, dict(headers).get("Content-Encoding")
            return start_response(status, headers, *rest)

        size = 0
        for chunk in self.app(environ, note):
            size += len(chunk)
            yield chunk
        self.bytes_sent += size
        row = self.paths.setdefault(path, {"bytes": 0, "full": 0, "encoding": None})
        row["bytes"] += size
        if sent.get("status", "").startswith("200"):
            row["full"] += 1
            row["encoding"] = sent.get("encoding")

    def reset(self):
        self.paths.clear()
        self.accepted.clear()


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args):
        pass


class Served:
    """The organiser server (create_app, temporary SQLite) serving the build on a free port."""

    def __init__(self, folder: Path, workdir: Path):
        from werkzeug.serving import make_server

        from server import create_app

        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir}/bench.sqlite3",
                          "SECRET_KEY": "bench", "ORGANISER_PASSWORD": "bench", "PWA_DIST": str(folder)},
                         instance_path=str(workdir))
        self.counter = CountingApp(app)
        self.httpd = make_server("127.0.0.1", 0, self.counter, threaded=True, request_handler=QuietHandler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"

    @property
    def bytes_sent(self) -> int:
        return self.counter.bytes_sent

    def shutdown(self) -> None:
        self.httpd.shutdown()


def serve(folder: Path):
    workdir = Path(tempfile.mkdtemp(prefix="pwa-bench-"))
    served = Served(folder, workdir)
    return served, served.url


def precached(folder: Path):
    """The build's precache list: [{"url", "revision", "bytes", "wire"}]."""
    return json.loads((folder / "precache.json").read_text())["files"]


def start_local_round(page, url: str) -> None:
    """A standalone event with a local 50-minute round, so the clock screen has something to
    show after a restart."""
    page.select_option("#standalone-ruleset", "wotf")
    page.click("#standalone-btn")
    page.wait_for_selector("main[data-screen=penalty]")
    page.goto(url + "/#/clock")
    page.fill("#local-minutes", "50")
    page.click("form.row button[type=submit]")
    page.wait_for_selector("#round-left[data-remaining-ms]")


def mib(n: int) -> str:
    return f"{n / 1048576:.2f} MiB"


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="browser restarts to time")
    parser.add_argument("--calls", type=int, default=500, help="evaluate calls to time")
    parser.add_argument("--locale", default="en-US", help="the browser's language (de-DE: a German phone)")
    args = parser.parse_args()
    if not (DIST / "sw.js").exists():
        subprocess.run(["npm", "run", "--prefix", str(ROOT / "pwa"), "--silent", "build"],
                       check=True)
    from playwright.sync_api import sync_playwright

    httpd, url = serve(DIST)
    profile = tempfile.mkdtemp(prefix="judge-bench-")
    exe = shutil.which("chromium")
    runs = []
    try:
        with sync_playwright() as pw:
            def launch():
                return pw.chromium.launch_persistent_context(
                    profile, executable_path=exe, args=ARGS, headless=True, viewport=PHONE,
                    locale=args.locale)

            # First visit: install, precache, start Python; then a standalone event with a
            # local round so the clock screen has something to show after a restart.
            ctx = launch()
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.goto(url + "/#/join")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                                   timeout=120_000)
            page.wait_for_function("() => window.judge")
            page.evaluate("() => window.judge.ready")
            page.wait_for_selector("#offline[data-phase=ready]")
            first_visit = httpd.bytes_sent
            first_files = {p: dict(row) for p, row in httpd.counter.paths.items()}
            accepted = sorted(httpd.counter.accepted)
            page.wait_for_function("() => window.judge.state.snapshot_bytes > 0", timeout=60_000)
            snapshot_bytes = page.evaluate("() => window.judge.state.snapshot_bytes")
            start_local_round(page, url)
            ctx.close()

            for _ in range(args.runs):
                before = httpd.bytes_sent
                ctx = launch()
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                page.goto(url + "/#/clock")
                page.wait_for_function("() => window.judge")  # the app's code loads after the first clock
                marks = page.evaluate(FIRST_ANSWER, REQUEST)
                marks["bytes"] = httpd.bytes_sent - before
                runs.append(marks)
                ctx.close()

            ctx = launch()
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.goto(url + "/#/clock")
            page.wait_for_function("() => window.judge")
            page.evaluate("() => window.judge.ready")
            times = page.evaluate("""async ([request, n]) => {
                const out = [];
                for (let i = 0; i < n; i++) {
                  const t = performance.now();
                  await window.judge.evaluate(request);
                  out.push(performance.now() - t);
                }
                return out;
            }""", [REQUEST, args.calls])
            ctx.close()
    finally:
        httpd.shutdown()
        shutil.rmtree(profile, ignore_errors=True)

    files = precached(DIST)
    heap_limit = json.loads((DIST / "version.json").read_text())["snapshot_heap_limit"]
    twice = sorted(p for p, row in first_files.items() if row["full"] > 1 and not p.startswith("/api/"))
    print(f"## Bytes (load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          "other work may share the machine)")
    print("| what | bytes |")
    print("|---|---|")
    print(f"| first visit ({args.locale}), downloaded (all requests, until ready offline) | {mib(first_visit)} |")
    print(f"| files sent twice on the first visit | {', '.join(twice) or 'none'} |")
    print(f"| precached ({len(files) + 1} files), full size | {mib(sum(f['bytes'] for f in files))} |")
    print(f"| precached, Brotli copies where there are | {mib(sum(f['wire'] for f in files))} |")
    print(f"| downloaded on a restart (median) | "
          f"{statistics.median(r['bytes'] for r in runs) / 1024:.1f} KiB |")
    print(f"| interpreter memory snapshot kept in IndexedDB | {mib(snapshot_bytes)} |")
    print(f"| heap the runtime can restore (its initial memory) | {mib(heap_limit)} |")
    print()
    print(f"Accept-Encoding sent by the browser: {' / '.join(accepted)}")
    print()
    print("| first visit, file | sent | share | encoding |")
    print("|---|---|---|---|")
    for path, row in sorted(first_files.items(), key=lambda x: -x[1]["bytes"]):
        if row["bytes"]:
            print(f"| {path} | {row['bytes'] / 1024:.1f} KiB | {100 * row['bytes'] / first_visit:.1f} % | "
                  f"{row['encoding'] or 'none'} |")
    print()
    started = sorted({r["from"] for r in runs})
    print(f"## After a browser restart, from the service-worker cache "
          f"(ms from navigation start, median of {len(runs)}; Python started from: "
          f"{', '.join(started)})")
    print("| milestone | median | min | max |")
    print("|---|---|---|---|")
    for key, name in [("fcp", "first contentful paint"), ("clock", "round clock visible"),
                      ("python", "Python ready"), ("answer", "first engine answer")]:
        values = [r[key] for r in runs if r[key] is not None]
        if values:
            print(f"| {name} | {statistics.median(values):.0f} | {min(values):.0f} | "
                  f"{max(values):.0f} |")
    print()
    print(f"## window.judge.evaluate round trip ({len(times)} calls, penalty query)")
    print("| median ms | p99 ms | max ms |")
    print("|---|---|---|")
    print(f"| {statistics.median(times):.2f} | {percentile(times, 99):.2f} | {max(times):.2f} |")


if __name__ == "__main__":
    main()
