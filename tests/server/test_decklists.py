"""Registered decklists on the server: the organiser's intake (paste, upload, bulk CSV), the
players' page with a code before the server-clock deadline, versions kept with who and when,
the sizes flagged, the lists synced to judges only, deck checks counted against them, and
the print order and CSV export."""

import csv
import html
import io
import re
from pathlib import Path

import pytest
from server_helpers import T0, Phone, add_event, set_role

from server.decklist_intake import ensure_codes, last_name_key
from server.extensions import db
from server.models import Event, Player, Record

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "decklists"
BURN = (SAMPLES / "burn.txt").read_text(encoding="utf-8")
HOUR = 3_600_000


def _event(app, players=("Ada Brook", "Ben Carter", "Chloe Diaz")):
    return add_event(app, ruleset="dci-upg", level="competitive", players=players)


def _codes(app, event) -> dict[str, str]:
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        ensure_codes(ev)
        return {p.name: p.decklist_code for p in ev.players}


def _versions(app, event) -> list[dict]:
    with app.app_context():
        rows = db.session.scalars(db.select(Record).where(Record.event_id == event["id"], Record.type == "decklist")
                                  .order_by(Record.seq)).all()
        return [{"id": r.id, "payload": r.payload, "created_ms": r.created_ms, "judge": r.judge} for r in rows]


def _deadline(organiser, event, ms):
    """Set the players' deadline through the page's form (UTC: no time zone given)."""
    from datetime import UTC, datetime

    text = datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M")
    return organiser.form(f"/organiser/events/{event['slug']}/decklists/settings", action="deadline", deadline=text)


@pytest.fixture
def event(app):
    return _event(app)


def test_the_organiser_pastes_a_list_and_it_is_a_version_by_the_organiser(app, organiser, event):
    ada = event["players"]["Ada Brook"]
    page = organiser.form(f"/organiser/events/{event['slug']}/decklists/{ada}", text=BURN)
    assert "A new version of Ada Brook" in page.get_data(as_text=True)
    (stored,) = _versions(app, event)
    assert stored["payload"]["by"] == "organiser" and stored["payload"]["format"] == "plain"
    assert stored["payload"]["player"] == ada and stored["judge"] == "organiser"
    assert [(s["id"], sum(c["count"] for c in s["cards"])) for s in stored["payload"]["sections"]] == [
        ("main", 60), ("side", 15)]
    assert stored["created_ms"] == T0  # the server's clock


def test_a_list_that_does_not_read_is_refused_line_by_line_and_nothing_stored_is_lost(app, organiser, event):
    ada = event["players"]["Ada Brook"]
    organiser.form(f"/organiser/events/{event['slug']}/decklists/{ada}", text=BURN)
    res = organiser.post(f"/organiser/events/{event['slug']}/decklists/{ada}",
                         data={"csrf": _csrf(organiser), "text": "4 Lightning Bolt\nCounterspell\n0 Island\n"})
    assert res.status_code == 400
    page = res.get_data(as_text=True)
    assert re.findall(r'<li data-line="(\d+)">', page) == ["2", "3"]
    assert "line 2 (Counterspell): not a card line" in page
    assert "Counterspell" in page.split('id="list-text"')[1]  # the text is kept in the form to fix
    assert len(_versions(app, event)) == 1
    assert "Lightning Helix" in organiser.get(f"/organiser/events/{event['slug']}/decklists/{ada}").get_data(
        as_text=True)


