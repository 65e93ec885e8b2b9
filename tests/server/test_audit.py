"""The audit log (server/audit.py): every organiser, head-judge and scorekeeper action is stored
with who, when, from which account or device, and what changed; the event's page lists it,
filtered by person and kind, and exports it to CSV; nothing can change or delete an entry."""

import csv
import html
import io
import re

import pytest
import sqlalchemy as sa
from conftest import log_in, replace_tables, staff_client
from server_helpers import T0, Phone, add_event, set_role

from server import audit, roles
from server.extensions import db
from server.models import AuditEntry, Device, Event


@pytest.fixture
def event(app):
    return add_event(app, ruleset="dci-upg", players=("Ada Brook", "Ben Carter"))


def _entries(app, event):
    """(kind, who, account?, device?, changes) of the event's entries, oldest first."""
    with app.app_context():
        return [(e.kind, e.actor, e.account_id is not None, e.device_id is not None, e.changes)
                for e in db.session.scalars(db.select(AuditEntry).where(AuditEntry.event_id == event["id"])
                                            .order_by(AuditEntry.id))]


def test_every_organiser_page_action_is_logged_with_who_and_what_changed(app, organiser, event, now):
    slug = event["slug"]
    phone = Phone(app.test_client(), event, judge="Jo Judge")
    penalty = phone.penalty(event["players"]["Ada Brook"], infraction="usc_minor", penalty="warning", head_judge=True)
    phone.sync([penalty])
    base = f"/organiser/events/{slug}"
    organiser.form(f"{base}/round", action="start", round_minutes="40")
    organiser.form(f"{base}/round", action="pause")
    organiser.form(f"{base}/round", action="resume")
    organiser.form(f"{base}/round", action="end")
    organiser.form(f"{base}/stage", stage="elimination")
    organiser.form(f"{base}/head-judge", head_judge_from="match_loss")
    organiser.form(f"{base}/call-escalation", seconds="90")
    organiser.form(f"{base}/players", csv="name\nCy Dunn\n")
    replace_tables(organiser, slug, 2, "table,player_a,player_b\n1,Ada Brook,Ben Carter\n2,Cy Dunn,Dee New\n")
    organiser.form(f"{base}/devices/{phone.id}", action="role", role="head_judge")
    organiser.form(f"{base}/penalties/{penalty['id']}/approval", approved="1")
    organiser.form(f"{base}/join-code")
    organiser.form(f"{base}/devices/{phone.id}", action="revoke")
    organiser.form(f"{base}/staff", name="Sam Score", role="scorekeeper")
    entries = _entries(app, event)
    kinds = [e[0] for e in entries]
    assert kinds == ["device.join", "round.start", "round.pause", "round.resume", "round.end", "event.settings",
                     "event.settings", "event.settings", "players.import", "tables.import", "device.role",
                     "record.approval", "join_code.new", "device.revoke", "staff.invite"]
    assert entries[0] == ("device.join", "Jo Judge", False, True,
                          {"device": phone.id, "judge": "Jo Judge", "role": "floor_judge", "via": "code"})
    assert all(e[1:4] == ("Organiser", True, False) for e in entries[1:])  # the organiser's account, the pages
    changes = {kind: c for kind, _, _, _, c in entries}
    assert entries[1][4] == {"round": 1, "minutes": 40.0, "stage": "swiss"}
    assert [e[4] for e in entries if e[0] == "event.settings"] == [
        {"stage": {"from": "swiss", "to": "elimination"}},
        {"head_judge_from": {"from": None, "to": "match_loss"}},
        {"call_escalate_seconds": {"from": 120, "to": 90}}]
    assert changes["players.import"] == {"added": ["Cy Dunn"], "skipped": []}
    assert changes["tables.import"] == {"round": 2, "source": "csv", "tables": {"from": 0, "to": 2}, "changed": [1, 2],
                                        "players_added": ["Dee New"], "ids_added": []}
    assert changes["device.role"] == {"device": phone.id, "judge": "Jo Judge",
                                      "role": {"from": "floor_judge", "to": "head_judge"}}
    approval = changes["record.approval"]
    assert (approval["record"], approval["approved"], approval["comment"]) == (penalty["id"], True, None)
    # what it approved, not only an id
    assert approval["about"] == {"type": "penalty", "player": "Ada Brook", "table": 1, "round": 1,
                                 "infraction": "usc_minor", "penalty": "warning"}
    assert changes["staff.invite"]["name"] == "Sam Score" and changes["staff.invite"]["role"] == "scorekeeper"
    with app.app_context():
        assert {e.at_ms for e in db.session.scalars(db.select(AuditEntry))} == {T0}


