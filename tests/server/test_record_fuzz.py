"""Records with odd values in every field of every type, pushed beside good records, then
odd rows written straight into the database: no batch fails, every bad record is refused
alone naming its field, and no view breaks (clock, organiser page, exports, history, pull,
event detail), on SQLite and PostgreSQL. The counts go to test-artifacts/record-fuzz.json."""

import csv
import io
import json
import uuid

import pytest
from server_helpers import Phone, add_event, set_role

from server.clock import start_round
from server.decklist_intake import register
from server.events import organiser_device
from server.extensions import db
from server.models import Event, Record
from server.records import PAYLOADS, RECORD_SCHEMA
from server.sync import push


def _deep(levels):
    """An object nested `levels` deep (58: as deep as any field of a record can hold within
    a sync body's 64 levels; deeper bodies are refused whole as not strict JSON)."""
    value = "bottom"
    for _ in range(levels):
        value = {"d": value}
    return value


ODD = [
    "5", "", " ", "\udfff", "Ana \ud800", "a\x00b", "\x00", "bell\x07", "=cmd|' /C calc'!A0", "\r\n",
    "x" * 100_000, 2**63, 2**64, -(2**63) - 1, -1, 0, 10**30, 1.5, -0.0, 1e308, True, False, None,
    [], [1] * 10_000, ["warning"] * 600, {}, {"\udfff": 1}, _deep(58), [[[[[[[[[[]]]]]]]]]],
]
ENVELOPE = [name for name in RECORD_SCHEMA.fields if name != "payload"]


def _field_paths(record_type):
    """Every payload field of a type (nested ones too), and one the type does not have."""
    paths = []
    for name, field in PAYLOADS[record_type].fields.items():
        paths.append((name,))
        nested = getattr(field, "schema", None)
        if nested is not None:
            paths += [(name, sub) for sub in nested.fields]
    return [*paths, ("not_a_field",)]


def _get(record, dotted):
    """The value at a dotted path ("payload.games") of a record, or None where it is absent."""
    value = record
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _put(record, path, value):
    out = json.loads(json.dumps(record))
    target = out["payload"]
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = value
    return out


@pytest.fixture
def stage(app, client, now):
    event = add_event(app, ruleset="dci-upg", level="competitive", players=("Ada Brook", "Ben Carter"))
    with app.app_context():
        start_round(db.session.get(Event, event["id"]))
    head = Phone(client, event, judge="Hana Head")
    set_role(app, head.id, "head_judge")
    ada = event["players"]["Ada Brook"]
    target = head.penalty(ada, infraction="usc_minor", penalty="game_loss", head_judge=True)
    extension = head.record("time_extension", {"table": 2, "round": 1, "minutes": 3, "reason": "ruling"})
    check = head.record("deck_check", {"player": ada, "table": 1, "round": 1, "phase": "started"})
    appeal = head.record("appeal", {"player": ada, "table": 1, "round": 1, "ruling": "r", "ruled_by": "Fay Floor"})
    assert [r["status"] for r in head.sync([target, extension, check, appeal])["results"]] == ["accepted"] * 4
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        listed = register(ev, ev.players[0], "4 Lightning Bolt\n", None, "organiser")

    appeals: list[str] = []

    def fresh_appeal() -> str:
        """A new stored appeal's id: an appeal is decided once, so each decision tried names its
        own (stored ahead, a batch's worth in one push, by ``prepare_appeals``)."""
        return appeals.pop()

    def prepare_appeals(count: int) -> None:
        more = [head.record("appeal", {"player": ada, "table": 1, "round": 1, "ruling": "r", "ruled_by": "Fay Floor"})
                for _ in range(count)]
        assert {r["status"] for r in head.sync(more)["results"]} == {"accepted"}
        appeals.extend(r["id"] for r in more)

    good = {
        "penalty": lambda: head.penalty(ada, infraction="usc_minor", penalty="game_loss", notes="n",
                                        ruleset="dci-upg", level="competitive", stage="swiss",
                                        base_penalty="warning", upgraded=True, head_judge=False,
                                        intentional=False, minor=True, facts={"infraction": "usc_minor"},
                                        history_seen=[target["id"]],
                                        open_facts=["facts.caught_quickly_and_simple"]),
        "time_extension": lambda: head.record("time_extension", {"table": 1, "round": 1, "minutes": 2,
                                                                 "reason": "deck_check"}),
        "match_result": lambda: head.record("match_result", {"table": 1, "round": 1, "result": "A",
                                                             "games": {"A": 1, "B": 0}}),
        "time_call": lambda: head.record("time_call", {"table": 1, "round": 1, "facts": {"turn": 1},
                                                       "answer": {"match": "draw"}, "result": None}),
        "approval": lambda: head.record("approval", {"record": target["id"], "approved": True,
                                                     "comment": "ok"}),
        "resolution": lambda: head.record("resolution", {"record": target["id"], "reason": "kept"}),
        "void": lambda: head.record("void", {"record": extension["id"], "reason": "entered twice"}),
        "deck_check": lambda: head.record("deck_check", {"player": ada, "table": 1, "round": 1, "phase": "finished",
                                                         "started": check["id"], "outcome": "wrong", "mid_game": False,
                                                         "decklist": listed.id, "counts": {"main": [3]},
                                                         "found": [{"section": "main", "name": "Shock", "count": 1}]}),
        "appeal": lambda: head.record("appeal", {"player": ada, "table": 1, "round": 1, "ruling": "a ruling",
                                                 "ruled_by": "Fay Floor", "call": "c1", "penalty": target["id"]}),
        "appeal_decision": lambda: head.record("appeal_decision", {"appeal": fresh_appeal(), "outcome": "changed",
                                                                   "ruling": "another", "consulted": "Fay Floor"}),
    }
    good["appeal_decision"].prepare = prepare_appeals
    with app.app_context():
        organiser_id = organiser_device(db.session.get(Event, event["id"])).id

    def decklist():
        """A decklist version as the server makes them: the organiser's pseudo-device pushes it
        (roles.RECORDS: no device may), through the same checks as any push."""
        return head.record("decklist", {"player": ada, "format": "plain", "by": "organiser", "late": False,
                                        "sections": [{"id": "main", "cards": [{"count": 4, "name": "Lightning Bolt"},
                                                                              {"count": 56, "code": "M11 149"}]}]},
                           device=organiser_id, judge="organiser")
    good["decklist"] = decklist
    assert set(good) == set(PAYLOADS)  # a new record type must be fuzzed too
    return event, head, good


