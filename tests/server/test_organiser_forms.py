"""Organiser forms and uploads: every bad value or file brings the page back with a clear
message and changes nothing; no 500 on SQLite or PostgreSQL."""

import html
import io
import re

import pytest
from conftest import replace_tables
from server_helpers import Phone, add_event

from server.extensions import db
from server.models import Device, Event, Pairing, Player

HUGE = "99999999999999999999999"  # past 64 bits


@pytest.fixture
def event(app):
    return add_event(app, ruleset="dci-upg", level="competitive",
                     players=("Ada Brook", "Ben Carter", "Chloe Diaz"))


def _text(page, status=200):
    assert page.status_code == status, page.status_code
    return html.unescape(page.get_data(as_text=True))


def _counts(app, event):
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        return (db.session.query(Event).count(), len(ev.players), len(ev.pairings), ev.name)


def _upload(organiser, path, content: bytes, **fields):
    return organiser.form(path, data={"file": (io.BytesIO(content), "list.csv"), **fields})


@pytest.mark.parametrize(("fields", "message"), [
    ({"name": "A\0B"}, "the name holds a NUL character"),
    ({"name": "x" * 201}, "the name is longer than 200 characters"),
    ({"name": "Open", "game": "g" * 65}, "the game is longer than 64 characters"),
    ({"name": "Open", "game": "a\x07b"}, "the game holds a control character (U+0007)"),
    ({"name": "Open", "games_per_match": HUGE}, "games per match must be from 1 to 99"),
    ({"name": "Open", "games_per_match": "2.5"}, "games per match must be a whole number from 1 to 99, not '2.5'"),
    ({"name": "Open", "games_per_match": "0"}, "games per match must be from 1 to 99"),
    ({"name": "Open", "round_minutes": "1e400"}, "round minutes must be a whole number from 1 to 600, not '1e400'"),
    ({"name": "Open", "round_minutes": HUGE}, "round minutes must be from 1 to 600"),
    ({"name": "Open", "stage": "s" * 40}, "event.stage has an unknown value"),
    ({"name": "Open", "ruleset_level": "dci-upg|\0"}, "event.level has an unknown value"),
    ({"name": "Open", "ruleset_level": "x" * 500}, "unknown ruleset"),
])
def test_a_bad_new_event_form_says_why_and_makes_nothing(app, organiser, event, fields, message):
    before = _counts(app, event)
    page = _text(organiser.form("/organiser/events", data={"ruleset_level": "dci-upg|competitive", **fields}), 400)
    assert message in page
    assert _counts(app, event) == before


def test_a_refused_new_event_keeps_what_was_typed_and_names_every_problem(app, organiser, event):
    """The form comes back as typed, each refused field marked (aria-invalid, its message
    beside it) and every problem listed, not only the first."""
    before = _counts(app, event)
    res = organiser.form("/organiser/events", data={
        "name": "Autumn Open", "ruleset_level": "wotf|competitive", "stage": "swiss", "games_per_match": "2.5",
        "round_minutes": "700", "game": "a\x07b"})
    page = _text(res, 400)
    assert _counts(app, event) == before
    problems = re.findall(r'<p class="field-error" id="(\w+)-problem">([^<]*)</p>', page)
    assert dict(problems) == {
        "games_per_match": "games per match must be a whole number from 1 to 99, not '2.5'",
        "round_minutes": "round minutes must be from 1 to 600",
        "game": "the game holds a control character (U+0007)"}
    assert "The event was not created: 3 problems." in page
    for field in ("games_per_match", "round_minutes", "game"):
        assert re.search(rf'id="{field}"[^>]*aria-invalid="true" aria-describedby="{field}-problem"', page), field
    assert 'id="name" required maxlength="200" value="Autumn Open">' in page  # kept, not marked
    assert 'value="wotf|competitive" selected>' in page and 'value="2.5"' in page and 'value="700"' in page


