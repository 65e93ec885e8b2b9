"""HTTP benchmark: requests per second and latency (median, p99) of the public endpoints under
gunicorn, with a load generator on loopback.

Run: .venv/bin/python bench/server_http.py [--requests N] [--connections C] [--workers W]
Sets up a SQLite database in a temporary folder (migrations, the demo events, round 1 of
the wotf demo started), starts gunicorn (gthread workers) on 127.0.0.1, then for each
endpoint sends N requests over C keep-alive connections from one asyncio client and stops.
The client and the server share this machine's cores, so the figures are a floor. This is a
benchmark, not a test: it prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def prepare(tmp: str) -> str:
    """Migrate a fresh SQLite database, load the demo events, start round 1 of the wotf one;
    returns its slug."""
    from flask_migrate import upgrade

    from server import create_app
    from server.cli import demo_events
    from server.clock import start_round
    from server.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3"}, instance_path=tmp)
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        event = next(e for e in demo_events() if e.ruleset == "wotf")
        start_round(event, 50)
        slug = event.slug
        db.engine.dispose()
    return slug


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def one_connection(port: int, request: bytes, count: int, latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for _ in range(count):
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if length:
                await reader.readexactly(length)
            if not head.startswith((b"HTTP/1.1 200", b"HTTP/1.1 304")):
                raise RuntimeError(head.split(b"\r\n")[0].decode())
            latencies.append(time.perf_counter() - start)
    finally:
        writer.close()


async def load(port: int, path: str, total: int, connections: int, headers: str = "") -> tuple[float, list[float]]:
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode()
    latencies: list[float] = []
    start = time.perf_counter()
    await asyncio.gather(*(one_connection(port, request, total // connections, latencies)
                           for _ in range(connections)))
    return time.perf_counter() - start, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        slug = prepare(tmp)
        port = free_port()
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "SECRET_KEY": "bench"}
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "--worker-class", "gthread",
             "--workers", str(args.workers), "--threads", str(args.threads), "--bind", f"127.0.0.1:{port}",
             "--log-level", "warning", "server:create_app()"], cwd=ROOT, env=env)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + "/api/time", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            clock = urllib.request.urlopen(f"{base}/api/events/{slug}/clock")
            etag = clock.headers["ETag"]
            cases = [("/api/time", "/api/time", ""),
                     ("/api/rulesets/wotf", "/api/rulesets/wotf", ""),
                     ("clock (200)", f"/api/events/{slug}/clock", ""),
                     ("clock (304)", f"/api/events/{slug}/clock", f"If-None-Match: {etag}\r\n")]
            print(f"gunicorn gthread {args.workers} workers x {args.threads} threads; "
                  f"{args.connections} connections, {args.requests} requests each")
            print(f"{'endpoint':<20} {'req/s':>8} {'median ms':>10} {'p99 ms':>8}")
            for name, path, headers in cases:
                asyncio.run(load(port, path, args.connections * 10, args.connections, headers))  # warm up
                seconds, lat = asyncio.run(load(port, path, args.requests, args.connections, headers))
                lat.sort()
                p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
                print(f"{name:<20} {len(lat) / seconds:>8.0f} {statistics.median(lat) * 1000:>10.1f} "
                      f"{p99 * 1000:>8.1f}")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