def _push(app, client, event, head, record_type, records):
    """Push a batch as its writer would: the organiser's pseudo-device (server code) for a
    decklist, the head judge's phone (the sync endpoint) for every other type. (status, results)."""
    if record_type != "decklist":
        res = client.post(f"/api/events/{event['slug']}/sync", headers=head.headers,
                          json={"device": head.id, "cursor": 0, "records": records})
        return res.status_code, (res.get_json() or {}).get("results")
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        return 200, push(ev, organiser_device(ev), json.loads(json.dumps(records)))


def _views(app, client, event, head, organiser_client):
    """Status of every view that reads records; all must be 200."""
    slug = event["slug"]
    statuses = {
        "clock": client.get(f"/api/events/{slug}/clock").status_code,
        "event detail": client.get(f"/api/events/{slug}", headers=head.headers).status_code,
        "organiser page": organiser_client.get(f"/organiser/events/{slug}").status_code,
        "csv": organiser_client.get(f"/organiser/events/{slug}/penalties.csv").status_code,
        "json": organiser_client.get(f"/organiser/events/{slug}/penalties.json").status_code,
        "review": client.get(f"/api/events/{slug}/review", headers=head.headers).status_code,
        "deck checks": client.get(f"/api/events/{slug}/deck-checks", headers=head.headers).status_code,
        "board": organiser_client.get(f"/organiser/events/{slug}/board").status_code,
    }
    for player in [*event["players"].values(), "Walk-in Wally"]:
        res = client.get(f"/api/events/{slug}/players/{player}/history", headers=head.headers)
        statuses[f"history {player}"] = 200 if res.status_code in (200, 404) else res.status_code
    cursor, pulled = 0, 0
    while True:  # pull everything, page by page
        res = client.post(f"/api/events/{slug}/sync", headers=head.headers,
                          json={"device": head.id, "cursor": cursor})
        statuses["pull"] = res.status_code
        if res.status_code != 200:
            break
        body = json.loads(res.get_data(as_text=True))  # strict: the phone's JSON.parse
        pulled += len(body["records"])
        cursor = body["cursor"]
        if not body["more"]:
            break
    text = organiser_client.get(f"/organiser/events/{slug}/penalties.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    statuses["csv one row per penalty"] = 200 if len(rows) - 1 == _count_readable_penalties(app, event) else 500
    return statuses, pulled


def _count_readable_penalties(app, event):
    from server.records import stored_problem

    with app.app_context():
        rows = db.session.scalars(db.select(Record).where(Record.event_id == event["id"],
                                                          Record.type == "penalty")).all()
        return sum(stored_problem(r) is None for r in rows)


def test_odd_records_break_no_batch_and_no_view(app, client, stage, request, root):
    from conftest import log_in

    event, head, good = stage
    organiser_client = log_in(app.test_client())
    tried = batches = failed_batches = 0
    accepted_odd = []
    for record_type, make in good.items():
        targets = [("envelope", name) for name in ENVELOPE] + [("payload", p) for p in _field_paths(record_type)]
        targets.append(("envelope", "payload"))
        for where, path in targets:
            if hasattr(make, "prepare"):
                make.prepare(len(ODD) + 2)
            odd = []
            for value in ODD:
                rec = make()
                if where == "envelope":
                    rec[path] = value
                else:
                    rec = _put(rec, path, value)
                odd.append(rec)
            before, after = make(), make()
            status, results = _push(app, client, event, head, record_type, [before, *odd, after])
            batches += 1
            tried += len(odd)
            if status != 200:
                failed_batches += 1
                continue
            assert results[0] == {"id": before["id"], "status": "accepted"}
            assert results[-1] == {"id": after["id"], "status": "accepted"}
            field = path if where == "envelope" else "payload." + ".".join(path)
            for rec, result in zip(odd, results[1:-1], strict=True):
                if result["status"] == "rejected":
                    # a check across fields (the games of a result) names the group of fields
                    parents = tuple(field.rsplit(".", n)[0] + ":" for n in range(1, field.count(".")))
                    # a group the good record lacks is made with this one field, so a field beside it
                    # is missing (games.B when games.A is put into a result without a score)
                    made = tuple(p[:-1] + "." for p in parents if _get(before, p[:-1]) is None)
                    assert result["reason"].startswith((field, "a record must be", *parents, *made)) or \
                        (where == "envelope" and path == "payload"), (field, result)
                else:
                    accepted_odd.append((record_type, field, rec))
    assert failed_batches == 0

    statuses, pulled = _views(app, client, event, head, organiser_client)
    broken = {view: status for view, status in statuses.items() if status != 200}
    assert broken == {}

    # rows no push could make, written straight into the database
    inserted = _insert_odd_rows(app, event, head, request.node.callspec.params["app"])
    statuses, pulled_after = _views(app, client, event, head, organiser_client)
    broken_after = {view: status for view, status in statuses.items() if status != 200}
    assert broken_after == {}
    assert pulled_after == pulled  # unreadable rows are never sent to a phone
    page = organiser_client.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    assert f"{inserted} stored records cannot be read" in page
    export = organiser_client.get(f"/organiser/events/{event['slug']}/penalties.json").get_json()
    assert len(export["unreadable"]) == inserted

    # the odd values a field accepts are ones it allows: 0 games won, 1.5 minutes, a blank
    # note, formula-like text (neutralised in the CSV), any judge name (the joined one is kept;
    # an appeal's ruling and the judge who made it are text too)
    assert {field for _, field, _ in accepted_odd} <= {
        "created_ms", "judge", "payload.games.A", "payload.games.B", "payload.minutes", "payload.notes",
        "payload.comment", "payload.reason", "payload.player", "payload.facts", "payload.answer",
        "payload.ruling", "payload.ruled_by",
        *(f"payload.{name}" for schema in PAYLOADS.values() for name, field in schema.fields.items()
          if field.allow_none or getattr(field, "truthy", None) is not None)}
    _write_counts(root, request.node.callspec.params["app"], {
        "records tried": tried, "batches": batches, "batches failed": failed_batches,
        "odd records accepted (allowed values, e.g. 0 games)": len(accepted_odd),
        "rows written straight into the database": inserted,
        "views checked": len(statuses) * 2, "views broken": len(broken) + len(broken_after)})


def _insert_odd_rows(app, event, head, backend):
    """Rows that bypass every check: odd payload values in each field of each type, payloads
    that are not objects, unknown types, odd judge names. Returns how many."""
    # a text column cannot take a lone surrogate through either driver (JSON escapes it)
    text_odd = ["=1+2", "x" * 300, "bell\x07"] + ([] if backend == "postgres" else ["a\x00b"])
    payloads = []
    for record_type in PAYLOADS:
        for (name,) in [p for p in _field_paths(record_type) if len(p) == 1]:
            for value in ("5", None, [1, 2], {"a": 1}, 10**30, "\udfff"):
                payloads.append((record_type, {name: value}))
    payloads += [("penalty", [1, 2]), ("penalty", "text"), ("time_extension", 7), ("coffee", {}),
                 ("void", {"record": "not-a-uuid", "reason": "x"}),
                 # complete records but for one value (each once took a page down)
                 ("time_extension", {"table": 1, "round": 1, "minutes": "5", "reason": "ruling"}),
                 ("penalty", {"player": "Ana \udfff", "infraction": "usc_minor", "penalty": "warning",
                              "notes": "\udfff"})]
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        seq = ev.last_seq
        for i, (record_type, payload) in enumerate(payloads):
            seq += 1
            db.session.add(Record(id=str(uuid.uuid4()), event_id=ev.id, seq=seq, type=record_type,
                                  device_id=head.id, judge=text_odd[i % len(text_odd)][:100],
                                  created_ms=(10**18 if i % 2 else -5), received_ms=0,
                                  payload=payload, target=None))
        ev.last_seq = seq
        db.session.commit()
    return len(payloads)


def _write_counts(root, backend, counts):
    path = root / "test-artifacts" / "record-fuzz.json"
    path.parent.mkdir(exist_ok=True)
    known = json.loads(path.read_text()) if path.exists() else {}
    known[backend] = counts
    path.write_text(json.dumps(known, indent=1, sort_keys=True))