def test_a_policy_that_names_its_games_is_refused_beside_the_other_problems(app, organiser, event):
    """The engine's check names one setting at a time: asked again, every refused setting is
    named (here best of 4 where the policy takes only its own, and a name with NUL)."""
    page = _text(organiser.form("/organiser/events", data={"name": "A\0B", "ruleset_level": "dci-upg|competitive",
                                                           "games_per_match": "4", "stage": "x"}), 400)
    problems = dict(re.findall(r'<p class="field-error" id="(\w+)-problem">([^<]*)</p>', page))
    assert set(problems) == {"name", "games_per_match", "stage"}, problems
    assert problems["name"] == "the name holds a NUL character"


@pytest.mark.parametrize(("content", "message"), [
    (b"name\nAda\0Lovelace\n", "the CSV holds a NUL character"),
    ("name\nZoë\n".encode("latin-1"), "the file is not UTF-8 text: save it from the spreadsheet as CSV UTF-8"),
    (b"\xff\xfe\x00n\x00a\x00m\x00e", "the file is not UTF-8 text"),
    (("name\n" + "y" * 201 + "\n").encode(), "line 2: the name is longer than 200 characters"),
    (("name,id\nYves," + "9" * 65 + "\n").encode(), "line 2: the id is longer than 64 characters"),
    (b"name\nBell\x07e\n", "line 2: the name holds a control character (U+0007)"),
    (("name\n" + "\n".join(f"P{i}" for i in range(5002))).encode(), "the CSV has more than 5000 rows"),
    (b'name\n"Ada Brook\nBen Carter\n', "line 2: not readable as CSV (unexpected end of data)"),
    (('name\n"' + "z" * 200_000 + '"\n').encode(),
     "line 1: not readable as CSV (field larger than field limit (131072))"),
])
def test_a_bad_players_file_says_why_and_adds_nobody(app, organiser, event, content, message):
    before = _counts(app, event)
    page = _text(_upload(organiser, f"/organiser/events/{event['slug']}/players", content), 400)
    assert message in page
    assert _counts(app, event) == before


@pytest.mark.parametrize(("round_number", "csv", "message"), [
    ("1", "table,player_a,player_b\n-3,Ada Brook,Ben Carter\n",
     "line 2: table must be a whole number from 1 to 9999, not '-3'"),
    ("1", "table,player_a,player_b\n1.5,Ada Brook,Ben Carter\n",
     "line 2: table must be a whole number from 1 to 9999, not '1.5'"),
    ("1", "table,player_a,player_b\n0,Ada Brook,Ben Carter\n", "line 2: table must be from 1 to 9999"),
    ("1", f"table,player_a,player_b\n{HUGE},Ada Brook,Ben Carter\n", "line 2: table must be from 1 to 9999"),
    ("1", "table,player_a,player_b\n1,Ada Brook,Ada Brook\n", "line 2: 'Ada Brook' is paired with themself"),
    ("1", "table,player_a,player_b\n1,Ada Brook,Ben Carter\n2,Chloe Diaz,Ben Carter\n",
     "line 3: 'Ben Carter' is already at table 1"),
    ("0", "table,player_a,player_b\n1,Ada Brook,Ben Carter\n", "round must be from 1 to 999"),
    ("-1", "table,player_a,player_b\n1,Ada Brook,Ben Carter\n", "round must be a whole number from 1 to 999, not '-1'"),
    ("1.5", "table,player_a,player_b\n1,Ada Brook,Ben Carter\n", "round must be a whole number"),
    (HUGE, "table,player_a,player_b\n1,Ada Brook,Ben Carter\n", "round must be from 1 to 999"),
    ("abc", "table,player_a,player_b\n1,Ada Brook,Ben Carter\n",
     "round must be a whole number from 1 to 999, not 'abc'"),
    ("1", 'table,player_a,player_b\n1,"Ada Brook,Ben Carter\n', "line 2: not readable as CSV (unexpected end of data)"),
])
def test_bad_pairings_say_why_and_change_no_table(app, organiser, event, round_number, csv, message):
    replace_tables(organiser, event["slug"], 1, "table,player_a,player_b\n7,Ada Brook,Ben Carter\n")
    before = _counts(app, event)
    page = _text(organiser.form(f"/organiser/events/{event['slug']}/pairings", round=round_number, csv=csv), 400)
    assert message in page
    # what was typed comes back in the form, to be mended
    assert re.search(r'<textarea name="csv"[^>]*>' + re.escape(csv) + "</textarea>", page)
    assert re.search(r'<input name="round" type="number" min="1" value="' + re.escape(round_number) + '"', page)
    assert _counts(app, event) == before
    with app.app_context():
        assert [p.number for p in db.session.scalars(db.select(Pairing))] == [7]


