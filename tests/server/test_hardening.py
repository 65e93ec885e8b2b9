"""The records that once took an event down, the CSV export, the judge name on a record,
and what a scorekeeper pulls."""

import csv
import io
import uuid

import pytest
from server_helpers import T0, Phone, add_event, set_role

from server.clock import start_round
from server.extensions import db
from server.models import Event, Record


@pytest.fixture
def event(app, now):
    event = add_event(app, ruleset="dci-upg", level="competitive", players=("Ada Brook", "Ben Carter"))
    with app.app_context():
        start_round(db.session.get(Event, event["id"]))
    return event


@pytest.fixture
def phone(client, event):
    return Phone(client, event, judge="Jo Judge")


def _store(app, event, device_id, record_type, payload, judge="Jo Judge"):
    """A row written straight into the database, past every check."""
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        ev.last_seq += 1
        rid = str(uuid.uuid4())
        db.session.add(Record(id=rid, event_id=ev.id, seq=ev.last_seq, type=record_type, device_id=device_id,
                              judge=judge, created_ms=0, received_ms=0, payload=payload,
                              target=payload.get("record") if isinstance(payload, dict) else None))
        db.session.commit()
        return rid


def test_minutes_given_as_text_are_refused_and_a_stored_one_breaks_no_page(app, client, organiser, event, phone):
    [result] = phone.sync([phone.record("time_extension", {"table": 1, "round": 1, "minutes": "5",
                                                           "reason": "ruling"})])["results"]
    assert result["reason"] == "payload.minutes: must be a number"
    phone.sync([phone.record("time_extension", {"table": 1, "round": 1, "minutes": 3, "reason": "ruling"})])
    bad = _store(app, event, phone.id, "time_extension", {"table": 1, "round": 1, "minutes": "5", "reason": "ruling"})
    clock = client.get(f"/api/events/{event['slug']}/clock")
    assert clock.status_code == 200
    assert [(t["number"], t["extension_minutes"]) for t in clock.get_json()["tables"]] == [(1, 3.0)]
    page = organiser.get(f"/organiser/events/{event['slug']}")
    assert page.status_code == 200
    assert f"{bad}: payload.minutes: must be a number" in page.get_data(as_text=True)


def test_a_lone_surrogate_or_nul_is_refused_alone_and_a_stored_one_breaks_no_page(app, client, organiser, event,
                                                                                 phone):
    good = phone.penalty("Ada Brook", infraction="usc_minor", penalty="warning")
    batch = [phone.penalty("Ana \udfff", infraction="usc_minor", penalty="warning"), good,
             phone.penalty("Ben", infraction="usc_minor", penalty="warning", notes="a\x00b"),
             {**phone.penalty("Ben", infraction="usc_minor", penalty="warning"), "judge": "Jo \udfff"}]
    results = phone.sync(batch)["results"]
    assert [r.get("reason") for r in results] == [
        "payload.player: holds a lone surrogate (U+DFFF), which is not text", None,
        "payload.notes: holds a NUL character", "judge: holds a lone surrogate (U+DFFF), which is not text"]
    _store(app, event, phone.id, "penalty", {"player": "Ana \udfff", "infraction": "usc_minor",
                                             "penalty": "warning", "notes": "\udfff"})
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    assert "1 stored record cannot be read" in page and "Ada Brook" in page
    rows = list(csv.DictReader(io.StringIO(
        organiser.get(f"/organiser/events/{event['slug']}/penalties.csv").get_data(as_text=True))))
    assert [r["id"] for r in rows] == [good["id"]]


def test_direction_marks_and_invisible_characters_in_names_are_refused_alone(client, event, phone):
    good = phone.penalty("Ada Brook", infraction="usc_minor", penalty="warning")
    batch = [phone.penalty("Ada \u202eBrook", infraction="usc_minor", penalty="warning"), good,
             phone.penalty("Ada\u200bBrook", infraction="usc_minor", penalty="warning"),
             # notes may span lines and hold a zero-width space, never a direction mark
             phone.penalty("Ben Carter", infraction="usc_minor", penalty="warning", notes="two\u200bwords"),
             phone.penalty("Ben Carter", infraction="usc_minor", penalty="warning", notes="x\u2066y")]
    results = phone.sync(batch)["results"]
    assert [r.get("reason") for r in results] == [
        "payload.player: holds a mark that turns the text's direction (U+202E)", None,
        "payload.player: holds an invisible character (U+200B)", None,
        "payload.notes: holds a mark that turns the text's direction (U+2066)"]
    joined = client.post("/api/join", json={"code": event["code"], "device_name": "Phone",
                                             "judge_name": "Jo\ufeff Judge"})
    assert joined.status_code == 400
    assert "holds an invisible character (U+FEFF)" in joined.get_data(as_text=True)


