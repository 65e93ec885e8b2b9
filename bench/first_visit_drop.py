"""A judge's first visit on a slow link that drops, in headless Chromium (Debian's), printing a
table: seconds from navigation to the status line's "Ready offline".

The organiser server sits behind shaped_link.py (1.6 Mbit/s down, 750 kbit/s up, 150 ms round
trip), with a 15 s outage starting --drop-at s after navigation, three ways:
- none:  no outage (the reference);
- stall: the link goes silent (bytes held, connections kept, new connections wait), then
  carries on;
- cut:   every open connection is aborted and new ones are refused, then the link is back.
The browser is not told (navigator.onLine stays true, no "offline" event): the page finds out
from its failed downloads only. Also printed: how long after the link returned the download
went on (the first progress the status line showed after it), the texts the note under the
status line showed meanwhile, and whether the progress ever went backwards.

Usage: python bench/first_visit_drop.py [--visits 1] [--drop-at 12] [--outage 15]
       [--modes none,stall,cut] [--dist pwa/dist]
(builds pwa/dist first when it is missing)
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from pwa_load import ARGS, DIST, PHONE, ROOT, serve
from shaped_link import ShapedLink

SLOW_4G = {"down_bps": 1.6e6, "up_bps": 0.75e6, "rtt_ms": 150}
STATUS = """() => {
  const pill = document.getElementById('offline');
  const note = document.getElementById('offline-note');
  const text = document.getElementById('offline-note-text');
  return pill ? {phase: pill.dataset.phase || null, pill: pill.textContent.trim(),
                 note: note && !note.hidden && text ? text.textContent.trim() : ''} : null;
}"""


class DroppingLink(ShapedLink):
    """The shaped link with an outage: `cut_off(mode)` starts one ("stall" or "cut"), `restore()`
    ends it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.mode = None
        self.writers: set = set()
        self.cut_connections = 0

    async def _hold(self):
        while self.mode == "stall":
            await asyncio.sleep(0.05)

    async def _connection(self, client_reader, client_writer):
        if self.mode == "cut":
            self.cut_connections += 1
            client_writer.transport.abort()
            return
        await self._hold()
        self.writers.add(client_writer)
        try:
            await super()._connection(client_reader, client_writer)
        finally:
            self.writers.discard(client_writer)

    def cut_off(self, mode):
        def start():
            self.mode = mode
            if mode == "cut":
                for writer in list(self.writers):
                    self.cut_connections += 1
                    writer.transport.abort()
        self.loop.call_soon_threadsafe(start)

    def restore(self):
        self.loop.call_soon_threadsafe(lambda: setattr(self, "mode", None))


def mib_shown(pill: str):
    """The first size the pill shows ("Offline copy 1.2 MiB of 3.9 MiB" -> 1.2)."""
    found = re.search(r"(\d+(?:[.,]\d+)?) MiB", pill)
    return float(found.group(1).replace(",", ".")) if found else None


def visit(pw, exe, link, mode, drop_at, outage, limit_s=300):
    browser = pw.chromium.launch(executable_path=exe, args=ARGS, headless=True)
    try:
        ctx = browser.new_context(viewport=PHONE, locale="en-US")
        page = ctx.new_page()
        t0 = time.monotonic()
        page.goto(link.url + "/#/join", timeout=120_000, wait_until="commit")
        dropped = restored = resumed = None
        notes, shown, backwards, last = [], [], False, None
        while time.monotonic() - t0 < limit_s:
            now = time.monotonic() - t0
            if mode != "none" and dropped is None and now >= drop_at:
                link.cut_off(mode)
                dropped = now
            if dropped is not None and restored is None and now >= dropped + outage:
                link.restore()
                restored = now
            try:
                status = page.evaluate(STATUS)
            except Exception:  # the page is navigating
                status = None
            if status and status != last:
                last = status
                if status["note"] and status["note"] not in notes:
                    notes.append(status["note"])
                size = mib_shown(status["pill"]) if status["phase"] in ("downloading", "paused") else None
                if size is not None:
                    backwards |= bool(shown) and size < shown[-1]
                    shown.append(size)
                    if restored is not None and resumed is None and status["phase"] == "downloading" \
                            and len(shown) > 1 and size > shown[-2]:
                        resumed = now - restored
                if status["phase"] == "ready":
                    return {"mode": mode, "ready_s": now, "resumed_s": resumed, "notes": notes,
                            "backwards": backwards, "cut": link.cut_connections}
            page.wait_for_timeout(100)
        return {"mode": mode, "ready_s": None, "resumed_s": resumed, "notes": notes,
                "backwards": backwards, "cut": link.cut_connections}
    finally:
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=1, help="first visits per mode")
    parser.add_argument("--drop-at", type=float, default=12.0, help="s after navigation")
    parser.add_argument("--outage", type=float, default=15.0, help="s the link is down")
    parser.add_argument("--modes", default="none,stall,cut")
    parser.add_argument("--dist", type=Path, default=DIST, help="the app build to serve")
    args = parser.parse_args()
    if args.dist == DIST and not (DIST / "sw.js").exists():
        subprocess.run(["npm", "run", "--prefix", str(ROOT / "pwa"), "--silent", "build"], check=True)
    from playwright.sync_api import sync_playwright

    exe = shutil.which("chromium")
    httpd, _ = serve(args.dist)
    rows = []
    try:
        with sync_playwright() as pw:
            for mode in args.modes.split(","):
                for _ in range(args.visits):
                    # A fresh link per visit: its queues start empty.
                    with DroppingLink(("127.0.0.1", httpd.httpd.server_port), **SLOW_4G) as link:
                        rows.append(visit(pw, exe, link, mode, args.drop_at, args.outage))
    finally:
        httpd.shutdown()

    print(f"## First visit at 1.6 Mbit/s down, 750 kbit/s up, 150 ms RTT; "
          f"{args.outage:.0f} s outage at {args.drop_at:.0f} s")
    print("| outage | ready offline, s (median) | min s | max s | went on after the link returned, s | "
          "progress went backwards |")
    print("|---|---|---|---|---|---|")
    for mode in args.modes.split(","):
        mine = [r for r in rows if r["mode"] == mode]
        ready = [r["ready_s"] for r in mine if r["ready_s"] is not None]
        resumed = [r["resumed_s"] for r in mine if r["resumed_s"] is not None]
        said = (f"{statistics.median(ready):.1f} | {min(ready):.1f} | {max(ready):.1f}" if ready
                else "not ready | | ")
        print(f"| {mode} | {said}{' (' + str(len(mine) - len(ready)) + ' never)' if len(ready) < len(mine) else ''} | "
              f"{f'{statistics.median(resumed):.1f}' if resumed else '-'} | "
              f"{'yes' if any(r['backwards'] for r in mine) else 'no'} |")
    print()
    print("Notes shown under the status line:")
    for mode in args.modes.split(","):
        notes = sorted({n for r in rows if r["mode"] == mode for n in r["notes"]})
        for note in notes:
            print(f"- {mode}: {note}")


if __name__ == "__main__":
    main()