def test_an_upload_over_the_size_limit_brings_the_page_back(app, organiser, event):
    app.config["MAX_CONTENT_LENGTH"] = 1024 * 1024
    page = _upload(organiser, f"/organiser/events/{event['slug']}/players",
                   b"name\n" + b"Ada Brook\n" * 200_000)
    text = _text(page)
    assert "Too large: a file may have at most 1 MiB and pasted text at most 1000 kB; nothing was changed." in text
    assert page.request.path == f"/organiser/events/{event['slug']}"


def test_pasted_text_over_the_field_limit_brings_the_page_back(app, organiser, event):
    app.config["MAX_FORM_MEMORY_SIZE"] = 10_000
    before = _counts(app, event)
    # the page's form is multipart (it may carry a file); the field limit applies to those
    text = _text(organiser.form(f"/organiser/events/{event['slug']}/players",
                                data={"csv": "name\n" + "Ada\n" * 5000, "file": (io.BytesIO(b""), "")}))
    assert "Too large: a file may have at most 8 MiB and pasted text at most 10 kB" in text
    assert _counts(app, event) == before


def test_the_api_keeps_its_own_shape_for_a_body_over_the_limit(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 100
    res = client.post("/api/join", json={"code": "x" * 200, "device_name": "p", "judge_name": "j"})
    assert res.status_code == 413 and res.get_json()["error"]["code"] == "too_large"


def test_device_and_approval_forms_with_bad_values_say_why(app, organiser, event, client):
    phone = Phone(client, event)
    penalty = phone.penalty(event["players"]["Ada Brook"], infraction="usc_minor", penalty="game_loss",
                            head_judge=True)
    phone.sync([penalty])
    base = f"/organiser/events/{event['slug']}"
    assert "device not found" in _text(organiser.form(f"{base}/devices/{HUGE}", action="revoke"), 400)
    assert "role must be one of floor_judge, head_judge, scorekeeper" in _text(
        organiser.form(f"{base}/devices/{phone.id}", action="role", role="organiser"), 400)
    assert "payload.record: no record" in _text(
        organiser.form(f"{base}/penalties/{'0' * 8}-0000-4000-8000-{'0' * 12}/approval", approved="1"), 400)
    assert "payload.record: must be a record id" not in _text(
        organiser.form(f"{base}/penalties/not-a-uuid/approval", approved="1"), 400)
    assert "payload.comment: must have 0 to 2000 characters, not 2001" in _text(
        organiser.form(f"{base}/penalties/{penalty['id']}/approval", approved="1", comment="c" * 2001), 400)
    with app.app_context():
        assert db.session.get(Device, phone.id).role == "floor_judge"
        assert db.session.query(Player).count() == 3


@pytest.mark.parametrize("slug", ["x" * 17, "a\0b", "%00", "🙂" * 20])
def test_odd_slugs_are_404_not_a_database_error(organiser, client, slug):
    assert organiser.get(f"/organiser/events/{slug}").status_code == 404
    res = client.get(f"/api/events/{slug}/clock")
    assert res.status_code == 404 and res.get_json()["error"]["code"] == "not_found"
