"""Decklists benchmark: the bytes a 300-player event's registered lists add to a judge's sync,
raw and gzip, and the time to take them in and to serve them.

Run: .venv/bin/python bench/decklists.py [--players 300] [--runs 5]
An event (SQLite in a temporary folder) gets N players, each with a registered list taken in
through the organiser's intake (server/decklist_intake.register: parsed, checked, pushed as a
record) in one of four real-looking shapes from tests/data/decklists (plain text 60+15, MTG
Arena 60+15, a YDK 40+15+15 and a Pokémon TCG Live 60), a quarter each; every card name (and
passcode) is drawn from a pool of 4,000 made-up ones, so that no two lists are alike and gzip
gains no more than it would on an event's real lists. Then a judge's phone
pulls the event from the start, as on joining (POST /sync, cursor 0, through the Flask test
client): the time of that pull (median and min of --runs), its body's bytes, and the bytes of
its decklist records alone, raw and gzip (what a server or proxy compressing JSON sends).
A benchmark, not a test: it prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server import create_app  # noqa: E402
from server.decklist_intake import register  # noqa: E402
from server.events import create_event, import_players  # noqa: E402
from server.extensions import db  # noqa: E402

SAMPLES = ROOT / "tests" / "data" / "decklists"
SHAPES = ["burn.txt", "burn-arena.txt", "blue-eyes.ydk", "lost-zone.txt"]


WORDS = ["ancient", "arcane", "ash", "blade", "bloom", "bolt", "brood", "chant", "cinder", "coil", "crown",
         "dawn", "deep", "drake", "dusk", "ember", "fang", "flame", "frost", "gale", "ghost", "gleam", "grove",
         "gust", "hollow", "iron", "jade", "knight", "lance", "lore", "marsh", "mist", "moon", "night", "oath",
         "omen", "pact", "pale", "peak", "quill", "rain", "raven", "reef", "ridge", "rift", "rune", "sage",
         "scale", "shade", "shard", "shore", "skull", "sky", "spark", "spire", "star", "stone", "storm", "sun",
         "thorn", "tide", "tomb", "vale", "veil", "void", "warden", "wave", "wild", "wind"]


def varied(text: str, rng: random.Random, pool: list[str]) -> str:
    """`text` with each card name (after the count, before a printing) and each passcode drawn
    from `pool` (or made up), keeping the format and the counts."""
    def name(match):
        return f"{match.group(1)}{rng.choice(pool)}{match.group(3)}"
    text = re.sub(r"^(\d+x? )(.+?)((?: \(\w+\) \S+| [A-Z]{2,5} \d+)?)$", name, text, flags=re.M)
    text = re.sub(r'(Name=")[^"]+(")', lambda m: f"{m.group(1)}{rng.choice(pool)}{m.group(2)}", text)
    codes: dict[str, str] = {}  # a passcode stands for the same made-up one through the list
    return re.sub(r"^\d{7,8}$", lambda m: codes.setdefault(m.group(0), str(rng.randrange(10_000_000, 99_999_999))),
                  text, flags=re.M)


def build(app, players: int) -> tuple[str, str, float]:
    """The event with `players` registered lists: (slug, join code, seconds the intake took)."""
    rng = random.Random(7)
    pool = sorted({" ".join(rng.choice(WORDS).title() for _ in range(rng.randint(1, 3))) for _ in range(6000)})[:4000]
    shapes = [(SAMPLES / name).read_text(encoding="utf-8") for name in SHAPES]
    texts = [varied(shapes[i % len(shapes)], rng, pool) for i in range(players)]
    with app.app_context():
        db.create_all()
        event = create_event("Bench", "dci-upg", level="competitive", round_minutes=50)
        import_players(event, "name\n" + "".join(f"Player {i:03d}\n" for i in range(players)))
        began = time.perf_counter()
        for i, player in enumerate(event.players):
            register(event, player, texts[i], None, "organiser")
        return event.slug, event.join_code, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "SECRET_KEY": "bench",
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3"})
        slug, code, intake = build(app, args.players)
        client = app.test_client()
        joined = client.post("/api/join", json={"code": code, "device_name": "bench", "judge_name": "Bench"}).get_json()
        headers = {"Authorization": f"Bearer {joined['token']}"}
        times, body = [], b""
        for _ in range(args.runs):
            began = time.perf_counter()
            res = client.post(f"/api/events/{slug}/sync", headers=headers,
                              json={"device": joined["device_id"], "cursor": 0, "records": []})
            body = res.get_data()
            times.append(time.perf_counter() - began)
        pulled = json.loads(body)
        lists = [r for r in pulled["records"] if r["type"] == "decklist"]
        lists_raw = json.dumps(lists, separators=(",", ":")).encode()
        print(f"{args.players} players, {len(lists)} registered lists "
              f"({sum(len(s['cards']) for r in lists for s in r['payload']['sections'])} card lines)")
        print(f"intake: {intake:.2f} s in all, {intake / args.players * 1000:.1f} ms a list")
        print(f"{'':24} {'raw':>10} {'gzip':>10} {'per list':>10}")
        for name, data in (("sync pull (whole body)", body), ("decklist records", lists_raw)):
            print(f"{name:24} {len(data) / 1024:9.1f}k {len(gzip.compress(data)) / 1024:9.1f}k "
                  f"{len(data) / max(1, len(lists)):9.0f}B")
        print(f"serving the pull: median {statistics.median(times) * 1000:.0f} ms, "
              f"min {min(times) * 1000:.0f} ms ({args.runs} runs)")
        with app.app_context():
            db.engine.dispose()


if __name__ == "__main__":
    main()