@pytest.mark.parametrize(("fmt", "text"), [
    ("", "4 Bolt\n<img src=x onerror=alert(1)>\n"),
    ("ydke", "ydke://<img src=x onerror=alert(1)>"),
    ("mtgo", '<?xml version="1.0"?><Deck><Cards CatID="1" Quantity="x" Name="<script>alert(1)</script>"/></Deck>'),
])
def test_a_refused_line_is_shown_as_text_never_as_markup(app, organiser, event, fmt, text):
    ada = event["players"]["Ada Brook"]
    res = organiser.post(f"/organiser/events/{event['slug']}/decklists/{ada}",
                         data={"csrf": _csrf(organiser), "text": text, "format": fmt})
    assert res.status_code == 400
    refused = res.get_data(as_text=True).split('id="refused"', 1)[1].split("</div>", 1)[0]
    assert "<img" not in refused and "<script" not in refused and "&lt;" in refused


def _csrf(client):
    with client.session_transaction() as session:
        return session["csrf"]


def test_an_uploaded_mtgo_file_is_read_with_its_format(app, organiser, event):
    ben = event["players"]["Ben Carter"]
    data = {"csrf": _csrf(organiser), "format": "mtgo",
            "file": (io.BytesIO((SAMPLES / "burn.dek").read_bytes()), "burn.dek")}
    res = organiser.post(f"/organiser/events/{event['slug']}/decklists/{ben}", data=data,
                         content_type="multipart/form-data")
    assert res.status_code == 302
    assert _versions(app, event)[0]["payload"]["format"] == "mtgo"


def test_a_player_submits_with_their_code_before_the_deadline_and_the_latest_counts(app, client, organiser,
                                                                                    event, now):
    codes = _codes(app, event)
    slug = event["slug"]
    closed = client.post(f"/api/events/{slug}/decklist", json={"code": codes["Ada Brook"], "text": BURN})
    assert closed.status_code == 403  # no deadline: players do not submit
    _deadline(organiser, event, T0 + HOUR)
    first = client.post(f"/api/events/{slug}/decklist", json={"code": codes["Ada Brook"], "text": BURN})
    assert first.status_code == 201
    body = first.get_json()
    assert body["player"] == {"id": event["players"]["Ada Brook"], "name": "Ada Brook"}
    assert body["open"] and body["deadline_ms"] == T0 + HOUR and body["versions"] == 1
    assert body["list"]["by"] == "player" and body["list"]["total"] == 75
    now.advance(HOUR - 60_000)
    code = codes["Ada Brook"].lower()[:5] + "-" + codes["Ada Brook"][5:]  # as printed, any case
    second = client.post(f"/api/events/{slug}/decklist",
                         json={"code": code, "text": BURN.replace("6 Mountain", "5 Mountain\n1 Plateau")})
    assert second.status_code == 201 and second.get_json()["versions"] == 2
    mine = client.post(f"/api/events/{slug}/decklist/mine", json={"code": codes["Ada Brook"]}).get_json()
    assert {"count": 1, "name": "Plateau"} in mine["list"]["sections"][0]["cards"]
    now.advance(60_000)  # the deadline, by the server's clock
    late = client.post(f"/api/events/{slug}/decklist", json={"code": codes["Ada Brook"], "text": BURN})
    assert late.status_code == 403 and "deadline" in late.get_json()["error"]["message"]
    assert not client.post(f"/api/events/{slug}/decklist/mine", json={"code": codes["Ada Brook"]}).get_json()["open"]
    # after it only the organiser changes a list, and the change is marked as after the deadline
    organiser.form(f"/organiser/events/{slug}/decklists/{event['players']['Ada Brook']}", text=BURN)
    kept = _versions(app, event)
    assert [(v["payload"]["by"], v["payload"]["late"], v["created_ms"]) for v in kept] == [
        ("player", False, T0), ("player", False, T0 + HOUR - 60_000), ("organiser", True, T0 + HOUR)]
    page = organiser.get(f"/organiser/events/{slug}/decklists").get_data(as_text=True)
    assert "after the deadline" in page and 'id="late-policy"' in page


