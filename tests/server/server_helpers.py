"""Helpers for the server tests: building the app, events made directly in the database,
and `Phone`, a joined device speaking the JSON API as the judge app does."""

import secrets
import uuid

from jinja2 import BytecodeCache

from server import create_app
from server.extensions import db
from server.models import Event, Player

T0 = 1_800_000_000_000  # a fixed server time (epoch ms) for tests


# password hashes made in a few microseconds, not a tenth of a second each (scrypt): every test
# logs someone in; what is tested of hashing does not depend on the method
CHEAP_HASHES = {"PASSWORD_HASH_METHOD": "pbkdf2:sha256:1"}


class TemplateCache(BytecodeCache):
    """Compiled page templates kept in memory for every app of the run: each app a test makes
    (the shared ones of conftest.SharedApps, and those of tests that need their own settings)
    would otherwise compile each template it renders again. Jinja keys each entry by the
    template's name and checks it against its source."""

    def __init__(self):
        self.entries: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.entries:
            bucket.bytecode_from_string(self.entries[bucket.key])

    def dump_bytecode(self, bucket):
        self.entries[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = TemplateCache()


def make_app(backend, tmp_path, request, **extra):
    """The app on `backend` ("sqlite": a file in tmp_path; "postgres": the session's schema);
    `extra` overrides the configuration. Its templates are compiled once per run (TEMPLATES)."""
    config = {"TESTING": True, "SECRET_KEY": "test", "ORGANISER_PASSWORD": "letmein", **CHEAP_HASHES}
    if backend == "sqlite":
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp_path}/test.sqlite3"
    else:
        url, schema = request.getfixturevalue("pg_url")
        config["SQLALCHEMY_DATABASE_URI"] = url
        config["SQLALCHEMY_ENGINE_OPTIONS"] = {
            "connect_args": {"options": f"-csearch_path={schema}"}}
    app = create_app({**config, **extra})
    app.jinja_env.bytecode_cache = TEMPLATES
    return app


def add_event(app, ruleset="dci-upg", level="competitive", players=("Ada Brook", "Ben Carter"),
              round_minutes=50.0) -> dict:
    """An event inserted directly (slug, join code, player ids by name)."""
    with app.app_context():
        event = Event(slug=f"ev{secrets.token_hex(3)}", join_code=secrets.token_hex(4).upper(),
                      name="Test Open", ruleset=ruleset, level=level, stage="swiss",
                      games_per_match=1, round_minutes=round_minutes, created_ms=T0)
        event.players = [Player(name=n) for n in players]
        db.session.add(event)
        db.session.commit()
        return {"slug": event.slug, "code": event.join_code, "id": event.id,
                "players": {p.name: p.id for p in event.players}}


class Phone:
    """A joined device speaking the JSON API, as the judge app does."""

    def __init__(self, client, event, judge="Jo Judge", name="phone"):
        self.client, self.event = client, event
        res = client.post("/api/join", json={"code": event["code"], "device_name": name,
                                              "judge_name": judge})
        assert res.status_code == 200, res.get_json()
        body = res.get_json()
        self.token, self.id, self.judge = body["token"], body["device_id"], judge
        self.cursor = 0
        self.held: dict[str, dict] = {}

    @property
    def headers(self):
        return {"Authorization": f"Bearer {self.token}"}

    def record(self, type_, payload, **over) -> dict:
        rec = {"id": str(uuid.uuid4()), "type": type_, "device": self.id, "judge": self.judge,
               "event": self.event["slug"], "created_ms": T0, "payload": payload}
        rec.update(over)
        return rec

    def penalty(self, player, infraction="slow_play", penalty="warning", **payload) -> dict:
        return self.record("penalty", {"player": player, "table": 1, "round": 1,
                                       "infraction": infraction, "penalty": penalty, **payload})

    def sync(self, records=(), cursor=None, expect=200):
        res = self.client.post(f"/api/events/{self.event['slug']}/sync", headers=self.headers,
                               json={"device": self.id, "records": list(records),
                                     "cursor": self.cursor if cursor is None else cursor})
        assert res.status_code == expect, res.get_json()
        body = res.get_json()
        if expect == 200:
            for rec in body["records"]:
                self.held[rec["id"]] = rec
            self.cursor = body["cursor"]
        return body

    def sync_all(self, records=()):
        """Push, then pull until nothing more waits."""
        body = self.sync(records)
        while body["more"]:
            body = self.sync()
        return body


def add_rounds(app, event, count):
    """Rounds 1..count of the event, already ended (records may name them)."""
    from server.models import Round

    with app.app_context():
        for number in range(1, count + 1):
            db.session.add(Round(event_id=event["id"], number=number, stage="swiss",
                                 round_minutes=50, started_ms=T0, ended_ms=T0 + 1))
        db.session.commit()


def set_role(app, device_id, role):
    from server.models import Device

    with app.app_context():
        db.session.get(Device, device_id).role = role
        db.session.commit()


def seated_event(app, players, ruleset="wotf", level="competitive", round_number=1) -> dict:
    """An event (add_event) with `players` seated two by two at tables 1, 2, ... of round
    `round_number`, which is started."""
    from server.clock import start_round
    from server.imports import import_pairings

    event = add_event(app, ruleset=ruleset, level=level, players=players)
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        rows = "\n".join(f"{t},{players[2 * t - 2]},{players[2 * t - 1]}" for t in range(1, len(players) // 2 + 1))
        import_pairings(ev, round_number, "table,player_a,player_b\n" + rows + "\n")
        start_round(ev)
    return event