def test_head_judge_and_scorekeeper_records_are_logged_from_their_devices_and_floor_judges_are_not(app, organiser,
                                                                                                  event):
    floor, head = Phone(app.test_client(), event, judge="Fay Floor"), Phone(app.test_client(), event, judge="Hana")
    set_role(app, head.id, "head_judge")
    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    body = keeper.post("/api/me/devices", json={"event": event["slug"], "device_name": "Pixel"}).get_json()
    keeper_phone = Phone.__new__(Phone)
    keeper_phone.client, keeper_phone.event, keeper_phone.token = app.test_client(), event, body["token"]
    keeper_phone.id, keeper_phone.judge, keeper_phone.cursor, keeper_phone.held = body["device_id"], "x", 0, {}
    penalty = floor.penalty(event["players"]["Ada Brook"], infraction="usc_minor", penalty="warning")
    floor.sync([penalty])
    result = keeper_phone.record("match_result", {"table": 1, "round": 1, "result": "A"})
    keeper_phone.sync([result])
    void = head.record("void", {"record": penalty["id"], "reason": "wrong player"})
    head.sync([void])
    logged = [(k, who, acct, dev, c) for k, who, acct, dev, c in _entries(app, event) if k.startswith("record.")]
    assert logged == [
        ("record.match_result", "Sam Score", True, True, {"record_id": result["id"], "table": 1, "round": 1,
                                                          "result": "A"}),
        ("record.void", "Hana", False, True, {"record_id": void["id"], "record": penalty["id"],
                                              "reason": "wrong player",
                                              "about": {"type": "penalty", "player": "Ada Brook", "table": 1,
                                                        "round": 1, "infraction": "usc_minor",
                                                        "penalty": "warning"}})]