def test_a_refused_submission_names_each_line_and_stores_nothing(app, client, organiser, event):
    codes = _codes(app, event)
    _deadline(organiser, event, T0 + HOUR)
    res = client.post(f"/api/events/{event['slug']}/decklist",
                      json={"code": codes["Ben Carter"], "text": "#main\n89631139\nBlue-Eyes\n"})
    assert res.status_code == 400
    error = res.get_json()["error"]
    assert error["field"] == "text"
    assert [(line["line"], line["problem"]) for line in error["lines"]] == [(3, "passcode")]
    assert error["lines"][0]["message"].startswith("line 3 (Blue-Eyes): not a passcode")
    assert _versions(app, event) == []


def test_wrong_codes_are_404_and_counted_per_address(app, client, organiser, event):
    app.config["DECKLIST_LIMITS"] = "3 per minute"
    codes = _codes(app, event)
    _deadline(organiser, event, T0 + HOUR)
    slug = event["slug"]
    statuses = [client.post(f"/api/events/{slug}/decklist/mine", json={"code": "AAAAA-AAAAA"}).status_code
                for _ in range(4)]
    assert statuses == [404, 404, 404, 429]
    assert client.post(f"/api/events/{slug}/decklist/mine", json={"code": codes["Ada Brook"]}).status_code == 429
    other = app.test_client()
    res = other.post(f"/api/events/{slug}/decklist/mine", json={"code": codes["Ada Brook"]},
                     environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert res.status_code == 200


def test_a_code_of_another_event_is_no_code_here(app, client, organiser, event):
    other = add_event(app, ruleset="wotf", level="casual", players=("Zed Young",))
    codes = _codes(app, other)
    _deadline(organiser, event, T0 + HOUR)
    res = client.post(f"/api/events/{event['slug']}/decklist/mine", json={"code": codes["Zed Young"]})
    assert res.status_code == 404


@pytest.mark.parametrize("text", ["4 Bolt\x00", "4 Bolt \udfff", 12, None, "x" * 200_001, ["4 Bolt"]])
def test_odd_values_for_the_list_are_refused_whole(app, client, organiser, event, text):
    codes = _codes(app, event)
    _deadline(organiser, event, T0 + HOUR)
    res = client.post(f"/api/events/{event['slug']}/decklist", json={"code": codes["Ada Brook"], "text": text})
    assert res.status_code == 400 and res.get_json()["error"]["field"] == "text"
    assert _versions(app, event) == []


def test_a_bulk_csv_stores_the_rows_that_read_and_names_the_others(app, organiser, event):
    rows = io.StringIO()
    writer = csv.writer(rows)
    writer.writerow(["name", "decklist", "format"])
    writer.writerow(["Ada Brook", BURN, ""])
    writer.writerow(["Nobody Here", BURN, ""])
    writer.writerow(["Ben Carter", "4 Bolt\nnonsense\n", "plain"])
    writer.writerow(["Chloe Diaz", (SAMPLES / "burn-arena.txt").read_text(), "arena"])
    data = {"csrf": _csrf(organiser), "file": (io.BytesIO(rows.getvalue().encode()), "lists.csv")}
    res = organiser.post(f"/organiser/events/{event['slug']}/decklists/bulk", data=data,
                         content_type="multipart/form-data", follow_redirects=True)
    page = res.get_data(as_text=True)
    assert "2 lists stored." in page
    assert "row 3: no player named &#39;Nobody Here&#39;" in page
    assert "row 4 (Ben Carter): line 2 (nonsense): not a card line" in page
    stored = {v["payload"]["player"]: v["payload"]["format"] for v in _versions(app, event)}
    assert stored == {event["players"]["Ada Brook"]: "plain", event["players"]["Chloe Diaz"]: "arena"}


def test_the_organisers_sizes_flag_a_list_and_the_page_says_what_the_policy_calls_it(app, organiser, event):
    slug = event["slug"]
    page = organiser.form(f"/organiser/events/{slug}/decklists/settings", action="sizes", min_main="61",
                          max_main="", min_side="", max_side="14").get_data(as_text=True)
    assert "Deck sizes saved." in page
    organiser.form(f"/organiser/events/{slug}/decklists/{event['players']['Ada Brook']}", text=BURN)
    page = organiser.get(f"/organiser/events/{slug}/decklists").get_data(as_text=True)
    assert "Deck: 60 cards, at least 61" in page and "Sideboard: 15 cards, at most 14" in page
    assert "The policy calls this: Deck/Warband Error — Illegal Decklist" in page
    assert "(your setting: the policy states no size)" in page
    bad = organiser.form(f"/organiser/events/{slug}/decklists/settings", action="sizes", min_main="70",
                         max_main="60").get_data(as_text=True)
    assert "the minimum 70 is above the maximum 60" in bad
    bad = organiser.form(f"/organiser/events/{slug}/decklists/settings", action="sizes",
                         min_main="1e3").get_data(as_text=True)
    assert "must be a whole number" in bad
    with app.app_context():
        assert db.session.get(Event, event["id"]).decklist_sizes == {"main": {"minimum": 61, "maximum": None},
                                                                     "side": {"minimum": None, "maximum": 14}}


def test_the_deadline_is_read_in_the_organisers_time_zone(app, organiser, event):
    """The form's local time and the browser's getTimezoneOffset (minutes to add for UTC)."""
    from datetime import UTC, datetime

    base = int(datetime(2027, 1, 15, 9, 30, tzinfo=UTC).timestamp() * 1000)
    for tz in ("", "-60", "+300", "0"):
        organiser.form(f"/organiser/events/{event['slug']}/decklists/settings", action="deadline",
                       deadline="2027-01-15T09:30", tz_offset=tz)
        with app.app_context():
            assert db.session.get(Event, event["id"]).decklist_deadline_ms == base + int(tz or 0) * 60_000, tz
    page = organiser.form(f"/organiser/events/{event['slug']}/decklists/settings", action="deadline",
                          deadline="soon").get_data(as_text=True)
    assert "the deadline must be a date and time" in page


def test_judges_get_every_version_in_their_sync_and_scorekeepers_and_devices_cannot(app, client, organiser,
                                                                                   event):
    organiser.form(f"/organiser/events/{event['slug']}/decklists/{event['players']['Ada Brook']}", text=BURN)
    judge, head, keeper = (Phone(client, event, judge=n) for n in ("Fay Floor", "Hana Head", "Sam Score"))
    set_role(app, head.id, "head_judge")
    set_role(app, keeper.id, "scorekeeper")
    for phone in (judge, head):
        pulled = [r for r in phone.sync_all()["records"] if r["type"] == "decklist"]
        assert [r["payload"]["player"] for r in pulled] == [event["players"]["Ada Brook"]]
    assert [r for r in keeper.sync_all()["records"] if r["type"] == "decklist"] == []
    forged = judge.record("decklist", {"player": event["players"]["Ben Carter"], "format": "plain", "by": "organiser",
                                       "sections": [{"id": "main", "cards": [{"count": 60, "name": "Island"}]}]})
    result = judge.sync([forged])["results"][0]
    assert result["status"] == "rejected" and result["reason"] == "role organiser required"
    detail = client.get(f"/api/events/{event['slug']}", headers=judge.headers).get_json()
    assert [s["id"] for s in detail["decklists"]["sections"]] == ["main", "side"]
    assert detail["decklists"]["sections"][0] | {"stated": False, "minimum": None} == detail["decklists"]["sections"][0]


def _checked(app, client, organiser, event, text=BURN):
    """A judge's phone with Ada's list and a started check of her deck: (phone, list record, started)."""
    ada = event["players"]["Ada Brook"]
    organiser.form(f"/organiser/events/{event['slug']}/decklists/{ada}", text=text)
    phone = Phone(client, event, judge="Fay Floor")
    listed = next(r for r in phone.sync_all()["records"] if r["type"] == "decklist")
    started = phone.record("deck_check", {"player": ada, "table": 1, "round": 1, "phase": "started"})
    assert phone.sync([started])["results"][0]["status"] == "accepted"
    return phone, listed, started


def _finished(phone, listed, started, counts, outcome, found=None, player=None):
    payload = {"player": player or listed["payload"]["player"], "table": 1, "round": 1, "phase": "finished",
               "started": started["id"], "outcome": outcome, "decklist": listed["id"], "counts": counts}
    if found is not None:
        payload["found"] = found
    return phone.sync([phone.record("deck_check", payload)])["results"][0]


def test_a_deck_check_counted_against_the_list_is_checked_by_the_same_comparison(app, client, organiser, event):
    phone, listed, started = _checked(app, client, organiser, event)
    main = [c["count"] for c in listed["payload"]["sections"][0]["cards"]]
    side = [c["count"] for c in listed["payload"]["sections"][1]["cards"]]
    short = [main[0] - 1, *main[1:]]
    found = [{"section": "main", "name": "Path to Exile", "count": 1}]
    wrong_side = [side[0] - 1, *side[1:]]
    result = _finished(phone, listed, started, {"main": main, "side": side}, "wrong")
    assert (result["status"], result["reason"]) == ("rejected", "payload.outcome: the count matches the list")
    result = _finished(phone, listed, started, {"main": short, "side": side}, "ok")
    assert result["reason"] == "payload.outcome: the count differs from the list in 1 ways"
    result = _finished(phone, listed, started, {"main": main[:-1], "side": side}, "wrong")
    assert result["reason"].startswith("payload.counts.main: needs one count for each of the 15 lines")
    assert _finished(phone, listed, started, {"main": main, "side": wrong_side}, "wrong", found)["status"] == "accepted"


def test_a_count_must_name_a_list_of_the_checked_player(app, client, organiser, event):
    phone, listed, started = _checked(app, client, organiser, event)
    organiser.form(f"/organiser/events/{event['slug']}/decklists/{event['players']['Ben Carter']}", text=BURN)
    bens = next(r for r in phone.sync_all()["records"] if r["type"] == "decklist"
                and r["payload"]["player"] == event["players"]["Ben Carter"])
    counts = {s["id"]: [c["count"] for c in s["cards"]] for s in bens["payload"]["sections"]}
    result = _finished(phone, bens, started, counts, "ok", player=event["players"]["Ada Brook"])
    assert result["reason"] == "payload.decklist: not a decklist of this player"


def test_print_and_csv_file_the_lists_by_last_name(app, organiser):
    event = _event(app, players=("Zoe Adams", "Ana Zimmer", "Bo Émery", "Cy Ebert"))
    for name in ("Zoe Adams", "Ana Zimmer", "Bo Émery"):
        organiser.form(f"/organiser/events/{event['slug']}/decklists/{event['players'][name]}", text=BURN)
    page = organiser.get(f"/organiser/events/{event['slug']}/decklists/print").get_data(as_text=True)
    order = [int(x) for x in re.findall(r'<section class="sheet" data-player="(\d+)"', page)]
    assert order == [event["players"][n] for n in ("Zoe Adams", "Bo Émery", "Ana Zimmer")]
    assert "No list registered: Cy Ebert" in page
    text = organiser.get(f"/organiser/events/{event['slug']}/decklists.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 3 * 21
    assert [rows[0][k] for k in ("player_name", "section", "count", "card", "by", "version")] == [
        "Zoe Adams", "main", "4", "Goblin Guide", "organiser", "1"]
    assert last_name_key("Brook, Ada") == ("brook", "brook, ada")


def test_the_codes_sheet_links_each_player_to_their_own_submission_page(app, organiser, event):
    codes = _codes(app, event)
    page = organiser.get(f"/organiser/events/{event['slug']}/decklists/codes").get_data(as_text=True)
    shown = f"{codes['Ada Brook'][:5]}-{codes['Ada Brook'][5:]}"
    assert shown in page and f"/#/event/{event['slug']}/decklist/{codes['Ada Brook']}" in page
    assert page.count('class="slip"') == 3
    assert len(set(codes.values())) == 3 and all(len(c) == 10 for c in codes.values())


def test_a_player_added_later_gets_a_code_and_codes_never_change(app, organiser, event):
    first = _codes(app, event)
    organiser.form(f"/organiser/events/{event['slug']}/players", csv="name\nDev Evans\n")
    organiser.get(f"/organiser/events/{event['slug']}/decklists")
    with app.app_context():
        now = {p.name: p.decklist_code for p in db.session.scalars(db.select(Player).where(
            Player.event_id == event["id"]))}
    assert {k: now[k] for k in first} == first and now["Dev Evans"]


def test_the_event_page_counts_the_lists(app, organiser, event):
    organiser.form(f"/organiser/events/{event['slug']}/decklists/{event['players']['Ada Brook']}", text=BURN)
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    assert "1 of 3 players have a registered list." in page
    assert f'href="/organiser/events/{event["slug"]}/decklists"' in page


def test_an_unknown_player_page_says_so_on_the_decklists_page(app, organiser, event):
    page = organiser.get(f"/organiser/events/{event['slug']}/decklists/99999999999", follow_redirects=True)
    assert page.status_code == 200 and "player not found" in page.get_data(as_text=True)


def test_the_demo_has_a_32_player_event_with_every_list_registered(app):
    from server.cli import demo_events
    from server.decklist_intake import current_lists, limits, view

    with app.app_context():
        event = demo_events()[-1]
        assert len(event.players) == 32 and len([p for p in event.pairings if p.round_number == 1]) == 16
        lists = current_lists(event)
        assert len(lists) == 32
        shown = [view(r, limits(event)) for r in lists.values()]
        assert all(v["problems"] == [] for v in shown)
        assert {v["format"] for v in shown} == {"plain", "arena", "mtgo"}
        assert demo_events()[-1].id == event.id  # made once


@pytest.mark.parametrize("code", ["", "\x00" * 10, "ABCDE\udfffFGHJ", 12345, None, ["ABCDEFGHJK"], "A" * 33,
                                  "ABCDE FGHJK\u202e"])
def test_odd_codes_are_refused_and_name_the_code(app, client, organiser, event, code):
    _deadline(organiser, event, T0 + HOUR)
    for path in ("decklist/mine", "decklist"):
        res = client.post(f"/api/events/{event['slug']}/{path}", json={"code": code, "text": BURN})
        assert res.status_code in (400, 404), (path, code)
        if res.status_code == 400:
            assert res.get_json()["error"]["field"] == "code"
    assert _versions(app, event) == []


@pytest.mark.parametrize("fmt", ["", "xml", 5, None, "plain\x00"])
def test_an_odd_format_is_refused_naming_it(app, client, organiser, event, fmt):
    codes = _codes(app, event)
    _deadline(organiser, event, T0 + HOUR)
    res = client.post(f"/api/events/{event['slug']}/decklist",
                      json={"code": codes["Ada Brook"], "text": BURN, "format": fmt})
    assert res.status_code == 400 and res.get_json()["error"]["field"] == "format"


@pytest.mark.parametrize("fields", [
    {"action": "deadline", "deadline": "2027-01-15T09:30", "tz_offset": "99999"},
    {"action": "deadline", "deadline": "2027-01-15T09:30", "tz_offset": "1e3"},
    {"action": "deadline", "deadline": "2027-01-15T09:30\x00"},
    {"action": "deadline", "deadline": "9" * 400},
    {"action": "sizes", "min_main": "-1"},
    {"action": "sizes", "min_main": "１２"},
    {"action": "sizes", "max_side": "9" * 400},
    {"action": "sizes", "max_side": "1000"},
    {"action": "nonsense"},
])
def test_bad_settings_say_why_and_change_nothing(app, organiser, event, fields):
    page = organiser.form(f"/organiser/events/{event['slug']}/decklists/settings", **fields)
    assert page.status_code == 400
    text = html.unescape(page.get_data(as_text=True))
    assert 'class="flash error"' in text
    # the refused value comes back as typed, to be mended
    for name in ("deadline", "min_main", "max_side"):
        if name in fields:
            shown = fields[name].replace("\x00", "\ufffd")  # a NUL is shown as U+FFFD, never stored
            assert re.search(rf'name="{name}"[^>]*value="{re.escape(shown)}"', text), name
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        assert (ev.decklist_deadline_ms, ev.decklist_sizes) == (None, None)


def test_a_stored_decklist_with_odd_values_breaks_no_page_and_is_never_sent(app, client, organiser, event):
    organiser.form(f"/organiser/events/{event['slug']}/decklists/{event['players']['Ada Brook']}", text=BURN)
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        device = ev.devices[0].id
        for payload in ({"player": event["players"]["Ben Carter"], "format": "plain", "by": "organiser",
                         "sections": [{"id": "main", "cards": [{"count": "4", "name": "Bolt"}]}]},
                        {"player": "Ben", "sections": "x"}, [1, 2],
                        {"player": event["players"]["Chloe Diaz"], "format": "plain", "by": "organiser",
                         "sections": [{"id": "main", "cards": [{"count": 4, "name": "Bo\udfffx"}]}]}):
            ev.last_seq += 1
            db.session.add(Record(id=f"00000000-0000-4000-8000-{ev.last_seq:012d}", event_id=ev.id, seq=ev.last_seq,
                                  type="decklist", device_id=device, judge="organiser", created_ms=0, received_ms=0,
                                  payload=payload))
        db.session.commit()
    slug = event["slug"]
    for path in ("decklists", "decklists/print", "decklists.csv", "decklists/codes",
                 f"decklists/{event['players']['Ben Carter']}", ""):
        assert organiser.get(f"/organiser/events/{slug}/{path}".rstrip("/")).status_code == 200, path
    page = organiser.get(f"/organiser/events/{slug}/decklists").get_data(as_text=True)
    assert "Lists (1 of 3 players)" in page
    phone = Phone(client, event, judge="Fay Floor")
    assert [r["payload"]["player"] for r in phone.sync_all()["records"] if r["type"] == "decklist"] == [
        event["players"]["Ada Brook"]]


def test_the_decklists_migration_adds_the_settings_and_codes_and_takes_them_back(tmp_path, request):
    """0008_decklists both ways: the columns come and go, and what the other tables hold stays."""
    import sqlalchemy as sa
    from flask_migrate import downgrade, upgrade
    from server_helpers import make_app

    app = make_app("sqlite", tmp_path, request)
    directory = app.extensions["migrate"].directory

    def columns(table):
        with db.engine.connect() as conn:
            return {c["name"] for c in sa.inspect(conn).get_columns(table)}

    with app.app_context():
        upgrade(directory=directory)
    event = add_event(app)
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        ensure_codes(ev)
        ev.decklist_deadline_ms, ev.decklist_sizes = T0, {"main": {"minimum": 60, "maximum": None}}
        db.session.commit()
        assert {"decklist_deadline_ms", "decklist_sizes"} <= columns("events")
        downgrade(directory=directory, revision="0007_accounts")
        assert not {"decklist_deadline_ms", "decklist_sizes"} & columns("events")
        assert "decklist_code" not in columns("players")
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM players")).scalar() == 2
        upgrade(directory=directory)
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT decklist_code FROM players")).scalars().all() == [None] * 2
        db.session.remove()
        ev = db.session.get(Event, event["id"])
        ensure_codes(ev)
        assert len({p.decklist_code for p in ev.players}) == 2
        db.engine.dispose()
