"""Pairings import benchmark: what reading a `.tdf` (TOM/TTO), showing its preview and confirming
it cost for events of 64 to 2,048 players, through the organiser pages, on SQLite (and
PostgreSQL when --postgres or TEST_POSTGRES_URL names a server). Also what one login costs
(the password hash, werkzeug's scrypt).

Run: .venv/bin/python bench/pairings_import.py [--sizes 64 512 2048] [--postgres URL]
Each size is a fresh event whose players are not yet in it (the import adds them all, the
heaviest case) and a `.tdf` with that many players and round 1 (one bye when the count is
odd). Timed: the upload that answers with the preview (parse with defusedxml, match players,
work out the changes, draw the page), and the Confirm that replaces the tables (median of 3,
each on a fresh event). A benchmark, not a test: it prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import io
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server import create_app  # noqa: E402
from server.events import create_event  # noqa: E402
from server.extensions import db  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from pg_schema import postgres_config  # noqa: E402


def tdf(players: int) -> str:
    """A `.tdf` with `players` players and round 1 pairing them two by two."""
    people = "".join(f'<player userid="{900000 + i}"><firstname>First{i}</firstname><lastname>Last{i}</lastname>'
                     f"</player>" for i in range(players))
    matches = "".join(f'<match><player1 userid="{900000 + i}"/><player2 userid="{900001 + i}"/>'
                      f"<tablenumber>{i // 2 + 1}</tablenumber></match>" for i in range(0, players - 1, 2))
    if players % 2:
        matches += f'<match outcome="5"><player userid="{900000 + players - 1}"/><tablenumber>0</tablenumber></match>'
    return (f'<?xml version="1.0" encoding="UTF-8"?><tournament><players>{people}</players><pods><pod><rounds>'
            f'<round number="1"><matches>{matches}</matches></round></rounds></pod></pods></tournament>')


def measure(app, players: int, runs: int = 3) -> dict:
    text = tdf(players).encode()
    client = app.test_client()
    client.post("/organiser/login", data={"username": "organiser", "password": "bench-password"})
    client.get("/organiser/")
    with client.session_transaction() as session:
        token = session["csrf"]
    previews, confirms = [], []
    for run in range(runs):
        with app.app_context():
            slug = create_event(f"Bench {players} {run}", "wotf", level="competitive").slug
        start = time.perf_counter()
        page = client.post(f"/organiser/events/{slug}/pairings", data={
            "csrf": token, "round": "1", "file": (io.BytesIO(text), "round.tdf")}).get_data(as_text=True)
        previews.append(time.perf_counter() - start)
        fields = {k: html.unescape(v) for k, v in re.findall(r'name="(round|digest|plan)" value="([^"]*)"', page)}
        start = time.perf_counter()
        done = client.post(f"/organiser/events/{slug}/pairings/confirm", data={"csrf": token, **fields})
        confirms.append(time.perf_counter() - start)
        assert done.status_code == 302, done.status_code
    return {"players": players, "file_kib": len(text) / 1024, "preview_ms": statistics.median(previews) * 1000,
            "confirm_ms": statistics.median(confirms) * 1000}


def login_ms(app, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        client = app.test_client()
        start = time.perf_counter()
        client.post("/organiser/login", data={"username": "organiser", "password": "bench-password"})
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 512, 2048])
    parser.add_argument("--postgres", default=os.environ.get("TEST_POSTGRES_URL"))
    args = parser.parse_args()
    backends = [("sqlite", None)] + ([("postgresql", args.postgres)] if args.postgres else [])
    for name, url in backends:
        with tempfile.TemporaryDirectory() as folder:
            config = {"TESTING": True, "SECRET_KEY": "bench", "ORGANISER_PASSWORD": "bench-password",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3"}
            with postgres_config(url) if url else contextlib.nullcontext() as extra:
                app = create_app({**config, **(extra or {})})
                with app.app_context():
                    db.create_all()
                print(f"{name}: login {login_ms(app):.0f} ms (median of 5)")
                print(f"{'players':>8} {'file KiB':>9} {'preview ms':>11} {'confirm ms':>11}")
                for size in args.sizes:
                    row = measure(app, size)
                    print(f"{row['players']:>8} {row['file_kib']:>9.0f} {row['preview_ms']:>11.0f} "
                          f"{row['confirm_ms']:>11.0f}")
                with app.app_context():
                    db.engine.dispose()


if __name__ == "__main__":
    main()