def test_the_audit_page_filters_by_person_and_kind_and_exports_csv(app, organiser, event):
    slug = event["slug"]
    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    organiser.form(f"/organiser/events/{slug}/round", action="start", round_minutes="40")
    keeper.form(f"/organiser/events/{slug}/round", action="pause")
    keeper.form(f"/organiser/events/{slug}/players", csv="name\n=HYPERLINK(\"x\")\n")
    page = html.unescape(organiser.get(f"/organiser/events/{slug}/audit").get_data(as_text=True))
    kinds = re.findall(r'<tr data-kind="([\w.]+)"', page)
    assert kinds == ["players.import", "round.pause", "round.start", "staff.invite"]  # newest first
    people = re.findall(r'<option value="(a\d+)"[^>]*>([^<]+)</option>', page)
    assert [name for _, name in people] == ["Organiser", "Sam Score"]
    keeper_key = dict((n, k) for k, n in people)["Sam Score"]
    mine = html.unescape(organiser.get(f"/organiser/events/{slug}/audit?person={keeper_key}").get_data(as_text=True))
    assert re.findall(r'<tr data-kind="([\w.]+)"', mine) == ["players.import", "round.pause"]
    assert "Sam Score <span class=\"muted\">(account)</span>" in mine
    rounds = html.unescape(organiser.get(f"/organiser/events/{slug}/audit?kind=round.start").get_data(as_text=True))
    assert re.findall(r'<tr data-kind="([\w.]+)"', rounds) == ["round.start"]
    assert "<code>minutes</code>: 40.0" in rounds
    settings = html.unescape(organiser.get(f"/organiser/events/{slug}/audit?kind=round.pause&person={keeper_key}")
                             .get_data(as_text=True))
    assert re.findall(r'<tr data-kind="([\w.]+)"', settings) == ["round.pause"]
    nothing = html.unescape(organiser.get(f"/organiser/events/{slug}/audit?person=zz&kind=nope").get_data(as_text=True))
    assert "No entry matches." in nothing
    exported = organiser.get(f"/organiser/events/{slug}/audit.csv?person={keeper_key}")
    assert exported.headers["Content-Disposition"] == f"attachment; filename=audit-{slug}.csv"
    rows = list(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    assert [(r["kind"], r["kind_name"], r["person"]) for r in rows] == [
        ("round.pause", "round paused", "Sam Score"), ("players.import", "players imported", "Sam Score")]
    assert rows[0]["at_utc"].endswith("Z") and rows[0]["account"] == keeper_key[1:]
    assert rows[1]["changes"].startswith('{"added": ["=HYPERLINK(\\"x\\")"]')  # JSON's "{" starts no formula


def test_the_log_is_append_only(app, organiser, event):
    organiser.form(f"/organiser/events/{event['slug']}/join-code")
    with app.app_context():
        entry = db.session.scalar(db.select(AuditEntry))
        entry.kind = "round.start"
        with pytest.raises(audit.AppendOnly):
            db.session.commit()
        db.session.rollback()
        db.session.delete(db.session.scalar(db.select(AuditEntry)))
        with pytest.raises(audit.AppendOnly):
            db.session.commit()
        db.session.rollback()
        for statement in (sa.update(AuditEntry).values(actor="someone else"), sa.delete(AuditEntry)):
            with pytest.raises(audit.AppendOnly):
                db.session.execute(statement)
            db.session.rollback()
        assert [(e.kind, e.actor) for e in db.session.scalars(db.select(AuditEntry))] == [
            ("join_code.new", "Organiser")]
    for method in ("post", "put", "patch", "delete"):
        for path in ("audit", "audit.csv"):
            res = getattr(organiser, method)(f"/organiser/events/{event['slug']}/{path}")
            assert res.status_code == 405, (method, path)


def test_every_kind_has_a_name_and_every_record_type_a_kind():
    assert set(audit.RECORD_KINDS) == set(roles.RECORDS)
    for kind, name in audit.KINDS.items():
        assert re.fullmatch(r"[a-z_]+\.[a-z_]+", kind) and str(name), kind
    with pytest.raises(KeyError):
        audit.log(None, "decklist.nope")


def test_odd_stored_entries_never_break_the_page_or_the_csv(sqlite_app):
    app = sqlite_app
    event = add_event(app)
    organiser = log_in(app.test_client())
    with app.app_context():
        for changes in (None, [], "text", 5, {"a": "\0"}, {"deep": {"from": [1, {"x": None}], "to": "\0"}},
                        {"x" * 300: "y" * 10_000}):
            db.session.execute(sa.insert(AuditEntry).values(event_id=event["id"], at_ms=2**62, kind="no.such",
                                                            actor="odd \0 =cmd", changes=changes))
        db.session.commit()
    page = organiser.get(f"/organiser/events/{event['slug']}/audit")
    assert page.status_code == 200 and page.get_data(as_text=True).count('data-kind="no.such"') == 7
    assert organiser.get(f"/organiser/events/{event['slug']}/audit.csv").status_code == 200


def test_a_revoked_person_is_logged_in_each_of_their_events(app, organiser, event):
    other = add_event(app, ruleset="wotf")
    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    organiser.form(f"/organiser/events/{other['slug']}/staff-add", account=str(keeper.account), role="head_judge")
    organiser.form(f"/organiser/people/{keeper.account}", action="revoke")
    for ev in (event, other):
        assert _entries(app, ev)[-1][0] == "staff.revoke"
        assert _entries(app, ev)[-1][4] == {"account": keeper.account, "name": "Sam Score"}


def test_a_device_joined_through_an_account_is_logged_with_its_person(app, organiser, event):
    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    keeper.post("/api/me/devices", json={"event": event["slug"], "device_name": "Pixel"})
    kind, who, account, device, changes = _entries(app, event)[-1]
    assert (kind, who, account, device, changes["via"], changes["role"]) == (
        "device.join", "Sam Score", True, True, "account", "scorekeeper")
    with app.app_context():
        assert db.session.get(Device, changes["device"]).account_id == keeper.account
        assert db.session.get(Event, event["id"]) is not None


@pytest.mark.parametrize("query", ["before=99999999999999999999", "before=abc", "before=-1", "person=a99999999999",
                                   "person=d%00", "kind=" + "k" * 5000, "person=a1&person=a2", "before=0"])
def test_odd_audit_filters_answer_a_page(organiser, event, query):
    organiser.form(f"/organiser/events/{event['slug']}/join-code")
    for path in ("audit", "audit.csv"):
        assert organiser.get(f"/organiser/events/{event['slug']}/{path}?{query}").status_code == 200


def test_decklist_changes_are_logged_with_who_made_them(app, organiser, event, now):
    """The decklists' deadline, the deck sizes and every list version (the organiser's, from
    the pages; a player's own, with their code) are in the audit log with who and what."""
    from server.decklist_intake import ensure_codes

    slug, ada = event["slug"], event["players"]["Ada Brook"]
    base = f"/organiser/events/{slug}"
    organiser.form(f"{base}/decklists/settings", action="deadline", deadline="2099-01-01T10:00")
    organiser.form(f"{base}/decklists/settings", action="sizes", min_main="60")
    organiser.form(f"{base}/decklists/{event['players']['Ben Carter']}", text="60 Island\n")
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        ensure_codes(ev)
        code = next(p.decklist_code for p in ev.players if p.id == ada)
    res = app.test_client().post(f"/api/events/{slug}/decklist", json={"code": code, "text": "60 Forest\n"})
    assert res.status_code == 201, res.get_json()
    entries = [e for e in _entries(app, event) if e[0].startswith(("decklists.", "record.decklist"))]
    assert [(kind, who, has_account, has_device) for kind, who, has_account, has_device, _ in entries] == [
        ("decklists.settings", "Organiser", True, False), ("decklists.settings", "Organiser", True, False),
        ("record.decklist", "Organiser", True, False), ("record.decklist", audit.PLAYERS_PAGE, False, False)]
    assert entries[0][4]["deadline_ms"]["from"] is None and entries[0][4]["deadline_ms"]["to"] > T0
    assert entries[1][4]["sizes"]["to"]["main"]["minimum"] == 60
    assert (entries[2][4]["by"], entries[3][4]["by"], entries[3][4]["player"]) == ("organiser", "player", ada)