def test_the_csv_quotes_every_cell_and_neutralises_formulas_after_spaces_or_controls(organiser, event, phone):
    tricky = ["=cmd|' /C calc'!A0", "\r=cmd|' /C calc'!A0", "line\rbreak", "two\nlines", 'say "hi"',
              "a,b", " =1+2", "\t\t+SUM(A1)", "\n-1", "\u00a0@A1", "plain", "\r\n\r\n=2"]
    records = [{**phone.penalty(f"=Player {i}", infraction="usc_minor", penalty="warning", notes=text),
                "created_ms": T0 + i} for i, text in enumerate(tricky)]
    assert {r["status"] for r in phone.sync(records)["results"]} == {"accepted"}
    text = organiser.get(f"/organiser/events/{event['slug']}/penalties.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert len(rows) == 1 + len(tricky)  # one row per penalty
    header, body = rows[0], rows[1:]
    notes = [row[header.index("notes")] for row in body]
    assert notes == ["'=cmd|' /C calc'!A0", "'\r=cmd|' /C calc'!A0", "line\rbreak", "two\nlines", 'say "hi"',
                     "a,b", "' =1+2", "'\t\t+SUM(A1)", "'\n-1", "'\u00a0@A1", "plain", "'\r\n\r\n=2"]
    assert {row[header.index("player_name")] for row in body} == {f"'=Player {i}" for i in range(len(tricky))}
    for row in body:
        for cell in row:
            assert not cell.lstrip(" \t\r\n\u00a0").startswith(("=", "+", "-", "@"))
    assert text.count('"') == 2 * len(header) * len(rows) + 2 * 2  # every cell quoted; "hi" doubled
    assert [(row[header.index("infraction_name")], row[header.index("penalty_name")]) for row in body[:1]] == [
        ("Unsporting Conduct — Minor", "Warning")]


def test_the_record_keeps_the_name_the_device_joined_with(app, client, event):
    phone = Phone(client, event, judge="Jo Judge")
    rec = {**phone.penalty("Ada Brook", infraction="usc_minor", penalty="warning"), "judge": "Old Name"}
    assert phone.sync([rec])["results"][0]["status"] == "accepted"
    assert phone.held[rec["id"]]["judge"] == "Jo Judge"
    assert phone.sync([rec])["results"][0]["status"] == "duplicate"  # re-sending stays harmless


def test_a_scorekeeper_pulls_no_penalties_or_approvals_or_their_voids(app, client, event, phone):
    head = Phone(client, event, judge="Hana Head")
    set_role(app, head.id, "head_judge")
    keeper = Phone(client, event, judge="Sam Score")
    set_role(app, keeper.id, "scorekeeper")
    penalty = phone.penalty("Ada Brook", infraction="usc_minor", penalty="warning", notes="private", head_judge=True)
    extension = phone.record("time_extension", {"table": 1, "round": 1, "minutes": 2, "reason": "ruling"})
    phone.sync([penalty, extension])
    head.sync([head.record("approval", {"record": penalty["id"], "approved": True, "comment": "private too"}),
               head.record("void", {"record": penalty["id"], "reason": "wrong player Ada"}),
               head.record("void", {"record": extension["id"], "reason": "given twice"})])
    result = keeper.record("match_result", {"table": 1, "round": 1, "result": "A"})
    body = keeper.sync_all([result])
    assert body["results"] == [{"id": result["id"], "status": "accepted"}]
    assert [(r["type"], r["payload"].get("record")) for r in keeper.held.values()] == [
        ("time_extension", None), ("void", extension["id"]), ("match_result", None)]
    assert "private" not in str(keeper.held) and "Ada" not in str(keeper.held)
    assert body["cursor"] == 6
    judge_view = Phone(client, event, judge="Fay Floor")
    judge_view.sync_all()
    assert len(judge_view.held) == 6


def test_a_record_may_not_name_a_round_the_event_has_not_reached(app, event, phone):
    rec = phone.penalty("Ada Brook", infraction="usc_minor", penalty="warning", round=3)
    [result] = phone.sync([rec])["results"]
    assert result["reason"] == "payload.round: this event has no round 3 yet (latest: 1)"
    with app.app_context():
        from server.imports import import_pairings

        ev = db.session.get(Event, event["id"])
        import_pairings(ev, 3, "table,player_a,player_b\n1,Ada Brook,Ben Carter\n")
    assert phone.sync([phone.penalty("Ada Brook", infraction="usc_minor", penalty="warning",
                                     round=3)])["results"][0]["status"] == "accepted"
