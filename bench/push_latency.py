"""Push latency: how long a judge call and a round pause take to reach phones over the push
stream (`GET /api/events/<slug>/stream`), with 20 phones connected to a real server
(gunicorn, 2 worker processes, so a change made in one process must reach the streams the
other holds), and what the judges' call list costs with 50 open calls.

Run: .venv/bin/python bench/push_latency.py [--phones 20] [--rounds 30] [--workers 2]
SQLite in a temporary folder by default (DATABASE_URL picks another database, e.g. the test
PostgreSQL). Call-to-phone: from just before `POST /calls` to each phone's `change` message
carrying the new `calls_seq`. Pause-to-phone: from just before the organiser's pause (or
resume) form to each phone's message carrying the new `clock_version`. Figures are median and
p95 over every phone and every try. The clients share the machine's cores with the server.
This is a benchmark, not a test: it prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.server_http import free_port  # noqa: E402

PASSWORD = "bench"


def prepare(tmp: str, url: str) -> tuple[str, str]:
    """Migrate the database, load the demo events; (the wotf event's slug, its join code)."""
    from flask_migrate import upgrade

    from server import create_app
    from server.cli import demo_events
    from server.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url}, instance_path=tmp)
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        event = next(e for e in demo_events() if e.ruleset == "wotf")
        slug, code = event.slug, event.join_code
        db.engine.dispose()
    return slug, code


def request(url, body=None, headers=None, opener=None, form=None) -> tuple[int, bytes]:
    """(status, body) of a GET, a JSON POST (`body`) or a form POST (`form`)."""
    if body is not None:
        data, kind = json.dumps(body).encode(), {"Content-Type": "application/json"}
    else:
        data = None if form is None else urllib.parse.urlencode(form).encode()
        kind = {} if form is None else {"Content-Type": "application/x-www-form-urlencoded"}
    try:
        res = (opener or urllib.request.build_opener()).open(
            urllib.request.Request(url, data=data, headers={**kind, **(headers or {})}), timeout=30)
    except urllib.error.HTTPError as err:
        res = err
    with res:
        return res.status, res.read()


class Phone:
    """One stream client: every `change` message's counters with its arrival time."""

    def __init__(self):
        self.seen: list[tuple[float, dict]] = []
        self.connected = asyncio.Event()

    async def follow(self, port: int, slug: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /api/events/{slug}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        event = None
        try:
            while line := await reader.readline():
                text = line.decode().strip()
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event == "change":
                    self.seen.append((time.perf_counter(), json.loads(text[6:])))
                    self.connected.set()
        finally:
            writer.close()

    def arrival(self, key: str, value: int) -> float | None:
        return next((t for t, c in self.seen if c[key] >= value), None)


async def measure(phones: list[Phone], key: str, action, tries: int) -> list[float]:
    """Milliseconds from each action to each phone's message with the counter `key` moved on."""
    latencies = []
    loop = asyncio.get_running_loop()
    for _ in range(tries):
        target = max(p.seen[-1][1][key] for p in phones) + 1
        start = time.perf_counter()
        await loop.run_in_executor(None, action)
        deadline = start + 10
        while time.perf_counter() < deadline and any(p.arrival(key, target) is None for p in phones):
            await asyncio.sleep(0.005)
        latencies += [((p.arrival(key, target) or deadline) - start) * 1000 for p in phones]
        await asyncio.sleep(0.05)
    return latencies


def figures(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"median {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   ({len(ordered)} deliveries)"


async def run(port: int, slug: str, code: str, args) -> None:
    base = f"http://127.0.0.1:{port}"
    phones = [Phone() for _ in range(args.phones)]
    tasks = [asyncio.create_task(p.follow(port, slug)) for p in phones]
    await asyncio.wait_for(asyncio.gather(*(p.connected.wait() for p in phones)), 30)

    jar = http.cookiejar.CookieJar()
    organiser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    request(f"{base}/organiser/login", form={"username": "organiser", "password": PASSWORD}, opener=organiser)
    page = request(f"{base}/organiser/events/{slug}", opener=organiser)[1].decode()
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    request(f"{base}/organiser/events/{slug}/round", form={"csrf": csrf, "action": "start", "round_minutes": "50"},
            opener=organiser)
    _, joined = request(f"{base}/api/join", {"code": code, "device_name": "bench", "judge_name": "Bench Judge"})
    judge = {"Authorization": f"Bearer {json.loads(joined)['token']}"}

    tables = iter(range(1, 10_000))

    def call():
        status, body = request(f"{base}/api/events/{slug}/calls", {"table": next(tables)})
        assert status == 201, (status, body)

    paused = [False]

    def pause_or_resume():
        action = "resume" if paused[0] else "pause"
        request(f"{base}/organiser/events/{slug}/round", form={"csrf": csrf, "action": action}, opener=organiser)
        paused[0] = not paused[0]

    calls = await measure(phones, "calls_seq", call, args.rounds)
    pauses = await measure(phones, "clock_version", pause_or_resume, args.rounds)

    open_now = len(json.loads(request(f"{base}/api/events/{slug}/calls", headers=judge)[1])["calls"])
    for _ in range(max(0, 50 - open_now)):
        call()
    times, size, count = [], 0, 0
    for _ in range(20):
        start = time.perf_counter()
        status, body = request(f"{base}/api/events/{slug}/calls", headers=judge)
        times.append((time.perf_counter() - start) * 1000)
        size, count = len(body), len(json.loads(body)["calls"])
    for task in tasks:
        task.cancel()

    print(f"{args.phones} phones on the stream, gunicorn {args.workers} processes, {args.rounds} tries each")
    print(f"call-to-phone   {figures(calls)}")
    print(f"pause-to-phone  {figures(pauses)}")
    print(f"{count} open calls: GET /calls {size} bytes, median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms (20 requests)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/bench.sqlite3"
        os.environ.pop("DATABASE_URL", None)
        slug, code = prepare(tmp, url)
        port = free_port()
        env = {**os.environ, "SECRET_KEY": "bench", "ORGANISER_PASSWORD": PASSWORD, "DATABASE_URL": url,
               "STREAM_SECONDS": "600", "CALL_ADDRESS_LIMITS": "100000 per minute",
               "CALL_TABLE_LIMITS": "100000 per minute", "PWA_DIST": tmp}
        server = subprocess.Popen(
            [Path(sys.executable).parent / "gunicorn", "--worker-class", "gthread", "--workers", str(args.workers),
             "--threads", "32", "--bind", f"127.0.0.1:{port}", "server:create_app()"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/time", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            asyncio.run(run(port, slug, code, args))
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
