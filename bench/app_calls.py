"""What a judge's phone shows, timed in headless Chromium (Debian's), with the real
organiser server (SQLite) and the app build over its push stream:

- a player's tap on "Call a judge" on a table's page until the call is drawn in the calls
  panel of a judge's phone that is on another screen;
- the organiser's pause until the judge's clock shows its paused state.

Prints median, p90 and max in milliseconds over `--runs` of each.

Usage: python bench/app_calls.py [--runs 10]   (needs pwa/dist: npm run --prefix pwa build)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM_ARGS, DIST, PHONE, organiser_app, serving  # noqa: E402
from tests.browser.helpers import join  # noqa: E402


def figures(ms: list[float]) -> str:
    ordered = sorted(ms)
    return (f"median {statistics.median(ordered):.0f}, p90 {ordered[int(0.9 * (len(ordered) - 1))]:.0f}, "
            f"max {ordered[-1]:.0f}")


def main() -> None:
    from playwright.sync_api import sync_playwright

    from server.clock import resume_round
    from server.events import get_event

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp, serving(organiser_app(Path(tmp), DIST)) as srv, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
        event = srv.make_event("dci-upg", "competitive", players=2 * runs)
        slug = event["slug"]
        srv.start_round(slug)
        judge = browser.new_context(viewport=PHONE).new_page()
        join(judge, srv, event, "Judge")
        judge.wait_for_selector("#net[data-push=live]", timeout=10_000)
        judge.goto(srv.url + "/#/penalty")
        player = browser.new_context(viewport=PHONE).new_page()
        calls, pauses = [], []
        for table in range(1, runs + 1):
            player.goto(srv.url + f"/#/event/{slug}/table/{table}")
            player.wait_for_selector("#call-btn:not([disabled])")
            start = time.perf_counter()
            player.click("#call-btn")
            judge.wait_for_selector("#calls li[data-status=open]", timeout=15_000)
            calls.append((time.perf_counter() - start) * 1000)
            for step in ("#calls .call-take", "#calls .call-close", "#calls .call-close-done",
                         "#call-closed button:last-child"):
                judge.click(step)
            judge.wait_for_selector("#calls", state="hidden")
        judge.goto(srv.url + "/#/clock")
        for _ in range(runs):
            start = time.perf_counter()
            srv.pause_round(slug)
            judge.wait_for_selector("section.clock[data-phase=paused]", timeout=15_000)
            pauses.append((time.perf_counter() - start) * 1000)
            with srv.app.app_context():
                resume_round(get_event(slug))
            judge.wait_for_selector("section.clock[data-phase=running]", timeout=15_000)
        browser.close()
    print(f"call tap -> judge's phone (ms, {runs} runs): {figures(calls)}")
    print(f"pause -> judge's phone (ms, {runs} runs):    {figures(pauses)}")


if __name__ == "__main__":
    main()
