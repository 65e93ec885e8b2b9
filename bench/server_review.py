"""Review benchmark: what reading a player's history, reconciling a sync and reading the clock
cost as an event grows to 5,000 and 50,000 records, on SQLite and PostgreSQL.

Run: .venv/bin/python bench/server_review.py [--sizes 5000 50000] [--postgres URL]
An event gets N records written straight into the database (six in ten penalties, the rest
time extensions and match results; one player per ten records, as in a large event where a
player has a handful of records) and is reconciled once. Then, through the Flask test client:
- `history`: GET /players/<p>/history for 50 players (median, p90);
- `sync 500`: one POST /sync of 500 new penalties for 500 players, each saying what it saw
  (one in ten missing the player's latest penalty, so the engine decides those again): the
  push, its reconciliation (reconcile.py) and the commit (median of 3 pushes);
- `clock`: GET /clock right after each push (the clock's cache is renewed by records).
PostgreSQL is measured when --postgres or TEST_POSTGRES_URL names a server (in a schema of
its own, dropped afterwards). A benchmark, not a test: it prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server import create_app  # noqa: E402
from server.extensions import db  # noqa: E402
from server.models import Event, Player, Record  # noqa: E402
from server.reconcile import stored_items  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from pg_schema import postgres_config  # noqa: E402

T0 = 1_800_000_000_000


def build(app, size: int, rng: random.Random):
    """The event with `size` records; returns (slug, join code, player ids, {player: penalty ids})."""
    with app.app_context():
        db.create_all()
        event = Event(slug=secrets.token_hex(4), join_code=secrets.token_hex(4).upper(), name="Bench",
                      ruleset="dci-upg", level="competitive", stage="swiss", games_per_match=3, created_ms=0)
        event.players = [Player(name=f"Player {i}") for i in range(max(1, size // 10))]
        db.session.add(event)
        db.session.commit()
        joined = app.test_client().post("/api/join", json={"code": event.join_code, "device_name": "seed",
                                                           "judge_name": "Seed Judge"}).get_json()
        players = [p.id for p in event.players]
        penalties: dict[int, list[str]] = {p: [] for p in players}
        rows = []
        for i in range(size):
            rid, kind = str(uuid.uuid4()), rng.random()
            player = rng.choice(players)
            if kind < 0.6:
                payload = {"player": player, "table": 1 + i % 400, "round": 1 + i % 15, "infraction": "usc_minor",
                           "penalty": "warning", "stage": "swiss", "ruleset": "dci-upg", "level": "competitive",
                           "facts": {"infraction": "usc_minor"}, "history_seen": list(penalties[player])}
                rows.append({"id": rid, "type": "penalty", "payload": payload, "player": str(player)})
                penalties[player].append(rid)
            elif kind < 0.85:
                rows.append({"id": rid, "type": "time_extension", "player": None, "payload": {
                    "table": 1 + i % 400, "round": 1, "minutes": 3, "reason": "deck_check"}})
            else:
                rows.append({"id": rid, "type": "match_result", "player": None, "payload": {
                    "table": 1 + i % 400, "round": 1, "result": "A"}})
        for seq, row in enumerate(rows, start=1):
            row.update(event_id=event.id, seq=seq, device_id=joined["device_id"], judge="Seed Judge",
                       created_ms=T0 + seq, received_ms=T0 + seq, target=None)
        for start in range(0, len(rows), 5000):
            db.session.execute(sa.insert(Record), rows[start:start + 5000])
        event.last_seq = len(rows)
        db.session.commit()
        stored_items(event)  # reconciled once, as a live event is after every sync
        return event.slug, event.join_code, players, penalties


def measure(config: dict, size: int) -> dict:
    rng = random.Random(size)
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", **config})
    slug, code, players, penalties = build(app, size, rng)
    client = app.test_client()
    joined = client.post("/api/join", json={"code": code, "device_name": "bench", "judge_name": "Bench"}).get_json()
    headers = {"Authorization": f"Bearer {joined['token']}"}
    history = []
    for player in rng.sample(players, min(50, len(players))):
        start = time.perf_counter()
        res = client.get(f"/api/events/{slug}/players/{player}/history", headers=headers)
        history.append(time.perf_counter() - start)
        assert res.status_code == 200, res.get_json()
    pushes, clocks = [], []
    for push in range(3):
        batch = []
        for i, player in enumerate(rng.sample(players, min(500, len(players)))):
            seen = penalties[player][:-1] if i % 10 == 0 else list(penalties[player])
            rid = str(uuid.uuid4())
            batch.append({"id": rid, "type": "penalty", "device": joined["device_id"], "judge": "Bench",
                          "event": slug, "created_ms": T0 + 10_000_000 + push * 1000 + i, "payload": {
                              "player": player, "table": 1, "round": 1, "infraction": "usc_minor",
                              "penalty": "warning", "stage": "swiss", "ruleset": "dci-upg",
                              "level": "competitive", "facts": {"infraction": "usc_minor"}, "history_seen": seen}})
            penalties[player].append(rid)
        start = time.perf_counter()
        res = client.post(f"/api/events/{slug}/sync", json={"device": joined["device_id"], "cursor": size * 2,
                                                              "records": batch}, headers=headers)
        pushes.append(time.perf_counter() - start)
        assert all(r["status"] == "accepted" for r in res.get_json()["results"])
        start = time.perf_counter()
        assert client.get(f"/api/events/{slug}/clock").status_code == 200
        clocks.append(time.perf_counter() - start)
    with app.app_context():
        db.engine.dispose()
    history.sort()
    return {"history": (statistics.median(history), history[int(0.9 * (len(history) - 1))]),
            "sync 500": (statistics.median(pushes), max(pushes)), "clock": (statistics.median(clocks), max(clocks))}


def report(name: str, size: int, result: dict) -> None:
    for what, (median, high) in result.items():
        print(f"| {name} | {size:,} | {what} | {median * 1000:.1f} | {high * 1000:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5000, 50000])
    parser.add_argument("--postgres", default=os.environ.get("TEST_POSTGRES_URL"))
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("| database | records | what | median ms | p90 / max ms |")
    print("|---|---|---|---|---|")
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            report("sqlite", size, measure({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3"}, size))
        if args.postgres:
            with postgres_config(args.postgres) as config:
                report("postgresql", size, measure(config, size))


if __name__ == "__main__":
    main()
