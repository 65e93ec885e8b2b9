"""Sync ingest benchmark: records per second pushed in batches of 500, on SQLite and PostgreSQL.

Run: .venv/bin/python bench/server_ingest.py [--batches N] [--postgres URL]
Each batch is one POST /api/events/<slug>/sync (through the Flask test client, so JSON
parsing, per-record validation, the duplicate check, numbering and the commit are all in
the time) of 500 new penalty and time-extension records from one device. PostgreSQL is
measured when --postgres or TEST_POSTGRES_URL names a server (in a schema of its own,
dropped afterwards). This is a benchmark, not a test: it prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server import create_app  # noqa: E402
from server.extensions import db  # noqa: E402
from server.models import Event, Player  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from pg_schema import postgres_config  # noqa: E402

BATCH = 500


def records(device_id: int, slug: str, players: list[int], n: int) -> list[dict]:
    out = []
    for i in range(n):
        if i % 5 == 4:
            rec_type, payload = "time_extension", {"table": 1 + i % 40, "round": 1, "minutes": 3,
                                                   "reason": "deck_check"}
        else:
            rec_type, payload = "penalty", {"player": players[i % len(players)], "table": 1 + i % 40,
                                            "round": 1, "infraction": "slow_play", "penalty": "warning",
                                            "stage": "swiss", "notes": "bench"}
        out.append({"id": str(uuid.uuid4()), "type": rec_type, "device": device_id, "judge": "Bench Judge",
                    "event": slug, "created_ms": 1_800_000_000_000 + i, "payload": payload})
    return out


def measure(config: dict, batches: int) -> list[float]:
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", **config})
    with app.app_context():
        db.create_all()
        event = Event(slug=secrets.token_hex(4), join_code=secrets.token_hex(4).upper(), name="Bench",
                      ruleset="dci-upg", level="competitive", stage="swiss", created_ms=0)
        event.players = [Player(name=f"Player {i}") for i in range(64)]
        db.session.add(event)
        db.session.commit()
        slug, code, players = event.slug, event.join_code, [p.id for p in event.players]
    client = app.test_client()
    joined = client.post("/api/join", json={"code": code, "device_name": "bench", "judge_name": "Bench Judge"})
    token, device = joined.get_json()["token"], joined.get_json()["device_id"]
    headers = {"Authorization": f"Bearer {token}"}
    seconds, cursor = [], 0
    for _ in range(batches):
        body = {"device": device, "cursor": cursor, "records": records(device, slug, players, BATCH)}
        start = time.perf_counter()
        res = client.post(f"/api/events/{slug}/sync", json=body, headers=headers)
        seconds.append(time.perf_counter() - start)
        data = res.get_json()
        assert all(r["status"] == "accepted" for r in data["results"]), data["results"][:1]
        cursor = data["cursor"]
    with app.app_context():
        db.engine.dispose()
    return seconds


def report(name: str, seconds: list[float]) -> None:
    rate = BATCH * len(seconds) / sum(seconds)
    print(f"{name:<11} {len(seconds):>7} {statistics.median(seconds) * 1000:>12.0f} "
          f"{max(seconds) * 1000:>9.0f} {rate:>12.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--postgres", default=os.environ.get("TEST_POSTGRES_URL"))
    args = parser.parse_args()
    print(f"{'database':<11} {'batches':>7} {'median ms':>12} {'max ms':>9} {'records/s':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        report("sqlite", measure({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3"}, args.batches))
    if args.postgres:
        with postgres_config(args.postgres) as config:
            report("postgresql", measure(config, args.batches))


if __name__ == "__main__":
    main()
